/*
** object_impl.h: what object.c (writing) and objread.c (reading) share:
** the section list and the metadata constants.
*/
#ifndef RSL_OBJECT_IMPL_H
#define RSL_OBJECT_IMPL_H

#include "vm/object.h"

enum {
    SEC_META, SEC_CODE, SEC_UINIT, SEC_STRINGS, SEC_BUILTINS, SEC_LINES, SEC_STRTAB,
    SEC_VINIT, SEC_DEBUG, SEC_PTX, NSECTIONS
};

#define OBJ_MAGIC 0x4f4c5352u      /* "RSLO" read as a little-endian u32 */
enum { META_HEADER = 32, META_VAR = 12, LINE_RECORD = 12 };
/* .rsl.debug (object.h): the header and each record, in bytes. */
enum { DEBUG_HEADER = 12, DEBUG_FRAME = 20, DEBUG_PCFRAME = 4, DEBUG_VAR = 20, DEBUG_RANGE = 12 };
/* .rsl.ptx: the header before the text. */
enum { PTX_HEADER = 8 };

/* The index of a .rsl.* section name, or -1. */
int obj_section_index(const char *name);

#endif /* RSL_OBJECT_IMPL_H */

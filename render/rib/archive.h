/*
** archive.h: search paths and reading archives (archive.c).
*/
#ifndef RTCORE_RIB_ARCHIVE_H
#define RTCORE_RIB_ARCHIVE_H

#include "render/rib/request.h"

/* A searchpath value with '&' replaced by the previous value and '@' by
   the default, interned. */
const char *rib_searchpath(RibCtx *c, const char *value, const char *old,
                           const char *dflt);
/* Reads the file c->file names into the graphics state. False (after an
   error located at, from request what) when it cannot be opened or is
   already being read further out: an archive must not include itself. */
bool rib_parse_file(RibCtx *c, RibLoc at, const char *what);

#endif /* RTCORE_RIB_ARCHIVE_H */

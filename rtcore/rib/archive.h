/*
** archive.h: search paths and reading archives (archive.c).
*/
#ifndef RTCORE_RIB_ARCHIVE_H
#define RTCORE_RIB_ARCHIVE_H

#include "rtcore/rib/request.h"

/* A searchpath value with '&' replaced by the previous value and '@' by
   the default, interned. */
const char *rib_searchpath(RibCtx *c, const char *value, const char *old,
                           const char *dflt);

#endif /* RTCORE_RIB_ARCHIVE_H */

/*
** pathfind.h: finding a file by name along a ':' searchpath, as the
** texture system and the RIB reader's shader requests do (pathfind.c).
*/
#ifndef RT_PATHFIND_H
#define RT_PATHFIND_H

#include <stddef.h>

typedef enum PathFound {
    PATH_NOT_FOUND,
    PATH_FOUND,            /* the name as given */
    PATH_FOUND_OTHER_CASE, /* a file whose name differs from it only in case */
} PathFound;

/* Looks in the folders of path (a ':'-list, empty entries skipped) for
   name followed by one of the suffixes exts (a NULL-ended list; "" for
   the name alone): first the exact name, folder by folder and suffix by
   suffix; only if no folder has it, a file whose last name component
   differs in case alone, in the same order. The file found, as
   folder/name, goes to out (size bytes; a longer one is not found). */
PathFound path_find(const char *path, const char *name, const char *const *exts, char *out,
                    size_t size);

#endif /* RT_PATHFIND_H */

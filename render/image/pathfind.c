/*
** pathfind.c: a file by name along a searchpath, with the fallback for
** names written in another case.
**
** Why a fallback: PRMan on Linux opens a file only by its exact name,
** but many public scenes were written on Windows or macOS, whose file
** systems ignore case, and name "DPCloudPlane" for DPCloudplane.sl or
** "Wood.tif" for wood.tif; there they render. So the exact name is
** looked for along the whole path first (a file of that exact name
** always wins, wherever it is), and only then a name equal but for
** case, which the callers report with a warning naming the file used.
** Only the last component is compared without case: the folders of a
** name given with folders must be spelled as they are.
*/
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "render/image/pathfind.h"

/* folder (len bytes) / name suffix into out; false if it does not fit. */
static bool join(char *out, size_t size, const char *folder, size_t len, const char *name,
                 const char *suffix)
{
    int n = snprintf(out, size, "%.*s/%s%s", (int)len, folder, name, suffix);
    return n > 0 && (size_t)n < size;
}

/* Whether folder/name+suffix exists under some case of its last
   component; its real path then goes to out. */
static bool find_other_case(const char *folder, size_t len, const char *name,
                            const char *suffix, char *out, size_t size)
{
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    char dir[4096], want[1024];
    int n = snprintf(dir, sizeof dir, "%.*s%s%.*s", (int)len, folder, slash ? "/" : "",
                     slash ? (int)(slash - name) : 0, name);
    if (n < 0 || (size_t)n >= sizeof dir ||
        (size_t)snprintf(want, sizeof want, "%s%s", base, suffix) >= sizeof want)
        return false;
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));)
        found = !strcasecmp(e->d_name, want) && join(out, size, dir, strlen(dir), e->d_name, "") &&
                access(out, R_OK) == 0;
    closedir(d);
    return found;
}

PathFound path_find(const char *path, const char *name, const char *const *exts, char *out,
                    size_t size)
{
    for (int pass = 0; pass < 2; pass++)
        for (const char *d = path; *d;) {
            size_t len = strcspn(d, ":");
            for (size_t k = 0; len && exts[k]; k++) {
                /* access(), not an open: opening a FIFO would wait for a writer */
                if (pass == 0 && join(out, size, d, len, name, exts[k]) && access(out, R_OK) == 0)
                    return PATH_FOUND;
                if (pass == 1 && find_other_case(d, len, name, exts[k], out, size))
                    return PATH_FOUND_OTHER_CASE;
            }
            d += len + (d[len] == ':');
        }
    return PATH_NOT_FOUND;
}

/*
** shaderpath.c: the default searchpaths, what '@' stands for in a RIB's
** Option "searchpath". For shaders, in this order:
**   1. the scene's folder;
**   2. the folders of rtrender --shaderpath (a ':'-list);
**   3. the folders of $RMAN_SHADERPATH, PRMan's variable, so that a
**      user's shader folders set up for PRMan are found here too;
**   4. the standard shader library (the .sl files of shaders/).
** The command line comes before the environment, and both before the
** library, so a shader of one's own replaces a standard one of the same
** name; RMAN_SHADERPATH adds folders and never hides the standard library
** (it holds defaultsurface, which scenes without a Surface need), which
** only RTRENDER_SHADERPATH replaces. Textures likewise: the scene's
** folder, --texturepath, $RMAN_TEXTUREPATH. Archives: the scene's folder,
** then the -I folders.
**
** The library is found, in order:
**   1. $RTRENDER_SHADERPATH (a ':'-list), when set and not empty: for an
**      install moved after the fact (a DESTDIR staging tree copied
**      elsewhere) or a library of one's own;
**   2. the source tree's shaders/, when this program is a build-tree
**      binary: its /proc/self/exe lies under the build directory and not
**      in the configured bindir. So `make && tools/rtrender
**      scenes/cornell.rib` works without installing, and the tests render
**      with the sources they were built from;
**   3. $(pkgdatadir)/shaders, where make install puts the library.
** A RIB file's Option "searchpath" "shader" replaces the whole path; '@'
** in it brings this default back (render/rib/archive.c).
**
** Why not the source tree always (as RT_SHADER_DIR once was): an
** installed binary then depended on a source tree that may be gone. Why
** not the installed folder always: the build tree could not render
** before make install, and would silently use an older installed library
** after it. The build-tree test asks the kernel where the program is,
** which only Linux's /proc answers; anywhere else the installed library
** or the variable is used.
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/shaderdirs.h" /* RT_SHADER_DIR and co., made by render/local.mk */
#include "render/shaderpath.h"

/* Whether the real path `file` lies inside folder `dir` (resolved here). */
static bool inside(const char *file, const char *dir)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return false;
    size_t n = strlen(real);
    return strncmp(file, real, n) == 0 && (file[n] == '/' || (n == 1 && real[0] == '/'));
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether the running program is one the build made, not yet installed. */
static bool in_build_tree(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    /* bindir first: a prefix inside the build tree is still an install. */
    return !inside(exe, RT_BINDIR) && inside(exe, RT_BUILD_DIR);
}

const char *render_std_shader_path(void)
{
    const char *env = getenv("RTRENDER_SHADERPATH");
    if (env && *env)
        return env;
    if (in_build_tree() && is_dir(RT_SOURCE_SHADER_DIR))
        return RT_SOURCE_SHADER_DIR;
    return RT_SHADER_DIR;
}

/* Says which folders of the library path are missing, since a shader
   "not found" later would not tell why: an install copied away from its
   prefix, a mistyped RTRENDER_SHADERPATH. */
static void warn_missing(const char *lib)
{
    const char *env = getenv("RTRENDER_SHADERPATH");
    const char *hint = env && *env ? "named by RTRENDER_SHADERPATH"
                                   : "moved since make install? set RTRENDER_SHADERPATH, "
                                     "see rtrender(1)";
    for (const char *d = lib; *d;) {
        size_t n = strcspn(d, ":");
        char dir[PATH_MAX];
        if (n > 0 && n < sizeof dir) {
            memcpy(dir, d, n);
            dir[n] = '\0';
            if (!is_dir(dir))
                fprintf(stderr,
                        "rtrender: warning: the standard shader folder '%s' does not exist "
                        "(%s)\n", dir, hint);
        }
        d += n + (d[n] == ':');
    }
}

/* Appends ':' and list to buf (of n used bytes) when list is not empty. */
static void append(char *buf, size_t size, size_t *n, const char *list)
{
    if (!list || !*list || *n >= size)
        return;
    int k = snprintf(buf + *n, size - *n, "%s%s", *n ? ":" : "", list);
    *n += k > 0 ? (size_t)k : 0;
}

/* scene_dir, then the lists given, the empty ones left out. */
static bool join(char *buf, size_t size, const char *what, const char *scene_dir,
                 const char *a, const char *b, const char *c)
{
    size_t n = 0;
    buf[0] = '\0';
    append(buf, size, &n, scene_dir);
    append(buf, size, &n, a);
    append(buf, size, &n, b);
    append(buf, size, &n, c);
    if (n < size)
        return true;
    fprintf(stderr, "rtrender: warning: the %s searchpath is longer than %zu bytes and was cut "
            "short\n", what, size - 1);
    return false;
}

bool render_default_shader_path(char *buf, size_t size, const char *scene_dir,
                                const char *extra)
{
    const char *lib = render_std_shader_path();
    warn_missing(lib);
    return join(buf, size, "shader", scene_dir, extra, getenv("RMAN_SHADERPATH"), lib);
}

bool render_default_texture_path(char *buf, size_t size, const char *scene_dir,
                                 const char *extra)
{
    return join(buf, size, "texture", scene_dir, extra, getenv("RMAN_TEXTUREPATH"), NULL);
}

bool render_default_archive_path(char *buf, size_t size, const char *scene_dir,
                                 const char *extra)
{
    return join(buf, size, "archive", scene_dir, extra, NULL, NULL);
}

bool render_shader_on_path(const char *name, const char *searchpath)
{
    const char *d = searchpath ? searchpath : ".";
    char file[PATH_MAX];
    while (*d) {
        int len = (int)strcspn(d, ":");
        for (int k = 0; k < 2; k++) {
            snprintf(file, sizeof file, "%.*s/%s.%s", len, d, name, k ? "sl" : "o");
            if (access(file, R_OK) == 0)
                return true;
        }
        d += len + (d[len] == ':');
    }
    return false;
}

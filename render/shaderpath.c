/*
** shaderpath.c: the default shader searchpath, the scene's folder and
** then the standard shader library (the .sl files of shaders/).
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

bool render_default_shader_path(char *buf, size_t size, const char *scene_dir)
{
    const char *lib = render_std_shader_path();
    warn_missing(lib);
    int n = snprintf(buf, size, "%s:%s", scene_dir, lib);
    if (n >= 0 && (size_t)n < size)
        return true;
    fprintf(stderr,
            "rtrender: warning: the shader searchpath '%s:%s' is longer than %zu bytes and "
            "was cut short\n", scene_dir, lib, size - 1);
    return false;
}

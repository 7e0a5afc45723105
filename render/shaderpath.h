/*
** shaderpath.h: where rtrender looks for shaders when the RIB file does
** not say (the default shader searchpath, what '@' stands for in
** Option "searchpath" "shader").
*/
#ifndef RT_RENDER_SHADERPATH_H
#define RT_RENDER_SHADERPATH_H

#include <stdbool.h>
#include <stddef.h>

/* The standard shader library's folders as a ':'-list: $RTRENDER_SHADERPATH
   when set and not empty; else the source tree's shaders/ when this
   program runs uninstalled from its build tree; else the installed
   $(pkgdatadir)/shaders. */
const char *render_std_shader_path(void);

/* The default searchpaths as ':'-lists into buf (see shaderpath.c for
   the order): shaders "SCENE_DIR:EXTRA:$RMAN_SHADERPATH:LIBRARY",
   textures "SCENE_DIR:EXTRA:$RMAN_TEXTUREPATH", archives
   "SCENE_DIR:EXTRA", where EXTRA is the command line's list (NULL:
   none) and empty parts are left out. False (with a warning on stderr)
   when it did not fit and was cut short. */
bool render_default_shader_path(char *buf, size_t size, const char *scene_dir,
                                const char *extra);
bool render_default_texture_path(char *buf, size_t size, const char *scene_dir,
                                 const char *extra);
bool render_default_archive_path(char *buf, size_t size, const char *scene_dir,
                                 const char *extra);

/* Whether a folder of searchpath (a ':'-list; NULL: ".") holds NAME.o or
   NAME.sl, the files shading looks for. */
bool render_shader_on_path(const char *name, const char *searchpath);

#endif

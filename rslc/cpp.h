/*
** cpp.h: running the C preprocessor over RSL sources.
**
** rslc hands #include/#define/#if to the system's C preprocessor (GNU cpp)
** and parses its output. cpp marks where each line came from, but it
** squeezes white space, so columns in its output differ from columns in
** the file the user wrote. This module keeps the preprocessed lines so
** diagnostics can map a column back to the original line.
*/
#ifndef RSLC_CPP_H
#define RSLC_CPP_H

#include <stddef.h>

#include "rslc/ctx.h"

/* Options passed through to cpp: -I, -D and -U, in command-line order. */
typedef struct CppOptions {
    const char **args;   /* each "-Idir", "-Dname[=val]" or "-Uname" */
    int nargs;
} CppOptions;

/* Preprocesses the file at path. Returns the text (malloc'd, NUL-ended,
   length in *len), or NULL after reporting why: cpp's own diagnostics
   (which already read "file:line:col: error: ...") reach stderr, and a
   missing cpp or file is reported by rslc. */
char *cpp_run(const char *path, const CppOptions *opt, size_t *len);

/* Indexes preprocessed text by origin in rc so cpp_original_column can
   find the preprocessed form of any original line. text must outlive the
   index. */
void cpp_index(RslcCtx *rc, const char *text, size_t len);

/* Maps a column in the preprocessed form of file:line to the column of the
   same token in original_line (the line as the user wrote it). Returns
   pp_col unchanged when the line is not indexed. */
int cpp_original_column(const RslcCtx *rc, const char *file, int line, int pp_col,
                        const char *original_line);

/* Forgets rc's index. */
void cpp_reset(RslcCtx *rc);

#endif /* RSLC_CPP_H */

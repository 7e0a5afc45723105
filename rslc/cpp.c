/*
** cpp.c: runs the C preprocessor and maps its columns back to the source.
**
** We spawn the system cpp rather than preprocess ourselves: shader writers
** expect exactly C's #include/#define/#if behaviour, and cpp already prints
** its own errors as "file:line:col: error:". Its output carries line
** markers (# N "file"), which the lexer honours for lines; columns are
** mapped here, by walking the original and the preprocessed line side by
** side over their significant characters.
*/
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rslc/cpp.h"

extern char **environ;

char *cpp_run(const char *path, const CppOptions *opt, size_t *len)
{
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "rslc: error: cannot open '%s': %s\n", path,
                strerror(errno));
        return NULL;
    }

    /* -undef: no "unix"/"linux" macros silently rewriting shader names. */
    const char *fixed[] = { RSL_CPP_PATH, "-xc", "-std=c11", "-undef",
                            "-nostdinc" };
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    char **argv = calloc((size_t)(nfixed + opt->nargs + 2), sizeof *argv);
    if (!argv) {
        fprintf(stderr, "rslc: error: out of memory\n");
        return NULL;
    }
    int argc = 0;
    for (int i = 0; i < nfixed; i++)
        argv[argc++] = (char *)fixed[i];
    for (int i = 0; i < opt->nargs; i++)
        argv[argc++] = (char *)opt->args[i];
    argv[argc++] = (char *)path;

    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "rslc: error: pipe: %s\n", strerror(errno));
        free(argv);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    close(fds[1]);
    if (err != 0) {
        fprintf(stderr, "rslc: error: cannot run the C preprocessor '%s': %s\n",
                RSL_CPP_PATH, strerror(err));
        close(fds[0]);
        return NULL;
    }

    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf) {
        if (cap - n < 4096) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
        }
        got = read(fds[0], buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    close(fds[0]);

    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!buf) {
        fprintf(stderr, "rslc: error: out of memory reading cpp output\n");
        return NULL;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* cpp has said what went wrong. */
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- the line index ------------------------------------------------------ */

typedef struct PPLine {
    char *file;          /* owned copy of the marker's file name */
    int line;
    const char *text;    /* start of the preprocessed line */
    size_t len;
} PPLine;

static void add_line(RslcCtx *rc, const char *file, int line, const char *text, size_t len)
{
    if (rc->pp_nlines == rc->pp_caplines) {
        size_t cap = rc->pp_caplines ? rc->pp_caplines * 2 : 256;
        PPLine *bigger = realloc(rc->pp_lines, cap * sizeof *bigger);
        if (!bigger)
            return;     /* the index is an aid: without it columns stay raw */
        rc->pp_lines = bigger;
        rc->pp_caplines = cap;
    }
    rc->pp_lines[rc->pp_nlines++] = (PPLine){ (char *)file, line, text, len };
}

/* Parses a marker "# N "file" flags" or "#line N "file"" into line/file;
   returns the file name (malloc'd) or NULL when p is not a marker. */
static char *parse_marker(const char *p, const char *end, int *line)
{
    p++;                                  /* '#' */
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p >= 4 && strncmp(p, "line", 4) == 0)
        p += 4;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || !isdigit((unsigned char)*p))
        return NULL;
    *line = (int)strtol(p, NULL, 10);
    while (p < end && *p != '"')
        p++;
    if (p >= end)
        return NULL;
    p++;
    char *name = malloc((size_t)(end - p) + 1);
    size_t k = 0;
    if (!name)
        return NULL;
    for (; p < end && *p != '"'; p++) {
        if (*p == '\\' && p + 1 < end)
            p++;
        name[k++] = *p;
    }
    name[k] = '\0';
    return name;
}

void cpp_index(RslcCtx *rc, const char *text, size_t len)
{
    cpp_reset(rc);
    const char *p = text, *end = text + len;
    char *file = NULL;
    int line = 1;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        int mline;
        char *mfile = (q < eol && *q == '#') ? parse_marker(q, eol, &mline) : NULL;
        if (mfile) {
            /* Names are kept once per marker; the same file may reappear. */
            file = mfile;
            add_line(rc, file, -1, NULL, 0);   /* owns mfile, for cpp_reset */
            line = mline;
        } else {
            if (file)
                add_line(rc, file, line, p, (size_t)(eol - p));
            line++;
        }
        p = eol + 1;
    }
}

void cpp_reset(RslcCtx *rc)
{
    for (size_t i = 0; i < rc->pp_nlines; i++)
        if (rc->pp_lines[i].line == -1)
            free(rc->pp_lines[i].file);
    free(rc->pp_lines);
    rc->pp_lines = NULL;
    rc->pp_nlines = rc->pp_caplines = 0;
}

static const PPLine *find_line(const RslcCtx *rc, const char *file, int line)
{
    for (size_t i = 0; i < rc->pp_nlines; i++)
        if (rc->pp_lines[i].line == line && strcmp(rc->pp_lines[i].file, file) == 0)
            return &rc->pp_lines[i];
    return NULL;
}

/* Lists the offsets of the significant characters of a line: everything
   but white space and, when skip_comments, comments (which cpp has turned
   into spaces). Returns how many were stored in pos (at most n). */
static size_t significant(const char *s, size_t n, bool skip_comments,
                          size_t *pos)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (skip_comments && i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
            const char *close = strstr(s + i + 2, "*/");
            i = close && (size_t)(close - s) < n ? (size_t)(close - s) + 2 : n;
        } else if (skip_comments && i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
            i = n;
        } else {
            if (!isspace((unsigned char)s[i]))
                pos[k++] = i;
            i++;
        }
    }
    return k;
}

int cpp_original_column(const RslcCtx *rc, const char *file, int line, int pp_col,
                        const char *original_line)
{
    const PPLine *pp = find_line(rc, file, line);
    if (!pp || pp_col < 1 || (size_t)pp_col > pp->len + 1)
        return pp_col;
    size_t olen = strcspn(original_line, "\n");
    size_t *opos = malloc((olen + 1) * sizeof *opos);
    size_t *ppos = malloc((pp->len + 1) * sizeof *ppos);
    if (!opos || !ppos) {
        free(opos);
        free(ppos);
        return pp_col;
    }
    size_t no = significant(original_line, olen, true, opos);
    size_t np = significant(pp->text, pp->len, false, ppos);

    /* The target is the first significant pp character at or after the
       column. Match from the front; if a macro expansion breaks the match
       first, match from the back, which rc->pp_lines up everything after the
       last expansion. Inside an expansion, point at the macro's name. */
    size_t target = 0;
    while (target < np && ppos[target] < (size_t)pp_col - 1)
        target++;
    size_t k = 0;
    while (k < target && k < no && pp->text[ppos[k]] == original_line[opos[k]])
        k++;
    int col;
    if (k == target) {
        col = k < no ? (int)opos[k] + 1 : (int)olen + 1;
    } else {
        size_t front_mismatch = k;
        size_t a = np, b = no;
        while (a > target && b > 0 &&
               pp->text[ppos[a - 1]] == original_line[opos[b - 1]]) {
            a--;
            b--;
        }
        if (a == target && b < no && b > front_mismatch)
            col = (int)opos[b] + 1;
        else
            col = front_mismatch < no ? (int)opos[front_mismatch] + 1 : pp_col;
    }
    free(opos);
    free(ppos);
    return col;
}

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
#define _GNU_SOURCE 1  /* prlimit */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rslc/cpp.h"
#include "rslc/limits.h"

/* How much of what the preprocessor says on stderr is kept. */
#define CPP_MAX_MESSAGES (1 << 20)

extern char **environ;

static char *parse_marker(const char *p, const char *end, int *line);

/* A growing buffer for what the child writes. */
typedef struct Sink {
    char *buf;
    size_t n, cap, max;        /* max: bytes kept at most */
    bool over;                 /* more came than max */
    int fd;                    /* -1 once at end of file */
} Sink;

/* Reads what is there from s->fd; false on end of file or an error. */
static bool drain(Sink *s)
{
    if (s->cap - s->n < 4096 && s->n < s->max) {
        size_t cap = s->cap ? s->cap * 2 : 1 << 16;
        char *bigger = realloc(s->buf, cap + 1);
        if (!bigger) {
            s->over = true;
            return false;
        }
        s->buf = bigger, s->cap = cap;
    }
    char scratch[4096];
    bool keep = s->n < s->max && s->cap - s->n >= 4096;
    ssize_t got = read(s->fd, keep ? s->buf + s->n : scratch, keep ? s->cap - s->n : sizeof scratch);
    if (got < 0 && errno == EINTR)
        return true;
    if (got <= 0)
        return false;
    if (keep)
        s->n += (size_t)got, s->buf[s->n] = '\0';
    s->over |= !keep || s->n > s->max;
    return true;
}

/* Where cpp had got to in out: the file and line after its last marker
   and the lines since, for an error when it had to be stopped. */
static void whereabouts(const Sink *out, const char *path, char *file, size_t nfile, int *line)
{
    snprintf(file, nfile, "%s", path);
    *line = 0;
    const char *p = out->buf, *end = out->buf + (out->n < out->max ? out->n : out->max);
    while (p && p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            break;
        int mline;
        char *mfile = *p == '#' ? parse_marker(p, eol, &mline) : NULL;
        if (mfile && mfile[0] != '<') {
            snprintf(file, nfile, "%s", mfile);
            *line = mline;
        } else if (*line) {
            (*line)++;
        }
        free(mfile);
        p = eol + 1;
    }
}

/* Runs cpp, its output into out and its messages into err, within the
   limits (limits.h): at most RSLC_MAX_CPP_OUTPUT bytes and
   RSLC_MAX_CPP_SECONDS seconds, and RSLC_MAX_CPP_MEMORY of address space (a
   macro that expands exponentially, or an #include of /dev/zero, would
   take all the machine's memory). Returns false if cpp could not be
   started (said so); else *stopped is why it was stopped, or NULL with its
   exit status in *status. */
static bool run_child(char **argv, Sink *out, Sink *err, int *status, const char **stopped)
{
    int po[2], pe[2];
    *stopped = NULL;
    if (pipe(po) != 0 || (pipe(pe) != 0 && (close(po[0]), close(po[1]), true))) {
        fprintf(stderr, "rslc: error: pipe: %s\n", strerror(errno));
        return false;
    }
    /* fork rather than posix_spawn, to set the child's memory limit
       before it starts (and so before the driver starts cc1); the child
       calls only async-signal-safe functions. */
    struct rlimit mem = { RSLC_MAX_CPP_MEMORY, RSLC_MAX_CPP_MEMORY };
    pid_t pid = fork();
    if (pid == 0) {
        static const char cannot[] = "rslc: error: cannot run the C preprocessor " RSL_CPP_PATH "\n";
        dup2(po[1], STDOUT_FILENO);
        dup2(pe[1], STDERR_FILENO);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        setrlimit(RLIMIT_AS, &mem);
        execve(argv[0], argv, environ);
        if (write(STDERR_FILENO, cannot, sizeof cannot - 1) < 0)
            _exit(127);
        _exit(127);
    }
    close(po[1]), close(pe[1]);
    if (pid < 0) {
        close(po[0]), close(pe[0]);
        fprintf(stderr, "rslc: error: cannot run the C preprocessor '%s': %s\n", argv[0],
                strerror(errno));
        return false;
    }
    out->fd = po[0], err->fd = pe[0];
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while ((out->fd >= 0 || err->fd >= 0) && !*stopped) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = RSLC_MAX_CPP_SECONDS * 1000L - (t.tv_sec - t0.tv_sec) * 1000L
                    - (t.tv_nsec - t0.tv_nsec) / 1000000L;
        struct pollfd fds[2] = { { out->fd, POLLIN, 0 }, { err->fd, POLLIN, 0 } };
        int r = left > 0 ? poll(fds, 2, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            *stopped = "it ran for longer than the limit";
            break;
        }
        Sink *sinks[2] = { out, err };
        for (int k = 0; k < 2; k++)
            if (fds[k].fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))
                && !drain(sinks[k]))
                close(sinks[k]->fd), sinks[k]->fd = -1;
        if (out->over)
            *stopped = "its output grew over the limit";
    }
    if (*stopped)
        kill(pid, SIGKILL);
    if (out->fd >= 0)
        close(out->fd);
    if (err->fd >= 0)
        close(err->fd);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return true;
}

/* The column of the first non-blank character of file:line, or 1. Only
   regular files are read (a message may name an #include of a device). */
static int first_column(const char *file, int line)
{
    struct stat st;
    FILE *f = stat(file, &st) == 0 && S_ISREG(st.st_mode) ? fopen(file, "r") : NULL;
    int col = 1, l = 1, c;
    if (!f)
        return col;
    while (l < line && (c = getc(f)) != EOF)
        l += c == '\n';
    while ((c = getc(f)) == ' ' || c == '\t')
        col++;
    fclose(f);
    return col;
}

/* Passes cpp's messages on. Those it gives without a column
   ("unterminated #if" points at a line) get the column of the line's
   directive, so that every message reads "file:line:col: ...". */
static void forward_messages(const char *buf, size_t n)
{
    const char *p = buf, *end = buf + n;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        eol = eol ? eol + 1 : end;
        const char *colon = memchr(p, ':', (size_t)(eol - p)), *q = colon ? colon + 1 : NULL;
        while (q && q < eol && isdigit((unsigned char)*q))
            q++;
        if (colon && q > colon + 1 && q + 2 < eol && q[0] == ':' && q[1] == ' '
            && isalpha((unsigned char)q[2])) {
            char file[1024];
            snprintf(file, sizeof file, "%.*s", (int)(colon - p), p);
            int line = atoi(colon + 1);
            fprintf(stderr, "%.*s:%d%.*s", (int)(q - p), p, first_column(file, line),
                    (int)(eol - q), q);
        } else {
            fwrite(p, 1, (size_t)(eol - p), stderr);
        }
        p = eol;
    }
}

char *cpp_run(const char *path, const CppOptions *opt, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0 || access(path, R_OK) != 0) {
        fprintf(stderr, "rslc: error: cannot open '%s': %s\n", path,
                strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "rslc: error: %s is not a regular file\n", path);
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

    Sink out = { .max = RSLC_MAX_CPP_OUTPUT }, err = { .max = CPP_MAX_MESSAGES };
    int status = 0;
    const char *stopped;
    bool ran = run_child(argv, &out, &err, &status, &stopped);
    free(argv);
    if (!ran)
        return NULL;
    bool failed = stopped || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    /* cpp's own messages (warnings too) read "file:line:col: ...". One
       without a place (cc1 out of memory) gets where cpp had got to. */
    forward_messages(err.buf, err.n);
    if (failed && (stopped || !strstr(err.buf ? err.buf : "", "error: "))) {
        char file[1024];
        int line;
        whereabouts(&out, path, file, sizeof file, &line);
        const char *why = !stopped ? "failed" : out.over ? "wrote more than the limit"
                                                         : "ran longer than the limit";
        if (line > 0)
            fprintf(stderr, "%s:%d: error: the preprocessor %s after this line", file, line, why);
        else
            fprintf(stderr, "%s: error: the preprocessor %s", file, why);
        fprintf(stderr, " (limits: %d MiB of output, %d s, %d MiB of memory)\n",
                RSLC_MAX_CPP_OUTPUT >> 20, RSLC_MAX_CPP_SECONDS, RSLC_MAX_CPP_MEMORY >> 20);
    }
    free(err.buf);
    if (failed || !out.buf) {
        free(out.buf);
        return NULL;
    }
    out.buf[out.n] = '\0';
    *len = out.n;
    return out.buf;
}

/* ---- the line index ------------------------------------------------------ */

/* A line of cpp's output by origin, or a marker's entry (no text), which
   owns the file name the lines after it share. */
typedef struct PPLine {
    char *file;
    int line;
    const char *text;    /* start of the preprocessed line; NULL: a marker */
    size_t len;
} PPLine;

/* False when out of memory: the index is an aid, and without a line its
   columns stay raw. */
static bool add_line(RslcCtx *rc, const char *file, int line, const char *text, size_t len)
{
    if (rc->pp_nlines == rc->pp_caplines) {
        size_t cap = rc->pp_caplines ? rc->pp_caplines * 2 : 256;
        PPLine *bigger = realloc(rc->pp_lines, cap * sizeof *bigger);
        if (!bigger)
            return false;
        rc->pp_lines = bigger;
        rc->pp_caplines = cap;
    }
    rc->pp_lines[rc->pp_nlines++] = (PPLine){ (char *)file, line, text, len };
    return true;
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
    /* Clamped as the lexer clamps it, so both count the same lines. */
    long long n = 0;
    for (; p < end && isdigit((unsigned char)*p); p++)
        if (n < RSLC_MAX_LINE)
            n = n * 10 + (*p - '0');
    *line = (int)(n < RSLC_MAX_LINE ? n : RSLC_MAX_LINE);
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
            /* Names are kept once per marker (the same file may reappear);
               the marker's entry owns its name, for cpp_reset. */
            file = add_line(rc, mfile, 0, NULL, 0) ? mfile : NULL;
            if (!file)
                free(mfile);
            line = mline;
        } else {
            if (file)
                add_line(rc, file, line, p, (size_t)(eol - p));
            if (line < RSLC_MAX_LINE)
                line++;
        }
        p = eol + 1;
    }
}

void cpp_reset(RslcCtx *rc)
{
    for (size_t i = 0; i < rc->pp_nlines; i++)
        if (!rc->pp_lines[i].text)
            free(rc->pp_lines[i].file);
    free(rc->pp_lines);
    rc->pp_lines = NULL;
    rc->pp_nlines = rc->pp_caplines = 0;
}

static const PPLine *find_line(const RslcCtx *rc, const char *file, int line)
{
    for (size_t i = 0; i < rc->pp_nlines; i++)
        if (rc->pp_lines[i].text && rc->pp_lines[i].line == line
            && strcmp(rc->pp_lines[i].file, file) == 0)
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

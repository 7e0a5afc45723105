/*
** outfile.c: output files written through a temporary file renamed into
** place, and the signal handler that removes the temporary files of an
** interrupted write (outfile.h).
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/outfile.h"

/* The temporary files being written, for the signal handler: a slot is
   FREE, CLAIMED while its path is copied in, or LIVE. This is the one
   process-wide state here: a signal handler has nothing else to read. */
enum { FREE, CLAIMED, LIVE, NSLOTS = 16 };
static char pending[NSLOTS][PATH_MAX];
static volatile sig_atomic_t slot_state[NSLOTS];
static unsigned tmp_counter;

/* Puts why a write failed into err, a sentence without the path: the
   caller names the file in its own style. */
static int fail(char *err, int errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, (size_t)errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* f->target from path: path itself, or the file its links lead to; an
   existing target must be a regular file. *mode is its permission bits,
   or -1 for a new file. */
static int resolve(OutFile *f, const char *path, int *mode, char *err, int errlen)
{
    struct stat st;
    *mode = -1;
    if (strlen(path) >= sizeof f->target)
        return fail(err, errlen, "path too long");
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return fail(err, errlen, "cannot write: %s", strerror(errno));
        strcpy(f->target, path);
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        if (!realpath(path, f->target) || stat(f->target, &st) != 0)
            return fail(err, errlen, "a symbolic link that leads to no file (%s); "
                        "not writing", strerror(errno));
    } else {
        strcpy(f->target, path);
    }
    if (!S_ISREG(st.st_mode))
        return fail(err, errlen, "not a regular file; not writing");
    *mode = (int)(st.st_mode & 07777);
    return 0;
}

/* Removes the temporary files of target (dir, base) left by processes
   that no longer run (killed by SIGKILL, or a crash). */
static void sweep(const char *dir, const char *base)
{
    char prefix[PATH_MAX];
    int plen = snprintf(prefix, sizeof prefix, ".%s.tmp.", base);
    DIR *d = opendir(*dir ? dir : ".");
    if (!d || plen < 0 || (size_t)plen >= sizeof prefix) {
        if (d)
            closedir(d);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0)
            continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if (pid <= 0 || *end != '.' || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;   /* still running (or not ours to ask): its file */
        char stale[PATH_MAX];
        int n = snprintf(stale, sizeof stale, "%s%s", dir, e->d_name);
        if (n > 0 && (size_t)n < sizeof stale)
            unlink(stale);
    }
    closedir(d);
}

static int claim_slot(const char *tmp)
{
    for (int i = 0; i < NSLOTS; i++) {
        sig_atomic_t want = FREE;
        if (__atomic_compare_exchange_n(&slot_state[i], &want, CLAIMED, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            strcpy(pending[i], tmp);
            __atomic_store_n(&slot_state[i], LIVE, __ATOMIC_RELEASE);
            return i;
        }
    }
    return -1;  /* more writes at once than slots: still written safely */
}

static void release_slot(OutFile *f)
{
    if (f->slot >= 0)
        __atomic_store_n(&slot_state[f->slot], FREE, __ATOMIC_RELEASE);
    f->slot = -1;
}

int outfile_begin(OutFile *f, const char *path, char *err, int errlen)
{
    int mode;
    f->slot = -1;
    f->tmp[0] = '\0';
    if (resolve(f, path, &mode, err, errlen) < 0)
        return -1;
    /* Beside the target, so that rename() replaces it atomically. */
    const char *slash = strrchr(f->target, '/');
    size_t dirlen = slash ? (size_t)(slash - f->target + 1) : 0;
    char dir[PATH_MAX];
    memcpy(dir, f->target, dirlen);
    dir[dirlen] = '\0';
    const char *base = f->target + dirlen;
    sweep(dir, base);
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned n = __atomic_fetch_add(&tmp_counter, 1, __ATOMIC_RELAXED);
        int len = snprintf(f->tmp, sizeof f->tmp, "%s.%s.tmp.%ld.%u", dir, base,
                           (long)getpid(), n);
        if (len < 0 || (size_t)len >= sizeof f->tmp)
            return fail(err, errlen, "path too long");
        /* Registered before it exists: a signal in between finds no file
           to remove, never a file it does not know. */
        f->slot = claim_slot(f->tmp);
        int fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0) {
            if (mode >= 0)
                (void)fchmod(fd, (mode_t)mode);  /* a replaced file keeps its mode */
            return fd;
        }
        int e = errno;
        release_slot(f);
        if (e != EEXIST)
            return fail(err, errlen, "cannot create a file beside it: %s",
                        strerror(e));
    }
    return fail(err, errlen, "cannot create a file beside it: too many left over");
}

int outfile_commit(OutFile *f, char *err, int errlen)
{
    if (rename(f->tmp, f->target) != 0) {
        int e = errno;
        outfile_abort(f);
        return fail(err, errlen, "cannot rename the temporary file onto it: %s",
                    strerror(e));
    }
    release_slot(f);
    return 0;
}

void outfile_abort(OutFile *f)
{
    if (f->tmp[0])
        unlink(f->tmp);
    release_slot(f);
}

/* Only async-signal-safe calls: unlink and _exit. */
static void on_signal(int sig)
{
    for (int i = 0; i < NSLOTS; i++)
        if (__atomic_load_n(&slot_state[i], __ATOMIC_ACQUIRE) == LIVE)
            unlink(pending[i]);
    _exit(128 + sig);
}

void outfile_catch_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM };
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa = { 0 };
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* A signal ignored by whoever started us (nohup, a background
           job) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

int outfile_close_stdout(const char *prog, int status)
{
    errno = 0;
    bool lost = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !lost)
        lost = true, e = errno;
    if (!lost)
        return status;
    fprintf(stderr, "%s: error: writing standard output: %s\n", prog,
            strerror(e ? e : EIO));
    return 1;
}

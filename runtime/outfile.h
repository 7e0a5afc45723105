/*
** outfile.h: writing an output file whole or not at all, shared by
** rslc's objects and listings and rtrender's images: the bytes go to a
** temporary file beside the target, renamed onto it once complete, so a
** reader never sees half a file and a failed write leaves the old one.
**
** The target must be a regular file or not exist yet: a device, FIFO,
** socket or directory is refused ("not a regular file; not writing"), so
** that "-o /dev/null" cannot replace the device node. A
** symbolic link is followed as cc does: the temporary file is made beside
** the link's final target and renamed onto it, the link itself stays; a
** dangling link is refused.
**
** Temporary files are named ".NAME.tmp.PID.N" in the target's directory.
** Interrupted by SIGINT or SIGTERM (outfile_catch_signals), the process
** removes its temporary files and exits 130 or 143. After a SIGKILL the
** next write of the same target removes the ones whose PID no longer
** runs.
*/
#ifndef RSL_OUTFILE_H
#define RSL_OUTFILE_H

#include <limits.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

typedef struct OutFile {
    char target[PATH_MAX];      /* where the file lands: links resolved */
    char tmp[PATH_MAX];         /* the temporary file beside it */
    int slot;                   /* in the signal handler's table, or -1 */
} OutFile;

/* Creates f's temporary file for path: an open descriptor for writing
   (the caller closes it, it may also reopen f->tmp by name), or -1 with
   why in err, a sentence that the caller prefixes with the path. */
int outfile_begin(OutFile *f, const char *path, char *err, int errlen);

/* Renames the complete temporary file onto the target: 0, or -1 with
   why in err and the temporary file removed. */
int outfile_commit(OutFile *f, char *err, int errlen);

/* Removes the temporary file of a write that failed. */
void outfile_abort(OutFile *f);

/* Installs the SIGINT/SIGTERM handler that removes the temporary files
   being written and exits 128 + the signal's number; once, in main. */
void outfile_catch_signals(void);

/* Flushes and closes stdout before exiting: status, or 1 after printing
   "PROG: error: writing standard output: why" when output was lost (a
   full disk, a closed pipe). */
int outfile_close_stdout(const char *prog, int status);

#endif /* RSL_OUTFILE_H */

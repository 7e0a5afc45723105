/*
** codecache.c: native code kept on disk (native.h's NativeCache), so that
** a shader compiled once is loaded, not compiled, by later runs.
**
** An entry is the object file LLJIT compiled a shader's module to (jit.c),
** in the file KEY.o of the cache's folder, where KEY is the SHA-256 (hex)
** of everything that determines that machine code: the lowered module
** (the shader's code with an instance's constants folded in, and the VM
** layout it exchanges), the ISA, the optimisation level, the target's
** triple, LLVM's version, the runtime's bitcode that links into it, and
** this format's version. The lowering itself still runs on a hit: it is
** cheap and says how to bind the code (its call sites, callees, loops).
**
** The file is a header, then the object:
**     "RSLJITC\0"  magic                8 bytes
**     version      FORMAT, u32 LE       4
**     key          SHA-256              32
**     size         the object's, u64 LE 8
**     sum          SHA-256 of the object 32
** A file that is not a regular file, is too large, or whose header or
** checksum disagree is a miss with a one-line warning, and is replaced
** by the compile that follows. Entries are written whole through
** runtime/outfile.h (a temporary file renamed onto the entry, stale ones
** of killed runs swept), so that a reader (another render sharing the
** folder) sees the old entry or the new one; an entry that is not a
** regular file is not written over.
**
** The folder is kept within a bound (NATIVE_CACHE_LIMIT, or the one
** native_cache_limit sets): after each store, the entries used least
** recently are removed until the entries' files add up to no more.
** Use is the file's modification time, which a hit sets to the present
** (where the folder lets it: a cache read but not written keeps its
** entries' times, so they age as written). Only entries' files (KEY.o,
** regular) count and go; the entry just stored stays.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/TargetMachine.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/llvm/native_impl.h"
#include "backends/llvm/sha256.h"
#include "runtime/outfile.h"

/* Bumped when what an entry holds, or what its key covers, changes. */
enum { FORMAT = 1, HEADER = 8 + 4 + 32 + 8 + 32 };
/* No shader's object comes near: a larger file is not an entry. */
#define MAX_OBJECT ((size_t)64 << 20)
static const char magic[8] = "RSLJITC";

struct NativeCache {
    char *dir;
    unsigned char runtime[32];  /* the SHA-256 of the runtime's bitcode */
    bool write_failed;          /* said once */
    uint64_t limit;             /* bytes of entries kept */
    /* Stores may run on several threads (deferred compiles, native.h):
       the lock keeps write_failed's warning once. */
    pthread_mutex_t lock;
};

NativeCache *native_cache_open(const char *dir, char *err, int errlen)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, (size_t)errlen, "cannot make the code cache folder %s: %s", dir,
                 strerror(errno));
        return NULL;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, (size_t)errlen, "the code cache %s is not a folder", dir);
        return NULL;
    }
    NativeCache *c = calloc(1, sizeof *c);
    c->dir = strdup(dir);
    c->limit = NATIVE_CACHE_LIMIT;
    pthread_mutex_init(&c->lock, NULL);
    Sha256 s;
    sha256_init(&s);
    nb_hash_runtime(&s);
    sha256_done(&s, c->runtime);
    return c;
}

void native_cache_limit(NativeCache *c, uint64_t bytes)
{
    c->limit = bytes;
}

void native_cache_close(NativeCache *c)
{
    if (!c)
        return;
    free(c->dir);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static void add_u32(Sha256 *s, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    sha256_add(s, b, 4);
}

static void add_str(Sha256 *s, const char *text)
{
    sha256_add(s, text, strlen(text) + 1);
}

void ncache_key(const NativeCache *c, LLVMModuleRef mod, NativeIsa isa, int level,
                unsigned char key[32])
{
    Sha256 s;
    sha256_init(&s);
    add_str(&s, magic);
    add_u32(&s, FORMAT);
    unsigned v[3];
    LLVMGetVersion(&v[0], &v[1], &v[2]);
    for (int i = 0; i < 3; i++)
        add_u32(&s, v[i]);
    char *triple = LLVMGetDefaultTargetTriple();
    add_str(&s, triple);
    LLVMDisposeMessage(triple);
    add_str(&s, native_isa_name(isa));
    add_u32(&s, (uint32_t)level);
    sha256_add(&s, c->runtime, sizeof c->runtime);
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(mod);
    sha256_add(&s, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc));
    LLVMDisposeMemoryBuffer(bc);
    sha256_done(&s, key);
}

/* The entry's file for key: its hex and ".o"; malloc'd. */
static char *entry_path(const NativeCache *c, const unsigned char key[32])
{
    size_t n = strlen(c->dir) + 80;
    char *path = malloc(n), hex[65] = "";
    if (!path)
        return NULL;
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", key[i]);
    snprintf(path, n, "%s/%s.o", c->dir, hex);
    return path;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The header for an object of size bytes under key. */
static void make_header(unsigned char h[HEADER], const unsigned char key[32], const void *obj,
                        size_t size)
{
    memcpy(h, magic, 8);
    unsigned char version[4] = { FORMAT, 0, 0, 0 };
    memcpy(h + 8, version, 4);
    memcpy(h + 12, key, 32);
    put_u64(h + 44, size);
    Sha256 s;
    sha256_init(&s);
    sha256_add(&s, obj, size);
    sha256_done(&s, h + 52);
}

/* Reads the file at path whole (a regular file of at most max bytes)
   into a malloc'd buffer; NULL with the reason in why, or with why
   empty where there is no such file. */
static unsigned char *read_entry(const char *path, size_t max, size_t *size, const char **why)
{
    /* Not following links, not blocking on a FIFO: only a regular file
       the cache wrote is an entry. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    *why = "";
    if (fd < 0) {
        if (errno != ENOENT)
            *why = errno == ELOOP ? "it is not a regular file" : strerror(errno);
        return NULL;
    }
    unsigned char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        *why = "it is not a regular file";
    else if ((uint64_t)st.st_size > max || (size_t)st.st_size < HEADER)
        *why = "its size is not an entry's";
    else if (!(buf = malloc((size_t)st.st_size)))
        *why = "out of memory";
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0) {
            *why = n < 0 ? strerror(errno) : "it was cut short while read";
            free(buf);
            buf = NULL;
        }
        got += n > 0 ? (size_t)n : 0;
    }
    close(fd);
    *size = got;
    return buf;
}

char *ncache_load(NativeCache *c, const unsigned char key[32], size_t *size)
{
    char *path = entry_path(c, key);
    const char *why = "out of memory";
    size_t n = 0;
    unsigned char *buf = path ? read_entry(path, HEADER + MAX_OBJECT, &n, &why) : NULL;
    if (buf) {
        unsigned char want[HEADER];
        make_header(want, key, buf + HEADER, n - HEADER);
        if (memcmp(buf, want, 12) != 0)
            why = "its header is not an entry's of this version";
        else if (memcmp(buf + 12, key, 32) != 0)
            why = "its key is not its name's";
        else if (get_u64(buf + 44) != n - HEADER)
            why = "its length is wrong (cut short?)";
        else if (memcmp(buf + 52, want + 52, 32) != 0)
            why = "its checksum is wrong";
        else
            why = NULL;
    }
    if (why && why[0])
        fprintf(stderr, "%s: warning: code cache entry unusable: %s; compiling again\n",
                path ? path : c->dir, why);
    if (why) {
        free(path);
        free(buf);
        return NULL;
    }
    *size = n - HEADER;
    memmove(buf, buf + HEADER, *size);
    /* Used now, for the bound's order; failing, the entry keeps its age. */
    (void)utimensat(AT_FDCWD, path, NULL, 0);
    free(path);
    return (char *)buf;
}

/* Writes n bytes of p to fd; false with why after a failed write. */
static bool write_all(int fd, const void *p, size_t n, char *why, size_t whylen)
{
    for (size_t done = 0; done < n;) {
        ssize_t k = write(fd, (const char *)p + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            snprintf(why, whylen, "%s", k < 0 ? strerror(errno) : "nothing written");
            return false;
        }
        done += (size_t)k;
    }
    return true;
}

/* An entry's file in the folder, as the bound sees it. */
typedef struct Held {
    char name[67];
    uint64_t size;
    struct timespec used;
} Held;

/* Whether name is an entry's: 64 lower-case hex digits and ".o". */
static bool entry_name(const char *name)
{
    for (int i = 0; i < 64; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return strcmp(name + 64, ".o") == 0;
}

/* Least recently used first; then by name, so that runs agree. */
static int by_use(const void *pa, const void *pb)
{
    const Held *a = pa, *b = pb;
    if (a->used.tv_sec != b->used.tv_sec)
        return a->used.tv_sec < b->used.tv_sec ? -1 : 1;
    if (a->used.tv_nsec != b->used.tv_nsec)
        return a->used.tv_nsec < b->used.tv_nsec ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Removes the entries used least recently, but kept's (just stored),
   until the entries' files of the folder add up to c->limit or less. A
   folder that cannot be listed stays as it is; another run removing the
   same entry at once is no matter. */
static void keep_bound(NativeCache *c, const char *kept)
{
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    Held *held = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (!entry_name(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0
            || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            Held *more = realloc(held, (cap = cap ? 2 * cap : 64) * sizeof *more);
            if (!more)
                break;
            held = more;
        }
        held[n] = (Held){ .size = (uint64_t)st.st_size, .used = st.st_mtim };
        memcpy(held[n++].name, e->d_name, 67); /* an entry's name and its '\0' */
        total += (uint64_t)st.st_size;
    }
    if (total > c->limit)
        qsort(held, n, sizeof *held, by_use);
    for (size_t i = 0; i < n && total > c->limit; i++)
        if (strcmp(held[i].name, kept) != 0
            && (unlinkat(dirfd(d), held[i].name, 0) == 0 || errno == ENOENT))
            total -= held[i].size;
    closedir(d);
    free(held);
}

void ncache_store(NativeCache *c, const unsigned char key[32], const void *obj, size_t size)
{
    char *path = entry_path(c, key), why[256] = "out of memory";
    unsigned char h[HEADER];
    make_header(h, key, obj, size);
    OutFile out;
    int fd = path ? outfile_begin(&out, path, why, sizeof why) : -1;
    bool ok = fd >= 0;
    if (ok) {
        ok = write_all(fd, h, HEADER, why, sizeof why) && write_all(fd, obj, size, why, sizeof why);
        if (close(fd) != 0 && ok)
            ok = false, snprintf(why, sizeof why, "%s", strerror(errno));
        if (!ok)
            outfile_abort(&out);
        else
            ok = outfile_commit(&out, why, sizeof why) == 0;
    }
    pthread_mutex_lock(&c->lock);
    if (!ok && !c->write_failed)
        fprintf(stderr, "%s: warning: cannot write to the code cache: %s; its shaders are "
                        "compiled again next time\n", c->dir, why);
    c->write_failed |= !ok;
    if (ok)
        keep_bound(c, strrchr(path, '/') + 1);
    pthread_mutex_unlock(&c->lock);
    free(path);
}

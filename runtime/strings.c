/*
** strings.c: the interned string table (strings.h). Entries live in
** fixed chunks reached through a fixed directory, so an entry never
** moves once added and vm_strings_get needs no lock: an index reaches a
** thread only through the program's table or through vm_strings_intern,
** whose mutex orders the entry's writing before it. Lookups go through
** an open-addressing hash of indexes, rebuilt when it is half full. Each
** entry keeps what it names as an option value (strings.h), resolved as
** it is added. The size limits apply to strings interned at run time;
** the program's own strings count towards the total but are always taken.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strings.h"

enum { CHUNK_BITS = 10, CHUNK = 1 << CHUNK_BITS, MAX_CHUNKS = 4096 };

typedef struct Entry {
    char *s;
    VmStringOptions options;
} Entry;

struct VmStrings {
    pthread_mutex_t lock;
    uint32_t count;
    size_t bytes;                     /* the strings' lengths, summed */
    Entry *chunk[MAX_CHUNKS];
    uint32_t *hash;                   /* hsize slots: index + 1, 0 empty */
    uint32_t hsize;
};

static uint32_t hash_of(const char *s)
{
    uint32_t h = 2166136261u;         /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

const char *vm_strings_get(const VmStrings *t, uint32_t i)
{
    if (!t || i >= t->count)
        return "";
    return t->chunk[i >> CHUNK_BITS][i & (CHUNK - 1)].s;
}

/* The option s names (strings.h's RslOptName). */
static RslOptName option_name(const char *s)
{
    static const char *const names[] = {
        [RSL_OPT_BLUR] = "blur", [RSL_OPT_SBLUR] = "sblur", [RSL_OPT_TBLUR] = "tblur",
        [RSL_OPT_WIDTH] = "width", [RSL_OPT_SWIDTH] = "swidth", [RSL_OPT_TWIDTH] = "twidth",
        [RSL_OPT_FILL] = "fill", [RSL_OPT_FILTER] = "filter", [RSL_OPT_SAMPLES] = "samples",
        [RSL_OPT_BIAS] = "bias", [RSL_OPT_CHANNEL] = "channel", [RSL_OPT_MAXDIST] = "maxdist",
        [RSL_OPT_CONEANGLE] = "coneangle", [RSL_OPT_RAY_ORIGIN] = "ray:origin",
        [RSL_OPT_RAY_DIRECTION] = "ray:direction", [RSL_OPT_RAY_LENGTH] = "ray:length",
        [RSL_OPT_ILLUMINANCE] = "illuminance", [RSL_OPT_SAMPLEPATTERN] = "samplepattern",
    };
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (names[i] && !strcmp(s, names[i]))
            return (RslOptName)i;
    return strchr(s, ':') ? RSL_OPT_OUTPUT : RSL_OPT_OTHER;
}

/* What s names as an option value or an option's name. */
static VmStringOptions options_of(const char *s)
{
    return (VmStringOptions){ rsl_spline_basis(s), rsl_filter(s), rsl_color_space(s),
                              option_name(s) };
}

const VmStringOptions *vm_strings_options(const VmStrings *t, uint32_t i)
{
    static const VmStringOptions none = { RSL_BASIS_UNKNOWN, RSL_FILTER_CATMULL_ROM,
                                          RSL_CS_UNKNOWN, RSL_OPT_OTHER };
    if (!t || i >= t->count)
        return &none;
    return &t->chunk[i >> CHUNK_BITS][i & (CHUNK - 1)].options;
}

/* The hash slot holding s, or the empty slot where it would go. */
static uint32_t *slot_of(const VmStrings *t, const char *s)
{
    uint32_t m = t->hsize - 1;
    for (uint32_t h = hash_of(s) & m;; h = (h + 1) & m) {
        uint32_t e = t->hash[h];
        if (!e || !strcmp(vm_strings_get(t, e - 1), s))
            return &t->hash[h];
    }
}

static int grow_hash(VmStrings *t)
{
    uint32_t old = t->hsize, *prev = t->hash;
    t->hsize = old ? old * 2 : 64;
    t->hash = calloc(t->hsize, sizeof *t->hash);
    if (!t->hash) {
        t->hash = prev, t->hsize = old;
        return -1;
    }
    for (uint32_t i = 0; i < old; i++)
        if (prev[i]) {
            uint32_t *s = slot_of(t, vm_strings_get(t, prev[i] - 1));
            if (!*s)
                *s = prev[i];
        }
    free(prev);
    return 0;
}

/* Appends a copy of s; its index, or UINT32_MAX. */
static uint32_t append(VmStrings *t, const char *s)
{
    uint32_t i = t->count;
    if (i == (uint32_t)MAX_CHUNKS * CHUNK)
        return UINT32_MAX;
    Entry **c = &t->chunk[i >> CHUNK_BITS];
    if (!*c && !(*c = calloc(CHUNK, sizeof **c)))
        return UINT32_MAX;
    Entry *e = &(*c)[i & (CHUNK - 1)];
    size_t n = strlen(s);
    if (!(e->s = malloc(n + 1)))
        return UINT32_MAX;
    memcpy(e->s, s, n + 1);
    e->options = options_of(s);
    t->bytes += n;
    t->count = i + 1;
    return i;
}

/* Adds s at the next index and records it for lookup unless an earlier
   equal string is already there. */
static uint32_t add(VmStrings *t, const char *s)
{
    if ((t->count + 1) * 2 > t->hsize && grow_hash(t))
        return UINT32_MAX;
    uint32_t i = append(t, s);
    if (i != UINT32_MAX) {
        uint32_t *slot = slot_of(t, s);
        if (!*slot)
            *slot = i + 1;
    }
    return i;
}

VmStrings *vm_strings_new(const char *const *init, uint32_t n)
{
    VmStrings *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    for (uint32_t i = 0; i < n; i++)
        if (add(t, init[i] ? init[i] : "") == UINT32_MAX) {
            vm_strings_free(t);
            return NULL;
        }
    if (!t->hash && grow_hash(t)) {
        vm_strings_free(t);
        return NULL;
    }
    return t;
}

void vm_strings_free(VmStrings *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->count; i++)
        free(t->chunk[i >> CHUNK_BITS][i & (CHUNK - 1)].s);
    for (int c = 0; c < MAX_CHUNKS && t->chunk[c]; c++)
        free(t->chunk[c]);
    free(t->hash);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

uint32_t vm_strings_intern(VmStrings *t, const char *s)
{
    pthread_mutex_lock(&t->lock);
    uint32_t *slot = slot_of(t, s), i;
    size_t n = *slot ? 0 : strlen(s);
    if (*slot)
        i = *slot - 1;
    else if (n > VM_STRING_MAX || t->bytes + n > VM_STRINGS_MAX_BYTES)
        i = UINT32_MAX;
    else
        i = add(t, s);
    pthread_mutex_unlock(&t->lock);
    return i;
}

size_t vm_strings_bytes(VmStrings *t)
{
    pthread_mutex_lock(&t->lock);
    size_t n = t->bytes;
    pthread_mutex_unlock(&t->lock);
    return n;
}

float vm_string_value(uint32_t index)
{
    float f;
    memcpy(&f, &index, sizeof f);
    return f;
}

uint32_t vm_string_index(float value)
{
    uint32_t i;
    memcpy(&i, &value, sizeof i);
    return i;
}

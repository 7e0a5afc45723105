/*
** fuzz_object.c: libFuzzer harness for the shader object loader: any
** bytes must give an object that passed the verifier, or an error
** message, and never a crash, leak or undefined behaviour. An object the
** verifier passes is run on a batch of 4 points (under a step budget),
** so that a program it should have refused shows as a sanitizer report.
**
** Byte flips rarely get past the ELF and section checks to the verifier,
** so a custom mutator changes what the object means: it finds the .rsl.*
** sections of the ELF file and rewrites one or more fields in place
** (jump targets, register operands, widths, opcodes, builtin calls'
** argument counts and indices, register file sizes, parameter and debug
** records, string table offsets, line table pcs, section sizes and
** offsets, PTX headers and text) to the values at the edges the loader
** and the verifier check: the last valid index, one past it, 0, the
** largest. Inputs that are not such an object, and one mutation in four,
** get libFuzzer's own. The builtin table's fingerprint is set to this
** runtime's first, so that seeds compiled before builtins.def last
** changed still reach the verifier.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins.h"
#include "vm/object_impl.h"
#include "vm/opcodes.h"
#include "vm/session.h"
#include "vm/vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* Runs o's program over 4 points with the test host; faults, runaway
   loops and unbound builtins are errors, which are fine here. The step
   budget is small: a loop of format() calls making 1 MiB strings ran for
   seconds within 100000 steps, and long runs find nothing short ones do
   not. */
static void run(VmObject *o)
{
    VmSession ss;
    VmState s;
    char err[512];
    if (vm_session_open(&ss, o, vm_test_host(), 4, err, sizeof err) != 0)
        return;
    ss.max_steps = 2000;
    vm_session_batch(&ss, &s, 4);
    vm_session_run(&ss, &s, err, sizeof err);
    vm_session_close(&ss);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    VmObject *o = vm_object_parse(data, size, "fuzz.o", err, sizeof err);
    if (!o && strncmp(err, "fuzz.o: error: ", 15) != 0)
        __builtin_trap();
    if (o)
        run(o);
    vm_object_free(o);
    return 0;
}

/* ---- The object as the mutator sees it ------------------------------------ */

typedef struct Section {
    size_t header;      /* offset of its ELF section header */
    uint8_t *p;         /* its bytes, NULL if absent */
    size_t size;
} Section;

typedef struct Object {
    uint8_t *data;
    size_t size;
    Section sec[NSECTIONS];
    uint32_t ncode, nuniform, nvarying, nstrtab, nbuiltins;
    unsigned rng;
} Object;

static uint64_t get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put(uint8_t *p, int n, uint64_t v)
{
    for (int i = 0; i < n; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

static unsigned rnd(Object *o, unsigned n)
{
    o->rng = o->rng * 1103515245u + 12345u;
    return n ? (o->rng >> 8) % n : 0;
}

/* Finds the .rsl.* sections of an ELF64 little-endian file, every header
   and section inside the data; false if it is not such a file. */
static bool parse(Object *o)
{
    const uint8_t *d = o->data;
    if (o->size < 64 || memcmp(d, "\177ELF\2\1", 6) != 0)
        return false;
    uint64_t shoff = get(d + 0x28, 8);
    unsigned entsize = (unsigned)get(d + 0x3a, 2), shnum = (unsigned)get(d + 0x3c, 2);
    unsigned shstrndx = (unsigned)get(d + 0x3e, 2);
    if (entsize < 64 || shstrndx >= shnum || shoff > o->size
        || (uint64_t)shnum * entsize > o->size - shoff)
        return false;
    const uint8_t *sh = d + shoff + (size_t)shstrndx * entsize;
    uint64_t stroff = get(sh + 0x18, 8), strsize = get(sh + 0x20, 8);
    if (stroff > o->size || strsize > o->size - stroff)
        return false;
    for (unsigned i = 0; i < shnum; i++) {
        size_t h = shoff + (size_t)i * entsize;
        uint64_t name = get(d + h, 4), off = get(d + h + 0x18, 8), size = get(d + h + 0x20, 8);
        if (name >= strsize || !memchr(d + stroff + name, 0, strsize - name))
            continue;
        int s = obj_section_index((const char *)d + stroff + name);
        if (s < 0 || off > o->size || size > o->size - off)
            continue;
        o->sec[s] = (Section){ h, o->data + off, size };
    }
    const Section *meta = &o->sec[SEC_META];
    if (!meta->p || meta->size < META_HEADER)
        return false;
    o->nuniform = (uint32_t)get(meta->p + 16, 4);
    o->nvarying = (uint32_t)get(meta->p + 20, 4);
    o->ncode = (uint32_t)(o->sec[SEC_CODE].size / 8);
    o->nstrtab = (uint32_t)o->sec[SEC_STRTAB].size;
    o->nbuiltins = (uint32_t)(o->sec[SEC_BUILTINS].size / 8); /* about: the rows vary */
    return true;
}

/* A value at an edge of [0, n): 0, n - 1, n, n + 1, a random one below
   n, or the largest of `bits` bits. */
static uint32_t edge(Object *o, uint32_t n, int bits)
{
    uint32_t top = bits == 32 ? UINT32_MAX : (1u << bits) - 1;
    switch (rnd(o, 6)) {
    case 0: return 0;
    case 1: return n - 1;
    case 2: return n;
    case 3: return n + 1;
    case 4: return n ? rnd(o, n) : 0;
    default: return top;
    }
}

/* A register operand at an edge of one of the two files. */
static unsigned edge_reg(Object *o)
{
    bool varying = rnd(o, 2);
    unsigned slot = edge(o, varying ? o->nvarying : o->nuniform, 15) & 0x7fff;
    return slot | (varying ? VM_V : 0);
}

/* A random record of `rec` bytes in section s (after `skip` header
   bytes), or NULL if it has none. */
static uint8_t *record(Object *o, int s, size_t skip, size_t rec)
{
    Section *x = &o->sec[s];
    if (!x->p || x->size < skip + rec)
        return NULL;
    return x->p + skip + rec * rnd(o, (unsigned)((x->size - skip) / rec));
}

/* An instruction; with `jumps`, the first jump from a random one on, if
   the code has one. */
static uint8_t *instruction(Object *o, bool jumps)
{
    uint8_t *code = o->sec[SEC_CODE].p;
    if (!code || o->ncode == 0)
        return NULL;
    uint32_t at = rnd(o, o->ncode);
    for (uint32_t k = 0; jumps && k < o->ncode; k++) {
        uint8_t *p = code + 8 * (size_t)((at + k) % o->ncode);
        if (p[0] >= VM_OP_JMP && p[0] <= VM_OP_JNONE)
            return p;
    }
    return code + 8 * (size_t)at;
}

static void mutate_code(Object *o)
{
    uint8_t *p = instruction(o, rnd(o, 3) == 0);
    if (!p)
        return;
    switch (rnd(o, 7)) {
    case 0: /* a jump target: T = B | C << 16 */
        put(p + 4, 4, edge(o, o->ncode, 32));
        break;
    case 1: /* a register operand: A, B or C */
        put(p + 2 + 2 * rnd(o, 3), 2, edge_reg(o));
        break;
    case 2: { /* the width */
        static const uint8_t widths[] = { 0, 1, 2, 3, 4, 15, 16, 17, 255 };
        p[1] = widths[rnd(o, sizeof widths)];
        break;
    }
    case 3: /* the opcode, to another or past the last */
        p[0] = (uint8_t)rnd(o, VM_NOPS + 2);
        break;
    case 4: /* a builtin call's index (B) or argument count (C) */
        p[0] = VM_OP_CALLB;
        if (rnd(o, 2))
            put(p + 4, 2, edge(o, o->nbuiltins, 16));
        else
            put(p + 6, 2, rnd(o, VM_MAX_ARGS + 3));
        break;
    case 5: /* the varying bit of one operand */
        p[3 + 2 * rnd(o, 3)] ^= 0x80;
        break;
    default: /* another instruction copied over this one */
        memcpy(p, instruction(o, false), 8);
        break;
    }
}

static void mutate_meta(Object *o)
{
    uint8_t *m = o->sec[SEC_META].p, *v = record(o, SEC_META, META_HEADER, META_VAR);
    switch (rnd(o, 6)) {
    case 0: /* a register file's size */
        put(m + 16 + 4 * rnd(o, 2), 4, edge(o, rnd(o, 2) ? o->nuniform : o->nvarying, 16));
        break;
    case 1: /* the parameter or global count, or the kind */
        put(m + 8 + 16 * rnd(o, 2) + 4 * rnd(o, 2), 4, edge(o, rnd(o, 4), 16));
        break;
    case 2: /* the shader's name */
        put(m + 12, 4, edge(o, o->nstrtab, 32));
        break;
    default: /* a variable's name, type, flags, array length or register */
        if (!v)
            break;
        switch (rnd(o, 5)) {
        case 0: put(v, 4, edge(o, o->nstrtab, 32)); break;
        case 1: v[4] = (uint8_t)rnd(o, VM_NTYPES + 2); break;
        case 2: v[5] ^= (uint8_t)(1u << rnd(o, 4)); break;
        case 3: put(v + 6, 2, edge(o, (uint32_t)get(v + 6, 2), 16)); break;
        default: put(v + 8, 2, edge_reg(o)); break;
        }
    }
}

/* A string table offset (in .rsl.strings or a line record's file name),
   or the table's closing NUL. */
static void mutate_names(Object *o)
{
    uint8_t *p = NULL;
    switch (rnd(o, 3)) {
    case 0: p = record(o, SEC_STRINGS, 0, 4); break;
    case 1:
        if ((p = record(o, SEC_LINES, 0, LINE_RECORD)))
            p += 8;
        break;
    default:
        if (o->nstrtab)
            o->sec[SEC_STRTAB].p[o->nstrtab - 1] ^= (uint8_t)(1 + rnd(o, 255));
    }
    if (p)
        put(p, 4, edge(o, o->nstrtab, 32));
}

static void mutate_lines(Object *o)
{
    uint8_t *p = record(o, SEC_LINES, 0, LINE_RECORD);
    if (p)
        put(p + 4 * rnd(o, 2), 4, edge(o, rnd(o, 2) ? o->ncode : (uint32_t)get(p, 4), 32));
}

/* One 4-byte word of the callee table, as a builtin row, as a callee
   head's argument count (its second byte), or as an argument's array
   length (its upper half): the records are of varying length, so the
   word may be any of them. */
static void mutate_builtins(Object *o)
{
    Section *b = &o->sec[SEC_BUILTINS];
    if (!b->p || b->size < 12)
        return;
    uint8_t *p = b->p + 4 + 4 * rnd(o, (unsigned)((b->size - 4) / 4));
    switch (rnd(o, 3)) {
    case 0: put(p, 4, edge(o, 400, 32)); break;
    case 1: p[1] = (uint8_t)rnd(o, VM_MAX_ARGS + 3); break;
    default: put(p + 2, 2, edge(o, 4, 16)); break;
    }
}

static void mutate_debug(Object *o)
{
    Section *d = &o->sec[SEC_DEBUG];
    if (!d->p || d->size < DEBUG_HEADER)
        return;
    uint32_t nf = (uint32_t)get(d->p, 4);
    if (rnd(o, 4) == 0) { /* a count in the header */
        uint8_t *c = d->p + 4 * rnd(o, 3);
        put(c, 4, edge(o, (uint32_t)get(c, 4), 24));
        return;
    }
    /* Any 32-bit field: a name, parent, entry, pc's frame, variable's
       frame or ranges, range bounds or register. */
    uint8_t *p = record(o, SEC_DEBUG, DEBUG_HEADER, 4);
    if (!p)
        return;
    uint32_t n = rnd(o, 3) == 0 ? nf : rnd(o, 2) ? o->ncode : o->nstrtab;
    put(p, 4, edge(o, n, 32));
}

/* A section's size or offset in its ELF header. */
static void mutate_section_header(Object *o)
{
    int s = (int)rnd(o, NSECTIONS);
    if (!o->sec[s].p)
        return;
    uint8_t *h = o->data + o->sec[s].header;
    static const int64_t deltas[] = { -1, 1, -4, 4, -8, 8, -12, 12, -32, 32 };
    uint64_t size = get(h + 0x20, 8);
    switch (rnd(o, 4)) {
    case 0: put(h + 0x20, 8, size + (uint64_t)deltas[rnd(o, 10)]); break;
    case 1: put(h + 0x20, 8, rnd(o, 2) ? 0 : UINT64_MAX); break;
    case 2: put(h + 0x18, 8, get(h + 0x18, 8) + (uint64_t)deltas[rnd(o, 10)]); break;
    default: put(h + 4, 4, rnd(o, 2) ? 8 /* SHT_NOBITS */ : 1 /* SHT_PROGBITS */); break;
    }
}

static void mutate_vinit(Object *o)
{
    uint8_t *p = record(o, SEC_VINIT, 0, 8);
    if (p)
        put(p, 4, edge(o, o->nvarying, 32));
}

/* The PTX section (rslc --gpu): its GPU's name, its text's length, or a
   byte of the text (a NUL, a control character, the GPU's digits). */
static void mutate_ptx(Object *o)
{
    Section *x = &o->sec[SEC_PTX];
    if (!x->p || x->size < PTX_HEADER)
        return;
    static const uint8_t bytes[] = { 0, 1, 0x7f, '9' };
    uint32_t n = (uint32_t)get(x->p + 4, 4);
    switch (rnd(o, 3)) {
    case 0: put(x->p, 4, edge(o, o->nstrtab, 32)); break;
    case 1: put(x->p + 4, 4, edge(o, n, 32)); break;
    default:
        if (x->size > PTX_HEADER)
            x->p[PTX_HEADER + rnd(o, (unsigned)(x->size - PTX_HEADER))] = bytes[rnd(o, 4)];
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    Object o = { .data = data, .size = size, .rng = seed };
    if (rnd(&o, 4) == 0 || !parse(&o))
        return LLVMFuzzerMutate(data, size, max_size);
    if (o.sec[SEC_BUILTINS].size >= 4)
        put(o.sec[SEC_BUILTINS].p, 4, builtin_table_fingerprint());
    for (unsigned k = 1 + rnd(&o, 3); k--;) {
        switch (rnd(&o, 11)) {
        case 0:
        case 1:
        case 2: mutate_code(&o); break;
        case 3: mutate_meta(&o); break;
        case 4: mutate_names(&o); break;
        case 5: mutate_lines(&o); break;
        case 6: mutate_builtins(&o); break;
        case 7: mutate_debug(&o); break;
        case 8: mutate_section_header(&o); break;
        case 9: mutate_ptx(&o); break;
        default: mutate_vinit(&o); break;
        }
    }
    return size;
}

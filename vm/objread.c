/*
** objread.c: reading shader objects back, trusting nothing: every size,
** count, offset and register is checked before use, and the bytecode
** goes through the verifier, so a truncated or corrupt file gets a
** message and never reaches the VM.
*/
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins.h"
#include "vm/builtins.h"
#include "vm/object_impl.h"
#include "vm/verify.h"

typedef struct Reader {
    const char *name;
    char *err;
    int errlen;
    const unsigned char *sec[NSECTIONS];
    const char *strtab;        /* the object's own copy of .rsl.strtab */
    size_t size[NSECTIONS];
    bool present[NSECTIONS];
    VmObject *obj;
} Reader;

static void *bad(Reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, (size_t)r->errlen, "%s: error: ", r->name);
    if (n > 0 && n < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, (size_t)(r->errlen - n), fmt, ap);
        va_end(ap);
    }
    return NULL;
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned get_u16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* A name from .rsl.strtab (whose last byte is checked to be NUL). */
static const char *name_at(Reader *r, uint32_t off, const char *what)
{
    if (off >= r->size[SEC_STRTAB]) {
        bad(r, "%s: string offset %u outside .rsl.strtab (%zu bytes)", what, off,
            r->size[SEC_STRTAB]);
        return NULL;
    }
    return r->strtab + off;
}

static bool read_vars(Reader *r, const unsigned char *p, VmVar *v, uint32_t n, const char *what)
{
    const VmProgram *prog = &r->obj->prog;
    for (uint32_t i = 0; i < n; i++, p += META_VAR) {
        if (!(v[i].name = name_at(r, get_u32(p), what)))
            return false;
        v[i].type = (VmType)p[4];
        v[i].flags = p[5];
        v[i].arraylen = get_u16(p + 6);
        v[i].reg = get_u16(p + 8);
        if (v[i].type >= VM_NTYPES || (v[i].flags & ~7u))
            return bad(r, "%s '%s': bad type %u or flags %u", what, v[i].name, p[4], p[5]), false;
        bool varying = (v[i].reg & VM_V) != 0;
        if (varying != ((v[i].flags & VM_VAR_VARYING) != 0) || (varying && v[i].type == VM_T_STRING))
            return bad(r, "%s '%s': register does not match its storage", what, v[i].name), false;
        uint32_t file = varying ? prog->nvarying : prog->nuniform;
        if (VM_SLOT(v[i].reg) + vm_type_slots(v[i].type, v[i].arraylen) > file)
            return bad(r, "%s '%s': register outside the register file", what, v[i].name), false;
    }
    return true;
}

static bool read_meta(Reader *r)
{
    VmObject *o = r->obj;
    const unsigned char *m = r->sec[SEC_META];
    if (r->size[SEC_META] < META_HEADER || get_u32(m) != OBJ_MAGIC)
        return bad(r, "not an rslc object (.rsl.meta missing or without its magic)"), false;
    if (get_u32(m + 4) != VM_OBJECT_VERSION)
        return bad(r, "object version %u; this rslc reads version %d: compile the shader "
                   "again", get_u32(m + 4), VM_OBJECT_VERSION), false;
    uint32_t kind = get_u32(m + 8), np = get_u32(m + 24), ng = get_u32(m + 28);
    o->prog.nuniform = get_u32(m + 16);
    o->prog.nvarying = get_u32(m + 20);
    if (kind >= VM_NKINDS)
        return bad(r, "unknown shader kind %u", kind), false;
    o->kind = (VmShaderKind)kind;
    if (o->prog.nuniform > 0x8000 || o->prog.nvarying > 0x8000)
        return bad(r, "register files of %u and %u slots exceed 32768", o->prog.nuniform,
                   o->prog.nvarying), false;
    if (np > 0xffff || ng > 0xffff
        || r->size[SEC_META] != META_HEADER + (size_t)META_VAR * (np + ng))
        return bad(r, ".rsl.meta: %zu bytes do not hold %u parameters and %u globals",
                   r->size[SEC_META], np, ng), false;
    if (!(o->name = name_at(r, get_u32(m + 12), "shader name")))
        return false;
    o->nparams = np;
    o->nglobals = ng;
    o->params = vm_object_own(o, sizeof *o->params * np);
    o->globals = vm_object_own(o, sizeof *o->globals * ng);
    if (!o->params || !o->globals)
        return bad(r, "out of memory"), false;
    return read_vars(r, m + META_HEADER, o->params, np, "parameter")
        && read_vars(r, m + META_HEADER + (size_t)META_VAR * np, o->globals, ng, "global");
}

/* A section of n records of `rec` bytes; n is set. */
static bool records(Reader *r, int s, size_t rec, uint32_t *n, const char *name)
{
    if (r->size[s] % rec || r->size[s] / rec > 0xffffffu)
        return bad(r, "%s: %zu bytes is not a whole number of %zu-byte records", name,
                   r->size[s], rec), false;
    *n = (uint32_t)(r->size[s] / rec);
    return true;
}

/* A table of u32 offsets into .rsl.strtab, as names. */
static const char **read_names(Reader *r, int s, uint32_t *n, const char *name)
{
    if (!records(r, s, 4, n, name))
        return NULL;
    const char **names = vm_object_own(r->obj, sizeof *names * *n);
    if (!names)
        return bad(r, "out of memory");
    for (uint32_t i = 0; i < *n; i++)
        if (!(names[i] = name_at(r, get_u32(r->sec[s] + 4 * i), name)))
            return NULL;
    return names;
}

/* .rsl.builtins (object.h). The fingerprint must be this runtime's: the
   rows of another table are other builtins. */
static bool read_callees(Reader *r)
{
    VmObject *o = r->obj;
    const unsigned char *p = r->sec[SEC_BUILTINS], *end = p + r->size[SEC_BUILTINS];
    if (end - p < 4)
        return bad(r, ".rsl.builtins: no builtin table fingerprint"), false;
    if (get_u32(p) != builtin_table_fingerprint())
        return bad(r, "the shader was compiled against another table of builtins "
                   "(fingerprint %08x, this runtime's %08x): compile the shader again",
                   get_u32(p), builtin_table_fingerprint()), false;
    p += 4;
    VmCallee *c = vm_object_own(o, sizeof *c * ((size_t)(end - p) / 8 + 1));
    if (!c)
        return bad(r, "out of memory"), false;
    uint32_t n = 0;
    for (; p < end; n++) {
        VmCallee *k = &c[n];
        if (end - p < 8)
            return bad(r, ".rsl.builtins: callee %u is cut short", n), false;
        k->row = get_u32(p);
        k->result = (char)p[4];
        k->nargs = p[5];
        p += 8;
        if (k->row >= BO_COUNT || k->nargs > VM_MAX_ARGS || end - p < 4 * k->nargs)
            return bad(r, ".rsl.builtins: callee %u: row %u with %u arguments", n, k->row,
                       k->nargs), false;
        for (int i = 0; i < k->nargs; i++, p += 4) {
            k->type[i] = (char)p[0];
            k->arraylen[i] = get_u16(p + 2);
        }
    }
    o->callees = c;
    o->prog.nbuiltins = n;
    return true;
}

static bool read_program(Reader *r)
{
    VmObject *o = r->obj;
    uint32_t ncode, nuinit, nlines, nvinit;
    if (!records(r, SEC_CODE, 8, &ncode, ".rsl.code") || !records(r, SEC_UINIT, 4, &nuinit, ".rsl.uinit")
        || !records(r, SEC_LINES, LINE_RECORD, &nlines, ".rsl.lines")
        || !records(r, SEC_VINIT, 8, &nvinit, ".rsl.vinit"))
        return false;
    if (nuinit != o->prog.nuniform)
        return bad(r, ".rsl.uinit has %u slots; the uniform file has %u", nuinit,
                   o->prog.nuniform), false;
    VmIns *code = vm_object_own(o, sizeof *code * ncode);
    float *uinit = vm_object_own(o, sizeof *uinit * nuinit);
    VmInit *vinit = vm_object_own(o, sizeof *vinit * (nvinit + 1));
    o->lines = vm_object_own(o, sizeof *o->lines * nlines);
    if (!code || !uinit || !vinit || !o->lines)
        return bad(r, "out of memory"), false;
    for (uint32_t i = 0; i < nvinit; i++) {
        uint32_t bits = get_u32(r->sec[SEC_VINIT] + 8 * i + 4);
        vinit[i].slot = get_u32(r->sec[SEC_VINIT] + 8 * i);
        memcpy(&vinit[i].value, &bits, 4);
    }
    o->prog.varying_init = vinit;
    o->prog.nvarying_init = nvinit;
    for (uint32_t i = 0; i < ncode; i++)
        code[i] = get_u32(r->sec[SEC_CODE] + 8 * i)
                | (VmIns)get_u32(r->sec[SEC_CODE] + 8 * i + 4) << 32;
    for (uint32_t i = 0; i < nuinit; i++) {
        uint32_t bits = get_u32(r->sec[SEC_UINIT] + 4 * i);
        memcpy(&uinit[i], &bits, 4);
    }
    for (uint32_t i = 0; i < nlines; i++) {
        const unsigned char *p = r->sec[SEC_LINES] + LINE_RECORD * i;
        VmLine *l = &o->lines[i];
        l->pc = get_u32(p);
        l->line = get_u32(p + 4);
        if (!(l->file = name_at(r, get_u32(p + 8), ".rsl.lines")))
            return false;
        if (l->pc >= ncode || (i && l->pc < o->lines[i - 1].pc))
            return bad(r, ".rsl.lines: entry %u (pc %u) out of order or past the code", i,
                       l->pc), false;
    }
    o->nlines = nlines;
    o->prog.code = code;
    o->prog.ncode = ncode;
    o->prog.uniform_init = uinit;
    if (!(o->prog.strings = read_names(r, SEC_STRINGS, &o->prog.nstrings, ".rsl.strings"))
        || !read_callees(r))
        return false;
    char msg[200];
    if (vm_verify(&o->prog, msg, sizeof msg) != 0
        || vm_check_calls(&o->prog, o->callees, msg, sizeof msg) != 0)
        return bad(r, "%s", msg), false;
    return true;
}

/* ---- .rsl.debug ---------------------------------------------------------------- */

static bool read_frames(Reader *r, VmDebug *d, const unsigned char *p)
{
    uint32_t ncode = r->obj->prog.ncode;
    for (uint32_t f = 0; f < d->nframes; f++, p += DEBUG_FRAME) {
        VmFrame *x = &d->frames[f];
        if (!(x->func = name_at(r, get_u32(p), ".rsl.debug frame"))
            || !(x->call_file = name_at(r, get_u32(p + 4), ".rsl.debug frame")))
            return false;
        x->call_line = get_u32(p + 8);
        x->parent = get_u32(p + 12);
        x->entry = get_u32(p + 16);
        /* Frame 0 is the root; every other frame's parent comes first,
           so the frames form a tree and backtraces end. */
        if (f == 0 ? x->parent != VM_NO_FRAME : x->parent >= f)
            return bad(r, ".rsl.debug: frame %u has parent %u", f, x->parent), false;
        if (x->entry > ncode)
            return bad(r, ".rsl.debug: frame %u enters at pc %u, past the code", f, x->entry),
                   false;
    }
    for (uint32_t pc = 0; pc < ncode; pc++, p += DEBUG_PCFRAME)
        if ((d->pc_frame[pc] = get_u32(p)) >= d->nframes)
            return bad(r, ".rsl.debug: instruction %u in frame %u of %u", pc, d->pc_frame[pc],
                       d->nframes), false;
    return true;
}

/* A register operand holding `slots` slots inside its file. */
static bool reg_fits(const VmProgram *p, unsigned reg, unsigned slots)
{
    uint32_t file = reg & VM_V ? p->nvarying : p->nuniform;
    return VM_SLOT(reg) + slots <= file;
}

static bool read_vars_ranges(Reader *r, VmDebug *d, const unsigned char *p)
{
    const VmProgram *prog = &r->obj->prog;
    const unsigned char *rp = p + (size_t)DEBUG_VAR * d->nvars;
    for (uint32_t i = 0; i < d->nranges; i++, rp += DEBUG_RANGE) {
        VmDbgRange *x = &d->ranges[i];
        x->lo = get_u32(rp);
        x->hi = get_u32(rp + 4);
        x->reg = get_u16(rp + 8);
        if (x->lo > x->hi || x->hi > prog->ncode || !reg_fits(prog, x->reg, 1))
            return bad(r, ".rsl.debug: range %u (pc %u to %u, register %u) outside the code "
                       "or the register files", i, x->lo, x->hi, x->reg), false;
    }
    for (uint32_t i = 0; i < d->nvars; i++, p += DEBUG_VAR) {
        VmDbgVar *v = &d->vars[i];
        if (!(v->name = name_at(r, get_u32(p), ".rsl.debug variable")))
            return false;
        v->type = (VmType)p[4];
        v->arraylen = get_u16(p + 6);
        v->frame = get_u32(p + 8);
        uint32_t first = get_u32(p + 12), n = get_u32(p + 16);
        if (p[4] >= VM_NTYPES || p[5] || v->frame >= d->nframes)
            return bad(r, ".rsl.debug: variable '%s' has type %u or frame %u out of range",
                       v->name, p[4], v->frame), false;
        if ((uint64_t)first + n > d->nranges)
            return bad(r, ".rsl.debug: variable '%s' has ranges %u..%u of %u", v->name, first,
                       first + n, d->nranges), false;
        v->ranges = d->ranges + first;
        v->nranges = n;
        unsigned slots = vm_type_slots(v->type, v->arraylen);
        for (uint32_t k = 0; k < n; k++)
            if (!reg_fits(prog, v->ranges[k].reg, slots)
                || ((v->ranges[k].reg & VM_V) && v->type == VM_T_STRING))
                return bad(r, ".rsl.debug: variable '%s': register %u does not hold a %s",
                           v->name, v->ranges[k].reg, v->type == VM_T_STRING ? "string"
                           : "value of its width"), false;
    }
    return true;
}

/* The debug section, if the object has one; every count, name, frame,
   pc and register checked. */
static bool read_debug(Reader *r)
{
    if (!r->present[SEC_DEBUG])
        return true;
    VmObject *o = r->obj;
    const unsigned char *p = r->sec[SEC_DEBUG];
    size_t size = r->size[SEC_DEBUG];
    if (size < DEBUG_HEADER)
        return bad(r, ".rsl.debug: %zu bytes, too short for its header", size), false;
    uint32_t nf = get_u32(p), nv = get_u32(p + 4), nr = get_u32(p + 8);
    size_t want = DEBUG_HEADER + (size_t)DEBUG_FRAME * nf + (size_t)DEBUG_PCFRAME * o->prog.ncode
                + (size_t)DEBUG_VAR * nv + (size_t)DEBUG_RANGE * nr;
    if (nf == 0 || nf > 0xffffff || nv > 0xffffff || nr > 0xffffff || size != want)
        return bad(r, ".rsl.debug: %zu bytes do not hold %u frames, %u variables and %u ranges "
                   "for %u instructions", size, nf, nv, nr, o->prog.ncode), false;
    VmDebug *d = vm_object_own(o, sizeof *d);
    if (!d)
        return bad(r, "out of memory"), false;
    d->nframes = nf, d->nvars = nv, d->nranges = nr;
    d->frames = vm_object_own(o, sizeof *d->frames * nf);
    d->pc_frame = vm_object_own(o, sizeof *d->pc_frame * (o->prog.ncode + 1));
    d->vars = vm_object_own(o, sizeof *d->vars * (nv + 1));
    d->ranges = vm_object_own(o, sizeof *d->ranges * (nr + 1));
    if (!d->frames || !d->pc_frame || !d->vars || !d->ranges)
        return bad(r, "out of memory"), false;
    p += DEBUG_HEADER;
    if (!read_frames(r, d, p)
        || !read_vars_ranges(r, d, p + (size_t)DEBUG_FRAME * nf
                                       + (size_t)DEBUG_PCFRAME * o->prog.ncode))
        return false;
    o->debug = d;
    return true;
}

/* The PTX section, if the object has one: its GPU's name ("sm_" and
   digits), its length within the section, and text that is ASCII without
   NUL and names that GPU (".target sm_75"). */
static bool read_ptx(Reader *r)
{
    if (!r->present[SEC_PTX])
        return true;
    VmObject *o = r->obj;
    const unsigned char *p = r->sec[SEC_PTX];
    size_t size = r->size[SEC_PTX];
    if (size < PTX_HEADER)
        return bad(r, ".rsl.ptx: %zu bytes, too short for its header", size), false;
    const char *gpu = name_at(r, get_u32(p), ".rsl.ptx's GPU");
    uint32_t n = get_u32(p + 4);
    if (!gpu)
        return false;
    if (strncmp(gpu, "sm_", 3) != 0 || !gpu[3] || strspn(gpu + 3, "0123456789") != strlen(gpu + 3))
        return bad(r, ".rsl.ptx: '%s' is not a GPU architecture (sm_ and a number)", gpu), false;
    if (n > size - PTX_HEADER || size - PTX_HEADER - n > 3)
        return bad(r, ".rsl.ptx: %zu bytes do not hold %u bytes of PTX", size, n), false;
    for (uint32_t i = 0; i < n; i++)
        if (p[PTX_HEADER + i] == 0 || p[PTX_HEADER + i] > 0x7e
            || (p[PTX_HEADER + i] < 0x20 && !strchr("\t\n\r", p[PTX_HEADER + i])))
            return bad(r, ".rsl.ptx: byte %u of the PTX (0x%02x) is not text", i,
                       p[PTX_HEADER + i]), false;
    char *text = vm_object_own(o, (size_t)n + 1);
    if (!text)
        return bad(r, "out of memory"), false;
    memcpy(text, p + PTX_HEADER, n);
    char target[32];
    snprintf(target, sizeof target, ".target %s", gpu);
    const char *at = strstr(text, target);
    if (!at || (at[strlen(target)] != '\n' && at[strlen(target)] != ','))
        return bad(r, ".rsl.ptx: the PTX is not for %s (no '%s')", gpu, target), false;
    o->ptx = text;
    o->ptx_gpu = gpu;
    return true;
}

/* Finds the .rsl.* sections; the metadata, code and string table must be
   there, the others may be absent (empty). */
static bool find_sections(Reader *r, Elf *e)
{
    size_t shstrndx;
    if (elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS64)
        return bad(r, "not an ELF64 object"), false;
    if (elf_getshdrstrndx(e, &shstrndx) != 0)
        return bad(r, "malformed ELF: %s", elf_errmsg(-1)), false;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
            return bad(r, "malformed ELF section header: %s", elf_errmsg(-1)), false;
        int s = obj_section_index(name);
        if (s < 0)
            continue;
        Elf_Data *d = sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
        if (!d || (d->d_size && !d->d_buf))
            return bad(r, "section %s: %s", name, elf_errmsg(-1)), false;
        if (r->sec[s])
            return bad(r, "section %s appears twice", name), false;
        r->sec[s] = d->d_size ? d->d_buf : (const unsigned char *)"";
        r->size[s] = d->d_size;
        r->present[s] = true;
    }
    if (!r->sec[SEC_META] || !r->sec[SEC_CODE] || !r->sec[SEC_STRTAB])
        return bad(r, "not an rslc object (no .rsl.meta, .rsl.code or .rsl.strtab)"), false;
    for (int s = 0; s < NSECTIONS; s++)
        if (!r->sec[s])
            r->sec[s] = (const unsigned char *)"";
    if (!r->size[SEC_STRTAB] || r->sec[SEC_STRTAB][r->size[SEC_STRTAB] - 1] != '\0')
        return bad(r, ".rsl.strtab is empty or not NUL-terminated"), false;
    return true;
}

VmObject *vm_object_parse(const void *data, size_t size, const char *name, char *err, int errlen)
{
    Reader r = { .name = name, .err = err, .errlen = errlen };
    if (elf_version(EV_CURRENT) == EV_NONE)
        return bad(&r, "libelf is not usable");
    /* libelf may write to the image it parses: give it a copy. */
    char *image = malloc(size ? size : 1);
    VmObject *o = vm_object_new();
    Elf *e = NULL;
    bool ok = false;
    if (!image || !o) {
        bad(&r, "out of memory");
        goto out;
    }
    r.obj = o;
    memcpy(image, data, size);
    if (!(e = elf_memory(image, size))) {
        bad(&r, "not an ELF file: %s", elf_errmsg(-1));
        goto out;
    }
    if (!find_sections(&r, e))
        goto out;
    /* Keep the names: every name of the object points into this copy. */
    char *strtab = vm_object_own(o, r.size[SEC_STRTAB]);
    if (!strtab) {
        bad(&r, "out of memory");
        goto out;
    }
    memcpy(strtab, r.sec[SEC_STRTAB], r.size[SEC_STRTAB]);
    r.strtab = strtab;
    ok = read_meta(&r) && read_program(&r) && read_debug(&r) && read_ptx(&r);
out:
    if (e)
        elf_end(e);
    free(image);
    if (!ok) {
        vm_object_free(o);
        return NULL;
    }
    return o;
}

VmObject *vm_object_read(const char *path, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, (size_t)errlen, "%s: error: cannot open the object", path);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            char *p = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!p) {
                free(buf);
                fclose(f);
                snprintf(err, (size_t)errlen, "%s: error: out of memory", path);
                return NULL;
            }
            buf = p;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got);
    bool rerr = ferror(f);
    fclose(f);
    VmObject *o = rerr ? NULL : vm_object_parse(buf, len, path, err, errlen);
    if (rerr)
        snprintf(err, (size_t)errlen, "%s: error: cannot read the object", path);
    free(buf);
    return o;
}

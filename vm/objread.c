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

#include "vm/object_impl.h"
#include "vm/verify.h"

typedef struct Reader {
    const char *name;
    char *err;
    int errlen;
    const unsigned char *sec[NSECTIONS];
    const char *strtab;        /* the object's own copy of .rsl.strtab */
    size_t size[NSECTIONS];
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
        return bad(r, "object version %u; this rslc reads version %d", get_u32(m + 4),
                   VM_OBJECT_VERSION), false;
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
        || !(o->builtin_names = read_names(r, SEC_BUILTINS, &o->prog.nbuiltins, ".rsl.builtins")))
        return false;
    char msg[200];
    if (vm_verify(&o->prog, msg, sizeof msg) != 0)
        return bad(r, "%s", msg), false;
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
    ok = read_meta(&r) && read_program(&r);
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

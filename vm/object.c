/*
** object.c: writing shader objects (layout in object.h) with libelf, and
** what reading and writing share. Records are serialised byte by byte in
** little-endian order so an object moves between hosts unchanged.
*/
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/builtins.h"
#include "runtime/outfile.h"
#include "vm/object_impl.h"

/* Everything an object owns, freed together. */
typedef struct ObjAlloc {
    void **ptr;
    int n, cap;
} ObjAlloc;

VmObject *vm_object_new(void)
{
    VmObject *o = calloc(1, sizeof *o);
    if (o && !(o->alloc = calloc(1, sizeof *o->alloc))) {
        free(o);
        return NULL;
    }
    return o;
}

void *vm_object_own(VmObject *o, size_t size)
{
    ObjAlloc *a = o->alloc;
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 16;
        void **p = realloc(a->ptr, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        a->ptr = p;
        a->cap = cap;
    }
    void *p = calloc(size ? size : 1, 1);
    if (p)
        a->ptr[a->n++] = p;
    return p;
}

void vm_object_free(VmObject *o)
{
    if (!o)
        return;
    if (o->alloc) {
        for (int i = 0; i < o->alloc->n; i++)
            free(o->alloc->ptr[i]);
        free(o->alloc->ptr);
        free(o->alloc);
    }
    free(o);
}

unsigned vm_type_slots(VmType t, unsigned arraylen)
{
    unsigned per = t == VM_T_FLOAT || t == VM_T_STRING ? 1 : t == VM_T_MATRIX ? 16 : 3;
    return per * (arraylen ? arraylen : 1);
}

/* ---- growing byte buffers ---------------------------------------------- */

typedef struct Bytes {
    unsigned char *p;
    size_t n, cap;
    bool failed;
} Bytes;

static void put_bytes(Bytes *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_u32(Bytes *b, uint32_t v)
{
    unsigned char c[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    put_bytes(b, c, 4);
}

static void put_u16(Bytes *b, unsigned v)
{
    unsigned char c[2] = { (unsigned char)v, (unsigned char)(v >> 8) };
    put_bytes(b, c, 2);
}

/* The offset of s in the string table, adding it the first time. */
static uint32_t strtab_add(Bytes *t, const char *s)
{
    size_t len = strlen(s) + 1;
    for (size_t off = 0; off < t->n; off += strlen((const char *)t->p + off) + 1)
        if (strcmp((const char *)t->p + off, s) == 0)
            return (uint32_t)off;
    uint32_t off = (uint32_t)t->n;
    put_bytes(t, s, len);
    return off;
}

static void put_vars(Bytes *meta, Bytes *strtab, const VmVar *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        put_u32(meta, strtab_add(strtab, v[i].name));
        unsigned char tf[2] = { (unsigned char)v[i].type, (unsigned char)v[i].flags };
        put_bytes(meta, tf, 2);
        put_u16(meta, v[i].arraylen);
        put_u16(meta, v[i].reg);
        put_u16(meta, 0);
    }
}

/* ---- writing -------------------------------------------------------------- */

static const char *const section_names[NSECTIONS] = {
    ".rsl.meta", ".rsl.code", ".rsl.uinit", ".rsl.strings",
    ".rsl.builtins", ".rsl.lines", ".rsl.strtab", ".rsl.vinit", ".rsl.debug", ".rsl.ptx",
};

int obj_section_index(const char *name)
{
    for (int i = 0; i < NSECTIONS; i++)
        if (strcmp(name, section_names[i]) == 0)
            return i;
    return -1;
}

static void serialise_debug(const VmObject *o, Bytes *strtab, Bytes *dbg)
{
    const VmDebug *d = o->debug;
    put_u32(dbg, d->nframes);
    put_u32(dbg, d->nvars);
    put_u32(dbg, d->nranges);
    for (uint32_t i = 0; i < d->nframes; i++) {
        const VmFrame *f = &d->frames[i];
        put_u32(dbg, strtab_add(strtab, f->func));
        put_u32(dbg, strtab_add(strtab, f->call_file));
        put_u32(dbg, f->call_line);
        put_u32(dbg, f->parent);
        put_u32(dbg, f->entry);
    }
    for (uint32_t pc = 0; pc < o->prog.ncode; pc++)
        put_u32(dbg, d->pc_frame[pc]);
    for (uint32_t i = 0; i < d->nvars; i++) {
        const VmDbgVar *v = &d->vars[i];
        put_u32(dbg, strtab_add(strtab, v->name));
        unsigned char tf[2] = { (unsigned char)v->type, 0 };
        put_bytes(dbg, tf, 2);
        put_u16(dbg, v->arraylen);
        put_u32(dbg, v->frame);
        put_u32(dbg, (uint32_t)(v->ranges - d->ranges));
        put_u32(dbg, v->nranges);
    }
    for (uint32_t i = 0; i < d->nranges; i++) {
        put_u32(dbg, d->ranges[i].lo);
        put_u32(dbg, d->ranges[i].hi);
        put_u16(dbg, d->ranges[i].reg);
        put_u16(dbg, 0);
    }
}

static void serialise(const VmObject *o, Bytes *sec)
{
    Bytes *strtab = &sec[SEC_STRTAB], *meta = &sec[SEC_META];
    put_u32(meta, OBJ_MAGIC);
    put_u32(meta, VM_OBJECT_VERSION);
    put_u32(meta, (uint32_t)o->kind);
    put_u32(meta, strtab_add(strtab, o->name));
    put_u32(meta, o->prog.nuniform);
    put_u32(meta, o->prog.nvarying);
    put_u32(meta, o->nparams);
    put_u32(meta, o->nglobals);
    put_vars(meta, strtab, o->params, o->nparams);
    put_vars(meta, strtab, o->globals, o->nglobals);
    for (uint32_t i = 0; i < o->prog.ncode; i++) {
        put_u32(&sec[SEC_CODE], (uint32_t)o->prog.code[i]);
        put_u32(&sec[SEC_CODE], (uint32_t)(o->prog.code[i] >> 32));
    }
    for (uint32_t i = 0; i < o->prog.nuniform; i++) {
        uint32_t bits;
        memcpy(&bits, &o->prog.uniform_init[i], 4);
        put_u32(&sec[SEC_UINIT], bits);
    }
    for (uint32_t i = 0; i < o->prog.nvarying_init; i++) {
        uint32_t bits;
        memcpy(&bits, &o->prog.varying_init[i].value, 4);
        put_u32(&sec[SEC_VINIT], o->prog.varying_init[i].slot);
        put_u32(&sec[SEC_VINIT], bits);
    }
    for (uint32_t i = 0; i < o->prog.nstrings; i++)
        put_u32(&sec[SEC_STRINGS], strtab_add(strtab, o->prog.strings[i]));
    put_u32(&sec[SEC_BUILTINS], builtin_table_fingerprint());
    for (uint32_t i = 0; i < o->prog.nbuiltins; i++) {
        const VmCallee *c = &o->callees[i];
        put_u32(&sec[SEC_BUILTINS], c->row);
        put_u32(&sec[SEC_BUILTINS], (unsigned char)c->result | (uint32_t)c->nargs << 8);
        for (int k = 0; k < c->nargs; k++)
            put_u32(&sec[SEC_BUILTINS], (unsigned char)c->type[k] | (uint32_t)c->arraylen[k] << 16);
    }
    for (uint32_t i = 0; i < o->nlines; i++) {
        put_u32(&sec[SEC_LINES], o->lines[i].pc);
        put_u32(&sec[SEC_LINES], o->lines[i].line);
        put_u32(&sec[SEC_LINES], strtab_add(strtab, o->lines[i].file));
    }
    if (o->debug)
        serialise_debug(o, strtab, &sec[SEC_DEBUG]);
    if (o->ptx) {
        size_t n = strlen(o->ptx);
        put_u32(&sec[SEC_PTX], strtab_add(strtab, o->ptx_gpu));
        put_u32(&sec[SEC_PTX], (uint32_t)n);
        put_bytes(&sec[SEC_PTX], o->ptx, n);
        put_bytes(&sec[SEC_PTX], "\0\0\0", (4 - n % 4) % 4);
    }
}

static int fail(char *err, int errlen, const char *path, const char *what, const char *detail)
{
    snprintf(err, (size_t)errlen, "%s: error: %s%s%s", path, what, detail ? ": " : "",
             detail ? detail : "");
    return -1;
}

/* Lays the sections out in an ELF file on fd; .rsl.debug and .rsl.ptx
   only when obj has debug information and PTX. */
static bool write_elf(int fd, Bytes *sec, const VmObject *obj)
{
    Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!e)
        return false;
    bool ok = false;
    GElf_Ehdr eh;
    if (!gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh))
        goto out;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_type = ET_REL;
    eh.e_machine = EM_NONE;
    eh.e_version = EV_CURRENT;
    Bytes shstr = { 0 };
    put_bytes(&shstr, "", 1);
    for (int i = 0; i <= NSECTIONS; i++) {
        if ((i == SEC_DEBUG && !obj->debug) || (i == SEC_PTX && !obj->ptx))
            continue;
        Elf_Scn *scn = elf_newscn(e);
        Elf_Data *d = scn ? elf_newdata(scn) : NULL;
        GElf_Shdr sh;
        if (!d || !gelf_getshdr(scn, &sh))
            goto out_shstr;
        bool names = i == NSECTIONS;
        sh.sh_name = strtab_add(&shstr, names ? ".shstrtab" : section_names[i]);
        sh.sh_type = names || i == SEC_STRTAB ? SHT_STRTAB : SHT_PROGBITS;
        sh.sh_addralign = i == SEC_CODE ? 8 : 4;
        d->d_align = sh.sh_addralign;
        d->d_type = ELF_T_BYTE;
        d->d_version = EV_CURRENT;
        /* The names table is complete only now: take it last. */
        d->d_buf = names ? shstr.p : sec[i].p;
        d->d_size = names ? shstr.n : sec[i].n;
        if (shstr.failed || !gelf_update_shdr(scn, &sh))
            goto out_shstr;
        if (names)
            eh.e_shstrndx = (Elf64_Half)elf_ndxscn(scn);
    }
    ok = gelf_update_ehdr(e, &eh) && elf_update(e, ELF_C_WRITE) >= 0;
out_shstr:
    elf_end(e);
    e = NULL;
    free(shstr.p);
out:
    if (e)
        elf_end(e);
    return ok;
}

int vm_object_write(const char *path, const VmObject *obj, char *err, int errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(err, errlen, path, "libelf is not usable", elf_errmsg(-1));
    Bytes sec[NSECTIONS] = { 0 };
    serialise(obj, sec);
    bool nomem = false;
    for (int i = 0; i < NSECTIONS; i++)
        nomem |= sec[i].failed;
    int rc = -1;
    if (nomem) {
        fail(err, errlen, path, "out of memory", NULL);
        goto out;
    }
    OutFile of;
    char why[256];
    int fd = outfile_begin(&of, path, why, sizeof why);
    if (fd < 0) {
        fail(err, errlen, path, why, NULL);
        goto out;
    }
    bool ok = write_elf(fd, sec, obj);
    ok = close(fd) == 0 && ok;
    if (!ok) {
        outfile_abort(&of);
        fail(err, errlen, path, "cannot write the object", elf_errmsg(-1));
        goto out;
    }
    if (outfile_commit(&of, why, sizeof why) < 0) {
        fail(err, errlen, path, why, NULL);
        goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < NSECTIONS; i++)
        free(sec[i].p);
    return rc;
}

/*
** disasm.c: bytecode listings (disasm.h). Each opcode's operand shape in
** opcodes.h (vm_op_operands) decides how it prints, so a new opcode
** lists without changes here unless its shape is new.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vm/builtins.h"
#include "vm/disasm.h"

/* ---- source text ------------------------------------------------------ */

typedef struct SrcFile {
    char *name;
    char *text;                 /* NULL: unreadable */
    char **line;                /* line[i]: line i + 1, NUL-terminated */
    unsigned nlines;
} SrcFile;

struct VmSource {
    SrcFile *f;
    int n;
};

VmSource *vm_source_new(void)
{
    return calloc(1, sizeof(VmSource));
}

void vm_source_free(VmSource *src)
{
    if (!src)
        return;
    for (int i = 0; i < src->n; i++) {
        free(src->f[i].name);
        free(src->f[i].text);
        free(src->f[i].line);
    }
    free(src->f);
    free(src);
}

static void load(SrcFile *f)
{
    FILE *in = fopen(f->name, "rb");
    if (!in)
        return;
    size_t len = 0, cap = 4096, got;
    char *t = malloc(cap + 1);
    while (t && (got = fread(t + len, 1, cap - len, in)) > 0) {
        len += got;
        char *p = len == cap ? realloc(t, (cap *= 2) + 1) : t;
        if (!p)
            free(t);
        t = p;
    }
    fclose(in);
    if (!t)
        return;
    t[len] = '\0';
    unsigned n = 1;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    if (!(f->line = malloc(n * sizeof *f->line))) {
        free(t);
        return;
    }
    f->text = t;
    for (char *p = t; p; f->nlines++) {
        f->line[f->nlines] = p;
        p = strchr(p, '\n');
        if (p)
            *p++ = '\0';
    }
}

const char *vm_source_line(VmSource *src, const char *file, unsigned line)
{
    if (!src || !file)
        return NULL;
    SrcFile *f = NULL;
    for (int i = 0; i < src->n && !f; i++)
        if (!strcmp(src->f[i].name, file))
            f = &src->f[i];
    if (!f) {
        SrcFile *p = realloc(src->f, (size_t)(src->n + 1) * sizeof *p);
        if (!p)
            return NULL;
        src->f = p;
        f = &src->f[src->n];
        *f = (SrcFile){ strdup(file), NULL, NULL, 0 };
        if (!f->name)
            return NULL;
        src->n++;
        load(f);
    }
    if (!f->text || line < 1 || line > f->nlines)
        return NULL;
    const char *s = f->line[line - 1];
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    if (n && s[n - 1] == '\r') /* CRLF sources */
        ((char *)s)[n - 1] = '\0';
    return s;
}

/* ---- names ---------------------------------------------------------------- */

const char *vm_type_name(VmType t)
{
    static const char *const names[VM_NTYPES] = { "float", "color", "point", "vector",
                                                  "normal", "matrix", "string" };
    return t < VM_NTYPES ? names[t] : "?";
}

const char *vm_kind_name(VmShaderKind k)
{
    static const char *const names[VM_NKINDS] = { "surface", "light", "displacement", "volume",
                                                  "imager" };
    return k < VM_NKINDS ? names[k] : "?";
}

const VmLine *vm_line_at(const VmObject *o, uint32_t pc)
{
    const VmLine *at = NULL;
    for (uint32_t i = 0; i < o->nlines && o->lines[i].pc <= pc; i++)
        at = &o->lines[i];
    return at;
}

/* ---- instructions ------------------------------------------------------------ */

typedef struct Buf {
    char *p;
    size_t n, size;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...)
{
    if (b->n >= b->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->size - b->n, fmt, ap);
    va_end(ap);
    b->n = k < 0 ? b->size : b->n + (size_t)k;
}

/* The slots an instruction writes at A: its first and how many (0: none). */
static unsigned dest_width(const VmIns *code, uint32_t ncode, uint32_t pc)
{
    VmIns i = code[pc];
    switch (vm_op(i)) {
    case VM_OP_NOP: case VM_OP_X: case VM_OP_MASK: case VM_OP_MASKALL: case VM_OP_JMP:
    case VM_OP_JZ: case VM_OP_JNZ: case VM_OP_JNONE: case VM_OP_RET:
        return 0;
    case VM_OP_DOT: case VM_OP_DOTRSQ: case VM_OP_LT: case VM_OP_LE: case VM_OP_EQ:
    case VM_OP_NE: case VM_OP_AND: case VM_OP_OR: case VM_OP_NOT:
        return 1;
    case VM_OP_CROSS:
        return 3;
    case VM_OP_MULM: case VM_OP_DIVM:
        return 16;
    case VM_OP_ASET:
        return pc + 1 < ncode ? vm_w(i) * vm_b(code[pc + 1]) : vm_w(i);
    default:
        return vm_w(i);
    }
}

unsigned vm_dest_slots(const VmProgram *p, uint32_t pc)
{
    return pc < p->ncode ? dest_width(p->code, p->ncode, pc) : 0;
}

/* Which uniform slots some instruction writes (the others hold their
   preloaded value throughout). */
static unsigned char *uniform_written(const VmObject *o)
{
    const VmProgram *p = &o->prog;
    unsigned char *w = calloc(p->nuniform + 1, 1);
    if (!w)
        return NULL;
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        unsigned a = vm_a(p->code[pc]), n = dest_width(p->code, p->ncode, pc);
        for (unsigned k = 0; !(a & VM_V) && k < n && VM_SLOT(a) + k < p->nuniform; k++)
            w[VM_SLOT(a) + k] = 1;
    }
    return w;
}

static void operand(Buf *b, const VmObject *o, const unsigned char *written, unsigned r,
                    unsigned w)
{
    unsigned slot = VM_SLOT(r);
    put(b, "%c%u", r & VM_V ? 'v' : 'u', slot);
    for (int list = 0; list < 2; list++) {
        const VmVar *v = list ? o->globals : o->params;
        for (uint32_t i = 0; i < (list ? o->nglobals : o->nparams); i++) {
            if ((v[i].reg & VM_V) != (r & VM_V) || slot < VM_SLOT(v[i].reg)
                || slot >= VM_SLOT(v[i].reg) + vm_type_slots(v[i].type, v[i].arraylen))
                continue;
            unsigned k = slot - VM_SLOT(v[i].reg);
            if (k)
                put(b, "<%s+%u>", v[i].name, k);
            else
                put(b, "<%s>", v[i].name);
            return;
        }
    }
    if ((r & VM_V) || !written || (w != 1 && w != 3) || slot + w > o->prog.nuniform)
        return;
    for (unsigned k = 0; k < w; k++)
        if (written[slot + k])
            return;
    const float *f = o->prog.uniform_init + slot;
    if (w == 1)
        put(b, "=%g", (double)f[0]);
    else
        put(b, "=(%g %g %g)", (double)f[0], (double)f[1], (double)f[2]);
}

/* The width of each source operand as the VM reads it. */
static unsigned source_width(VmOp op, unsigned w)
{
    switch (op) {
    case VM_OP_DOT: case VM_OP_DOTRSQ: case VM_OP_CROSS: case VM_OP_NORM:
        return 3;
    case VM_OP_MULM: case VM_OP_DIVM:
        return 16;
    case VM_OP_AND: case VM_OP_OR: case VM_OP_NOT:
        return 1;
    case VM_OP_SPLAT:
        return 1;
    default:
        return w;
    }
}

static uint32_t format_ins(const VmObject *o, const unsigned char *written, uint32_t pc,
                           char *buf, size_t size)
{
    const VmProgram *p = &o->prog;
    Buf b = { buf, 0, size };
    if (size)
        buf[0] = '\0';
    if (pc >= p->ncode) {
        put(&b, "<past the end>");
        return 1;
    }
    VmIns i = p->code[pc];
    VmOp op = vm_op(i);
    if (op >= VM_NOPS) {
        put(&b, "<opcode %u>", (unsigned)op);
        return 1;
    }
    unsigned w = vm_w(i), a = vm_a(i), bb = vm_b(i), c = vm_c(i);
    const char *shape = vm_op_operands[op];
    bool xword = pc + 1 < p->ncode && vm_op(p->code[pc + 1]) == VM_OP_X;
    VmIns x = xword ? p->code[pc + 1] : 0;
    char name[24];
    if (w && shape[0] == 'A' && op != VM_OP_MASK && op != VM_OP_JZ && op != VM_OP_JNZ
        && op != VM_OP_JNONE)
        snprintf(name, sizeof name, "%s.%u", vm_op_names[op], w);
    else
        snprintf(name, sizeof name, "%s", vm_op_names[op]);
    put(&b, "%-8s", name);
    unsigned dw = dest_width(p->code, p->ncode, pc), sw = source_width(op, w);
    switch (op) {
    case VM_OP_JMP:
        put(&b, " -> %u", vm_t(i));
        return 1;
    case VM_OP_JZ: case VM_OP_JNZ: case VM_OP_JNONE:
        put(&b, " ");
        operand(&b, o, written, a, 1);
        put(&b, " -> %u", vm_t(i));
        return 1;
    case VM_OP_MASK:
        put(&b, " ");
        operand(&b, o, written, a, 1);
        return 1;
    case VM_OP_X:
        put(&b, " %u, %u, %u", a, bb, c);
        return 1;
    case VM_OP_CALLB: {
        put(&b, " ");
        operand(&b, o, written, a, w);
        char callee[256] = "?";
        if (bb < p->nbuiltins && o->callees)
            vm_callee_name(&o->callees[bb], callee, sizeof callee);
        put(&b, " = %s(", callee);
        for (unsigned k = 0; k < c && pc + 1 + k < p->ncode; k++) {
            VmIns xa = p->code[pc + 1 + k];
            put(&b, "%s", k ? ", " : "");
            operand(&b, o, written, vm_a(xa), vm_b(xa));
            if (vm_b(xa) != 1)
                put(&b, ":%u", vm_b(xa));
        }
        put(&b, ")");
        return 1 + c;
    }
    case VM_OP_DERIV:
        put(&b, " ");
        operand(&b, o, written, a, dw);
        put(&b, ", ");
        operand(&b, o, written, bb, w);
        put(&b, ", %s", c ? "dv" : "du");
        return 1;
    case VM_OP_AGET:
    case VM_OP_ASET: {
        bool set = op == VM_OP_ASET;
        unsigned len = set ? vm_b(x) : vm_a(x);
        put(&b, " ");
        operand(&b, o, written, a, set ? dw : w);
        put(&b, ", ");
        operand(&b, o, written, bb, 0);
        put(&b, "[");
        operand(&b, o, written, c, 1);
        put(&b, "]");
        if (set) {
            put(&b, " = ");
            operand(&b, o, written, vm_a(x), w);
        }
        put(&b, " (%u elements)", len);
        return xword ? 2 : 1;
    }
    default:
        break;
    }
    /* The regular shapes: A, AB, ABC, ABC+D. */
    for (int k = 0; shape[k] && shape[k] != '+'; k++) {
        unsigned r = shape[k] == 'A' ? a : shape[k] == 'B' ? bb : c;
        put(&b, k ? ", " : " ");
        operand(&b, o, written, r, k ? sw : dw);
    }
    if (op == VM_OP_SEL) {
        put(&b, ", ");
        operand(&b, o, written, vm_a(x), w);
        return xword ? 2 : 1;
    }
    return 1;
}

/* format_ins, without the padding a bare mnemonic leaves. */
static uint32_t format_trimmed(const VmObject *o, const unsigned char *written, uint32_t pc,
                               char *buf, size_t size)
{
    uint32_t n = format_ins(o, written, pc, buf, size);
    size_t len = size ? strlen(buf) : 0;
    while (len && buf[len - 1] == ' ')
        buf[--len] = '\0';
    return n;
}

uint32_t vm_disasm_ins(const VmObject *o, uint32_t pc, char *buf, size_t size)
{
    unsigned char *written = uniform_written(o);
    uint32_t n = format_trimmed(o, written, pc, buf, size);
    free(written);
    return n;
}

/* ---- listings ---------------------------------------------------------------- */

static void header(FILE *out, const VmObject *o)
{
    fprintf(out, "; %s %s: %u words, %u uniform and %u varying slots\n", vm_kind_name(o->kind),
            o->name, o->prog.ncode, o->prog.nuniform, o->prog.nvarying);
    for (int list = 0; list < 2; list++) {
        const VmVar *v = list ? o->globals : o->params;
        for (uint32_t i = 0; i < (list ? o->nglobals : o->nparams); i++) {
            fprintf(out, "; %s %s%s %s", list ? "global" : "param",
                    v[i].flags & VM_VAR_OUTPUT ? "output " : "", vm_type_name(v[i].type),
                    v[i].name);
            if (v[i].arraylen)
                fprintf(out, "[%u]", v[i].arraylen);
            fprintf(out, " %s %c%u\n", v[i].flags & VM_VAR_VARYING ? "varying" : "uniform",
                    v[i].reg & VM_V ? 'v' : 'u', VM_SLOT(v[i].reg));
        }
    }
}

/* Where the code of an inlined function starts, from the debug frames. */
static void frame_note(FILE *out, const VmObject *o, uint32_t pc, uint32_t *cur)
{
    const VmDebug *d = o->debug;
    if (!d || pc >= o->prog.ncode || d->pc_frame[pc] == *cur)
        return;
    *cur = d->pc_frame[pc];
    const VmFrame *f = &d->frames[*cur];
    if (f->parent == VM_NO_FRAME)
        fprintf(out, "; in %s\n", f->func);
    else
        fprintf(out, "; in %s, inlined at %s:%u\n", f->func, f->call_file, f->call_line);
}

/* The debug information (rslc -g): frames, then where each variable
   lives. */
static void debug_info(FILE *out, const VmObject *o)
{
    const VmDebug *d = o->debug;
    fprintf(out, "; frames\n");
    for (uint32_t f = 0; f < d->nframes; f++) {
        const VmFrame *x = &d->frames[f];
        fprintf(out, ";   #%u %s", f, x->func);
        if (x->parent != VM_NO_FRAME)
            fprintf(out, ", inlined at %s:%u in #%u", x->call_file, x->call_line, x->parent);
        if (x->entry < o->prog.ncode)
            fprintf(out, ", entry %u\n", x->entry);
        else
            fprintf(out, ", no code\n");
    }
    fprintf(out, "; variables\n");
    for (uint32_t i = 0; i < d->nvars; i++) {
        const VmDbgVar *v = &d->vars[i];
        fprintf(out, ";   %s %s", vm_type_name(v->type), v->name);
        if (v->arraylen)
            fprintf(out, "[%u]", v->arraylen);
        fprintf(out, " in #%u:", v->frame);
        if (!v->nranges)
            fprintf(out, " optimized out");
        for (uint32_t k = 0; k < v->nranges; k++)
            fprintf(out, "%s %c%u pc %u-%u", k ? "," : "", v->ranges[k].reg & VM_V ? 'v' : 'u',
                    VM_SLOT(v->ranges[k].reg), v->ranges[k].lo, v->ranges[k].hi);
        fputc('\n', out);
    }
}

void vm_disasm(FILE *out, const VmObject *o, VmSource *src, uint32_t mark)
{
    unsigned char *written = uniform_written(o);
    header(out, o);
    uint32_t line = 0, frame = VM_NO_FRAME;
    char text[512];
    for (uint32_t pc = 0; pc < o->prog.ncode;) {
        frame_note(out, o, pc, &frame);
        for (; line < o->nlines && o->lines[line].pc <= pc; line++) {
            const VmLine *l = &o->lines[line];
            if (line + 1 < o->nlines && o->lines[line + 1].pc <= pc)
                continue; /* a line without code of its own here */
            const char *s = vm_source_line(src, l->file, l->line);
            fprintf(out, "%s:%u:%s%s\n", l->file, l->line, s ? " " : "", s ? s : "");
        }
        uint32_t n = format_trimmed(o, written, pc, text, sizeof text);
        fprintf(out, "%s%5u  %s\n", pc == mark ? "=>" : "  ", pc, text);
        pc += n ? n : 1;
    }
    if (o->debug)
        debug_info(out, o);
    free(written);
}

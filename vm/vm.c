/*
** vm.c: the interpreter loop. One instruction at a time over the whole
** batch: uniform destinations compute once, varying ones compute every
** lane and keep the result where the execution mask is set.
**
** Componentwise arithmetic runs as tight loops over lanes (the common
** case, and what a compiler vectorises). Operations that mix components
** (dot, cross, matrices, selects, arrays, builtins) gather each lane's
** operands into scalars first, which also makes them safe when the
** destination overlaps a source.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/mathlib.h"
#include "vm/vm.h"

/* A source operand's component k: lanes at p[i * stride] (stride 0 for a
   uniform, broadcast to every lane). */
typedef struct Src {
    const float *p;
    int stride;
} Src;

static inline Src src(const VmState *s, unsigned r, unsigned k)
{
    if (r & VM_V)
        return (Src){ s->V + (size_t)(VM_SLOT(r) + k) * (size_t)s->n, 1 };
    return (Src){ s->U + VM_SLOT(r) + k, 0 };
}

static inline float *dst(VmState *s, unsigned r, unsigned k)
{
    return r & VM_V ? s->V + (size_t)(VM_SLOT(r) + k) * (size_t)s->n : s->U + VM_SLOT(r) + k;
}

/* Lane i of an operand's w components into out, and back. */
static void gather(const VmState *s, unsigned r, unsigned w, int i, float *out)
{
    for (unsigned k = 0; k < w; k++) {
        Src a = src(s, r, k);
        out[k] = a.p[i * a.stride];
    }
}

static void scatter(VmState *s, unsigned r, unsigned w, int i, const float *in)
{
    for (unsigned k = 0; k < w; k++)
        dst(s, r, k)[r & VM_V ? i : 0] = in[k];
}

void vm_reset(const VmProgram *p, VmState *s)
{
    if (p->nuniform)
        memcpy(s->U, p->uniform_init, p->nuniform * sizeof *s->U);
    for (uint32_t k = 0; k < p->nvarying_init; k++) {
        float *lanes = s->V + (size_t)p->varying_init[k].slot * (size_t)s->n;
        for (int i = 0; i < s->n; i++)
            lanes[i] = p->varying_init[k].value;
    }
    memset(s->random_drawn, 0, sizeof s->random_drawn);
}

static void set_mask(VmState *s, const float *m)
{
    for (int i = 0; i < s->n; i++)
        s->mask[i] = (!s->active || s->active[i]) && (!m || m[i] != 0.0f);
}

/* Componentwise A = f(B) over w components. */
#define UNARY(expr)                                                          \
    for (unsigned k = 0; k < w; k++) {                                       \
        Src sb = src(s, b, k);                                               \
        float *d = dst(s, a, k);                                             \
        if (!(a & VM_V)) {                                                   \
            float x = sb.p[0];                                               \
            d[0] = (expr);                                                   \
            continue;                                                        \
        }                                                                    \
        for (int i = 0; i < n; i++) {                                        \
            float x = sb.p[i * sb.stride];                                   \
            float r_ = (expr);                                               \
            d[i] = s->mask[i] ? r_ : d[i];                                   \
        }                                                                    \
    }

/* Componentwise A = f(B, C) over w components. */
#define COMPONENTWISE(expr)                                                  \
    for (unsigned k = 0; k < w; k++) {                                       \
        Src sb = src(s, b, k), sc = src(s, c, k);                            \
        float *d = dst(s, a, k);                                             \
        if (!(a & VM_V)) {                                                   \
            float x = sb.p[0], y = sc.p[0];                                  \
            d[0] = (expr);                                                   \
            continue;                                                        \
        }                                                                    \
        for (int i = 0; i < n; i++) {                                        \
            float x = sb.p[i * sb.stride], y = sc.p[i * sc.stride];          \
            float r_ = (expr);                                               \
            d[i] = s->mask[i] ? r_ : d[i];                                   \
        }                                                                    \
    }

/* The lanes an instruction with destination a computes: all masked lanes
   of the batch, or once for a uniform. */
#define FOR_LANES(a) \
    for (int i = 0, lanes_ = (a) & VM_V ? n : 1; i < lanes_; i++) \
        if (!((a) & VM_V) || s->mask[i])

static int fail(char *err, int errlen, uint32_t pc, const char *what)
{
    if (err && errlen > 0)
        snprintf(err, (size_t)errlen, "bytecode error at instruction %u: %s", pc, what);
    return -1;
}

/* The cycle model: an instruction issues a cycle after the previous one,
   or when its sources are ready if later, and its result is ready
   `latency` cycles after it issues. */
static uint64_t *ready(VmState *s, unsigned r)
{
    return r & VM_V ? &s->ready_v[VM_SLOT(r)] : &s->ready_u[VM_SLOT(r)];
}

static void model_cycles(VmState *s, VmIns ins)
{
    VmOp op = vm_op(ins);
    const char *shape = vm_op_operands[op];
    uint64_t issue = s->stats.cycles + 1;
    unsigned a = vm_a(ins), b = vm_b(ins), c = vm_c(ins);
    bool reads_a = op == VM_OP_MADD || op == VM_OP_MASK || op == VM_OP_JZ || op == VM_OP_JNZ
                || op == VM_OP_JNONE;
    if (reads_a && *ready(s, a) > issue)
        issue = *ready(s, a);
    if (shape[0] == 'A' && shape[1] == 'B' && op != VM_OP_CALLB && *ready(s, b) > issue)
        issue = *ready(s, b);
    if (shape[0] == 'A' && shape[1] == 'B' && shape[2] == 'C' && *ready(s, c) > issue)
        issue = *ready(s, c);
    s->stats.cycles = issue;
    if (shape[0] == 'A' && !reads_a)
        *ready(s, a) = issue + vm_op_latency(op, vm_w(ins));
}

void vm_lane_fault(const VmCall *call, const char *fmt, ...)
{
    VmState *s = call->state;
    if (s->fault[0]) /* the first fault is the one to report */
        return;
    s->fault_file = s->call_file, s->fault_line = s->call_line;
    int n = snprintf(s->fault, sizeof s->fault, "%s(): ", call->self->base);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->fault + n, sizeof s->fault - (size_t)n, fmt, ap);
    va_end(ap);
}

void vm_lane_warn(const VmCall *call, const char *fmt, ...)
{
    VmState *s = call->state;
    if (s->call_warned) /* once per call and batch, not once per lane */
        return;
    s->call_warned = true;
    char msg[240];
    int n = snprintf(msg, sizeof msg, "%s(): ", call->self->base);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (s->warn)
        s->warn(s, s->call_pc, msg, s->warn_data);
    else
        fprintf(stderr, "warning: %s\n", msg);
}

void vm_deriv_solve(const VmDeriv *d, int i, float dfa, float dfb, float *fu, float *fv)
{
    float ua = d->dua[i], va = d->dva[i], ub = d->dub[i], vb = d->dvb[i];
    float det = ua * vb - va * ub;
    if (det != 0) {
        *fu = (dfa * vb - dfb * va) / det;
        *fv = (ua * dfb - ub * dfa) / det;
        return;
    }
    /* The neighbours do not span the surface: use one that lies along a
       parameter, if any. */
    *fu = ua != 0 && va == 0 ? dfa / ua : ub != 0 && vb == 0 ? dfb / ub : 0;
    *fv = va != 0 && ua == 0 ? dfa / va : vb != 0 && ub == 0 ? dfb / vb : 0;
}

float vm_deriv_lane(const VmDeriv *d, int n, int i, const float *f, size_t stride, int dir)
{
    float fu = 0, fv = 0;
    if (d && d->na[i] < n && d->nb[i] < n) {
        float x = f[(size_t)i * stride];
        vm_deriv_solve(d, i, f[d->na[i] * stride] - x, f[d->nb[i] * stride] - x, &fu, &fv);
    }
    return dir ? fv : fu;
}

/* At a backward jump: whether the run has gone on too long (s->halt
   says how). */
static bool runaway(VmState *s)
{
    if (s->max_steps && s->stats.instructions > s->max_steps)
        s->halt = VM_HALT_STEPS;
    else if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
        s->halt = VM_HALT_STOP;
    return s->halt != VM_HALT_NONE;
}

int vm_run(const VmProgram *p, VmState *s, char *err, int errlen)
{
    const int n = s->n;
    uint32_t pc = 0;
    set_mask(s, NULL);
    s->fault[0] = '\0';
    s->halt = VM_HALT_NONE;
    for (;;) {
        if (pc >= p->ncode)
            return fail(err, errlen, pc, "ran past the end of the code");
        if (s->hook && s->hook(s, pc, s->hook_data)) {
            if (err && errlen > 0)
                snprintf(err, (size_t)errlen, "stopped by the debugger at instruction %u", pc);
            return -1;
        }
        VmIns ins = p->code[pc++];
        unsigned w = vm_w(ins), a = vm_a(ins), b = vm_b(ins), c = vm_c(ins);
        s->stats.instructions++;
        if (a & VM_V)
            s->stats.lanes += (uint64_t)n;
        if (s->ready_u && s->ready_v && vm_op(ins) < VM_NOPS)
            model_cycles(s, ins);
        switch (vm_op(ins)) {
        case VM_OP_NOP:
        case VM_OP_X:
            break;
        case VM_OP_MOV:
            UNARY(x);
            break;
        case VM_OP_SPLAT: /* every component from B's first */
            for (unsigned k = 0; k < w; k++) {
                Src sb = src(s, b, 0);
                float *d = dst(s, a, k);
                FOR_LANES(a) d[a & VM_V ? i : 0] = sb.p[i * sb.stride];
            }
            break;
        case VM_OP_ADD: COMPONENTWISE(x + y); break;
        case VM_OP_SUB: COMPONENTWISE(x - y); break;
        case VM_OP_MUL: COMPONENTWISE(x * y); break;
        case VM_OP_DIV: COMPONENTWISE(x / y); break;
        case VM_OP_NEG: UNARY(-x); break;
        case VM_OP_RSQRT: UNARY(rsl_inversesqrt(x)); break;
        case VM_OP_NORM:
            FOR_LANES(a) {
                float x[3], r[3];
                gather(s, b, 3, i, x);
                rsl_normalize(x, r);
                scatter(s, a, 3, i, r);
            }
            break;
        case VM_OP_MADD:
            for (unsigned k = 0; k < w; k++) {
                Src sb = src(s, b, k), sc = src(s, c, k);
                float *d = dst(s, a, k);
                FOR_LANES(a) {
                    int l = a & VM_V ? i : 0;
                    d[l] += sb.p[i * sb.stride] * sc.p[i * sc.stride];
                }
            }
            break;
        case VM_OP_LT: COMPONENTWISE(x < y ? 1.0f : 0.0f); break;
        case VM_OP_LE: COMPONENTWISE(x <= y ? 1.0f : 0.0f); break;
        case VM_OP_AND: COMPONENTWISE(x != 0 && y != 0 ? 1.0f : 0.0f); break;
        case VM_OP_OR: COMPONENTWISE(x != 0 || y != 0 ? 1.0f : 0.0f); break;
        case VM_OP_NOT: UNARY(x == 0 ? 1.0f : 0.0f); break;
        case VM_OP_DOT:
        case VM_OP_DOTRSQ:
        case VM_OP_CROSS:
        case VM_OP_MULM:
        case VM_OP_DIVM:
        case VM_OP_EQ:
        case VM_OP_NE: {
            VmOp op = vm_op(ins);
            unsigned wb = op == VM_OP_DOT || op == VM_OP_DOTRSQ || op == VM_OP_CROSS ? 3 : op == VM_OP_EQ || op == VM_OP_NE ? (w ? w : 1) : 16;
            FOR_LANES(a) {
                float x[16], y[16], r[16], t[16];
                gather(s, b, wb, i, x);
                gather(s, c, wb, i, y);
                unsigned wr = 1;
                switch (op) {
                case VM_OP_DOT:
                    r[0] = rsl_dot(x, y);
                    break;
                case VM_OP_DOTRSQ:
                    r[0] = rsl_inversesqrt(rsl_dot(x, y));
                    break;
                case VM_OP_CROSS:
                    r[0] = x[1] * y[2] - x[2] * y[1];
                    r[1] = x[2] * y[0] - x[0] * y[2];
                    r[2] = x[0] * y[1] - x[1] * y[0];
                    wr = 3;
                    break;
                case VM_OP_MULM:
                    rsl_matmul(x, y, r);
                    wr = 16;
                    break;
                case VM_OP_DIVM: /* singular: zeros (rsl_matinv) */
                    rsl_matinv(y, t);
                    rsl_matmul(x, t, r);
                    wr = 16;
                    break;
                default: { /* EQ, NE; strings compare by interned index */
                    bool eq = true;
                    for (unsigned k = 0; k < wb; k++)
                        eq = eq && (w ? x[k] == y[k] : memcmp(&x[k], &y[k], sizeof x[k]) == 0);
                    r[0] = eq == (op == VM_OP_EQ) ? 1.0f : 0.0f;
                }
                }
                scatter(s, a, wr, i, r);
            }
            break;
        }
        case VM_OP_SEL: {
            if (pc >= p->ncode || vm_op(p->code[pc]) != VM_OP_X)
                return fail(err, errlen, pc - 1, "SEL without its X word");
            unsigned d = vm_a(p->code[pc++]);
            FOR_LANES(a) {
                float cond, v[16];
                gather(s, b, 1, i, &cond);
                gather(s, cond != 0 ? c : d, w, i, v);
                scatter(s, a, w, i, v);
            }
            break;
        }
        case VM_OP_AGET:
        case VM_OP_ASET: {
            if (pc >= p->ncode || vm_op(p->code[pc]) != VM_OP_X)
                return fail(err, errlen, pc - 1, "array access without its X word");
            VmIns x = p->code[pc++];
            bool set = vm_op(ins) == VM_OP_ASET;
            unsigned len = set ? vm_b(x) : vm_a(x), val = vm_a(x);
            if (len == 0)
                return fail(err, errlen, pc - 2, "array of length 0");
            FOR_LANES(a) {
                float fi, v[16];
                gather(s, c, 1, i, &fi);
                /* Clamp: an out-of-range index reads or writes an end.
                   In range means the index truncates into [0, len). */
                unsigned idx = !(fi > 0) ? 0 : fi >= (float)(len - 1) ? len - 1 : (unsigned)fi;
                if (!(fi > -1.0f && fi < (float)len) && s->bad_index)
                    s->bad_index(s, pc - 2, fi, s->bad_index_data);
                if (!set) {
                    gather(s, b + idx * w, w, i, v);
                    scatter(s, a, w, i, v);
                    continue;
                }
                for (unsigned e = 0; e < len; e++) {
                    gather(s, e == idx ? val : b + e * w, w, i, v);
                    scatter(s, a + e * w, w, i, v);
                }
            }
            break;
        }
        case VM_OP_DERIV: {
            float d[3][VM_MAX_BATCH];
            const VmDeriv *dv = s->deriv;
            for (unsigned k = 0; k < w && k < 3; k++) {
                Src sb = src(s, b, k);
                for (int i = 0; i < n; i++)
                    d[k][i] = vm_deriv_lane(dv, n, i, sb.p, (size_t)sb.stride, (int)c);
            }
            for (unsigned k = 0; k < w && k < 3; k++) {
                float *out = dst(s, a, k);
                FOR_LANES(a) out[i] = d[k][i];
            }
            break;
        }
        case VM_OP_CALLB: {
            if (b >= p->nbuiltins)
                return fail(err, errlen, pc - 1, "unknown builtin");
            if (c > VM_MAX_ARGS || pc + c > p->ncode)
                return fail(err, errlen, pc - 1, "builtin call with too many arguments");
            const VmBuiltin *bi = &p->builtins[b];
            unsigned argr[VM_MAX_ARGS];
            int argn[VM_MAX_ARGS], total = bi->retn;
            for (unsigned k = 0; k < c; k++) {
                VmIns x = p->code[pc + k];
                if (vm_op(x) != VM_OP_X || vm_b(x) < 1 || vm_b(x) > VM_MAX_VALUE)
                    return fail(err, errlen, pc - 1, "malformed builtin argument list");
                argr[k] = vm_a(x);
                argn[k] = (int)vm_b(x);
                total += argn[k];
            }
            if (bi->retn >= 0 && (total != (int)w || w != (unsigned)bi->outn))
                return fail(err, errlen, pc - 1, "builtin tuple of the wrong width");
            s->call_pc = pc - 1, s->call_warned = false, s->call_file = NULL;
            pc += c;
            FOR_LANES(a) {
                float vals[VM_MAX_ARGS][VM_MAX_VALUE], out[VM_MAX_VALUE];
                const float *args[VM_MAX_ARGS];
                memset(out, 0, w * sizeof *out);
                for (unsigned k = 0, at = (unsigned)bi->retn; k < c; at += (unsigned)argn[k++]) {
                    gather(s, argr[k], (unsigned)argn[k], i, vals[k]);
                    args[k] = vals[k];
                    if (bi->retn >= 0)
                        memcpy(out + at, vals[k], (size_t)argn[k] * sizeof *out);
                }
                VmCall call = { bi, s, i, (int)c, args, argn };
                bi->fn(out, &call);
                scatter(s, a, w, i, out);
            }
            if (s->fault[0]) {
                s->fault_pc = pc - 1 - c;
                s->halt = VM_HALT_FAULT;
                snprintf(err, (size_t)errlen, "%s", s->fault);
                return -1;
            }
            break;
        }
        case VM_OP_MASK:
            set_mask(s, src(s, a, 0).p);
            break;
        case VM_OP_MASKALL:
            set_mask(s, NULL);
            break;
        case VM_OP_JMP:
        case VM_OP_JZ:
        case VM_OP_JNZ:
        case VM_OP_JNONE: {
            uint32_t t = vm_t(ins);
            if (t >= p->ncode)
                return fail(err, errlen, pc - 1, "jump out of the code");
            bool jump;
            if (vm_op(ins) == VM_OP_JMP) {
                jump = true;
            } else if (vm_op(ins) == VM_OP_JNONE) {
                const float *m = src(s, a, 0).p;
                jump = true;
                for (int i = 0; i < n && jump; i++)
                    jump = !((!s->active || s->active[i]) && m[i] != 0.0f);
            } else {
                jump = (s->U[VM_SLOT(a)] != 0.0f) == (vm_op(ins) == VM_OP_JNZ);
            }
            if (jump && t < pc && runaway(s)) {
                s->fault_pc = pc - 1;
                if (s->halt == VM_HALT_STEPS)
                    snprintf(err, (size_t)errlen, "ran past %llu steps",
                             (unsigned long long)s->max_steps);
                else
                    snprintf(err, (size_t)errlen, "stopped");
                return -1;
            }
            if (jump)
                pc = t;
            break;
        }
        case VM_OP_RET:
            return 0;
        default:
            return fail(err, errlen, pc - 1, "unknown opcode");
        }
    }
}

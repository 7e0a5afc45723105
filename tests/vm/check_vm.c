/*
** check_vm.c: the interpreter on hand-assembled bytecode. Expected values
** are worked out by hand from the semantics in opcodes.h; the control-flow
** cases give each lane its own path so masks are exercised.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vm/grid.h"
#include "vm/verify.h"
#include "vm/vm.h"
#include "../common/suite.h"

#define V(slot) (VM_V | (slot))
#define OP(op, w, a, b, c) vm_ins(VM_OP_##op, w, a, b, c)

enum { N = 8 };

typedef struct Machine {
    VmProgram prog;
    VmState st;
    float image[64];           /* the initial uniform file */
    float U[64];
    float Vf[64 * N];
} Machine;

static void setup(Machine *m, const VmIns *code, uint32_t ncode, const float *uinit, uint32_t nu)
{
    memset(m, 0, sizeof *m);
    if (nu)
        memcpy(m->image, uinit, nu * sizeof *uinit);
    m->prog.code = code;
    m->prog.ncode = ncode;
    m->prog.nuniform = 64;
    m->prog.nvarying = 64;
    m->prog.uniform_init = m->image;
    m->st.n = N;
    m->st.U = m->U;
    m->st.V = m->Vf;
    vm_reset(&m->prog, &m->st);
}

static float *lanes(Machine *m, unsigned slot)
{
    return m->Vf + slot * N;
}

/* Every program here passes the verifier before it runs. */
static void run_ok(Machine *m)
{
    char err[128];
    ck_assert_msg(vm_verify(&m->prog, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(vm_run(&m->prog, &m->st, err, sizeof err) == 0, "%s", err);
}

START_TEST(uniform_arithmetic)
{
    /* U0..2 = (1,2,3), U3..5 = (4,5,6), U6 = 2 */
    static const float init[] = { 1, 2, 3, 4, 5, 6, 2 };
    const VmIns code[] = {
        OP(ADD, 3, 10, 0, 3),       /* (5,7,9) */
        OP(MUL, 3, 13, 0, 3),       /* (4,10,18) */
        OP(DOT, 1, 16, 0, 3),       /* 4+10+18 = 32 */
        OP(CROSS, 3, 17, 0, 3),     /* (2*6-3*5, 3*4-1*6, 1*5-2*4) = (-3,6,-3) */
        OP(SPLAT, 3, 20, 6, 0),     /* (2,2,2) */
        OP(DIV, 3, 23, 3, 20),      /* (2,2.5,3) */
        OP(NEG, 1, 26, 6, 0),       /* -2 */
        OP(MADD, 3, 10, 20, 0),     /* (5,7,9) + (2,2,2)*(1,2,3) = (7,11,15) */
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, sizeof code / sizeof *code, init, 7);
    run_ok(&m);
    const float want[] = { 7, 11, 15, 4, 10, 18, 32, -3, 6, -3, 2, 2, 2, 2, 2.5f, 3, -2 };
    const int at[] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26 };
    for (int k = 0; k < 17; k++)
        ck_assert_float_eq(m.U[at[k]], want[k]);
    ck_assert_int_eq(m.st.stats.instructions, 9);
}
END_TEST

START_TEST(matrices)
{
    /* U0..15: translate (1,2,3) in RenderMan's row-vector form; U16..31:
       uniform scale 2. */
    float init[32] = { 0 };
    init[0] = init[5] = init[10] = init[15] = 1;
    init[12] = 1, init[13] = 2, init[14] = 3;
    init[16] = init[21] = init[26] = 2, init[31] = 1;
    const VmIns code[] = {
        OP(MULM, 16, 32, 0, 16),    /* translate then scale */
        OP(DIVM, 16, 48, 32, 16),   /* (T*S) * inverse(S) = T */
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 3, init, 32);
    run_ok(&m);
    /* T*S: diagonal 2, translation row (2,4,6) */
    ck_assert_float_eq(m.U[32 + 0], 2);
    ck_assert_float_eq(m.U[32 + 10], 2);
    ck_assert_float_eq(m.U[32 + 12], 2);
    ck_assert_float_eq(m.U[32 + 13], 4);
    ck_assert_float_eq(m.U[32 + 14], 6);
    ck_assert_float_eq(m.U[32 + 15], 1);
    for (int k = 0; k < 16; k++)
        ck_assert_float_eq_tol(m.U[48 + k], init[k], 1e-6f);
}
END_TEST

/* if (x < 4) y = 10; else y = 20;  with x = lane index: a varying if. */
START_TEST(varying_if_else)
{
    static const float init[] = { 4, 10, 20 };
    const VmIns code[] = {
        OP(LT, 1, V(1), V(0), 0),     /* V1 = x < U0 */
        OP(NOT, 1, V(2), V(1), 0),    /* V2 = else mask */
        vm_jump(VM_OP_JNONE, V(1), 5),
        OP(MASK, 0, V(1), 0, 0),
        OP(MOV, 1, V(3), 1, 0),       /* then: y = 10 */
        vm_jump(VM_OP_JNONE, V(2), 8),
        OP(MASK, 0, V(2), 0, 0),
        OP(MOV, 1, V(3), 2, 0),       /* else: y = 20 */
        OP(MASKALL, 0, 0, 0, 0),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 10, init, 3);
    for (int i = 0; i < N; i++)
        lanes(&m, 0)[i] = (float)i;
    run_ok(&m);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(lanes(&m, 3)[i], i < 4 ? 10 : 20);
}
END_TEST

/* A block no lane takes is skipped: with every x >= 4 the then-block's
   instructions never run. */
START_TEST(empty_block_skipped)
{
    static const float init[] = { 4, 10 };
    const VmIns code[] = {
        OP(LT, 1, V(1), V(0), 0),
        vm_jump(VM_OP_JNONE, V(1), 4),
        OP(MASK, 0, V(1), 0, 0),
        OP(MOV, 1, V(3), 1, 0),
        OP(MASKALL, 0, 0, 0, 0),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 6, init, 2);
    for (int i = 0; i < N; i++)
        lanes(&m, 0)[i] = 5.0f + (float)i, lanes(&m, 3)[i] = -1;
    run_ok(&m);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(lanes(&m, 3)[i], -1);
    ck_assert_int_eq(m.st.stats.instructions, 4);
}
END_TEST

/* sum = 0; for (k = 0; k < x; k += 1) sum += k;  with x = lane index:
   lane i loops i times and ends with i(i-1)/2. The loop mask shrinks as
   lanes finish; the loop exits when no lane is left. */
START_TEST(varying_loop)
{
    static const float init[] = { 0, 1 };
    const VmIns code[] = {
        OP(MOV, 1, V(1), 0, 0),         /* k = 0 */
        OP(MOV, 1, V(2), 0, 0),         /* sum = 0 */
        OP(MASKALL, 0, 0, 0, 0),
        /* 3: head; V3, the lanes still looping, only shrinks: a lane
           that left keeps its 0 because it is masked off. */
        OP(LT, 1, V(3), V(1), V(0)),    /* k < x */
        vm_jump(VM_OP_JNONE, V(3), 9),
        OP(MASK, 0, V(3), 0, 0),
        OP(ADD, 1, V(2), V(2), V(1)),   /* sum += k */
        OP(ADD, 1, V(1), V(1), 1),      /* k += 1 */
        vm_jump(VM_OP_JMP, 0, 3),
        /* 9: exit */
        OP(MASKALL, 0, 0, 0, 0),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 11, init, 2);
    for (int i = 0; i < N; i++)
        lanes(&m, 0)[i] = (float)i;
    run_ok(&m);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(lanes(&m, 2)[i], (float)(i * (i - 1) / 2));
}
END_TEST

/* Requested lanes: a batch where only some points are shaded keeps the
   others untouched, even under MASKALL. */
START_TEST(requested_lanes)
{
    static const float init[] = { 7 };
    const VmIns code[] = {
        OP(MOV, 1, V(0), 0, 0),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 2, init, 1);
    uint8_t act[N] = { 1, 0, 1, 0, 0, 0, 0, 1 };
    m.st.active = act;
    run_ok(&m);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(lanes(&m, 0)[i], act[i] ? 7 : 0);
}
END_TEST

START_TEST(select_and_arrays)
{
    /* U0..3: array {10, 20, 30, 40}; U4: 99 */
    static const float init[] = { 10, 20, 30, 40, 99 };
    const VmIns code[] = {
        OP(LT, 1, V(1), V(0), 4),          /* always true */
        OP(LT, 1, V(2), 4, V(0)),          /* always false */
        OP(SEL, 1, V(3), V(2), 0), OP(X, 0, 4, 0, 0),   /* false ? U0 : U4 = 99 */
        OP(AGET, 1, V(4), 0, V(0)), OP(X, 0, 4, 0, 0),  /* arr[x], x clamped */
        OP(ASET, 1, V(10), 0, V(0)), OP(X, 0, 4, 4, 0), /* copy with [x] = 99 */
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 9, init, 5);
    const float x[N] = { -1, 0, 1, 2, 3, 4, 1.7f, NAN };
    memcpy(lanes(&m, 0), x, sizeof x);
    run_ok(&m);
    const int idx[N] = { 0, 0, 1, 2, 3, 3, 1, 0 };
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(lanes(&m, 3)[i], 99);
        ck_assert_float_eq(lanes(&m, 4)[i], init[idx[i]]);
        for (int e = 0; e < 4; e++)
            ck_assert_float_eq(lanes(&m, 10 + (unsigned)e)[i], e == idx[i] ? 99 : init[e]);
    }
}
END_TEST

static void hypot_lane(float *out, const VmCall *call)
{
    const float *const *args = call->args;
    out[0] = sqrtf(args[0][0] * args[0][0] + args[1][1] * args[1][1]);
}

START_TEST(builtin_calls)
{
    static const float init[] = { 3, 0, 4, 0 };
    static const VmBuiltin bi[] = { { .fn = hypot_lane, .base = "hypot", .outn = 1, .retn = -1 } };
    const VmIns code[] = {
        OP(CALLB, 1, 5, 0, 2), OP(X, 0, 0, 1, 0), OP(X, 0, 1, 3, 0),  /* uniform */
        OP(CALLB, 1, V(1), 0, 2), OP(X, 0, V(0), 1, 0), OP(X, 0, 1, 3, 0),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 7, init, 4);
    m.prog.builtins = bi;
    m.prog.nbuiltins = 1;
    for (int i = 0; i < N; i++)
        lanes(&m, 0)[i] = (float)i;
    run_ok(&m);
    ck_assert_float_eq(m.U[5], 5);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(lanes(&m, 1)[i], sqrtf((float)(i * i + 16)));
}
END_TEST

START_TEST(string_equality)
{
    /* Strings are uniform indices; 0 and 2 name the same interned one. */
    float init[3];
    uint32_t ids[3] = { 5, 6, 5 };
    memcpy(init, ids, sizeof ids);
    const VmIns code[] = {
        OP(EQ, 0, 3, 0, 2),
        OP(EQ, 0, 4, 0, 1),
        OP(NE, 0, 5, 0, 1),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 4, init, 3);
    run_ok(&m);
    ck_assert_float_eq(m.U[3], 1);
    ck_assert_float_eq(m.U[4], 0);
    ck_assert_float_eq(m.U[5], 1);
}
END_TEST

START_TEST(derivatives_from_skewed_neighbours)
{
    /* f = 2u + 3v at 8 lanes whose neighbours lie in arbitrary directions
       of (u, v), as adjacent pixels' hits do on a tilted surface: lane i's
       neighbours are i+1 and i+2 (mod 8), and its own (u, v) is
       (i, i*i/8). Du(f) = 2, Dv(f) = 3 wherever the offsets span the
       plane. Lane 7 sits at lane 6's v and is given only lane 6 as a
       neighbour, along u: Du is still 2, Dv unknown (0). */
    const VmIns code[] = {
        OP(DERIV, 1, V(1), V(0), 0),
        OP(DERIV, 1, V(2), V(0), 1),
        OP(RET, 0, 0, 0, 0),
    };
    Machine m;
    setup(&m, code, 3, NULL, 0);
    float u[N], v[N];
    for (int i = 0; i < N; i++)
        u[i] = (float)i, v[i] = (float)(i * i) / 8;
    v[7] = v[6];
    VmDeriv d;
    for (int i = 0; i < N; i++) {
        lanes(&m, 0)[i] = 2 * u[i] + 3 * v[i];
        int a = (i + 1) % N, b = (i + 2) % N;
        d.na[i] = (uint8_t)a, d.nb[i] = (uint8_t)b;
        d.dua[i] = u[a] - u[i], d.dva[i] = v[a] - v[i];
        d.dub[i] = u[b] - u[i], d.dvb[i] = v[b] - v[i];
    }
    d.na[7] = 6, d.dua[7] = -1, d.dva[7] = 0;
    d.nb[7] = 7, d.dub[7] = d.dvb[7] = 0;
    m.st.deriv = &d;
    run_ok(&m);
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq_tol(lanes(&m, 1)[i], 2, 1e-4);
        ck_assert_float_eq_tol(lanes(&m, 2)[i], i == 7 ? 0 : 3, 1e-4);
    }
}
END_TEST

START_TEST(bad_code)
{
    const VmIns past_end[] = { OP(NOP, 0, 0, 0, 0) };
    const VmIns bad_jump[] = { vm_jump(VM_OP_JMP, 0, 7) };
    const VmIns bad_op[] = { (VmIns)0xee };
    const VmIns sel_alone[] = { OP(SEL, 1, 0, 0, 0) };
    const VmIns *progs[] = { past_end, bad_jump, bad_op, sel_alone };
    const char *msgs[] = { "ran past the end", "jump out of the code", "unknown opcode",
                           "SEL without" };
    for (int k = 0; k < 4; k++) {
        Machine m;
        setup(&m, progs[k], 1, NULL, 0);
        char err[128];
        ck_assert_int_eq(vm_run(&m.prog, &m.st, err, sizeof err), -1);
        ck_assert_msg(strstr(err, msgs[k]) != NULL, "%s", err);
    }
}
END_TEST

/* Each program breaks one rule; the message names it. */
START_TEST(verifier_rejects)
{
    struct {
        VmIns code[3];
        int n;
        const char *msg;
    } cases[] = {
        { { OP(ADD, 2, 0, 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "width 2" },
        { { OP(ADD, 3, 0, 0, 63), OP(RET, 0, 0, 0, 0) }, 2, "source register u63 (+3) outside" },
        { { OP(MOV, 1, V(70), 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "destination register v70" },
        { { OP(ADD, 1, 0, V(0), 0), OP(RET, 0, 0, 0, 0) }, 2, "uniform destination u0 computed from varying" },
        { { OP(SEL, 1, 0, 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "missing its X word" },
        { { OP(AGET, 1, 0, 0, 0), OP(X, 0, 99, 0, 0), OP(RET, 0, 0, 0, 0) }, 3, "array register u0 (+99)" },
        { { OP(CALLB, 1, 0, 0, 1), OP(X, 0, 0, 1, 0), OP(RET, 0, 0, 0, 0) }, 3, "builtin 0 of 0" },
        { { OP(MASK, 0, 0, 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "mask register must be varying" },
        { { vm_jump(VM_OP_JMP, 0, 5), OP(RET, 0, 0, 0, 0) }, 2, "jump to 5 of 2" },
        { { vm_jump(VM_OP_JZ, V(0), 0), OP(RET, 0, 0, 0, 0) }, 2, "uniform jump on a varying" },
        { { OP(NORM, 1, 0, 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "width 1" },
        { { OP(DERIV, 1, V(0), 0, 0), OP(RET, 0, 0, 0, 0) }, 2, "DERIV needs varying registers" },
        { { OP(NOP, 0, 0, 0, 0), OP(ADD, 1, 0, 0, 0) }, 2, "must end with RET or JMP" },
        { { (VmIns)0xfe, OP(RET, 0, 0, 0, 0) }, 2, "unknown opcode 254" },
    };
    static const float init[8];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        Machine m;
        setup(&m, cases[k].code, (uint32_t)cases[k].n, init, 8);
        char err[160];
        ck_assert_int_eq(vm_verify(&m.prog, err, sizeof err), -1);
        ck_assert_msg(strstr(err, cases[k].msg) != NULL, "case %zu: %s", k, err);
    }
}
END_TEST

/* A batch's values in and out of variables (vm/grid.c): lane l's
   component j goes to row j of a varying variable's slots at lane l (the
   slot-major layout of vm.h's VmState.V), a uniform one keeps lane 0's
   and gives it back to every lane; three-component values take their own
   path there, so widths 3 and 1 are both checked. */
START_TEST(variables_lane_by_lane)
{
    Machine m;
    setup(&m, NULL, 0, NULL, 0);
    const VmVar point = { .reg = V(4) }, scalar = { .reg = V(9) }, uni = { .reg = 20 };
    float f[N][3], g[N][3], one[N], back[N];
    for (int l = 0; l < N; l++) {
        one[l] = -(float)l;
        for (int j = 0; j < 3; j++)
            f[l][j] = 10.0f * (float)l + (float)j;
    }
    vm_var_store_lanes(&m.st, &point, &f[0][0], 3, N);
    vm_var_store_lanes(&m.st, &scalar, one, 1, N);
    for (int l = 0; l < N; l++) {
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(lanes(&m, 4 + (unsigned)j)[l], 10.0f * (float)l + (float)j);
        ck_assert_float_eq(lanes(&m, 9)[l], -(float)l);
    }
    memset(g, 0, sizeof g);
    vm_var_load_lanes(&m.st, &point, &g[0][0], 3, N);
    vm_var_load_lanes(&m.st, &scalar, back, 1, N);
    ck_assert_mem_eq(g, f, sizeof f);
    ck_assert_mem_eq(back, one, sizeof one);
    vm_var_store_lanes(&m.st, &uni, &f[2][0], 3, N);
    for (int j = 0; j < 3; j++)
        ck_assert_float_eq(m.U[20 + j], 20.0f + (float)j);
    vm_var_load_lanes(&m.st, &uni, &g[0][0], 3, N);
    for (int l = 0; l < N; l++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(g[l][j], 20.0f + (float)j);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vm");
    TCase *tc = tcase_create("vm");
    tcase_add_test(tc, uniform_arithmetic);
    tcase_add_test(tc, matrices);
    tcase_add_test(tc, varying_if_else);
    tcase_add_test(tc, empty_block_skipped);
    tcase_add_test(tc, varying_loop);
    tcase_add_test(tc, requested_lanes);
    tcase_add_test(tc, select_and_arrays);
    tcase_add_test(tc, builtin_calls);
    tcase_add_test(tc, string_equality);
    tcase_add_test(tc, derivatives_from_skewed_neighbours);
    tcase_add_test(tc, bad_code);
    tcase_add_test(tc, verifier_rejects);
    tcase_add_test(tc, variables_lane_by_lane);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

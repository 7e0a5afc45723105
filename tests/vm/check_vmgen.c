/*
** check_vmgen.c: the VM back end end to end, from IR text (so the tests
** pin the IR they start from): selection and linearisation, scheduling,
** register allocation, emission, then a run on the VM with inputs per
** lane. Expected outputs are worked out by hand from each program.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ir.h"
#include "backends/vm/vmgen.h"
#include "vm/session.h"
#include "vm/vm.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

enum { N = 8 };

typedef struct Shader {
    VmObject *obj;
    VmSession ss;
    VmState st;
} Shader;

static Shader *compile_as(const char *ir, bool schedule)
{
    IrModule *m = ir_parse(&rc, ir, "test.ir");
    ck_assert_ptr_nonnull(m);
    IrFunc *fn = m->funcs[m->nfuncs - 1];
    ck_assert(ir_verify(fn, stderr));
    MFunc *mf = vmgen_select(&rc, fn);
    ck_assert_ptr_nonnull(mf);
    if (schedule)
        vmgen_schedule(mf);
    unsigned nu, nv;
    vmgen_allocate(mf, &nu, &nv);
    Shader *s = calloc(1, sizeof *s);
    s->obj = vmgen_emit(mf, nu, nv);
    ck_assert_ptr_nonnull(s->obj);
    mfunc_free(mf);
    ir_module_free(m);
    VmProgram *p = &s->obj->prog;
    char err[200];
    ck_assert_msg(vm_session_open(&s->ss, s->obj, NULL, N, err, sizeof err) == 0, "%s", err);
    vm_session_batch(&s->ss, &s->st, N);
    s->st.ready_u = calloc(p->nuniform + 1, sizeof(uint64_t));
    s->st.ready_v = calloc(p->nvarying + 1, sizeof(uint64_t));
    return s;
}

static Shader *compile(const char *ir)
{
    return compile_as(ir, true);
}

/* The lanes of global `name` (component k). */
static float *global(Shader *s, const char *name, unsigned k)
{
    for (uint32_t i = 0; i < s->obj->nglobals; i++)
        if (!strcmp(s->obj->globals[i].name, name)) {
            unsigned r = s->obj->globals[i].reg;
            ck_assert(r & VM_V);
            return s->ss.V + (size_t)(VM_SLOT(r) + k) * N;
        }
    ck_abort_msg("no global %s", name);
    return NULL;
}

static void run(Shader *s)
{
    char err[200];
    ck_assert_msg(vm_run(&s->ss.prog, &s->st, err, sizeof err) == 0, "%s", err);
}

static void done(Shader *s)
{
    free(s->st.ready_u);
    free(s->st.ready_v);
    vm_session_close(&s->ss);
    vm_object_free(s->obj);
    free(s);
}

START_TEST(straight_line)
{
    Shader *s = compile("func @matteish surface void\n"
                        "  param uniform float Kd = 0.5\n"
                        "@0:\n"
                        "  %1 = u float param 0\n"
                        "  %2 = v color gget Cs\n"
                        "  %3 = u color splat %1\n"
                        "  %4 = v color mul %2, %3\n"
                        "  %5 = v color add %4, color(0.25 0 0)\n"
                        "  gset Ci, %5\n"
                        "  ret\n"
                        "end\n");
    for (int i = 0; i < N; i++)
        for (unsigned k = 0; k < 3; k++)
            global(s, "Cs", k)[i] = (float)(i + (int)k);
    run(s);
    for (int i = 0; i < N; i++)
        for (unsigned k = 0; k < 3; k++)
            ck_assert_float_eq(global(s, "Ci", k)[i], 0.5f * (float)(i + (int)k) + (k ? 0 : 0.25f));
    done(s);
}
END_TEST

/* A varying if/else joining in a phi: lanes with u < 0.5 get 1, others 2. */
START_TEST(varying_branch)
{
    Shader *s = compile("func @f surface void\n"
                        "@0:\n"
                        "  %1 = v float gget u\n"
                        "  %2 = v bool lt %1, 0.5\n"
                        "  br %2, @1, @2\n"
                        "@1:\n"
                        "  jmp @3\n"
                        "@2:\n"
                        "  jmp @3\n"
                        "@3:\n"
                        "  %3 = v float phi 1 @1, 2 @2\n"
                        "  gset s, %3\n"
                        "  ret\n"
                        "end\n");
    for (int i = 0; i < N; i++)
        global(s, "u", 0)[i] = (float)i / N;
    run(s);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(global(s, "s", 0)[i], (float)i / N < 0.5f ? 1 : 2);
    done(s);
}
END_TEST

/* sum = 0; for (k = 0; k < x; k += 1) sum += k, with x varying: lane i
   loops i times and ends with i(i-1)/2. */
START_TEST(varying_loop)
{
    Shader *s = compile("func @f surface void\n"
                        "@0:\n"
                        "  %1 = v float gget s\n"
                        "  jmp @1\n"
                        "@1:\n"
                        "  %2 = v float phi 0 @0, %5 @2\n"
                        "  %3 = v float phi 0 @0, %6 @2\n"
                        "  %4 = v bool lt %2, %1\n"
                        "  br %4, @2, @3\n"
                        "@2:\n"
                        "  %5 = v float add %2, 1\n"
                        "  %6 = v float add %3, %2\n"
                        "  jmp @1\n"
                        "@3:\n"
                        "  gset t, %3\n"
                        "  ret\n"
                        "end\n");
    for (int i = 0; i < N; i++)
        global(s, "s", 0)[i] = (float)i;
    run(s);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(global(s, "t", 0)[i], (float)(i * (i - 1) / 2));
    done(s);
}
END_TEST

/* A uniform loop: plain jumps, no masks. 2^5 = 32 in every lane, then a
   builtin: sqrt(32). */
START_TEST(uniform_loop_and_builtin)
{
    Shader *s = compile("func @f surface void\n"
                        "@0:\n"
                        "  jmp @1\n"
                        "@1:\n"
                        "  %1 = u float phi 0 @0, %4 @2\n"
                        "  %2 = u float phi 1 @0, %5 @2\n"
                        "  %3 = u bool lt %1, 5\n"
                        "  br %3, @2, @3\n"
                        "@2:\n"
                        "  %4 = u float add %1, 1\n"
                        "  %5 = u float mul %2, 2\n"
                        "  jmp @1\n"
                        "@3:\n"
                        "  %6 = u float intrin sqrt %2\n"
                        "  gset s, %2\n"
                        "  gset t, %6\n"
                        "  ret\n"
                        "end\n");
    run(s);
    for (int i = 0; i < N; i++) {
        ck_assert_float_eq(global(s, "s", 0)[i], 32);
        ck_assert_float_eq_tol(global(s, "t", 0)[i], sqrtf(32), 1e-6f);
    }
    for (uint32_t i = 0; i < s->obj->prog.ncode; i++)
        ck_assert_int_ne(vm_op(s->obj->prog.code[i]), VM_OP_MASK);
    done(s);
}
END_TEST

/* Phis that swap on the back edge need a parallel copy. */
START_TEST(phi_swap)
{
    Shader *s = compile("func @f surface void\n"
                        "@0:\n"
                        "  jmp @1\n"
                        "@1:\n"
                        "  %1 = u float phi 1 @0, %2 @2\n"
                        "  %2 = u float phi 2 @0, %1 @2\n"
                        "  %3 = u float phi 0 @0, %4 @2\n"
                        "  %5 = u bool lt %3, 3\n"
                        "  br %5, @2, @3\n"
                        "@2:\n"
                        "  %4 = u float add %3, 1\n"
                        "  jmp @1\n"
                        "@3:\n"
                        "  gset s, %1\n"
                        "  gset t, %2\n"
                        "  ret\n"
                        "end\n");
    run(s);
    /* three swaps: (1,2) -> (2,1) -> (1,2) -> (2,1) */
    ck_assert_float_eq(global(s, "s", 0)[0], 2);
    ck_assert_float_eq(global(s, "t", 0)[0], 1);
    done(s);
}
END_TEST

/* Copies coalesce: a chain of moves leaves no MOV behind. */
START_TEST(copies_coalesce)
{
    Shader *s = compile("func @f surface void\n"
                        "@0:\n"
                        "  %1 = v color gget Cs\n"
                        "  %2 = v color copy %1\n"
                        "  %3 = v color copy %2\n"
                        "  %4 = v color add %3, %3\n"
                        "  gset Ci, %4\n"
                        "  ret\n"
                        "end\n");
    int movs = 0;
    for (uint32_t i = 0; i < s->obj->prog.ncode; i++)
        movs += vm_op(s->obj->prog.code[i]) == VM_OP_MOV;
    ck_assert_int_le(movs, 1); /* at most the store into Ci */
    global(s, "Cs", 1)[3] = 2;
    run(s);
    ck_assert_float_eq(global(s, "Ci", 1)[3], 4);
    done(s);
}
END_TEST

/* Scheduling starts the long division first and fills its latency with
   the independent multiplies; fusion makes mul+add one MADD. Both runs
   compute (u/3 + 1) + v*v*v. */
START_TEST(scheduling_lowers_cycles)
{
    static const char *ir = "func @f surface void\n"
                            "@0:\n"
                            "  %1 = v float gget u\n"
                            "  %2 = v float div %1, 3\n"
                            "  %3 = v float add %2, 1\n"
                            "  %4 = v float gget v\n"
                            "  %5 = v float mul %4, %4\n"
                            "  %6 = v float mul %5, %4\n"
                            "  %7 = v float add %3, %6\n"
                            "  gset s, %7\n"
                            "  ret\n"
                            "end\n";
    Shader *a = compile_as(ir, false), *b = compile_as(ir, true);
    for (int i = 0; i < N; i++) {
        global(a, "u", 0)[i] = global(b, "u", 0)[i] = (float)i;
        global(a, "v", 0)[i] = global(b, "v", 0)[i] = 0.5f * (float)i;
    }
    run(a);
    run(b);
    for (int i = 0; i < N; i++) {
        float v = 0.5f * (float)i, want = (float)i / 3 + 1 + v * v * v;
        ck_assert_float_eq_tol(global(a, "s", 0)[i], want, 1e-5f);
        ck_assert_float_eq_tol(global(b, "s", 0)[i], want, 1e-5f);
    }
    ck_assert_uint_lt(b->st.stats.cycles, a->st.stats.cycles);
    ck_assert_uint_le(b->st.stats.instructions, a->st.stats.instructions);
    int madd = 0;
    for (uint32_t i = 0; i < b->obj->prog.ncode; i++)
        madd += vm_op(b->obj->prog.code[i]) == VM_OP_MADD;
    ck_assert_int_eq(madd, 1);
    done(a);
    done(b);
}
END_TEST

/* inversesqrt(I . I) becomes one DOTRSQ after scheduling, and
   normalize(I) one NORM: I / |I| either way. */
START_TEST(superinstructions)
{
    static const char *ir = "func @f surface void\n"
                            "@0:\n"
                            "  %1 = v vector gget I\n"
                            "  %2 = v float dot %1, %1\n"
                            "  %3 = v float intrin inversesqrt %2\n"
                            "  %4 = v vector splat %3\n"
                            "  %5 = v vector mul %1, %4\n"
                            "  %6 = v vector intrin normalize %1\n"
                            "  %7 = v vector sub %5, %6\n"
                            "  gset dPdu, %7\n"
                            "  gset dPdv, %6\n"
                            "  ret\n"
                            "end\n";
    Shader *s = compile(ir);
    for (int i = 0; i < N; i++) {
        global(s, "I", 0)[i] = 3;
        global(s, "I", 1)[i] = 4 * (float)i;
        global(s, "I", 2)[i] = 0;
    }
    run(s);
    for (int i = 0; i < N; i++) {
        float len = sqrtf(9 + 16 * (float)(i * i));
        ck_assert_float_eq_tol(global(s, "dPdv", 0)[i], 3 / len, 1e-6f);
        ck_assert_float_eq_tol(global(s, "dPdv", 1)[i], 4 * (float)i / len, 1e-6f);
        for (unsigned k = 0; k < 3; k++)
            ck_assert_float_eq_tol(global(s, "dPdu", k)[i], 0, 1e-6f);
    }
    int fused = 0, norm = 0;
    for (uint32_t i = 0; i < s->obj->prog.ncode; i++) {
        fused += vm_op(s->obj->prog.code[i]) == VM_OP_DOTRSQ;
        norm += vm_op(s->obj->prog.code[i]) == VM_OP_NORM;
        ck_assert(vm_op(s->obj->prog.code[i]) != VM_OP_CALLB);
    }
    ck_assert_int_eq(fused, 1);
    ck_assert_int_eq(norm, 1);
    done(s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("vmgen");
    TCase *tc = tcase_create("vmgen");
    tcase_add_test(tc, straight_line);
    tcase_add_test(tc, varying_branch);
    tcase_add_test(tc, varying_loop);
    tcase_add_test(tc, uniform_loop_and_builtin);
    tcase_add_test(tc, phi_swap);
    tcase_add_test(tc, copies_coalesce);
    tcase_add_test(tc, scheduling_lowers_cycles);
    tcase_add_test(tc, superinstructions);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
** check_specialize.c: instance specialisation (rslc/specialize.c). A
** shader is compiled through the real pipeline with constants for its
** parameters; the optimised IR must then hold the values worked out by
** hand, and only inputs of the right type may have been folded.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rslc/diag.h"
#include "rslc/pipeline.h"
#include "../common/suite.h"

/* Parameters 0 Kd, 1 mapname, 2 w, 3 tint, 4 r. */
static const char lit[] =
    "surface lit(float Kd = 0.5; string mapname = \"\"; float w[2] = {1, 2};\n"
    "            color tint = 1; output varying float r = 0)\n"
    "{\n"
    "    if (mapname != \"\")\n"
    "        r = 7;\n"
    "    else\n"
    "        r = Kd * 2 + 1;\n"
    "    r += w[0] * w[1];\n"
    "    Ci = r * tint;\n"
    "}\n";

/* Parameters 0 k, 1 acc: acc is read before it is written. */
static const char acc[] =
    "surface acc(float k = 1; output float acc = 0)\n"
    "{\n"
    "    acc += k;\n"
    "    Ci = acc;\n"
    "}\n";

static RslcCtx rc;

/* src compiled at level with spec (NULL: none); its shader in *fn. */
static IrModule *compile(const char *src, const IrSpec *spec, int level, IrFunc **fn)
{
    char path[] = "/tmp/check_specialize.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    memset(&rc, 0, sizeof rc);
    Unit *unit = rslc_front_end(&rc, path, &(CppOptions){ 0 });
    ck_assert_msg(unit != NULL, "the test shader does not compile");
    PassOptions opt = { .spec = spec, .verify = true };
    IrModule *m = rslc_middle_end(&rc, unit, level, &opt);
    ck_assert_msg(m != NULL, "the pipeline failed (or the verifier objected)");
    rslc_compile_done(&rc);
    unlink(path);
    *fn = NULL;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION)
            *fn = m->funcs[i];
    ck_assert_ptr_nonnull(*fn);
    return m;
}

/* Instructions of fn with op (and, for param and pset, index imm; -1:
   any). */
static int count(const IrFunc *fn, IrOp op, int imm)
{
    int n = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            n += i->op == op && (imm < 0 || i->imm == imm);
    return n;
}

/* The value the shader's pset of parameter p stores (there is one). */
static const IrVal *pset_value(const IrFunc *fn, int p)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            if (i->op == IR_pset && i->imm == p)
                return i->args[0];
    ck_abort_msg("no pset of parameter %d", p);
    return NULL;
}

/* The float constant v is. */
static float constant(const IrVal *v)
{
    ck_assert_msg(v->kind == IRV_CONST, "not folded to a constant");
    return ((const IrConst *)v)->f[0];
}

static const float kd[] = { 0.25f }, w[] = { 3, 4 }, tint[] = { 1, 0.5f, 2 };

/* Every input given: the branch on mapname goes, and r = 0.25 * 2 + 1 +
   3 * 4 = 13.5, Ci = 13.5 * (1, 0.5, 2) = (13.5, 6.75, 27). */
START_TEST(every_input_folds)
{
    const IrSpecParam p[] = { { "Kd", IRT_FLOAT, 0, kd, NULL },
                              { "mapname", IRT_STRING, 0, NULL, "" },
                              { "w", IRT_FLOAT, 2, w, NULL },
                              { "tint", IRT_COLOR, 0, tint, NULL } };
    IrSpec spec = { p, 4 };
    IrFunc *fn;
    IrModule *m = compile(lit, &spec, 2, &fn);
    ck_assert_int_eq(count(fn, IR_param, -1), 0);
    ck_assert_int_eq(count(fn, IR_br, -1), 0);
    ck_assert_float_eq(constant(pset_value(fn, 4)), 13.5f);
    const IrVal *ci = NULL;
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            if (i->op == IR_gset && !strcmp(i->sym, "Ci"))
                ci = i->args[0];
    ck_assert_ptr_nonnull(ci);
    ck_assert_int_eq(ci->kind, IRV_CONST);
    const float *f = ((const IrConst *)ci)->f;
    ck_assert_float_eq(f[0], 13.5f);
    ck_assert_float_eq(f[1], 6.75f);
    ck_assert_float_eq(f[2], 27.0f);
    ir_module_free(m);
}
END_TEST

/* A shadow map named: the then side stays (r = 7 + w[0] * w[1]), Kd is
   dead, and w, not given, is still read. */
START_TEST(some_inputs_fold)
{
    const IrSpecParam p[] = { { "mapname", IRT_STRING, 0, NULL, "shadow.map" } };
    IrSpec spec = { p, 1 };
    IrFunc *fn;
    IrModule *m = compile(lit, &spec, 2, &fn);
    ck_assert_int_eq(count(fn, IR_br, -1), 0);
    ck_assert_int_eq(count(fn, IR_param, 0), 0);
    ck_assert_int_eq(count(fn, IR_param, 1), 0);
    ck_assert_int_eq(count(fn, IR_param, 2), 1);
    ir_module_free(m);
}
END_TEST

/* Without constants, the same shader keeps its branch and parameters. */
START_TEST(generic_keeps_parameters)
{
    IrFunc *fn;
    IrModule *m = compile(lit, NULL, 2, &fn);
    ck_assert_int_eq(count(fn, IR_br, -1), 1);
    ck_assert_int_eq(count(fn, IR_param, 0), 1);
    ck_assert_int_eq(count(fn, IR_param, 1), 1);
    ir_module_free(m);
}
END_TEST

/* An output is the shader's result: acc is still read (acc + 2), k is
   folded. */
START_TEST(outputs_do_not_fold)
{
    static const float two[] = { 2 }, five[] = { 5 };
    const IrSpecParam p[] = { { "k", IRT_FLOAT, 0, two, NULL },
                              { "acc", IRT_FLOAT, 0, five, NULL } };
    IrSpec spec = { p, 2 };
    IrFunc *fn;
    IrModule *m = compile(acc, &spec, 2, &fn);
    ck_assert_int_eq(count(fn, IR_param, 0), 0);
    ck_assert_int_eq(count(fn, IR_param, 1), 1);
    const IrVal *v = pset_value(fn, 1);
    ck_assert_int_eq(v->kind, IRV_INS);
    const IrIns *add = (const IrIns *)v;
    ck_assert_int_eq(add->op, IR_add);
    ck_assert_float_eq(constant(add->args[0]->kind == IRV_CONST ? add->args[0] : add->args[1]),
                       2.0f);
    ir_module_free(m);
}
END_TEST

/* A constant of another type or size is not the parameter's: nothing
   folds, even at -O0, where specialisation still runs. */
START_TEST(mismatched_types_do_not_fold)
{
    const IrSpecParam p[] = { { "Kd", IRT_COLOR, 0, tint, NULL },
                              { "w", IRT_FLOAT, 3, tint, NULL },
                              { "tint", IRT_FLOAT, 0, kd, NULL } };
    IrSpec spec = { p, 3 };
    IrFunc *fn;
    IrModule *m = compile(lit, &spec, 0, &fn);
    ck_assert_int_eq(count(fn, IR_param, 0), 1);
    ck_assert_int_eq(count(fn, IR_param, 2), 1);
    ck_assert_int_eq(count(fn, IR_param, 3), 1);
    ir_module_free(m);
    const IrSpecParam ok[] = { { "Kd", IRT_FLOAT, 0, kd, NULL } };
    spec = (IrSpec){ ok, 1 };
    m = compile(lit, &spec, 0, &fn);
    ck_assert_int_eq(count(fn, IR_param, 0), 0);
    ck_assert_int_eq(count(fn, IR_br, -1), 1);
    ir_module_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("specialize");
    TCase *tc = tcase_create("specialize");
    tcase_add_test(tc, every_input_folds);
    tcase_add_test(tc, some_inputs_fold);
    tcase_add_test(tc, generic_keeps_parameters);
    tcase_add_test(tc, outputs_do_not_fold);
    tcase_add_test(tc, mismatched_types_do_not_fold);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

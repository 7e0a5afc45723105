/*
** check_bindings.c: every builtin of RISpec 3.2 section 15 has a runtime
** implementation. For each overload in rslc's builtin table, a surface
** shader calls it with variables of the parameter types; the shader must
** compile and its builtins bind to the VM runtime under the test host.
** (What each computes is the compile-run-verify suite's business.)
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rslc/builtins.h"
#include "backends/compile.h"
#include "rslc/diag.h"
#include "runtime/host.h"
#include "vm/session.h"
#include "../common/suite.h"

/* Renderer extensions the VM runtime does not have, which the binding
   reports by name. */
static const char *const absent[] = { "caustic" };

/* An expression of type letter t (an array when array), the variables
   declared in the shader below. */
static const char *operand(const BuiltinParam *p)
{
    static const char *const scalar[TY_NBASE] = {
        [TY_FLOAT] = "f", [TY_COLOR] = "c", [TY_POINT] = "p", [TY_VECTOR] = "v",
        [TY_NORMAL] = "n", [TY_MATRIX] = "m", [TY_STRING] = "str",
    };
    static const char *const array[TY_NBASE] = {
        [TY_FLOAT] = "fa", [TY_COLOR] = "ca", [TY_POINT] = "pa", [TY_VECTOR] = "va",
        [TY_NORMAL] = "na",
    };
    if (p->any)
        return "f";
    return p->type.arraylen ? array[p->type.base] : scalar[p->type.base];
}

static const char *decl_type(TypeBase t)
{
    static const char *const names[TY_NBASE] = {
        [TY_FLOAT] = "float", [TY_COLOR] = "color", [TY_POINT] = "point",
        [TY_VECTOR] = "vector", [TY_NORMAL] = "normal", [TY_MATRIX] = "matrix",
        [TY_STRING] = "string",
    };
    return names[t];
}

/* Compiles src and binds its builtins; NULL or the error. */
static char *compile_and_bind(const char *src, char *why, size_t whylen)
{
    char path[] = "/tmp/check_bindings_XXXXXX.sl";
    int fd = mkstemps(path, 3);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, src, strlen(src)), (int)strlen(src));
    close(fd);
    CppOptions cpp = { 0 };
    RslcCtx ctx = { 0 };
    Unit *unit = rslc_front_end(&ctx, path, &cpp);
    IrModule *m = unit ? rslc_middle_end(&ctx, unit, 0, NULL) : NULL;
    VmObject *o = m ? backend_vm_object(&ctx, m, 0, path, false) : NULL;
    ir_module_free(m);
    rslc_ctx_free(&ctx);
    unlink(path);
    if (!o) {
        snprintf(why, whylen, "does not compile (diagnostics above)");
        return why;
    }
    VmSession ss;
    int rc = vm_session_open(&ss, o, vm_test_host(), 4, why, (int)whylen);
    if (rc == 0)
        vm_session_close(&ss);
    vm_object_free(o);
    return rc ? why : NULL;
}

START_TEST(every_overload_binds)
{
    int checked = 0;
    for (int i = 0; i < BI_COUNT; i++) {
        const Builtin *b = &builtin_table[i];
        bool skip = builtin_row(b)->flags & BF_INTERNAL;
        for (size_t k = 0; k < sizeof absent / sizeof *absent; k++)
            skip |= !strcmp(b->name, absent[k]);
        BuiltinSig sig;
        for (int r = b->first; !skip && builtin_overload_next(b, &r, &sig);) {
            char call[512], src[2048];
            int n = snprintf(call, sizeof call, "%s(", b->name);
            for (int k = 0; k < sig.nparams; k++)
                n += snprintf(call + n, sizeof call - (size_t)n, "%s%s", k ? ", " : "",
                              operand(&sig.param[k]));
            snprintf(call + n, sizeof call - (size_t)n, ")");
            snprintf(src, sizeof src,
                     "surface t() {\n"
                     "    float f = u, fa[4] = { 1, 2, 3, 4 };\n"
                     "    color c = Cs, ca[4] = { 1, 2, 3, 4 };\n"
                     "    point p = P, pa[4] = { 1, 2, 3, 4 };\n"
                     "    vector v = I, va[4] = { 1, 2, 3, 4 };\n"
                     "    normal n = N, na[4] = { 1, 2, 3, 4 };\n"
                     "    matrix m = 1;\n"
                     "    string str = \"catmull-rom\";\n"
                     "    %s%s%s;\n"
                     "    Ci = c * f;\n"
                     "}\n",
                     sig.ret.base == TY_VOID ? "" : decl_type(sig.ret.base),
                     sig.ret.base == TY_VOID ? "" : " result = ", call);
            char why[512];
            const char *err = compile_and_bind(src, why, sizeof why);
            ck_assert_msg(err == NULL, "%s: %s", call, err);
            checked++;
        }
    }
    ck_assert_int_gt(checked, 200);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bindings");
    TCase *tc = tcase_create("bindings");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_overload_binds);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

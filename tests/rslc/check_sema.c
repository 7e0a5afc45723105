/*
** check_sema.c: unit tests of semantic analysis: type rules, promotion,
** overload resolution, uniform/varying inference, the shader global
** tables and the builtin table.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ast.h"
#include "rslc/builtins.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/parse.h"
#include "rslc/sym.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

/* ---- helpers ------------------------------------------------------------------ */

static char *messages;
static size_t messages_len;

/* Parses and checks src; returns the unit (NULL on a syntax error).
   Diagnostics are kept in `messages`. */
static Unit *check_src(const char *src)
{
    diag_reset(&rc);
    free(messages);
    messages = NULL;
    FILE *out = open_memstream(&messages, &messages_len);
    diag_set_output(&rc, out);
    Unit *u = parse_rsl(&rc, src, strlen(src), "test.sl");
    if (u)
        check_unit(&rc, u);
    fclose(out);
    diag_set_output(&rc, NULL);
    return u;
}

static void teardown(void)
{
    ast_free_all(&rc);
    check_free(&rc);
    diag_reset(&rc);
    free(messages);
    messages = NULL;
}

static Node *find_decl_in(Node *n, const char *name)
{
    for (; n; n = n->next) {
        if ((n->kind == N_VARDECL || n->kind == N_FUNCTION) && n->name &&
            strcmp(n->name, name) == 0)
            return n;
        for (int i = 0; i < 4; i++) {
            Node *f = find_decl_in(n->kid[i], name);
            if (f)
                return f;
        }
    }
    return NULL;
}

/* The initialiser of the variable declared as name. */
static Node *init_of(Unit *u, const char *name)
{
    Node *d = find_decl_in(u->defs, name);
    ck_assert_msg(d != NULL, "no declaration of '%s'", name);
    ck_assert_ptr_nonnull(d->kid[0]);
    return d->kid[0];
}

/* Checks a surface shader whose body is `body`, expecting no errors. */
static Unit *surface(const char *body)
{
    char src[4096];
    snprintf(src, sizeof src,
             "surface test(float Kd = 1; string map = \"\";)\n{\n%s\n}\n", body);
    Unit *u = check_src(src);
    ck_assert_ptr_nonnull(u);
    ck_assert_msg(diag_error_count(&rc) == 0, "unexpected errors:\n%s", messages);
    return u;
}

static void assert_type(const Node *e, TypeBase base)
{
    ck_assert_msg(e->type.base == base, "type is %s, expected %s",
                  type_base_name(e->type.base), type_base_name(base));
}

/* ---- types -------------------------------------------------------------------------- */

START_TEST(type_names)
{
    Type t = type_make(TY_COLOR);
    ck_assert_str_eq(type_name(t).s, "color");
    t.arraylen = 3;
    ck_assert_str_eq(type_name(t).s, "color[3]");
    t = type_make(TY_FLOAT);
    t.arraylen = -1;
    ck_assert_str_eq(type_name(t).s, "float[]");
    ck_assert_str_eq(shader_kind_name(SHADER_DISPLACEMENT), "displacement");
}
END_TEST

START_TEST(conversion_costs)
{
    Type f = type_make(TY_FLOAT), p = type_make(TY_POINT);
    Type v = type_make(TY_VECTOR), c = type_make(TY_COLOR);
    Type m = type_make(TY_MATRIX), s = type_make(TY_STRING);
    ck_assert_int_eq(type_convert_cost(p, p), 0);
    ck_assert_int_eq(type_convert_cost(v, p), 1);
    ck_assert_int_eq(type_convert_cost(c, f), 2);
    ck_assert_int_eq(type_convert_cost(m, f), 3);
    ck_assert_int_eq(type_convert_cost(c, p), -1);
    ck_assert_int_eq(type_convert_cost(f, c), -1);
    ck_assert_int_eq(type_convert_cost(s, f), -1);
    ck_assert(type_assignable(type_make(TY_NORMAL), v));
    ck_assert(!type_assignable(p, c));
}
END_TEST

START_TEST(array_conversions)
{
    Type a3 = { TY_FLOAT, 3 }, a4 = { TY_FLOAT, 4 }, any = { TY_FLOAT, -1 };
    ck_assert_int_eq(type_convert_cost(a3, a3), 0);
    ck_assert_int_eq(type_convert_cost(a3, a4), -1);
    ck_assert_int_eq(type_convert_cost(any, a4), 0);
    ck_assert_int_eq(type_convert_cost(a3, type_make(TY_FLOAT)), -1);
    ck_assert(type_is_triple(TY_COLOR) && !type_is_spatial(TY_COLOR));
}
END_TEST

/* ---- operator rules ------------------------------------------------------------------ */

START_TEST(point_minus_point_is_vector)
{
    Unit *u = surface("point a = P; vector d = P - a; Ci = 0;");
    assert_type(init_of(u, "d"), TY_VECTOR);
}
END_TEST

START_TEST(point_plus_vector_is_point)
{
    Unit *u = surface("vector v = I; point q = P + v; point r = v - P; Ci = 0;");
    assert_type(init_of(u, "q"), TY_POINT);
    assert_type(init_of(u, "r"), TY_POINT);
}
END_TEST

START_TEST(vector_times_float_is_vector)
{
    Unit *u = surface("vector v = I * 2; normal n = N + N; Ci = 0;");
    assert_type(init_of(u, "v"), TY_VECTOR);
    assert_type(init_of(u, "n"), TY_NORMAL);
}
END_TEST

START_TEST(dot_and_cross)
{
    Unit *u = surface("float d = P . N; vector c = N ^ dPdu; Ci = 0;");
    assert_type(init_of(u, "d"), TY_FLOAT);
    assert_type(init_of(u, "c"), TY_VECTOR);
}
END_TEST

START_TEST(float_promotes_to_color)
{
    Unit *u = surface("color c = 0.5 * Cs; color k = Cs + 1; Ci = c + k;");
    assert_type(init_of(u, "c"), TY_COLOR);
    assert_type(init_of(u, "k"), TY_COLOR);
}
END_TEST

START_TEST(matrix_arithmetic)
{
    Unit *u = surface("matrix m = matrix \"shader\" 1; matrix q = m * m / m;"
                      "matrix r = 2 * m; Ci = 0;");
    Node *cast = init_of(u, "m");
    ck_assert_int_eq(cast->kind, N_CAST);
    assert_type(cast, TY_MATRIX);
    assert_type(init_of(u, "q"), TY_MATRIX);
    assert_type(init_of(u, "r"), TY_MATRIX);
}
END_TEST

START_TEST(comparisons_give_booleans)
{
    Unit *u = surface("float x = (s > 0.5 && t < 0.5) ? 1 : 0; Ci = x;");
    Node *sel = init_of(u, "x");
    ck_assert_int_eq(sel->kind, N_TERNARY);
    assert_type(sel->kid[0], TY_BOOL);
    assert_type(sel, TY_FLOAT);
}
END_TEST

START_TEST(rejected_operations)
{
    check_src("surface t() { color c = Cs + P; Ci = c; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
    ck_assert_ptr_nonnull(strstr(messages, "invalid operands to '+' ('color' and 'point')"));
    teardown();
    check_src("surface t() { matrix m = 1; point q = m * P; Ci = 0; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
    ck_assert_ptr_nonnull(strstr(messages, "use transform()"));
    teardown();
    check_src("surface t() { string b = s < t; Ci = 0; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
}
END_TEST

START_TEST(comparison_as_value_is_float)
{
    /* PRMan and aqsl: 1 or 0; the checker makes it `cmp ? 1 : 0`. */
    Unit *u = surface("float b = s < t; Ci = b;");
    Node *sel = init_of(u, "b");
    ck_assert_int_eq(sel->kind, N_TERNARY);
    assert_type(sel->kid[0], TY_BOOL);
    ck_assert(sel->kid[1]->num == 1 && sel->kid[2]->num == 0);
    assert_type(sel, TY_FLOAT);
}
END_TEST

START_TEST(triple_literal_types)
{
    Unit *u = surface("color a = (1, 0, 0); color b = 0.5 * (1, 0, 0);"
                      "color c = Cs * (1, 1, 0); float l = length((1, 2, 3));"
                      "Ci = a + b + c + l;");
    assert_type(init_of(u, "a"), TY_COLOR);
    assert_type(init_of(u, "b")->kid[1], TY_COLOR);
    assert_type(init_of(u, "c")->kid[1], TY_COLOR);
    assert_type(init_of(u, "l")->kid[0], TY_VECTOR);
}
END_TEST

START_TEST(no_cascade_after_error)
{
    check_src("surface t() { float x = (nosuch + 1) * 2 + sin(nosuch); Ci = x; }");
    ck_assert_int_eq(diag_error_count(&rc), 2);
}
END_TEST

/* ---- overloads -------------------------------------------------------------------------- */

START_TEST(noise_result_follows_context)
{
    Unit *u = surface("color c = noise(P); float f = noise(P); vector v = noise(s, t);"
                      "float g = noise(s) * 2; Ci = c + f + v . v + g;");
    Node *c = init_of(u, "c");
    ck_assert_int_eq(c->builtin->id, BI_NOISE);
    assert_type(c, TY_COLOR);
    assert_type(init_of(u, "f"), TY_FLOAT);
    assert_type(init_of(u, "v"), TY_VECTOR);
    assert_type(init_of(u, "g")->kid[0], TY_FLOAT);
}
END_TEST

START_TEST(mix_clamp_min_max)
{
    Unit *u = surface("float a = mix(0, 1, s); color b = mix(Cs, Os, 0.5);"
                      "color k = clamp(Cs, 0, 1); float m = min(s, t, 1, 2, 3);"
                      "color x = max(Cs, Os, color(0.5)); Ci = a + b + k + m + x;");
    assert_type(init_of(u, "a"), TY_FLOAT);
    assert_type(init_of(u, "b"), TY_COLOR);
    assert_type(init_of(u, "k"), TY_COLOR);
    Node *m = init_of(u, "m");
    ck_assert_int_eq(m->builtin->id, BI_MIN);
    ck_assert_int_eq(ast_list_len(m->kid[0]), 5);
    assert_type(init_of(u, "x"), TY_COLOR);
}
END_TEST

START_TEST(transform_forms)
{
    Unit *u = surface("matrix m = 1; normal a = transform(\"world\", N);"
                      "point b = transform(m, P); point c = transform(\"world\", m, P);"
                      "vector d = vtransform(\"object\", \"world\", P); Ci = 0;");
    assert_type(init_of(u, "a"), TY_NORMAL);
    assert_type(init_of(u, "b"), TY_POINT);
    ck_assert_int_eq(init_of(u, "c")->builtin->id, BI_TRANSFORM);
    Node *d = init_of(u, "d");
    ck_assert_int_eq(d->builtin->id, BI_VTRANSFORM);
    assert_type(d, TY_VECTOR);
}
END_TEST

START_TEST(texture_forms)
{
    Unit *u = surface("float f = texture(map[1], s, t, \"blur\", 0.01);"
                      "color c = texture(map, \"width\", 2, \"filter\", \"gaussian\");"
                      "Ci = c * f;");
    Node *f = init_of(u, "f");
    assert_type(f, TY_FLOAT);
    assert_type(f->kid[0], TY_STRING);     /* the channel-indexed name */
    Node *c = init_of(u, "c");
    assert_type(c, TY_COLOR);
    BuiltinSig sig;
    ck_assert(builtin_call_sig(c, &sig));
    ck_assert_int_eq(sig.tail, '~');
    ck_assert_int_eq(sig.nparams, 1);
}
END_TEST

START_TEST(comp_and_rotate_rows)
{
    Unit *u = surface("matrix m = 1; float a = comp(Cs, 1); float b = comp(m, 0, 1);"
                      "matrix r = rotate(m, 0.5, vector(0, 0, 1));"
                      "point q = rotate(P, 0.5, point(0), point(0, 0, 1)); Ci = a + b;");
    ck_assert_int_eq(init_of(u, "a")->builtin->id, BI_COMP);
    ck_assert_int_eq(init_of(u, "b")->builtin->id, BI_MCOMP);
    ck_assert_int_eq(init_of(u, "r")->builtin->id, BI_MROTATE);
    ck_assert_int_eq(init_of(u, "q")->builtin->id, BI_ROTATE);
}
END_TEST

START_TEST(spline_forms)
{
    Unit *u = surface("float k[4] = {0, 1, 1, 0}; float a = spline(s, k);"
                      "color b = spline(\"catmull-rom\", s, Cs, Cs, Os, Os, Cs);"
                      "Ci = a * b;");
    assert_type(init_of(u, "a"), TY_FLOAT);
    assert_type(init_of(u, "b"), TY_COLOR);
}
END_TEST

START_TEST(user_overload_by_argument)
{
    Unit *u = check_src(
        "float sq(float x) { return x * x; }\n"
        "color sq(color x) { return x * x; }\n"
        "surface t() { float a = sq(s); color b = sq(Cs); Ci = a * b; }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    Node *a = init_of(u, "a"), *b = init_of(u, "b");
    ck_assert_ptr_nonnull(a->sym);
    ck_assert_ptr_null(a->builtin);
    assert_type(a->sym->decl->kid[0], TY_FLOAT);
    ck_assert_ptr_ne(a->sym, b->sym);
    assert_type(b, TY_COLOR);
}
END_TEST

START_TEST(user_overload_by_return_type)
{
    Unit *u = check_src(
        "float snoise(point p) { return 2 * (float noise(p)) - 1; }\n"
        "vector snoise(point p) { return 2 * (vector noise(p)) - 1; }\n"
        "surface t() { float a = snoise(P); vector b = snoise(P); Ci = a; }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    assert_type(init_of(u, "a"), TY_FLOAT);
    assert_type(init_of(u, "b"), TY_VECTOR);
    ck_assert_ptr_ne(init_of(u, "a")->sym, init_of(u, "b")->sym);
}
END_TEST

START_TEST(user_function_overrides_builtin)
{
    Unit *u = check_src(
        "vector normalize(vector v) { return v / length(v); }\n"
        "surface t() { vector a = normalize(I); Ci = a . a; }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    Node *a = init_of(u, "a");
    ck_assert_ptr_null(a->builtin);
    ck_assert_int_eq(a->sym->kind, SYM_FUNC);
}
END_TEST

START_TEST(wrong_arguments_reported)
{
    check_src("surface t() { float x = pow(2); float y = sqrt(\"a\"); Ci = x + y; }");
    ck_assert_int_eq(diag_error_count(&rc), 2);
    ck_assert_ptr_nonnull(strstr(messages, "'pow' takes 2 arguments, not 1"));
    ck_assert_ptr_nonnull(strstr(messages, "argument 1 of 'sqrt' must be 'float'"));
}
END_TEST

/* ---- uniform and varying ------------------------------------------------------------------ */

START_TEST(default_details)
{
    Unit *u = surface("float a = Kd * 2; float b = s * Kd; Ci = a + b;");
    Node *param = find_decl_in(u->defs, "Kd");
    ck_assert_int_eq(param->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(find_decl_in(u->defs, "a")->detail, DETAIL_VARYING);
    ck_assert_int_eq(init_of(u, "a")->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(init_of(u, "b")->detail, DETAIL_VARYING);
}
END_TEST

START_TEST(function_result_follows_arguments)
{
    Unit *u = check_src(
        "float half(float x) { return x / 2; }\n"
        "float shift(float x) { return x + s; }\n"
        "surface t(float k = 1;) { uniform float a = half(k); float b = half(t);\n"
        "  float c = shift(k); Ci = a + b + c; }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    ck_assert_int_eq(find_decl_in(u->defs, "half")->detail, DETAIL_DEFAULT);
    ck_assert_int_eq(find_decl_in(u->defs, "shift")->detail, DETAIL_VARYING);
    ck_assert_int_eq(init_of(u, "a")->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(init_of(u, "b")->detail, DETAIL_VARYING);
    ck_assert_int_eq(init_of(u, "c")->detail, DETAIL_VARYING);
}
END_TEST

START_TEST(builtin_result_details)
{
    Unit *u = surface("float a = sin(Kd); float b = texture(map); float c = 0;"
                      "float d = attribute(\"Sides\", c); float e = random(); Ci = a+b+d+e;");
    ck_assert_int_eq(init_of(u, "a")->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(init_of(u, "b")->detail, DETAIL_VARYING);
    ck_assert_int_eq(init_of(u, "d")->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(init_of(u, "e")->detail, DETAIL_VARYING);
}
END_TEST

START_TEST(varying_into_uniform)
{
    check_src("surface t() { uniform float k = 0; k = s; k += t; Ci = k; }");
    ck_assert_int_eq(diag_error_count(&rc), 2);
    teardown();
    check_src("surface t() { uniform float k = 0; if (s > 0) k = 1;"
              " if (s > 0) { uniform float j = 1; j += 1; } Ci = k; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
    ck_assert_ptr_nonnull(strstr(messages, "under a varying condition"));
}
END_TEST

START_TEST(uniform_loop_counter)
{
    surface("uniform float i; float sum = 0;"
            "for (i = 0; i < 4; i += 1) sum += noise(P * i); Ci = sum;");
    ck_assert_int_eq(diag_warning_count(&rc), 0);
}
END_TEST

START_TEST(uniform_counter_under_varying_if)
{
    /* The counters are only read inside the varying ifs that set them. */
    surface("uniform float i; color ev = 0;"
            "if (s > 0.5) { for (i = 0; i < 4; i += 1) ev += i; }"
            "if (t > 0.5) { for (i = 0; i < 2; i += 1) ev -= i; }"
            "Ci = ev;");
    teardown();
    check_src("surface t() { uniform float i = 0;"
              " if (s > 0.5) { for (i = 0; i < 4; i += 1) Ci += i; }"
              " Ci = i; i = 1; Ci = i; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
}
END_TEST

START_TEST(arrays)
{
    Unit *u = check_src(
        "float total(float a[]) { uniform float i; float t = 0;\n"
        "  for (i = 0; i < 2; i += 1) t += a[i]; return t; }\n"
        "surface t() { float x[3] = {1, 2, 3}, y[3], z[5];\n"
        "  y = x; z[4] = total(x) + total(z); Ci = y[1] + z[4]; }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    Node *x = find_decl_in(u->defs, "x");
    ck_assert_int_eq(x->type.arraylen, 3);
    Node *a = find_decl_in(u->defs, "a");
    ck_assert_int_eq(a->type.arraylen, -1);
    teardown();
    check_src("surface t() { float x[3] = {1, 2, 3}, z[5]; z = x; Ci = z[0]; }");
    ck_assert_int_eq(diag_error_count(&rc), 1);
    ck_assert_ptr_nonnull(strstr(messages, "cannot assign 'float[3]' to 'z' of type 'float[5]'"));
}
END_TEST

/* ---- scopes, statements ------------------------------------------------------------------- */

START_TEST(extern_binds_outer_variable)
{
    Unit *u = check_src(
        "surface t(float Kn = 0.5;) {\n"
        "  color sn(point p) { extern float Kn; return Kn * color noise(p); }\n"
        "  Ci = sn(P); }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    Node *param = find_decl_in(u->defs, "Kn");
    Node *fn = find_decl_in(u->defs, "sn");
    Node *ext = fn->kid[1]->kid[0];
    ck_assert_int_eq(ext->kind, N_VARDECL);
    ck_assert_ptr_eq(ext->sym, param->sym);
}
END_TEST

START_TEST(identifiers_point_at_declarations)
{
    Unit *u = surface("float x = 1; float y = x + PI; Ci = y;");
    Node *y = init_of(u, "y");
    ck_assert_ptr_eq(y->kid[0]->sym, find_decl_in(u->defs, "x")->sym);
    ck_assert_int_eq(y->kid[1]->sym->kind, SYM_CONST);
}
END_TEST

START_TEST(uninitialized_warning)
{
    check_src("surface t() { float x, y, z; if (s > 0) y = 1; Ci = x + y;"
              " while (z < 3) z += 1; }");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    ck_assert_int_eq(diag_warning_count(&rc), 1);
    ck_assert_ptr_nonnull(strstr(messages, "variable 'x' may be used uninitialized"));
}
END_TEST

START_TEST(output_arguments_assign)
{
    check_src("surface t() { float kr, kt; vector R, T;"
              " fresnel(normalize(I), normalize(N), 1.5, kr, kt, R, T);"
              " Ci = kr + kt; }");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    ck_assert_int_eq(diag_warning_count(&rc), 0);
}
END_TEST

START_TEST(statement_rules)
{
    check_src("surface t() { while (s > 0) { break 2; } continue; return; Ci = 0; }");
    ck_assert_int_eq(diag_error_count(&rc), 3);
    ck_assert_ptr_nonnull(strstr(messages, "'break 2' is not inside 2 loops"));
    ck_assert_ptr_nonnull(strstr(messages, "'return' outside a function"));
}
END_TEST

START_TEST(light_statements_by_shader_type)
{
    check_src("surface t() { illuminate(P) { Ci = 1; } }\n"
              "light l() { illuminance(P) { Cl = 1; } solar() { Cl = L . L; } }\n");
    ck_assert_int_eq(diag_error_count(&rc), 2);
}
END_TEST

/* ---- shader globals ---------------------------------------------------------------------- */

START_TEST(global_tables)
{
    const GlobalVar *ps = global_lookup("Ps");
    ck_assert_ptr_nonnull(ps);
    ck_assert_uint_eq(ps->read, SHADER_BIT(SHADER_LIGHT));
    const GlobalVar *ci = global_lookup("Ci");
    ck_assert(ci->write & SHADER_BIT(SHADER_SURFACE));
    ck_assert(!(ci->read & SHADER_BIT(SHADER_LIGHT)));
    const GlobalVar *l = global_lookup("L");
    ck_assert(l->region & SHADER_BIT(SHADER_SURFACE));
    ck_assert_int_eq(global_lookup("E")->detail, DETAIL_UNIFORM);
    ck_assert_int_eq(global_lookup("N")->type, TY_NORMAL);
    ck_assert_ptr_null(global_lookup("Q"));
    for (int i = 0; i < global_count(); i++)
        for (int j = i + 1; j < global_count(); j++)
            ck_assert_str_ne(global_at(i)->name, global_at(j)->name);
}
END_TEST

START_TEST(globals_by_shader_type)
{
    check_src("displacement d() { P += N * 0.1; N = calculatenormal(P); }\n"
              "imager i() { Ci = Ci * alpha; }\n"
              "volume v() { Ci = Ci * 0.5 + length(I); }\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
    teardown();
    check_src("surface s() { point p = Ps; Ci = length(p); }");
    ck_assert_ptr_nonnull(strstr(messages, "'Ps' is not available in surface shaders"));
}
END_TEST

/* ---- the builtin table -------------------------------------------------------------------- */

START_TEST(builtin_table_sanity)
{
    int overloads = 0;
    for (int i = 0; i < BI_COUNT; i++) {
        const Builtin *b = &builtin_table[i];
        ck_assert_int_eq(b->id, i);
        ck_assert_ptr_nonnull(b->name);
        ck_assert_int_eq(builtin_rows[b->first].fn, i);
        bool options = false;
        for (int r = b->first; r < BO_COUNT && builtin_rows[r].fn == b->id; r++) {
            BuiltinSig sig;
            const char *cur = builtin_rows[r].sig;
            ck_assert_msg(builtin_sig_next(&cur, &sig) && *cur == '\0',
                          "bad signature in '%s' at \"%s\"", b->name, cur);
            /* The IR's calls name the function, so its rows agree on what
               the optimiser may do with them. */
            ck_assert_int_eq(builtin_rows[r].cls, builtin_row(b)->cls);
            ck_assert_int_eq(builtin_rows[r].flags, builtin_row(b)->flags);
            options |= sig.tail == '~';
            overloads++;
        }
        ck_assert(options == (b->opts != OPTS_NONE));
    }
    /* Every row belongs to the function whose run it sits in. */
    ck_assert_int_eq(overloads, BO_COUNT);
    ck_assert_int_gt(overloads, 200);
}
END_TEST

START_TEST(builtin_lookup)
{
    const Builtin *t = builtin_find("texture");
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(builtin_row(t)->cls, BC_RENDER);
    ck_assert(builtin_row(t)->flags & BF_CHANNEL);
    ck_assert_int_eq(builtin_row(builtin_find("Du"))->cls, BC_DERIV);
    ck_assert_int_eq(builtin_row(builtin_find("diffuse"))->cls, BC_LIGHT);
    ck_assert_int_eq(builtin_row(builtin_find("printf"))->cls, BC_SIDE);
    ck_assert_ptr_null(builtin_find("nosuch"));
    ck_assert_ptr_null(builtin_find("__light")); /* the back end's own */
    const Builtin *comp = builtin_find("comp");
    ck_assert_int_eq(builtin_next(comp)->id, BI_MCOMP);
    ck_assert_ptr_null(builtin_next(builtin_next(comp)));
}
END_TEST

START_TEST(signature_decoding)
{
    BuiltinSig sig;
    const char *cur = "xvvff&f&v&v& fs~";
    ck_assert(builtin_sig_next(&cur, &sig));
    ck_assert_int_eq(sig.ret.base, TY_VOID);
    ck_assert_int_eq(sig.nparams, 7);
    ck_assert(sig.param[3].output && !sig.param[2].output);
    ck_assert(builtin_sig_next(&cur, &sig));
    ck_assert_int_eq(sig.tail, '~');
    ck_assert(!builtin_sig_next(&cur, &sig));
    cur = "fq";
    ck_assert(!builtin_sig_next(&cur, &sig));
    ck_assert_int_eq(*cur, 'q');
    cur = "ff[]";
    ck_assert(builtin_sig_next(&cur, &sig));
    ck_assert_int_eq(sig.param[0].type.arraylen, -1);
}
END_TEST

START_TEST(signature_costs)
{
    BuiltinSig sig;
    const char *cur = "fff.";
    ck_assert(builtin_sig_next(&cur, &sig));
    Type args[5] = { type_make(TY_FLOAT), type_make(TY_FLOAT), type_make(TY_FLOAT),
                     type_make(TY_FLOAT), type_make(TY_FLOAT) };
    ck_assert_int_eq(builtin_sig_cost(&sig, args, NULL, 5), 0);
    ck_assert_int_eq(builtin_sig_cost(&sig, args, NULL, 1), -1);
    cur = "cccf";
    ck_assert(builtin_sig_next(&cur, &sig));
    ck_assert_int_eq(builtin_sig_cost(&sig, args, NULL, 3), 4);
    unsigned alt[3] = { 1u << TY_COLOR, 0, 0 };
    ck_assert_int_eq(builtin_sig_cost(&sig, args, alt, 3), 2);
}
END_TEST

START_TEST(options)
{
    const BuiltinOption *o = builtin_option(OPTS_TEXTURE, "blur");
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(o->type, TY_FLOAT);
    ck_assert_int_eq(builtin_option(OPTS_TEXTURE, "filter")->type, TY_STRING);
    ck_assert_ptr_null(builtin_option(OPTS_TEXTURE, "bias"));
    ck_assert_ptr_nonnull(builtin_option(OPTS_SHADOW, "bias"));
    const BuiltinOption *g = builtin_option(OPTS_GATHER, "surface:Ci");
    ck_assert_ptr_nonnull(g);
    ck_assert(g->output);
    ck_assert_ptr_null(builtin_option(OPTS_GATHER, "surfaceCi"));
}
END_TEST

static Suite *sema_suite(void)
{
    Suite *s = suite_create("sema");
    TCase *tc = tcase_create("types");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, type_names);
    tcase_add_test(tc, conversion_costs);
    tcase_add_test(tc, array_conversions);
    tcase_add_test(tc, point_minus_point_is_vector);
    tcase_add_test(tc, point_plus_vector_is_point);
    tcase_add_test(tc, vector_times_float_is_vector);
    tcase_add_test(tc, dot_and_cross);
    tcase_add_test(tc, float_promotes_to_color);
    tcase_add_test(tc, matrix_arithmetic);
    tcase_add_test(tc, comparisons_give_booleans);
    tcase_add_test(tc, rejected_operations);
    tcase_add_test(tc, comparison_as_value_is_float);
    tcase_add_test(tc, triple_literal_types);
    tcase_add_test(tc, no_cascade_after_error);
    tcase_add_test(tc, arrays);
    suite_add_tcase(s, tc);

    tc = tcase_create("overloads");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, noise_result_follows_context);
    tcase_add_test(tc, mix_clamp_min_max);
    tcase_add_test(tc, transform_forms);
    tcase_add_test(tc, texture_forms);
    tcase_add_test(tc, comp_and_rotate_rows);
    tcase_add_test(tc, spline_forms);
    tcase_add_test(tc, user_overload_by_argument);
    tcase_add_test(tc, user_overload_by_return_type);
    tcase_add_test(tc, user_function_overrides_builtin);
    tcase_add_test(tc, wrong_arguments_reported);
    suite_add_tcase(s, tc);

    tc = tcase_create("details");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, default_details);
    tcase_add_test(tc, function_result_follows_arguments);
    tcase_add_test(tc, builtin_result_details);
    tcase_add_test(tc, varying_into_uniform);
    tcase_add_test(tc, uniform_loop_counter);
    tcase_add_test(tc, uniform_counter_under_varying_if);
    suite_add_tcase(s, tc);

    tc = tcase_create("statements");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, extern_binds_outer_variable);
    tcase_add_test(tc, identifiers_point_at_declarations);
    tcase_add_test(tc, uninitialized_warning);
    tcase_add_test(tc, output_arguments_assign);
    tcase_add_test(tc, statement_rules);
    tcase_add_test(tc, light_statements_by_shader_type);
    suite_add_tcase(s, tc);

    tc = tcase_create("tables");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, global_tables);
    tcase_add_test(tc, globals_by_shader_type);
    tcase_add_test(tc, builtin_table_sanity);
    tcase_add_test(tc, builtin_lookup);
    tcase_add_test(tc, signature_decoding);
    tcase_add_test(tc, signature_costs);
    tcase_add_test(tc, options);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sema_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

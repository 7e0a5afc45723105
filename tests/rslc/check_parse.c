/*
** check_parse.c: unit tests of the RSL lexer, grammar and AST module.
**
** Expressions are compared through a compact prefix form built by
** walking the nodes ("(+ a (* b c))"), so precedence and associativity
** are checked on the tree itself; a few tests pin the --dump-ast text.
** Diagnostics are captured to a memory stream and checked by count,
** location and wording.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ast.h"
#include "rslc/diag.h"
#include "rslc/parse.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

/* ---- fixtures ------------------------------------------------------------------ */

static char *diag_text;
static size_t diag_len;
static FILE *diag_stream;

static void setup(void)
{
    diag_reset(&rc);
    diag_stream = open_memstream(&diag_text, &diag_len);
    diag_set_output(&rc, diag_stream);
}

static void teardown(void)
{
    diag_set_output(&rc, NULL);
    fclose(diag_stream);
    free(diag_text);
    diag_text = NULL;
    ast_free_all(&rc);
    diag_reset(&rc);
}

/* What diagnostics have said so far. */
static const char *diags(void)
{
    fflush(diag_stream);
    return diag_text ? diag_text : "";
}

static Unit *parse(const char *src)
{
    return parse_rsl(&rc, src, strlen(src), "t.sl");
}

/* Checks that some diagnostic contains text. */
static void assert_diag(const char *text)
{
    ck_assert_msg(strstr(diags(), text) != NULL, "no diagnostic says \"%s\"; they were:\n%s",
                  text, diags());
}

/* Parses src, which must be valid. */
static Unit *parse_ok(const char *src)
{
    Unit *u = parse(src);
    ck_assert_msg(u != NULL, "parse failed for:\n%s\ndiagnostics:\n%s", src, diags());
    ck_assert_int_eq(diag_error_count(&rc), 0);
    return u;
}

/* Parses src, which must fail with nerrors errors. */
static void parse_fails(const char *src, int nerrors)
{
    Unit *u = parse(src);
    ck_assert_msg(u == NULL, "parse should have failed:\n%s", src);
    ck_assert_msg(diag_error_count(&rc) == nerrors, "expected %d errors, got %d:\n%s",
                  nerrors, diag_error_count(&rc), diags());
}

/* ---- the prefix form ------------------------------------------------------------- */

static void sexpr_to(FILE *f, const Node *n);

static void sexpr_list(FILE *f, const Node *n)
{
    for (; n; n = n->next) {
        fputc(' ', f);
        sexpr_to(f, n);
    }
}

static void sexpr_to(FILE *f, const Node *n)
{
    switch (n->kind) {
    case N_FLOATLIT:
        fprintf(f, "%g", n->num);
        break;
    case N_STRINGLIT:
        fprintf(f, "\"%s\"", n->name);
        break;
    case N_IDENT:
        fputs(n->name, f);
        break;
    case N_INDEX:
        sexpr_to(f, n->kid[0]);
        fputc('[', f);
        sexpr_to(f, n->kid[1]);
        fputc(']', f);
        break;
    case N_UNARY:
        fprintf(f, "(%s ", ast_op_name(n->op));
        sexpr_to(f, n->kid[0]);
        fputc(')', f);
        break;
    case N_BINARY:
    case N_ASSIGN:
        fprintf(f, "(%s%s ", n->kind == N_ASSIGN && n->op != OP_ASSIGN ? ast_op_name(n->op) : "",
                n->kind == N_ASSIGN ? "=" : ast_op_name(n->op));
        sexpr_to(f, n->kid[0]);
        fputc(' ', f);
        sexpr_to(f, n->kid[1]);
        fputc(')', f);
        break;
    case N_TERNARY:
        fputs("(? ", f);
        sexpr_to(f, n->kid[0]);
        fputc(' ', f);
        sexpr_to(f, n->kid[1]);
        fputc(' ', f);
        sexpr_to(f, n->kid[2]);
        fputc(')', f);
        break;
    case N_CALL:
        fprintf(f, "%s(", n->name);
        for (const Node *a = n->kid[0]; a; a = a->next) {
            sexpr_to(f, a);
            if (a->next)
                fputc(',', f);
        }
        fputc(')', f);
        break;
    case N_CAST:
        fprintf(f, "(%s", type_base_name(n->spec.type.base));
        if (n->name)
            fprintf(f, "@%s", n->name);
        fputc(' ', f);
        sexpr_to(f, n->kid[0]);
        fputc(')', f);
        break;
    case N_TRIPLE:
        fputs("(triple", f);
        for (int i = 0; i < 3; i++) {
            fputc(' ', f);
            sexpr_to(f, n->kid[i]);
        }
        fputc(')', f);
        break;
    case N_MATRIX16:
        fputs("(matrix16", f);
        sexpr_list(f, n->kid[0]);
        fputc(')', f);
        break;
    case N_ARRAYINIT:
        fputs("{", f);
        sexpr_list(f, n->kid[0]);
        fputs(" }", f);
        break;
    default:
        fputs(ast_kind_name(n->kind), f);
        break;
    }
}

/* The prefix form of n, in a buffer the next call reuses. */
static const char *sexpr(const Node *n)
{
    static char *buf;
    static size_t len;
    free(buf);
    buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    sexpr_to(f, n);
    fclose(f);
    return buf;
}

/* The statements of the body of the first definition in src. */
static Node *body_of(const char *src)
{
    Unit *u = parse_ok(src);
    ck_assert_ptr_nonnull(u->defs);
    ck_assert_int_eq(u->defs->kid[1]->kind, N_BLOCK);
    return u->defs->kid[1]->kid[0];
}

/* The first statement of a surface shader whose body is src. */
static Node *stmt_of(const char *src)
{
    char buf[4096 + 64];
    snprintf(buf, sizeof buf, "surface s() {\n%s\n}\n", src);
    return body_of(buf);
}

/* The prefix form of expression src, parsed as the right side of an
   assignment. */
static const char *expr(const char *src)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "x = %s;", src);
    Node *s = stmt_of(buf);
    ck_assert_int_eq(s->kind, N_EXPRSTMT);
    ck_assert_int_eq(s->kid[0]->kind, N_ASSIGN);
    return sexpr(s->kid[0]->kid[1]);
}

/* Checks each expression (first) against its prefix form (second). */
static void check_exprs(const char *const cases[][2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(strcmp(expr(cases[i][0]), cases[i][1]) == 0, "%s: got %s, want %s",
                      cases[i][0], expr(cases[i][0]), cases[i][1]);
}

/* The --dump-ast text of src. */
static char *dump(const char *src)
{
    Unit *u = parse_ok(src);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ast_dump(f, u);
    fclose(f);
    return buf;
}

/* ---- definitions ------------------------------------------------------------------ */

START_TEST(empty_input)
{
    Unit *u = parse_ok("");
    ck_assert_ptr_null(u->defs);
    u = parse_ok("  // nothing\n/* at all */\n;\n");
    ck_assert_ptr_null(u->defs);
}
END_TEST

START_TEST(shader_kinds)
{
    static const struct { const char *kw; ShaderKind kind; } kinds[] = {
        { "surface", SHADER_SURFACE }, { "light", SHADER_LIGHT },
        { "displacement", SHADER_DISPLACEMENT }, { "volume", SHADER_VOLUME },
        { "imager", SHADER_IMAGER },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char src[128];
        snprintf(src, sizeof src, "%s sh%zu() { }", kinds[i].kw, i);
        Unit *u = parse_ok(src);
        ck_assert_int_eq(u->defs->kind, N_SHADER);
        ck_assert_int_eq(u->defs->shader, kinds[i].kind);
        ck_assert_ptr_null(u->defs->next);
        ck_assert_ptr_null(u->defs->kid[0]);
        ck_assert_int_eq(u->defs->kid[1]->kind, N_BLOCK);
        ck_assert_int_eq(u->defs->loc.col, (int)strlen(kinds[i].kw) + 2);
    }
}
END_TEST

START_TEST(names_are_interned)
{
    Unit *u = parse_ok("surface plastic() { }\nfloat plastic2() { return 1; }");
    ck_assert_ptr_eq(u->defs->name, ast_intern(&rc, "plastic"));
    ck_assert_ptr_eq(u->defs->next->name, ast_intern(&rc, "plastic2"));
    ck_assert_ptr_eq(ast_intern(&rc, "abc"), ast_intern(&rc, "abc"));
    ck_assert_ptr_ne(ast_intern(&rc, "abc"), ast_intern(&rc, "abd"));
}
END_TEST

START_TEST(function_return_types)
{
    Unit *u = parse_ok("float f(float x) { return x; }\n"
                       "void g() { }\n"
                       "h() { }\n"
                       "color k(color c) { return c; };\n"
                       "float f(color x) { return 1; }\n");
    Node *d = u->defs;
    ck_assert_int_eq(ast_list_len(d), 5);
    ck_assert_int_eq(d->kind, N_FUNCTION);
    ck_assert_int_eq(d->spec.type.base, TY_FLOAT);
    ck_assert_int_eq(d->next->spec.type.base, TY_VOID);
    /* An omitted return type means void. */
    ck_assert_int_eq(d->next->next->spec.type.base, TY_VOID);
    ck_assert_str_eq(d->next->next->name, "h");
    ck_assert_int_eq(d->next->next->next->spec.type.base, TY_COLOR);
    /* Overloads are the checker's business. */
    ck_assert_ptr_eq(d->name, d->next->next->next->next->name);
}
END_TEST

START_TEST(formals_groups)
{
    Unit *u = parse_ok("surface s(float Ka = 1, Kd = .5; color c = 1;\n"
                       "          output varying color foo = 0; uniform string tex = \"\";)\n"
                       "{ }");
    Node *f = u->defs->kid[0];
    ck_assert_int_eq(ast_list_len(f), 5);
    ck_assert_str_eq(f->name, "Ka");
    ck_assert_int_eq(f->spec.type.base, TY_FLOAT);
    ck_assert_str_eq(sexpr(f->kid[0]), "1");
    f = f->next;
    ck_assert_str_eq(f->name, "Kd");
    ck_assert_int_eq(f->spec.type.base, TY_FLOAT);
    ck_assert_str_eq(sexpr(f->kid[0]), "0.5");
    f = f->next;
    ck_assert_int_eq(f->spec.type.base, TY_COLOR);
    ck_assert(!f->spec.output);
    f = f->next;
    ck_assert_str_eq(f->name, "foo");
    ck_assert(f->spec.output);
    ck_assert_int_eq(f->spec.detail, DETAIL_VARYING);
    f = f->next;
    ck_assert_int_eq(f->spec.detail, DETAIL_UNIFORM);
    ck_assert_int_eq(f->spec.type.base, TY_STRING);
    ck_assert_str_eq(sexpr(f->kid[0]), "\"\"");
}
END_TEST

START_TEST(formals_comma_groups_and_arrays)
{
    Unit *u = parse_ok("float f(float a[], b; color c, d, point p; output float q[3]) { return 0; }");
    Node *f = u->defs->kid[0];
    ck_assert_int_eq(ast_list_len(f), 6);
    ck_assert_int_eq(f->spec.type.arraylen, -1);
    ck_assert_int_eq(f->next->spec.type.base, TY_FLOAT);
    ck_assert_int_eq(f->next->spec.type.arraylen, 0);
    f = f->next->next;
    ck_assert_int_eq(f->spec.type.base, TY_COLOR);
    ck_assert_int_eq(f->next->spec.type.base, TY_COLOR);
    ck_assert_int_eq(f->next->next->spec.type.base, TY_POINT);
    f = f->next->next->next;
    ck_assert(f->spec.output);
    ck_assert_int_eq(f->spec.type.arraylen, 3);
}
END_TEST

START_TEST(declarations)
{
    Node *s = stmt_of("uniform float a = 1, b[3] = {1, 2, 3}, c;\n"
                      "varying point p;\n"
                      "matrix m; vector v; normal n; string str = \"x\";");
    ck_assert_int_eq(ast_list_len(s), 8);
    ck_assert_int_eq(s->kind, N_VARDECL);
    ck_assert_int_eq(s->spec.detail, DETAIL_UNIFORM);
    ck_assert_str_eq(sexpr(s->kid[0]), "1");
    s = s->next;
    ck_assert_str_eq(s->name, "b");
    ck_assert_int_eq(s->spec.type.arraylen, 3);
    ck_assert_int_eq(s->spec.detail, DETAIL_UNIFORM);
    ck_assert_str_eq(sexpr(s->kid[0]), "{ 1 2 3 }");
    s = s->next;
    ck_assert_str_eq(s->name, "c");
    ck_assert_int_eq(s->spec.type.arraylen, 0);
    ck_assert_ptr_null(s->kid[0]);
    s = s->next;
    ck_assert_int_eq(s->spec.type.base, TY_POINT);
    ck_assert_int_eq(s->spec.detail, DETAIL_VARYING);
    ck_assert_int_eq(s->next->spec.type.base, TY_MATRIX);
    ck_assert_int_eq(s->next->next->spec.type.base, TY_VECTOR);
    ck_assert_int_eq(s->next->next->next->spec.type.base, TY_NORMAL);
    ck_assert_int_eq(s->next->next->next->next->spec.type.base, TY_STRING);
}
END_TEST

START_TEST(nested_function_and_extern)
{
    Node *s = stmt_of("float inner(float a) {\n"
                      "    extern float Ka;\n"
                      "    float deeper(float b) { return b; }\n"
                      "    return deeper(a) * Ka;\n"
                      "}\n"
                      "y = inner(2);");
    ck_assert_int_eq(s->kind, N_FUNCTION);
    ck_assert_str_eq(s->name, "inner");
    Node *b = s->kid[1]->kid[0];
    ck_assert_int_eq(b->kind, N_VARDECL);
    ck_assert(b->spec.is_extern);
    ck_assert_int_eq(b->next->kind, N_FUNCTION);
    ck_assert_int_eq(b->next->next->kind, N_RETURN);
    ck_assert_int_eq(s->next->kind, N_EXPRSTMT);
}
END_TEST

/* ---- statements ------------------------------------------------------------------ */

START_TEST(if_else_and_dangling_else)
{
    Node *s = stmt_of("if (a) x = 1;");
    ck_assert_int_eq(s->kind, N_IF);
    ck_assert_ptr_null(s->kid[2]);
    s = stmt_of("if (a) if (b) x = 1; else x = 2;");
    ck_assert_int_eq(s->kind, N_IF);
    ck_assert_ptr_null(s->kid[2]);
    ck_assert_int_eq(s->kid[1]->kind, N_IF);
    ck_assert_ptr_nonnull(s->kid[1]->kid[2]);
    s = stmt_of("if (a) { x = 1; } else if (b) x = 2; else ;");
    ck_assert_int_eq(s->kid[1]->kind, N_BLOCK);
    ck_assert_int_eq(s->kid[2]->kind, N_IF);
    ck_assert_int_eq(s->kid[2]->kid[2]->kind, N_EMPTY);
}
END_TEST

START_TEST(loops)
{
    Node *s = stmt_of("while (i < 3) i += 1;");
    ck_assert_int_eq(s->kind, N_WHILE);
    ck_assert_str_eq(sexpr(s->kid[0]), "(< i 3)");
    ck_assert_int_eq(s->kid[1]->kind, N_EXPRSTMT);

    s = stmt_of("for (i = 0; i < 10; i += 1) { x = i; }");
    ck_assert_int_eq(s->kind, N_FOR);
    ck_assert_str_eq(sexpr(s->kid[0]), "(= i 0)");
    ck_assert_str_eq(sexpr(s->kid[1]), "(< i 10)");
    ck_assert_str_eq(sexpr(s->kid[2]), "(+= i 1)");
    ck_assert_int_eq(s->kid[3]->kind, N_BLOCK);

    s = stmt_of("for (;;) break;");
    ck_assert_ptr_null(s->kid[0]);
    ck_assert_ptr_null(s->kid[1]);
    ck_assert_ptr_null(s->kid[2]);
    ck_assert_int_eq(s->kid[3]->kind, N_BREAK);
}
END_TEST

START_TEST(break_continue_return)
{
    Node *s = stmt_of("break; break 2; continue; continue 3; return; return x + 1;");
    ck_assert_int_eq(s->kind, N_BREAK);
    ck_assert(s->num == 1);
    s = s->next;
    ck_assert_int_eq(s->kind, N_BREAK);
    ck_assert(s->num == 2);
    s = s->next;
    ck_assert_int_eq(s->kind, N_CONTINUE);
    ck_assert(s->num == 1);
    s = s->next;
    ck_assert(s->num == 3);
    s = s->next;
    ck_assert_int_eq(s->kind, N_RETURN);
    ck_assert_ptr_null(s->kid[0]);
    s = s->next;
    ck_assert_str_eq(sexpr(s->kid[0]), "(+ x 1)");
}
END_TEST

START_TEST(blocks_and_empty)
{
    Node *s = stmt_of("{ } ; { { x = 1; } }");
    ck_assert_int_eq(s->kind, N_BLOCK);
    ck_assert_ptr_null(s->kid[0]);
    ck_assert_int_eq(s->next->kind, N_EMPTY);
    s = s->next->next;
    ck_assert_int_eq(s->kind, N_BLOCK);
    ck_assert_int_eq(s->kid[0]->kind, N_BLOCK);
    /* A declaration of several names as a controlled statement becomes a
       block, so a body is always one node. */
    s = stmt_of("if (a) float p = 1, q = 2;");
    ck_assert_int_eq(s->kid[1]->kind, N_BLOCK);
    ck_assert_int_eq(ast_list_len(s->kid[1]->kid[0]), 2);
}
END_TEST

START_TEST(illuminance_forms)
{
    Node *s = stmt_of("illuminance(P) Ci += Cl;\n"
                      "illuminance(P, N, PI/2) { Ci += Cl; }\n"
                      "illuminance(\"specular\", P, N, PI/2) ;\n"
                      "illuminance(\"diffuse\", P) ;");
    ck_assert_int_eq(s->kind, N_ILLUMINANCE);
    ck_assert_int_eq(ast_list_len(s->kid[0]), 1);
    ck_assert_int_eq(s->kid[1]->kind, N_EXPRSTMT);
    s = s->next;
    ck_assert_int_eq(ast_list_len(s->kid[0]), 3);
    ck_assert_str_eq(sexpr(s->kid[0]->next->next), "(/ PI 2)");
    s = s->next;
    ck_assert_int_eq(ast_list_len(s->kid[0]), 4);
    ck_assert_str_eq(sexpr(s->kid[0]), "\"specular\"");
    ck_assert_int_eq(s->kid[1]->kind, N_EMPTY);
    ck_assert_int_eq(ast_list_len(s->next->kid[0]), 2);
}
END_TEST

START_TEST(illuminate_and_solar)
{
    Node *s = stmt_of("illuminate(from) Cl = 1;\n"
                      "illuminate(from, A, angle) { Cl = 1; }\n"
                      "solar() Cl = 1;\n"
                      "solar(A, 0.0) Cl = 1;");
    ck_assert_int_eq(s->kind, N_ILLUMINATE);
    ck_assert_int_eq(ast_list_len(s->kid[0]), 1);
    ck_assert_int_eq(ast_list_len(s->next->kid[0]), 3);
    s = s->next->next;
    ck_assert_int_eq(s->kind, N_SOLAR);
    ck_assert_ptr_null(s->kid[0]);
    ck_assert_int_eq(s->kid[1]->kind, N_EXPRSTMT);
    ck_assert_int_eq(ast_list_len(s->next->kid[0]), 2);
}
END_TEST

START_TEST(gather_forms)
{
    Node *s = stmt_of("gather(\"illuminance\", P, N, PI/2, 16, \"surface:Ci\", hitc)\n"
                      "    c += hitc;\n"
                      "else\n"
                      "    c += 1;\n"
                      "gather(\"\", P, N, 0, 4) { }");
    ck_assert_int_eq(s->kind, N_GATHER);
    ck_assert_int_eq(ast_list_len(s->kid[0]), 7);
    ck_assert_int_eq(s->kid[1]->kind, N_EXPRSTMT);
    ck_assert_int_eq(s->kid[2]->kind, N_EXPRSTMT);
    ck_assert_ptr_null(s->next->kid[2]);
    /* An else after a gather inside an if belongs to the gather. */
    s = stmt_of("if (a) gather(\"\", P, N, 0, 4) x = 1; else x = 2;");
    ck_assert_ptr_null(s->kid[2]);
    ck_assert_ptr_nonnull(s->kid[1]->kid[2]);
}
END_TEST

START_TEST(expression_statements)
{
    Node *s = stmt_of("f(1, 2); a[i] = 3; x -= 1; x *= 2; x /= 4; surface(\"Kd\", kd);");
    ck_assert_int_eq(s->kind, N_EXPRSTMT);
    ck_assert_str_eq(sexpr(s->kid[0]), "f(1,2)");
    ck_assert_str_eq(sexpr(s->next->kid[0]), "(= a[i] 3)");
    ck_assert_int_eq(s->next->kid[0]->kid[0]->kind, N_INDEX);
    ck_assert_str_eq(sexpr(s->next->next->kid[0]), "(-= x 1)");
    ck_assert_str_eq(sexpr(s->next->next->next->kid[0]), "(*= x 2)");
    ck_assert_str_eq(sexpr(s->next->next->next->next->kid[0]), "(/= x 4)");
    ck_assert_str_eq(sexpr(s->next->next->next->next->next->kid[0]), "surface(\"Kd\",kd)");
}
END_TEST

/* ---- expressions ----------------------------------------------------------------- */

START_TEST(arithmetic_precedence)
{
    static const char *const cases[][2] = {
        { "a + b * c", "(+ a (* b c))" },
        { "a * b + c", "(+ (* a b) c)" },
        { "(a + b) * c", "(* (+ a b) c)" },
        { "a - b - c", "(- (- a b) c)" },
        { "a / b / c", "(/ (/ a b) c)" },
        { "a / b * c", "(* (/ a b) c)" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(dot_and_cross_precedence)
{
    /* . binds tighter than * and /, ^ between * and + (RISpec table). */
    static const char *const cases[][2] = {
        { "a . b * c", "(* (. a b) c)" },
        { "a * b . c", "(* a (. b c))" },
        { "a * b ^ c", "(^ (* a b) c)" },
        { "a ^ b * c", "(^ a (* b c))" },
        { "a ^ b + c", "(+ (^ a b) c)" },
        { "a + b ^ c", "(+ a (^ b c))" },
        { "a ^ b ^ c", "(^ (^ a b) c)" },
        { "a . b . c", "(. (. a b) c)" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(unary_precedence)
{
    static const char *const cases[][2] = {
        { "-a . b", "(. (- a) b)" },
        { "-a * b", "(* (- a) b)" },
        { "- -a", "(- (- a))" },
        { "!a && b", "(&& (! a) b)" },
        { "-N.I", "(. (- N) I)" },
        { "a - -b", "(- a (- b))" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(relational_and_logical)
{
    static const char *const cases[][2] = {
        { "a < b == c > d", "(== (< a b) (> c d))" },
        { "a <= b != c >= d", "(!= (<= a b) (>= c d))" },
        { "a + 1 < b * 2", "(< (+ a 1) (* b 2))" },
        { "a || b && c", "(|| a (&& b c))" },
        { "a && b || c", "(|| (&& a b) c)" },
        { "a == b && c != d", "(&& (== a b) (!= c d))" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(ternary)
{
    static const char *const cases[][2] = {
        { "a ? b : c", "(? a b c)" },
        { "a ? b : c ? d : e", "(? a b (? c d e))" },
        { "a ? b ? c : d : e", "(? a (? b c d) e)" },
        { "a || b ? c + 1 : d", "(? (|| a b) (+ c 1) d)" },
        { "(N.I > 0) ? Ci : -Ci", "(? (> (. N I) 0) Ci (- Ci))" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(assignment_expressions)
{
    static const char *const cases[][2] = {
        { "y = z = 1", "(= y (= z 1))" },
        { "y += z -= 1", "(+= y (-= z 1))" },
        { "y = a + b", "(= y (+ a b))" },
        /* As in the RISpec, an assignment is a primary. */
        { "a + b = c", "(+ a (= b c))" },
        { "a[1] = b ? c : d", "(= a[1] (? b c d))" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
    Node *s = stmt_of("if ((x = f()) > 0) y = 1;");
    ck_assert_str_eq(sexpr(s->kid[0]), "(> (= x f()) 0)");
}
END_TEST

START_TEST(typecasts)
{
    static const char *const cases[][2] = {
        { "color \"hsv\" (1, 1, 1) * 2", "(* (color@hsv (triple 1 1 1)) 2)" },
        { "float a * b", "(* (float a) b)" },
        { "point \"world\" P", "(point@world P)" },
        { "point \"world\" -P", "(point@world (- P))" },
        { "vector \"camera\" (0, 0, 1)", "(vector@camera (triple 0 0 1))" },
        { "normal (0, 1, 0)", "(normal (triple 0 1 0))" },
        { "matrix \"shader\" 1", "(matrix@shader 1)" },
        { "color (0.5)", "(color 0.5)" },
        { "string s", "(string s)" },
        { "float texture(\"t\")", "(float texture(\"t\"))" },
        { "point \"world\" point \"object\" P", "(point@world (point@object P))" },
        { "-color \"rgb\" 1", "(- (color@rgb 1))" },
        /* Without a typecast in front, a string minus something stays so. */
        { "\"a\" - b", "(- \"a\" b)" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(triples_and_matrices)
{
    static const char *const cases[][2] = {
        { "(1, 2, 3)", "(triple 1 2 3)" },
        { "(a + 1, b, c) * 2", "(* (triple (+ a 1) b c) 2)" },
        { "matrix (1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1)", "(matrix (matrix16 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1))" },
        { "matrix \"world\" (1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)", "(matrix@world (matrix16 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16))" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(numbers)
{
    static const struct { const char *text; double value; } nums[] = {
        { "1", 1 }, { "1.", 1 }, { ".5", 0.5 }, { "1e-3", 1e-3 },
        { "2.5E+4", 2.5e4 }, { "0.25e2", 25 }, { "007", 7 }, { "1.e2", 100 },
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char src[128];
        snprintf(src, sizeof src, "x = %s;", nums[i].text);
        Node *v = stmt_of(src)->kid[0]->kid[1];
        ck_assert_int_eq(v->kind, N_FLOATLIT);
        ck_assert_msg(v->num == nums[i].value, "%s read as %g", nums[i].text, v->num);
    }
}
END_TEST

START_TEST(dot_operator_versus_numbers)
{
    static const char *const cases[][2] = {
        { "N.I", "(. N I)" },
        { "N . I", "(. N I)" },
        { "L.L", "(. L L)" },
        { "1.5", "1.5" },
        { "a.b*2.", "(* (. a b) 2)" },
        { "(a).(b)", "(. a b)" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

START_TEST(strings_and_escapes)
{
    Node *v = stmt_of("s = \"a\\n\\t\\\\\\\"\\101\\x42\\'?\";")->kid[0]->kid[1];
    ck_assert_int_eq(v->kind, N_STRINGLIT);
    ck_assert_str_eq(v->name, "a\n\t\\\"AB'?");
    v = stmt_of("s = \"\";")->kid[0]->kid[1];
    ck_assert_str_eq(v->name, "");
    v = stmt_of("s = \"// not a comment /* nor this */\";")->kid[0]->kid[1];
    ck_assert_str_eq(v->name, "// not a comment /* nor this */");
}
END_TEST

START_TEST(unknown_escape_is_a_warning)
{
    Node *v = stmt_of("s = \"a\\qb\";")->kid[0]->kid[1];
    ck_assert_str_eq(v->name, "aqb");
    ck_assert_int_eq(diag_warning_count(&rc), 1);
    assert_diag("t.sl:2:5: warning: unknown escape sequence '\\q'");
}
END_TEST

START_TEST(calls_and_texture_channels)
{
    static const char *const cases[][2] = {
        { "texture(\"name\"[1], s, t, \"blur\", .1)", "texture(\"name\"[1],s,t,\"blur\",0.1)" },
        { "texture(texname[0], s, t)", "texture(texname[0],s,t)" },
        { "shadow(name[0], P)", "shadow(name[0],P)" },
        { "environment(envname, R)", "environment(envname,R)" },
        { "f()", "f()" },
        { "f(g(1), h(2, 3))[2]", "f(g(1),h(2,3))[2]" },
        { "displacement(\"amp\", a) + PI", "(+ displacement(\"amp\",a) PI)" },
    };
    check_exprs(cases, sizeof cases / sizeof cases[0]);
    Node *v = stmt_of("x = texture(\"name\"[1]);")->kid[0]->kid[1];
    ck_assert_int_eq(v->kid[0]->kind, N_INDEX);
    ck_assert_int_eq(v->kid[0]->kid[0]->kind, N_STRINGLIT);
}
END_TEST

/* ---- locations ------------------------------------------------------------------- */

START_TEST(line_markers)
{
    const char *src =
        "# 1 \"main.sl\"\n"
        "surface s()\n"
        "# 1 \"inc.h\" 1\n"
        "{\n"
        "# 12 \"main.sl\" 2\n"
        "x = 1;\n"
        "#line 40 \"other.sl\"\n"
        "y = 2;\n"
        "# 7\n"
        "\n"
        "z = 3;\n"
        "#pragma something odd\n"
        "#ident \"v1\"\n"
        "w = 4;\n"
        "}\n";
    Unit *u = parse_ok(src);
    Node *sh = u->defs;
    ck_assert_str_eq(sh->loc.file, "main.sl");
    ck_assert_int_eq(sh->loc.line, 1);
    ck_assert_str_eq(sh->kid[1]->loc.file, "inc.h");
    ck_assert_int_eq(sh->kid[1]->loc.line, 1);
    Node *s = sh->kid[1]->kid[0];
    ck_assert_str_eq(s->loc.file, "main.sl");
    ck_assert_int_eq(s->loc.line, 12);
    ck_assert_str_eq(s->next->loc.file, "other.sl");
    ck_assert_int_eq(s->next->loc.line, 40);
    /* A marker without a file keeps the file. */
    ck_assert_str_eq(s->next->next->loc.file, "other.sl");
    ck_assert_int_eq(s->next->next->loc.line, 8);
    ck_assert_int_eq(s->next->next->next->loc.line, 11);
    /* File names are interned. */
    ck_assert_ptr_eq(s->loc.file, ast_intern(&rc, "main.sl"));
}
END_TEST

START_TEST(line_marker_escapes_in_names)
{
    Unit *u = parse_ok("# 3 \"dir\\\\a \\\"b\\\".sl\"\nsurface s() { }\n");
    ck_assert_str_eq(u->defs->loc.file, "dir\\a \"b\".sl");
    ck_assert_int_eq(u->defs->loc.line, 3);
}
END_TEST

START_TEST(columns)
{
    Node *s = body_of("surface s()\n{\n\tx\t= a +  b;\n  /* c */ y = 1;\n}");
    ck_assert_int_eq(s->loc.line, 3);
    ck_assert_int_eq(s->loc.col, 2);            /* a tab is one column */
    Node *a = s->kid[0];
    ck_assert_int_eq(a->loc.col, 4);            /* at the operator */
    ck_assert_int_eq(a->kid[1]->loc.col, 8);    /* the '+' */
    ck_assert_int_eq(a->kid[1]->kid[1]->loc.col, 11);
    ck_assert_int_eq(s->next->loc.line, 4);
    ck_assert_int_eq(s->next->loc.col, 11);
}
END_TEST

START_TEST(comments_keep_lines)
{
    Node *s = body_of("surface s() { // one\n"
                      "/* two\n three\n four */ x = 1; // x\n"
                      "y = 2;\n}");
    ck_assert_int_eq(s->loc.line, 4);
    ck_assert_int_eq(s->loc.col, 10);
    ck_assert_int_eq(s->next->loc.line, 5);
}
END_TEST

/* ---- the dump -------------------------------------------------------------------- */

START_TEST(dump_format)
{
    char *d = dump("surface s(float Ka = 1;)\n"
                   "{\n"
                   "  color c = color \"hsv\" (1, 1, 1) * Ka;\n"
                   "  for (;;) break 2;\n"
                   "  s = \"a\\n\\\"\";\n"
                   "}\n");
    ck_assert_str_eq(d,
        "N_SHADER surface \"s\" @t.sl:1:9\n"
        "  N_VARDECL float \"Ka\" @1:17\n"
        "    N_FLOATLIT 1 @1:22\n"
        "  N_BLOCK @2:1\n"
        "    N_VARDECL color \"c\" @3:9\n"
        "      N_BINARY * @3:35\n"
        "        N_CAST color \"hsv\" @3:13\n"
        "          N_TRIPLE @3:25\n"
        "            N_FLOATLIT 1 @3:26\n"
        "            N_FLOATLIT 1 @3:29\n"
        "            N_FLOATLIT 1 @3:32\n"
        "        N_IDENT \"Ka\" @3:37\n"
        "    N_FOR @4:3\n"
        "      (none)\n"
        "      (none)\n"
        "      (none)\n"
        "      N_BREAK 2 @4:12\n"
        "    N_EXPRSTMT @5:3\n"
        "      N_ASSIGN = @5:5\n"
        "        N_IDENT \"s\" @5:3\n"
        "        N_STRINGLIT \"a\\n\\\"\" @5:7\n");
    free(d);
}
END_TEST

START_TEST(dump_types_after_checking)
{
    Unit *u = parse_ok("float f(output uniform float a[2]) { extern varying color C; return a[0] += 1; }");
    Node *ret = u->defs->kid[1]->kid[0]->next;
    Node *asg = ret->kid[0];
    asg->type = type_make(TY_FLOAT);
    asg->detail = DETAIL_UNIFORM;
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    ast_dump(f, u);
    fclose(f);
    ck_assert_str_eq(buf,
        "N_FUNCTION float \"f\" @t.sl:1:7\n"
        "  N_VARDECL output uniform float[2] \"a\" @1:30\n"
        "  N_BLOCK @1:36\n"
        "    N_VARDECL extern varying color \"C\" @1:59\n"
        "    N_RETURN @1:62\n"
        "      N_ASSIGN += @1:74 : float uniform\n"
        "        N_INDEX @1:69\n"
        "          N_IDENT \"a\" @1:69\n"
        "          N_FLOATLIT 0 @1:71\n"
        "        N_FLOATLIT 1 @1:77\n");
    free(buf);
}
END_TEST

START_TEST(ast_helpers)
{
    SrcLoc loc = { "x.sl", 1, 1 };
    Node *a = ast_new(&rc, N_IDENT, loc), *b = ast_new(&rc, N_IDENT, loc), *c = ast_new(&rc, N_IDENT, loc);
    ck_assert_ptr_null(ast_append(NULL, NULL));
    ck_assert_ptr_eq(ast_append(NULL, a), a);
    ck_assert_ptr_eq(ast_append(a, b), a);
    ck_assert_ptr_eq(ast_append(a, c), a);
    ck_assert_int_eq(ast_list_len(a), 3);
    ck_assert_ptr_eq(a->next->next, c);
    ck_assert_int_eq(ast_list_len(NULL), 0);
    ck_assert_str_eq(ast_kind_name(N_SHADER), "N_SHADER");
    ck_assert_str_eq(ast_kind_name(N_ARRAYINIT), "N_ARRAYINIT");
    ck_assert_str_eq(ast_op_name(OP_DOT), ".");
    ck_assert_str_eq(ast_op_name(OP_CROSS), "^");
    ck_assert_str_eq(ast_op_name(OP_AND), "&&");
    ck_assert_str_eq(ast_op_name(OP_NOT), "!");
    ck_assert_str_eq(ast_op_name(OP_ASSIGN), "=");
    ck_assert_int_eq(b->type.base, TY_ERROR);
    ck_assert_ptr_null(b->kid[0]);
}
END_TEST

/* ---- syntax errors -------------------------------------------------------------------- */

START_TEST(missing_semicolon_points_after_the_operand)
{
    parse_fails("surface s()\n{\n    a = b\n    c = 1;\n}\n", 1);
    ck_assert_str_eq(diags(),
        "t.sl:3:10: error: expected ';' after expression\n");
}
END_TEST

START_TEST(several_errors_are_reported)
{
    parse_fails("surface s() {\n"
                "  x = 1 + ;\n"
                "  y = 2;\n"
                "  z = * 3;\n"
                "  w = 4;\n"
                "  if (a > ) w = 5;\n"
                "  ok = 1;\n"
                "}\n", 3);
    assert_diag("t.sl:2:11: error: expected an expression before ';'");
    assert_diag("t.sl:4:7: error: expected an expression before '*'");
    assert_diag("t.sl:6:11: error: expected an expression before ')'");
}
END_TEST

START_TEST(error_before_closing_brace_recovers)
{
    parse_fails("surface s() { if (a) { b = 1 } else c = 2; d = 3 }\n"
                "surface t() { x = 1; }\n"
                "surface u() { y = ; }\n", 3);
    assert_diag("t.sl:1:29: error: expected ';' after expression");
    assert_diag("t.sl:1:49: error: expected ';' after expression");
    assert_diag("t.sl:3:19: error: expected an expression before ';'");
}
END_TEST

START_TEST(broken_parameters_recover)
{
    parse_fails("surface s(float a b) { x = 1; }\n"
                "surface t(float c = ) { y = ; }\n", 3);
    assert_diag("t.sl:1:19: error: unexpected identifier 'b'");
    assert_diag("t.sl:2:21: error:");
    assert_diag("t.sl:2:29: error:");
}
END_TEST

START_TEST(missing_brace_at_end)
{
    parse_fails("surface s() {\n  x = 1;\n", 1);
    ck_assert_str_eq(diags(), "t.sl:3:1: error: expected '}' at end of file\n");
}
END_TEST

START_TEST(stray_closing_brace)
{
    parse_fails("surface s() { x = 1; } }\nsurface t() { }\n", 1);
    ck_assert_str_eq(diags(), "t.sl:1:24: error: unexpected '}'\n");
}
END_TEST

START_TEST(transformation_is_not_rsl)
{
    parse_fails("transformation t() { }\n", 1);
    ck_assert_str_eq(diags(), "t.sl:1:1: error: unknown type 'transformation'\n");
}
END_TEST

START_TEST(keywords_are_reserved)
{
    parse_fails("surface s() { float if = 1; }\n", 1);
    parse_fails("surface s() { normal = 1; }\n", 2);
    parse_fails("float output() { return 1; }\n", 3);
}
END_TEST

START_TEST(expression_statement_must_do_something)
{
    parse_fails("surface s() {\n  x + 1;\n}\n", 1);
    ck_assert_str_eq(diags(), "t.sl:2:3: error: a statement must be an assignment "
                              "or a function call, not an expression\n");
}
END_TEST

START_TEST(unknown_type)
{
    parse_fails("surface s() {\n  colour c = 1;\n}\n", 1);
    ck_assert_str_eq(diags(), "t.sl:2:3: error: unknown type 'colour'\n");
}
END_TEST

START_TEST(short_expected_lists)
{
    parse_fails("surface s() { if x > 1 y = 2; }\n", 1);
    ck_assert_str_eq(diags(), "t.sl:1:18: error: expected '(' before identifier 'x'\n");
}
END_TEST

START_TEST(expected_a_type)
{
    parse_fails("surface s(Ka) { uniform x = 1; }\n", 2);
    assert_diag("t.sl:1:11: error: expected a type before identifier 'Ka'");
    assert_diag("t.sl:1:25: error: expected a type before identifier 'x'");
}
END_TEST

START_TEST(tuple_counts)
{
    parse_fails("surface s() { x = (1, 2); }\n", 1);
    ck_assert_str_eq(diags(), "t.sl:1:19: error: a parenthesised list must have 3 "
                              "elements (a triple) or 16 (a matrix), not 2\n");
}
END_TEST

START_TEST(array_lengths)
{
    parse_fails("surface s() { float a[2.5]; float b[0]; float c[1e9]; float d[4]; }\n", 3);
    assert_diag("t.sl:1:23: error: array length must be a whole number");
    assert_diag("t.sl:1:37: error:");
    assert_diag("t.sl:1:49: error:");
}
END_TEST

/* ---- lexical errors ---------------------------------------------------------------- */

START_TEST(unterminated_string)
{
    parse_fails("surface s() {\n  x = \"abc;\n  y = 1;\n}\n", 2);
    assert_diag("t.sl:2:7: error: unterminated string");
}
END_TEST

START_TEST(unterminated_comment)
{
    parse_fails("surface s() {\n  /* never closed\n  x = 1;\n", 1);
    ck_assert_str_eq(diags(), "t.sl:2:3: error: unterminated comment\n");
}
END_TEST

START_TEST(stray_characters)
{
    /* The parser never sees a stray character. */
    parse_fails("surface s() { x = 1 @; y = 3 $; z = `2; }\n", 3);
    assert_diag("t.sl:1:21: error: stray '@' in program");
    assert_diag("t.sl:1:30: error: stray '$' in program");
    assert_diag("t.sl:1:37: error: stray '`' in program");
}
END_TEST

START_TEST(bad_literals)
{
    parse_fails("surface s() { x = 1e; y = 1e999; z = \"a\\0b\"; w = \"\\777\"; }\n", 4);
    assert_diag("t.sl:1:19: error: exponent has no digits in '1e'");
    assert_diag("t.sl:1:27: error: number '1e999' is too large");
    assert_diag("t.sl:1:38: error: string contains a null character");
    assert_diag("t.sl:1:50: error: escape sequence out of range");
}
END_TEST

START_TEST(nul_bytes_and_binary_input)
{
    static const char src[] = "surface s() { x = 1;\0 y = \"a\0b\"; \x80\xff }";
    Unit *u = parse_rsl(&rc, src, sizeof src - 1, "t.sl");
    ck_assert_ptr_null(u);
    ck_assert_int_eq(diag_error_count(&rc), 3);
    assert_diag("stray byte 0x00 in program");
    assert_diag("non-ASCII characters in program");
}
END_TEST

START_TEST(bad_directives)
{
    /* A marker must start its line: elsewhere the '#' is stray and what
       follows it ordinary tokens. */
    parse_fails("#define X 1\nsurface s() { # 3 \"x\"\n }\n#line\n", 4);
    assert_diag("t.sl:2:17: error: unexpected number 3");
    assert_diag("t.sl:1:1: error: unexpected preprocessor directive '#define'");
    assert_diag("t.sl:2:15: error: stray '#' in program");
    assert_diag("t.sl:4:1: error: malformed line marker");
}
END_TEST

/* ---- robustness ---------------------------------------------------------------------- */

START_TEST(deep_nesting_is_an_error_not_a_crash)
{
    enum { DEPTH = 20000 };
    static char src[2 * DEPTH + 64];
    char *p = src + sprintf(src, "surface s() { x = ");
    for (int i = 0; i < DEPTH; i++)
        *p++ = '(';
    *p++ = '1';
    for (int i = 0; i < DEPTH; i++)
        *p++ = ')';
    strcpy(p, "; }");
    ck_assert_ptr_null(parse(src));
    ck_assert_int_ge(diag_error_count(&rc), 1);
    assert_diag("nested too deeply");
}
END_TEST

START_TEST(long_chains_parse)
{
    /* A left-associative chain nests one level per operator: fine within
       RSL_MAX_NESTING, an error (not a stack overflow) beyond it. */
    enum { N = 20000 };
    static char src[4 * N + 64];
    char *p = src + sprintf(src, "surface s() { x = a");
    for (int i = 0; i < RSL_MAX_NESTING - 10; i++)
        p += sprintf(p, "+a");
    strcpy(p, "; }");
    Node *s = body_of(src);
    ck_assert_int_eq(s->kid[0]->kid[1]->kind, N_BINARY);

    p = src + sprintf(src, "surface s() { x = a");
    for (int i = 0; i < N; i++)
        p += sprintf(p, "+a");
    strcpy(p, "; }");
    parse_fails(src, 1);
    assert_diag("nested too deeply (more than 2000 levels)");
}
END_TEST

/* Random mutations of a valid shader: none may crash (the sanitizer build
   also checks for leaks and undefined behaviour). */
START_TEST(mutations_do_not_crash)
{
    static const char base[] =
        "# 1 \"m.sl\"\nsurface s(float Ka = 1, Kd = .5; output color c = 1;)\n"
        "{ float a[3] = {1,2,3}; color x = color \"hsv\" (1,1,1) * 2;\n"
        "  if ((x = f()) > 0) y = z = 1; else { break 2; }\n"
        "  illuminance(\"s\", P, N, PI/2) { Ci += Cl; }\n"
        "  s = \"a\\n\\101\"; /* c */ // d\n"
        "  float g(float q[]) { return q[0]; } }\n";
    static const char alphabet[] = "(){}[];,.\"'#/*-+=!<>?:^ \n\t\\0aZ_9e\x80";
    unsigned seed = 12345;
    char buf[sizeof base + 16];
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(buf, base, sizeof base);
        size_t len = sizeof base - 1;
        int edits = 1 + iter % 4;
        for (int e = 0; e < edits; e++) {
            seed = seed * 1103515245 + 12345;
            size_t at = (seed >> 8) % len;
            seed = seed * 1103515245 + 12345;
            char c = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
            if (iter & 1)
                buf[at] = c;
            else
                memmove(buf + at, buf + at + 1, len - at), len--;
        }
        diag_reset(&rc);
        diag_set_output(&rc, diag_stream);
        Unit *u = parse_rsl(&rc, buf, len, "m.sl");
        if (u) {
            char *out = NULL;
            size_t outlen;
            FILE *f = open_memstream(&out, &outlen);
            ast_dump(f, u);
            fclose(f);
            free(out);
        }
        ast_free_all(&rc);
    }
}
END_TEST

/* ---- the suite -------------------------------------------------------------------- */

static Suite *parse_suite(void)
{
    Suite *s = suite_create("parse");
    struct { const char *name; const TTest *tests[32]; } groups[] = {
        { "definitions", { empty_input, shader_kinds, names_are_interned,
                           function_return_types, formals_groups,
                           formals_comma_groups_and_arrays, declarations,
                           nested_function_and_extern } },
        { "statements", { if_else_and_dangling_else, loops, break_continue_return,
                          blocks_and_empty, illuminance_forms, illuminate_and_solar,
                          gather_forms, expression_statements } },
        { "expressions", { arithmetic_precedence, dot_and_cross_precedence,
                           unary_precedence, relational_and_logical, ternary,
                           assignment_expressions, typecasts, triples_and_matrices,
                           numbers, dot_operator_versus_numbers, strings_and_escapes,
                           unknown_escape_is_a_warning, calls_and_texture_channels } },
        { "locations", { line_markers, line_marker_escapes_in_names, columns,
                         comments_keep_lines } },
        { "ast", { dump_format, dump_types_after_checking, ast_helpers } },
        { "syntax errors", { missing_semicolon_points_after_the_operand,
                             several_errors_are_reported, error_before_closing_brace_recovers,
                             broken_parameters_recover, missing_brace_at_end,
                             stray_closing_brace, transformation_is_not_rsl,
                             keywords_are_reserved, expression_statement_must_do_something,
                             unknown_type, short_expected_lists, expected_a_type, tuple_counts,
                             array_lengths } },
        { "lexical errors", { unterminated_string, unterminated_comment, stray_characters,
                              bad_literals, nul_bytes_and_binary_input, bad_directives } },
        { "robustness", { deep_nesting_is_an_error_not_a_crash, long_chains_parse,
                          mutations_do_not_crash } },
    };
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        TCase *tc = tcase_create(groups[g].name);
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_set_timeout(tc, 60);
        for (int i = 0; groups[g].tests[i]; i++)
            tcase_add_test(tc, groups[g].tests[i]);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(parse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

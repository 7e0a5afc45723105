/*
** check_lex.c: the RIB lexer (numbers, strings and escapes, arrays,
** comments, locations), request argument forms, and reading gzip'd files.
*/
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "render/rib/parse.h"
#include "tests/rib/check_rib.h"

/* Lexes text into toks (at most max); returns the count before EOF. */
static size_t lex_all(const char *text, RibToken *toks, char strs[][64],
                      size_t max, RibDiag *diag)
{
    RibCtx c;
    rib_diag_init(diag, NULL);
    rib_ctx_init(&c, NULL, diag);
    RibLexer lx;
    rib_lex_open_memory(&lx, &c, "lex.rib", text, strlen(text));
    size_t n = 0;
    for (;;) {
        RibToken t;
        rib_lex_next(&lx, &t);
        if (t.kind == RIB_TOK_EOF || n == max)
            break;
        toks[n] = t;
        if (t.text)
            snprintf(strs[n], 64, "%s", t.text);
        n++;
    }
    rib_lex_close(&lx);
    rib_scene_free(rib_ctx_finish(&c));
    return n;
}

START_TEST(test_lex_numbers)
{
    RibToken t[16];
    char s[16][64];
    RibDiag d;
    size_t n = lex_all("1 -2.5 .5 +3 1e3 -1.5E-2 7. 0", t, s, 16, &d);
    const double want[] = {1, -2.5, 0.5, 3, 1000, -0.015, 7, 0};
    ck_assert_uint_eq(n, 8);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(t[i].kind, RIB_TOK_NUMBER);
        ck_assert_near(t[i].num, want[i], 1e-12);
    }
    ck_assert_int_eq(d.nerrors, 0);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_lex_strings_and_escapes)
{
    RibToken t[4];
    char s[4][64];
    RibDiag d;
    size_t n = lex_all("\"a\\nb\\tc\\\\d\\\"e\\101\\60x\" \"ab\\\ncd\" \"\"", t,
                       s, 4, &d);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(t[0].kind, RIB_TOK_STRING);
    ck_assert_str_eq(s[0], "a\nb\tc\\d\"eA0x");
    ck_assert_str_eq(s[1], "abcd");  /* backslash-newline continues */
    ck_assert_str_eq(s[2], "");
    ck_assert_int_eq(d.nerrors, 0);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_lex_arrays_names_comments)
{
    RibToken t[16];
    char s[16][64];
    RibDiag d;
    const char *text = "##RenderMan RIB-Structure 1.1\n"
                       "# a comment [ \"not a string\n"
                       "Sphere [1 2] # trailing\n"
                       "  [\"a\"]\n";
    size_t n = lex_all(text, t, s, 16, &d);
    const RibTokKind kinds[] = {RIB_TOK_NAME,     RIB_TOK_LBRACKET,
                                RIB_TOK_NUMBER,   RIB_TOK_NUMBER,
                                RIB_TOK_RBRACKET, RIB_TOK_LBRACKET,
                                RIB_TOK_STRING,   RIB_TOK_RBRACKET};
    ck_assert_uint_eq(n, 8);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(t[i].kind, kinds[i]);
    ck_assert_str_eq(s[0], "Sphere");
    /* locations: file:line:col of each token's first character */
    ck_assert_str_eq(t[0].loc.file, "lex.rib");
    ck_assert_int_eq(t[0].loc.line, 3);
    ck_assert_int_eq(t[0].loc.col, 1);
    ck_assert_int_eq(t[2].loc.line, 3);
    ck_assert_int_eq(t[2].loc.col, 9);
    ck_assert_int_eq(t[6].loc.line, 4);
    ck_assert_int_eq(t[6].loc.col, 4);
    ck_assert_int_eq(d.nerrors, 0);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_lex_malformed)
{
    RibToken t[8];
    char s[8][64];
    RibDiag d;
    size_t n = lex_all("1.2.3 4\n  5x 6 @", t, s, 8, &d);
    /* the bad numbers are skipped; the good ones survive */
    ck_assert_uint_eq(n, 2);
    ck_assert_near(t[0].num, 4, 0);
    ck_assert_near(t[1].num, 6, 0);
    ck_assert_diag(&d, "lex.rib:1:1: error: malformed number");
    ck_assert_diag(&d, "lex.rib:2:3: error: malformed number");
    ck_assert_diag(&d, "lex.rib:2:8: error: unexpected character '@'");
    ck_assert_int_eq(d.nerrors, 3);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_lex_number_range)
{
    RibToken t[2];
    char s[2][64];
    RibDiag d;
    size_t n = lex_all("1e39 -3.4e38", t, s, 2, &d);
    ck_assert_uint_eq(n, 2);
    ck_assert_diag(&d, "lex.rib:1:1: error: number out of range");
    ck_assert_near(t[1].num, -3.4e38, 1e31);
    rib_diag_free(&d);
}
END_TEST

/* Both spellings of fixed-size arguments, and scalar parameter values. */
START_TEST(test_argument_forms)
{
    RibDiag d;
    RibScene *s = load_text("WorldBegin\nColor [0.25 0.5 1]\n"
                            "Sphere 1 -1 1 360\nColor 1 0.5 0.25\n"
                            "Sphere [1 -1 1 360] \"Cs\" [1 0 0 1 0 0 1 0 0 1 0 0]\n"
                            "WorldEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 0);
    const RibMesh *a = mesh_at(s, 0), *b = mesh_at(s, 1);
    ck_assert_near(a->attrs->color[0], 0.25, 0);
    ck_assert_near(a->attrs->color[2], 1, 0);
    ck_assert_near(b->attrs->color[1], 0.5, 0);
    ck_assert_uint_eq(b->nprimvars, 1);
    ck_assert_str_eq(b->primvars[0].p.name, "Cs");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A gzip'd file reads like the plain one. */
START_TEST(test_gzip)
{
    const char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/scene.rib.gz", dir);
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, "WorldBegin\nTranslate 0 0 2\nDisk 0 1 360\nWorldEnd\n");
    gzclose(gz);
    RibDiag d;
    rib_diag_init(&d, NULL);
    RibScene *s = rib_load(path, &d);
    ck_assert_int_eq(d.nerrors, 0);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "Disk");
    ck_assert_near(mesh_area(m), M_PI, 0.002 * M_PI);
    ck_assert_near(m->object_to_world.m[14], 2, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A truncated gzip stream is an error, not a hang or crash. */
START_TEST(test_gzip_truncated)
{
    const char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/bad.rib.gz", dir);
    gzFile gz = gzopen(path, "wb");
    gzputs(gz, "WorldBegin\n");
    for (int i = 0; i < 2000; i++)
        gzprintf(gz, "Translate %d 0 0\n", i + 1);
    gzclose(gz);
    FILE *f = fopen(path, "r+");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    ck_assert_int_eq(ftruncate(fileno(f), size / 2), 0);
    fclose(f);
    RibDiag d;
    rib_diag_init(&d, NULL);
    RibScene *s = rib_load(path, &d);
    ck_assert_int_gt(d.nerrors, 0);
    ck_assert_diag(&d, "read error");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_binary_rib_refused)
{
    RibDiag d;
    const char text[] = "WorldBegin\n\x90\x01\x02 Sphere 1 -1 1 360\n";
    RibScene *s = load_text(text, &d);
    ck_assert_ptr_null(s);
    ck_assert_diag(&d, "test.rib:2:1: error: binary RIB encoding is not "
                       "supported");
    rib_diag_free(&d);
}
END_TEST

/* Everything the lexer reads, through a whole load: a gzip'd archive, the
   version request, comments anywhere (the last one without a newline),
   and escapes in strings that reach the scene. */
START_TEST(test_whole_file_forms)
{
    const char *dir = temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/part.rib.gz", dir);
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, "# an archive, compressed\nDisk 0 1 360 # trailing\n");
    gzclose(gz);
    const char *main_path = write_file(
        dir, "main.rib",
        "##RenderMan RIB\nversion 3.04\n"
        "WorldBegin # comment after a request\n"
        "Surface \"my\\tshader\\101\" \"texturename\" [\"a\\\\b\\\"c\\\n"
        "d\" # comment inside an array\n]\n"
        "Surface \"x\\qy\"\n"
        "ReadArchive \"part.rib.gz\"\nWorldEnd\n# the end, no newline");
    RibDiag d;
    rib_diag_init(&d, NULL);
    RibScene *s = rib_load(main_path, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_uint_eq(d.nmessages, 1);
    ck_assert_ptr_nonnull(strstr(d.messages[0], "/main.rib:7:11: warning: "
                                                "unknown escape '\\q' in "
                                                "string"));
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "Disk");
    ck_assert_ptr_nonnull(strstr(m->loc.file, "/part.rib.gz"));
    ck_assert_int_eq(m->loc.line, 2);
    /* the second Surface replaced the first, whose strings are checked
       below in a load of their own */
    ck_assert_str_eq(m->attrs->surface->name, "xqy");
    rib_scene_free(s);
    rib_diag_free(&d);
    s = load_text("WorldBegin\nSurface \"my\\tshader\\101\" \"texturename\" "
                  "[\"a\\\\b\\\"c\\\nd\"]\nDisk 0 1 360\nWorldEnd\n",
                  &d);
    ck_assert_int_eq(d.nmessages, 0);
    const RibShader *sh = mesh_at(s, 0)->attrs->surface;
    ck_assert_str_eq(sh->name, "my\tshaderA");
    ck_assert_uint_eq(sh->nparams, 1);
    ck_assert_str_eq(sh->params[0].s[0], "a\\b\"cd");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *lex_suite(void)
{
    Suite *s = suite_create("lex");
    TCase *tc = tcase_create("lex");
    tcase_add_checked_fixture(tc, NULL, remove_temp_dirs);
    tcase_add_test(tc, test_lex_numbers);
    tcase_add_test(tc, test_lex_strings_and_escapes);
    tcase_add_test(tc, test_lex_arrays_names_comments);
    tcase_add_test(tc, test_lex_malformed);
    tcase_add_test(tc, test_lex_number_range);
    tcase_add_test(tc, test_argument_forms);
    tcase_add_test(tc, test_gzip);
    tcase_add_test(tc, test_gzip_truncated);
    tcase_add_test(tc, test_binary_rib_refused);
    tcase_add_test(tc, test_whole_file_forms);
    suite_add_tcase(s, tc);
    return s;
}

/*
** check_object.c: shader objects written and read back field for field,
** listed by readelf, and rejected with a message (never a crash) when
** truncated or corrupted anywhere.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/object.h"

#define V(slot) (VM_V | (slot))
#define OP(op, w, a, b, c) vm_ins(VM_OP_##op, w, a, b, c)

static char dir[] = "/tmp/check_object_XXXXXX";

static char *path_in_dir(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

/* surface s(uniform float Kd = 0.5) { Ci = Kd * Cs + (x < Kd ? 1 : 0) } in
   spirit: enough variety for every section. */
static VmObject *sample_object(VmObject *o, VmIns *code, float *uinit)
{
    static const char *strings[] = { "world", "shader" };
    static const char *builtins[] = { "sqrt", "noise" };
    static VmVar params[] = { { "Kd", VM_T_FLOAT, 0, 0, 0 },
                              { "names", VM_T_STRING, 0, 2, 1 } };
    static VmVar globals[] = { { "Cs", VM_T_COLOR, VM_VAR_VARYING | VM_VAR_READ, 0, V(0) },
                               { "Ci", VM_T_COLOR, VM_VAR_VARYING | VM_VAR_OUTPUT, 0, V(3) } };
    static VmLine lines[] = { { 0, 3, "s.sl" }, { 1, 4, "s.sl" }, { 2, 4, "inc.h" } };
    const VmIns c[] = {
        OP(SPLAT, 3, V(6), 0, 0),
        OP(MUL, 3, V(3), V(0), V(6)),
        OP(CALLB, 1, V(9), 0, 1), OP(X, 0, 0, 1, 0),
        OP(RET, 0, 0, 0, 0),
    };
    memcpy(code, c, sizeof c);
    uinit[0] = 0.5f, uinit[1] = 0, uinit[2] = 1, uinit[3] = -2.75f;
    memset(o, 0, sizeof *o);
    o->name = "s";
    o->kind = VM_SURFACE;
    o->prog.code = code;
    o->prog.ncode = 5;
    o->prog.nuniform = 4;
    o->prog.nvarying = 10;
    o->prog.uniform_init = uinit;
    o->prog.strings = strings;
    o->prog.nstrings = 2;
    o->prog.nbuiltins = 2;
    o->builtin_names = builtins;
    o->params = params;
    o->nparams = 2;
    o->globals = globals;
    o->nglobals = 2;
    o->lines = lines;
    o->nlines = 3;
    return o;
}

static void same_vars(const VmVar *a, const VmVar *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_str_eq(a[i].name, b[i].name);
        ck_assert_int_eq(a[i].type, b[i].type);
        ck_assert_uint_eq(a[i].flags, b[i].flags);
        ck_assert_uint_eq(a[i].arraylen, b[i].arraylen);
        ck_assert_uint_eq(a[i].reg, b[i].reg);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    char *buf = malloc(*len);
    ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

START_TEST(round_trip)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    sample_object(&in, code, uinit);
    char err[256];
    const char *path = path_in_dir("s.o");
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    VmObject *out = vm_object_read(path, err, sizeof err);
    ck_assert_msg(out != NULL, "%s", err);
    ck_assert_str_eq(out->name, "s");
    ck_assert_int_eq(out->kind, VM_SURFACE);
    ck_assert_uint_eq(out->prog.ncode, 5);
    for (int i = 0; i < 5; i++)
        ck_assert(out->prog.code[i] == code[i]);
    ck_assert_uint_eq(out->prog.nuniform, 4);
    ck_assert_uint_eq(out->prog.nvarying, 10);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(out->prog.uniform_init[i], uinit[i]);
    ck_assert_uint_eq(out->prog.nstrings, 2);
    ck_assert_str_eq(out->prog.strings[1], "shader");
    ck_assert_uint_eq(out->prog.nbuiltins, 2);
    ck_assert_str_eq(out->builtin_names[1], "noise");
    ck_assert_ptr_null(out->prog.builtins);
    ck_assert_uint_eq(out->nparams, 2);
    same_vars(out->params, in.params, 2);
    ck_assert_uint_eq(out->nglobals, 2);
    same_vars(out->globals, in.globals, 2);
    ck_assert_uint_eq(out->nlines, 3);
    ck_assert_uint_eq(out->lines[2].pc, 2);
    ck_assert_uint_eq(out->lines[2].line, 4);
    ck_assert_str_eq(out->lines[2].file, "inc.h");
    vm_object_free(out);
}
END_TEST

START_TEST(readelf_lists_sections)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    sample_object(&in, code, uinit);
    char err[256], cmd[512], line[512];
    const char *path = path_in_dir("listed.o");
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    snprintf(cmd, sizeof cmd, "readelf -S %s 2>&1", path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    static const char *want[] = { ".rsl.meta", ".rsl.code", ".rsl.uinit", ".rsl.strings",
                                  ".rsl.builtins", ".rsl.lines", ".rsl.strtab" };
    int seen[7] = { 0 };
    while (fgets(line, sizeof line, p))
        for (int i = 0; i < 7; i++)
            seen[i] |= strstr(line, want[i]) != NULL;
    ck_assert_int_eq(pclose(p), 0);
    for (int i = 0; i < 7; i++)
        ck_assert_msg(seen[i], "readelf does not list %s", want[i]);
}
END_TEST

/* Every proper prefix of the file is refused with a message. */
START_TEST(truncated_everywhere)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    sample_object(&in, code, uinit);
    char err[256];
    const char *path = path_in_dir("t.o");
    ck_assert(vm_object_write(path, &in, err, sizeof err) == 0);
    size_t len;
    char *buf = read_file(path, &len);
    for (size_t n = 0; n < len; n++) {
        err[0] = '\0';
        VmObject *o = vm_object_parse(buf, n, "t.o", err, sizeof err);
        ck_assert_msg(o == NULL, "a %zu-byte prefix of %zu was accepted", n, len);
        ck_assert_msg(strncmp(err, "t.o: error: ", 12) == 0, "prefix %zu: '%s'", n, err);
    }
    free(buf);
}
END_TEST

/* Any single corrupted byte either still makes a valid object (padding,
   or a value that happens to be legal) or is refused: never a crash, and
   what is accepted passed the verifier. */
START_TEST(corrupted_everywhere)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    sample_object(&in, code, uinit);
    char err[256];
    const char *path = path_in_dir("c.o");
    ck_assert(vm_object_write(path, &in, err, sizeof err) == 0);
    size_t len;
    char *buf = read_file(path, &len);
    int refused = 0;
    for (size_t i = 0; i < len; i++)
        for (int v = 0; v < 3; v++) {
            static const unsigned char vals[3] = { 0x00, 0xff, 0x80 };
            char saved = buf[i];
            buf[i] = (char)(vals[v] ^ (v == 2 ? (unsigned char)saved : 0));
            VmObject *o = vm_object_parse(buf, len, "c.o", err, sizeof err);
            if (o)
                vm_object_free(o);
            else
                refused++, ck_assert_msg(strstr(err, "error: ") != NULL, "%s", err);
            buf[i] = saved;
        }
    ck_assert_int_gt(refused, 0);
    free(buf);
}
END_TEST

START_TEST(specific_errors)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    char err[256];
    sample_object(&in, code, uinit);
    /* Bytecode that touches a register outside its file. */
    code[1] = OP(MUL, 3, V(3), V(0), V(8));
    ck_assert(vm_object_write(path_in_dir("bad.o"), &in, err, sizeof err) == 0);
    ck_assert_ptr_null(vm_object_read(path_in_dir("bad.o"), err, sizeof err));
    ck_assert_msg(strstr(err, "source register v8 (+3) outside the varying file") != NULL, "%s", err);

    ck_assert_ptr_null(vm_object_read(path_in_dir("missing.o"), err, sizeof err));
    ck_assert_msg(strstr(err, "missing.o: error: cannot open the object") != NULL, "%s", err);

    ck_assert_ptr_null(vm_object_parse("hello", 5, "text.o", err, sizeof err));
    ck_assert_msg(strstr(err, "text.o: error: not an ELF") != NULL, "%s", err);

    /* A parameter whose register does not fit. */
    sample_object(&in, code, uinit);
    VmVar wide[] = { { "M", VM_T_MATRIX, 0, 0, 0 } };
    in.params = wide;
    in.nparams = 1;
    ck_assert(vm_object_write(path_in_dir("wide.o"), &in, err, sizeof err) == 0);
    ck_assert_ptr_null(vm_object_read(path_in_dir("wide.o"), err, sizeof err));
    ck_assert_msg(strstr(err, "parameter 'M': register outside the register file") != NULL, "%s", err);
}
END_TEST

START_TEST(write_failure_leaves_nothing)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    char err[256];
    sample_object(&in, code, uinit);
    ck_assert_int_eq(vm_object_write("/nonexistent-dir/x.o", &in, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/nonexistent-dir/x.o: error: cannot create") != NULL, "%s", err);
}
END_TEST

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("object");
    TCase *tc = tcase_create("object");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, readelf_lists_sections);
    tcase_add_test(tc, truncated_everywhere);
    tcase_add_test(tc, corrupted_everywhere);
    tcase_add_test(tc, specific_errors);
    tcase_add_test(tc, write_failure_leaves_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
** check_object.c: shader objects written and read back field for field,
** listed by readelf, and rejected with a message (never a crash) when
** truncated or corrupted anywhere; a corrupt jump that passes the
** verifier but loops for ever is stopped by the step budget.
*/
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/builtins.h"
#include "vm/object.h"
#include "vm/session.h"

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
    /* spline(float, float[4]) and noise(point) */
    static const VmCallee callees[] = { { BO_SPLINE_fffa, 'f', 2, { 'f', 'f' }, { 0, 4 } },
                                        { BO_NOISE_fp, 'f', 1, { 'p' }, { 0 } } };
    static VmVar params[] = { { "Kd", VM_T_FLOAT, 0, 0, 0 },
                              { "names", VM_T_STRING, 0, 2, 1 } };
    static VmVar globals[] = { { "Cs", VM_T_COLOR, VM_VAR_VARYING | VM_VAR_READ, 0, V(0) },
                               { "Ci", VM_T_COLOR, VM_VAR_VARYING | VM_VAR_OUTPUT, 0, V(3) } };
    static VmLine lines[] = { { 0, 3, "s.sl" }, { 1, 4, "s.sl" }, { 2, 4, "inc.h" } };
    const VmIns c[] = {
        OP(SPLAT, 3, V(6), 0, 0),
        OP(MUL, 3, V(3), V(0), V(6)),
        OP(CALLB, 1, V(9), 1, 1), OP(X, 0, V(0), 3, 0), /* noise(Cs) */
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
    o->callees = callees;
    o->params = params;
    o->nparams = 2;
    o->globals = globals;
    o->nglobals = 2;
    o->lines = lines;
    o->nlines = 3;
    /* Varying defaults and debug information: frame 1, "f", is inlined
       at s.sl:4 and runs pc 2..3; x lives in v9 there, y in u1 then
       v6, z nowhere. */
    static VmInit vinit[] = { { 6, 0.25f }, { 8, -1 } };
    o->prog.varying_init = vinit;
    o->prog.nvarying_init = 2;
    static VmFrame frames[] = { { "s", "", 0, VM_NO_FRAME, 0 }, { "f", "s.sl", 4, 0, 2 } };
    static uint32_t pc_frame[] = { 0, 0, 1, 1, 0 };
    static VmDbgRange ranges[] = { { 3, 4, V(9) }, { 0, 1, 1 }, { 2, 5, V(6) } };
    static VmDbgVar vars[] = { { "x", VM_T_FLOAT, 0, 1, ranges, 1 },
                               { "y", VM_T_FLOAT, 0, 0, ranges + 1, 2 },
                               { "z", VM_T_COLOR, 0, 0, ranges + 3, 0 } };
    static VmDebug debug = { frames, 2, pc_frame, vars, 3, ranges, 3 };
    o->debug = &debug;
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
    ck_assert_uint_eq(out->callees[0].row, BO_SPLINE_fffa);
    ck_assert_int_eq(out->callees[0].result, 'f');
    ck_assert_uint_eq(out->callees[0].nargs, 2);
    ck_assert_int_eq(out->callees[0].type[1], 'f');
    ck_assert_uint_eq(out->callees[0].arraylen[1], 4);
    ck_assert_uint_eq(out->callees[1].row, BO_NOISE_fp);
    ck_assert_int_eq(out->callees[1].type[0], 'p');
    ck_assert_ptr_null(out->prog.builtins);
    ck_assert_uint_eq(out->nparams, 2);
    same_vars(out->params, in.params, 2);
    ck_assert_uint_eq(out->nglobals, 2);
    same_vars(out->globals, in.globals, 2);
    ck_assert_uint_eq(out->nlines, 3);
    ck_assert_uint_eq(out->lines[2].pc, 2);
    ck_assert_uint_eq(out->lines[2].line, 4);
    ck_assert_str_eq(out->lines[2].file, "inc.h");
    ck_assert_uint_eq(out->prog.nvarying_init, 2);
    ck_assert_uint_eq(out->prog.varying_init[1].slot, 8);
    ck_assert_float_eq(out->prog.varying_init[0].value, 0.25f);
    ck_assert_float_eq(out->prog.varying_init[1].value, -1);
    const VmDebug *d = out->debug;
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->nframes, 2);
    ck_assert_str_eq(d->frames[1].func, "f");
    ck_assert_str_eq(d->frames[1].call_file, "s.sl");
    ck_assert_uint_eq(d->frames[1].call_line, 4);
    ck_assert_uint_eq(d->frames[1].parent, 0);
    ck_assert_uint_eq(d->frames[0].parent, VM_NO_FRAME);
    ck_assert_uint_eq(d->frames[1].entry, 2);
    for (int pc = 0; pc < 5; pc++)
        ck_assert_uint_eq(d->pc_frame[pc], in.debug->pc_frame[pc]);
    ck_assert_uint_eq(d->nvars, 3);
    ck_assert_uint_eq(d->nranges, 3);
    for (int i = 0; i < 3; i++) {
        const VmDbgVar *a = &d->vars[i], *b = &in.debug->vars[i];
        ck_assert_str_eq(a->name, b->name);
        ck_assert_int_eq(a->type, b->type);
        ck_assert_uint_eq(a->frame, b->frame);
        ck_assert_uint_eq(a->nranges, b->nranges);
        for (uint32_t k = 0; k < a->nranges; k++) {
            ck_assert_uint_eq(a->ranges[k].lo, b->ranges[k].lo);
            ck_assert_uint_eq(a->ranges[k].hi, b->ranges[k].hi);
            ck_assert_uint_eq(a->ranges[k].reg, b->ranges[k].reg);
        }
    }
    vm_object_free(out);
    /* Without debug information there is no .rsl.debug at all. */
    in.debug = NULL;
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    out = vm_object_read(path, err, sizeof err);
    ck_assert_msg(out != NULL, "%s", err);
    ck_assert_ptr_null(out->debug);
    vm_object_free(out);
}
END_TEST

/* Writes the sample with one change to its debug information and
   expects the loader to refuse it with `want` in the message. */
static void refuse_debug(VmObject *in, const char *want)
{
    char err[256];
    ck_assert(vm_object_write(path_in_dir("dbg.o"), in, err, sizeof err) == 0);
    ck_assert_ptr_null(vm_object_read(path_in_dir("dbg.o"), err, sizeof err));
    ck_assert_msg(strstr(err, want) != NULL, "want '%s' in '%s'", want, err);
}

/* Found by fuzz-object once it ran what the verifier passed: a CALLB
   whose X words disagree with its callee (diffuse() given no arguments
   read args[-1]) is refused at load, before a builtin can read past its
   arguments. */
START_TEST(call_must_fit_its_callee)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    char err[256];
    sample_object(&in, code, uinit);
    code[2] = OP(CALLB, 1, V(9), 1, 0); /* noise(p) with no argument */
    code[3] = OP(NOP, 0, 0, 0, 0);
    ck_assert(vm_object_write(path_in_dir("call.o"), &in, err, sizeof err) == 0);
    ck_assert_ptr_null(vm_object_read(path_in_dir("call.o"), err, sizeof err));
    ck_assert_msg(strstr(err, "invalid bytecode at instruction 2 (CALLB): 0 arguments to "
                              "builtin 1 of 1"), "%s", err);
    sample_object(&in, code, uinit);
    code[3] = OP(X, 0, V(0), 1, 0); /* noise(p) given one float */
    ck_assert(vm_object_write(path_in_dir("call.o"), &in, err, sizeof err) == 0);
    ck_assert_ptr_null(vm_object_read(path_in_dir("call.o"), err, sizeof err));
    ck_assert_msg(strstr(err, "invalid bytecode at instruction 2 (CALLB): argument 0 has width "
                              "1, its type 3"), "%s", err);
}
END_TEST

START_TEST(debug_errors)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    sample_object(&in, code, uinit);
    VmDebug d = *in.debug;
    VmFrame frames[2];
    uint32_t pc_frame[5];
    VmDbgRange ranges[3];
    VmDbgVar vars[3];
    memcpy(frames, d.frames, sizeof frames);
    memcpy(pc_frame, d.pc_frame, sizeof pc_frame);
    memcpy(ranges, d.ranges, sizeof ranges);
    memcpy(vars, d.vars, sizeof vars);
    for (int i = 0; i < 3; i++)
        vars[i].ranges = ranges + (d.vars[i].ranges - d.ranges);
    d.frames = frames, d.pc_frame = pc_frame, d.ranges = ranges, d.vars = vars;
    in.debug = &d;

    frames[1].parent = 1; /* a frame its own parent: a cycle */
    refuse_debug(&in, ".rsl.debug: frame 1 has parent 1");
    frames[1].parent = 0;
    frames[1].entry = 6;
    refuse_debug(&in, ".rsl.debug: frame 1 enters at pc 6, past the code");
    frames[1].entry = 2;
    pc_frame[3] = 2;
    refuse_debug(&in, ".rsl.debug: instruction 3 in frame 2 of 2");
    pc_frame[3] = 1;
    ranges[0].reg = V(10);
    refuse_debug(&in, "range 0 (pc 3 to 4, register 32778) outside the code or the register files");
    ranges[0].reg = V(9);
    ranges[1].hi = 6;
    refuse_debug(&in, "range 1 (pc 0 to 6, register 1) outside");
    ranges[1].hi = 1;
    vars[1].frame = 2;
    refuse_debug(&in, "variable 'y' has type 0 or frame 2 out of range");
    vars[1].frame = 0;
    vars[0].type = VM_T_COLOR; /* v9 holds one slot of the ten: no color */
    refuse_debug(&in, "variable 'x': register 32777 does not hold a value of its width");
    vars[0].type = VM_T_FLOAT;
    d.nvars = 2;
    vars[1].nranges = 3; /* past the ranges */
    refuse_debug(&in, "variable 'y' has ranges 1..4 of 3");
}
END_TEST

/* An object of an older version is refused and says what to do. */
/* The sample object's bytes, written to name in the test directory. */
static char *sample_bytes(const char *name, size_t *len)
{
    VmObject in;
    VmIns code[5];
    float uinit[4];
    char err[256];
    sample_object(&in, code, uinit);
    const char *path = path_in_dir(name);
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    return read_file(path, len);
}

START_TEST(old_version_refused)
{
    char err[256];
    size_t len;
    char *buf = sample_bytes("old.o", &len);
    /* The version follows the magic at the start of .rsl.meta. */
    char *meta = memmem(buf, len, "RSLO", 4);
    ck_assert_ptr_nonnull(meta);
    ck_assert_int_eq(meta[4], VM_OBJECT_VERSION);
    meta[4] = VM_OBJECT_VERSION - 1;
    ck_assert_ptr_null(vm_object_parse(buf, len, "old.o", err, sizeof err));
    char want[128];
    snprintf(want, sizeof want, "old.o: error: object version %d; this rslc reads version %d: "
             "compile the shader again", VM_OBJECT_VERSION - 1, VM_OBJECT_VERSION);
    ck_assert_str_eq(err, want);
    free(buf);
}
END_TEST
END_TEST

/* An object compiled against another builtin table (its rows would call
   other builtins) is refused and says what to do. */
START_TEST(stale_builtin_table_refused)
{
    char err[256];
    size_t len;
    char *buf = sample_bytes("stale.o", &len);
    /* .rsl.builtins starts with the fingerprint, then noise's row. */
    uint32_t fp = builtin_table_fingerprint();
    unsigned char le[4] = { fp & 0xff, fp >> 8 & 0xff, fp >> 16 & 0xff, fp >> 24 };
    unsigned char *at = memmem(buf, len, le, 4);
    ck_assert_ptr_nonnull(at);
    at[0] ^= 1;
    ck_assert_ptr_null(vm_object_parse(buf, len, "stale.o", err, sizeof err));
    ck_assert_msg(strstr(err, "stale.o: error: the shader was compiled against another table "
                              "of builtins") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "compile the shader again") != NULL, "%s", err);
    free(buf);
}
END_TEST

/* PTX (rslc --gpu) round-trips in .rsl.ptx; an object without it has
   none; a corrupt section is refused with what is wrong in it. */
static void refuse_ptx(const char *buf, size_t len, const char *want)
{
    char err[256];
    VmObject *o = vm_object_parse(buf, len, "ptx.o", err, sizeof err);
    ck_assert_ptr_null(o);
    ck_assert_msg(strstr(err, want) != NULL, "%s, not %s", err, want);
}

START_TEST(ptx_section)
{
    static const char text[] = ".version 7.0\n.target sm_80\n.address_size 64\n";
    VmObject in;
    VmIns code[5];
    float uinit[4];
    char err[256];
    size_t len;
    sample_object(&in, code, uinit);
    const char *path = path_in_dir("ptx.o");
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    VmObject *back = vm_object_read(path, err, sizeof err);
    ck_assert_msg(back != NULL, "%s", err);
    ck_assert_ptr_null(back->ptx);
    vm_object_free(back);

    in.ptx = text;
    in.ptx_gpu = "sm_80";
    ck_assert_msg(vm_object_write(path, &in, err, sizeof err) == 0, "%s", err);
    back = vm_object_read(path, err, sizeof err);
    ck_assert_msg(back != NULL, "%s", err);
    ck_assert_str_eq(back->ptx, text);
    ck_assert_str_eq(back->ptx_gpu, "sm_80");
    vm_object_free(back);

    char *buf = read_file(path, &len);
    char *t = memmem(buf, len, text, sizeof text - 1);
    ck_assert_ptr_nonnull(t);
    /* The header before the text: the GPU's name, the text's length. */
    ck_assert_int_eq((unsigned char)t[-4], sizeof text - 1);
    t[-4] += 4;
    refuse_ptx(buf, len, ".rsl.ptx: 52 bytes do not hold 48 bytes of PTX");
    t[-4] -= 4;
    t[3] = 1;
    refuse_ptx(buf, len, ".rsl.ptx: byte 3 of the PTX (0x01) is not text");
    t[3] = 'r';
    t[24] = '6'; /* .target sm_60 */
    refuse_ptx(buf, len, ".rsl.ptx: the PTX is not for sm_80 (no '.target sm_80')");
    t[24] = '8';
    char *gpu = memmem(buf, len, "sm_80", 6); /* in .rsl.strtab, with its NUL */
    ck_assert_ptr_nonnull(gpu);
    gpu[0] = 'x';
    refuse_ptx(buf, len, ".rsl.ptx: 'xm_80' is not a GPU architecture (sm_ and a number)");
    gpu[0] = 's';
    back = vm_object_parse(buf, len, "ptx.o", err, sizeof err);
    ck_assert_msg(back != NULL, "%s", err);
    vm_object_free(back);
    free(buf);
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
                                  ".rsl.builtins", ".rsl.lines", ".rsl.strtab", ".rsl.vinit",
                                  ".rsl.debug" };
    int seen[9] = { 0 };
    while (fgets(line, sizeof line, p))
        for (int i = 0; i < 9; i++)
            seen[i] |= strstr(line, want[i]) != NULL;
    ck_assert_int_eq(pclose(p), 0);
    for (int i = 0; i < 9; i++)
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

START_TEST(jump_loop_stopped)
{
    /* Ci = 1 at line 3, then a jump back to it at line 5, for ever: a
       well-formed object the verifier accepts, since jumping back is
       what loops do. Two instructions a turn, so the budget of 10000 is
       passed at the jump, and the run stops there. */
    static VmVar globals[] = { { "Ci", VM_T_COLOR, VM_VAR_VARYING | VM_VAR_OUTPUT, 0, V(0) } };
    static VmLine lines[] = { { 0, 3, "loop.sl" }, { 1, 5, "loop.sl" } };
    static const float uinit[1] = { 1 };
    VmIns code[] = { OP(SPLAT, 3, V(0), 0, 0), vm_jump(VM_OP_JMP, 0, 0), OP(RET, 0, 0, 0, 0) };
    VmObject o = { .name = "loop", .kind = VM_SURFACE, .globals = globals, .nglobals = 1,
                   .lines = lines, .nlines = 2 };
    o.prog = (VmProgram){ .code = code, .ncode = 3, .nuniform = 1, .nvarying = 3,
                          .uniform_init = uinit };
    char err[512];
    ck_assert_msg(vm_object_write(path_in_dir("loop.o"), &o, err, sizeof err) == 0, "%s", err);
    VmObject *back = vm_object_read(path_in_dir("loop.o"), err, sizeof err);
    ck_assert_msg(back != NULL, "%s", err);
    VmSession ss;
    VmState st;
    ck_assert_msg(vm_session_open(&ss, back, NULL, 4, err, sizeof err) == 0, "%s", err);
    ss.max_steps = 10000;
    vm_session_batch(&ss, &st, 4);
    ck_assert_int_eq(vm_session_run(&ss, &st, err, sizeof err), -1);
    ck_assert_str_eq(err, "error: shader 'loop' ran past 10000 steps at loop.sl:5");
    ck_assert_int_eq(st.halt, VM_HALT_STEPS);
    ck_assert_uint_eq(st.stats.instructions, 10002);
    vm_session_close(&ss);
    vm_object_free(back);
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
    tcase_add_test(tc, debug_errors);
    tcase_add_test(tc, call_must_fit_its_callee);
    tcase_add_test(tc, old_version_refused);
    tcase_add_test(tc, stale_builtin_table_refused);
    tcase_add_test(tc, write_failure_leaves_nothing);
    tcase_add_test(tc, jump_loop_stopped);
    tcase_add_test(tc, ptx_section);
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

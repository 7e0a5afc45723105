/*
** main.c: the rslc driver: options, then the pipeline in order:
** preprocess (cpp.c) -> parse (gram.y) -> check (check.c) -> lower to SSA
** (lower.c) -> optimise (passes.c) -> bytecode (vmgen.c ... emit.c), as
** compile.c runs them.
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rslc/ast.h"
#include "backends/compile.h"
#include "backends/llvm/native.h"
#include "rslc/diag.h"
#include "rslc/limits.h"
#include "runtime/outfile.h"
#include "vm/disasm.h"

static const char usage[] =
    "usage: rslc FILE.sl [options]\n"
    "\n"
    "Compiles a RenderMan Shading Language source file.\n"
    "\n"
    "options:\n"
    "  -o OUT          write the compiled object to OUT (default: FILE.o), whole:\n"
    "                  through a temporary file beside it; a device or FIFO is\n"
    "                  refused, a symbolic link is followed\n"
    "  -S              print the bytecode listing (to OUT with -o, else stdout)\n"
    "  -g              add debug information for rsldb (section .rsl.debug)\n"
    "  -I DIR          add DIR to the #include search path\n"
    "  -D NAME[=VAL]   define a preprocessor macro\n"
    "  -U NAME         undefine a preprocessor macro\n"
    "  --parse-only    stop after parsing and type checking\n"
    "  --dump-ast      print the checked syntax tree to stdout\n"
    "  --emit=ir       print the (optimised) SSA IR to stdout, write no object\n"
    "  --emit=llvm     print the native code's LLVM IR (optimised, for the\n"
    "                  widest ISA this CPU runs) to stdout, write no object\n"
    "  --emit=ptx      print the shader's PTX for an NVIDIA GPU (a kernel, one\n"
    "                  thread per shading point) to stdout, write no object\n"
    "  --gpu=SM        the GPU --emit=ptx compiles for: sm_75 (default: the\n"
    "                  oldest CUDA 13 supports), sm_80, sm_86, sm_89, sm_90;\n"
    "                  writing an object, add the shader's PTX for it (.rsl.ptx)\n"
    "  -O0 -O1 -O2     optimisation level (default -O2)\n"
    "  --disable-pass=NAME  do not run pass NAME (repeatable)\n"
    "  --print-after=NAME   print the IR after each run of pass NAME\n"
    "  --verify-ir     check the IR after lowering and after every pass\n"
    "  -Werror         treat warnings as errors\n"
    "  --version       print the version and exit\n"
    "  --help          print this help and exit\n";

/* The limits of rslc/limits.h, after the options. */
static void print_limits(void)
{
    printf("\nlimits (past each, an error):\n"
           "  a shader inlines to at most %d instructions; a function or shader\n"
           "  declares at most %d variables; the preprocessor may write %d MiB, run\n"
           "  %d s and use %d MiB of memory; the input must be a regular file\n",
           (int)RSLC_MAX_INLINED_SIZE, (int)RSLC_MAX_VARS, (int)(RSLC_MAX_CPP_OUTPUT >> 20),
           (int)RSLC_MAX_CPP_SECONDS, (int)(RSLC_MAX_CPP_MEMORY >> 20));
}

typedef struct Options {
    const char *input;
    const char *output;
    bool parse_only;
    bool dump_ast;
    bool emit_ir;
    bool emit_llvm;
    bool emit_ptx;
    const char *gpu;            /* --gpu, NULL: NATIVE_GPU_DEFAULT */
    bool listing;               /* -S */
    bool debug;                 /* -g */
    int opt_level;
    PassOptions passes;
    const char **disabled;      /* passes.disabled, writable */
    CppOptions cpp;
} Options;

/* Diagnostics about the command line have no source location. */
static SrcLoc no_loc(void)
{
    SrcLoc loc = { "rslc", 0, 0, 0 };
    return loc;
}

/* Takes the value of an option written either "-Ivalue" or "-I value". */
static const char *option_value(RslcCtx *rc, int argc, char **argv, int *i, size_t flaglen)
{
    if (argv[*i][flaglen] != '\0')
        return argv[*i] + flaglen;
    if (*i + 1 < argc)
        return argv[++*i];
    diag_error(rc, no_loc(), "option '%s' needs a value", argv[*i]);
    return NULL;
}

/* Returns 0 to go on, 1 on a usage error, 2 when --help/--version was
   answered. */
static int parse_options(RslcCtx *rc, int argc, char **argv, Options *opt)
{
    static const char *cpp_flags[] = { "-I", "-D", "-U" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            print_limits();
            return 2;
        } else if (strcmp(a, "--version") == 0) {
            printf("rslc (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 2;
        } else if (strcmp(a, "--parse-only") == 0) {
            opt->parse_only = true;
        } else if (strcmp(a, "--dump-ast") == 0) {
            opt->dump_ast = true;
        } else if (strcmp(a, "--emit=ir") == 0) {
            opt->emit_ir = true;
        } else if (strcmp(a, "--emit=llvm") == 0) {
            opt->emit_llvm = true;
        } else if (strcmp(a, "--emit=ptx") == 0) {
            opt->emit_ptx = true;
        } else if (strncmp(a, "--emit=", 7) == 0) {
            diag_error(rc, no_loc(), "unknown --emit kind '%s' (rslc emits 'ir', 'llvm' and "
                       "'ptx')", a + 7);
            return 1;
        } else if (strncmp(a, "--gpu=", 6) == 0) {
            opt->gpu = a + 6;
            if (!native_gpu_known(opt->gpu)) {
                diag_error(rc, no_loc(), "unknown GPU '%s' in '%s' (rslc knows %s)", opt->gpu, a,
                           native_gpu_list());
                return 1;
            }
        } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '0' + PASSES_MAX_OPT_LEVEL
                   && a[3] == '\0') {
            opt->opt_level = a[2] - '0';
        } else if (strncmp(a, "--disable-pass=", 15) == 0 || strncmp(a, "--print-after=", 14) == 0) {
            const char *name = strchr(a, '=') + 1;
            if (!passes_known(name)) {
                diag_error(rc, no_loc(), "unknown pass '%s' in '%s' (passes: %s)", name, a,
                           passes_list());
                return 1;
            }
            if (a[2] == 'p')
                opt->passes.print_after = name;
            else
                opt->disabled[opt->passes.ndisabled++] = name;
        } else if (strcmp(a, "-S") == 0) {
            opt->listing = true;
        } else if (strcmp(a, "-g") == 0) {
            opt->debug = true;
        } else if (strcmp(a, "--verify-ir") == 0) {
            opt->passes.verify = true;
        } else if (strcmp(a, "-Werror") == 0) {
            diag_set_werror(rc, true);
        } else if (strncmp(a, "-o", 2) == 0) {
            if (!(opt->output = option_value(rc, argc, argv, &i, 2)))
                return 1;
        } else if (a[0] == '-' && a[1] != '\0' && strchr("IDU", a[1])) {
            const char *flag = cpp_flags[strchr("IDU", a[1]) - "IDU"];
            const char *val = option_value(rc, argc, argv, &i, 2);
            if (!val)
                return 1;
            size_t n = strlen(flag) + strlen(val) + 1;
            char *arg = malloc(n);
            if (!arg)
                return 1;
            snprintf(arg, n, "%s%s", flag, val);
            opt->cpp.args[opt->cpp.nargs++] = arg;
        } else if (a[0] == '-' && a[1] != '\0') {
            diag_error(rc, no_loc(), "unknown option '%s' (see 'rslc --help')", a);
            return 1;
        } else if (opt->input) {
            diag_error(rc, no_loc(), "more than one input file ('%s' and '%s')",
                       opt->input, a);
            return 1;
        } else {
            opt->input = a;
        }
    }
    if (!opt->input) {
        diag_error(rc, no_loc(), "no input file (see 'rslc --help')");
        return 1;
    }
    return 0;
}

/* The object's path: -o, or the input's name with .o for .sl. */
static char *output_path(const Options *opt)
{
    if (opt->output)
        return strdup(opt->output);
    const char *in = opt->input, *base = strrchr(in, '/');
    base = base ? base + 1 : in;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".sl") == 0)
        n -= 3;
    char *out = malloc(n + 3);
    if (out)
        snprintf(out, n + 3, "%.*s.o", (int)n, base);
    return out;
}

/* The listing of obj (-S) to -o's file, written whole (runtime/outfile.h),
   or to stdout, checked at exit. */
static bool write_listing(RslcCtx *rc, const VmObject *obj, const Options *opt)
{
    VmSource *src = vm_source_new();
    if (!opt->output) {
        vm_disasm(stdout, obj, src, UINT32_MAX);
        vm_source_free(src);
        return true;
    }
    char why[256] = "an error writing it";
    OutFile of;
    int fd = outfile_begin(&of, opt->output, why, sizeof why);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    bool ok = out != NULL;
    if (out) {
        vm_disasm(out, obj, src, UINT32_MAX);
        ok = !ferror(out);
        ok = fclose(out) == 0 && ok;
        if (ok)
            ok = outfile_commit(&of, why, sizeof why) == 0;
        else
            outfile_abort(&of);
    } else if (fd >= 0) {
        close(fd);
        outfile_abort(&of);
    }
    vm_source_free(src);
    if (!ok)
        diag_error(rc, no_loc(), "cannot write the listing to '%s': %s", opt->output, why);
    return ok;
}

/* The shader of m (the other functions are inlined into it). */
static IrFunc *shader_of(IrModule *m)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION)
            return m->funcs[i];
    return NULL;
}

/* --emit=llvm or --emit=ptx: the native code of m's shader, which the VM
   back end made ready (obj is its layout). */
static bool emit_native(RslcCtx *rc, IrModule *m, const VmObject *obj, const Options *opt)
{
    NativeOptions nopt = { .level = opt->opt_level, .isa = NATIVE_ISA_AUTO, .keep_llvm = true };
    IrFunc *shader = shader_of(m);
    if (!shader)
        return false;
    if (opt->emit_ptx) {
        char *ptx = native_compile_ptx(rc, shader, obj, &nopt, opt->gpu);
        if (ptx)
            fputs(ptx, stdout);
        free(ptx);
        return ptx != NULL;
    }
    NativeShader *ns = native_compile(rc, shader, obj, &nopt);
    if (ns)
        native_print_llvm(ns, stdout);
    native_free(ns);
    return ns != NULL;
}

/* With --gpu, the object carries the shader's PTX for that GPU. */
static bool add_ptx(RslcCtx *rc, IrModule *m, VmObject *obj, const Options *opt)
{
    NativeOptions nopt = { .level = opt->opt_level, .isa = NATIVE_ISA_AUTO };
    IrFunc *shader = shader_of(m);
    char *ptx = shader ? native_compile_ptx(rc, shader, obj, &nopt, opt->gpu) : NULL;
    size_t n = ptx ? strlen(ptx) : 0;
    char *text = ptx ? vm_object_own(obj, n + 1) : NULL, *gpu = vm_object_own(obj, strlen(opt->gpu) + 1);
    if (text && gpu) {
        memcpy(text, ptx, n + 1);
        strcpy(gpu, opt->gpu);
        obj->ptx = text;
        obj->ptx_gpu = gpu;
    } else if (ptx) {
        diag_error(rc, no_loc(), "out of memory");
    }
    free(ptx);
    return obj->ptx != NULL;
}

/* Lowers and optimises the unit, then prints the IR (--emit=ir) or the
   listing (-S), or writes the object. False after diagnostics. */
static bool back_end(RslcCtx *rc, const Unit *unit, const Options *opt)
{
    IrModule *m = rslc_middle_end(rc, unit, opt->opt_level, &opt->passes);
    if (!m)
        return false;
    bool ok = true;
    if (opt->emit_ir) {
        ir_print_module(stdout, m);
    } else {
        VmObject *obj = backend_vm_object(rc, m, opt->opt_level, opt->input, opt->debug);
        if (opt->emit_llvm || opt->emit_ptx) {
            ok = obj && emit_native(rc, m, obj, opt);
            vm_object_free(obj);
            ir_module_free(m);
            return ok;
        }
        if (opt->listing) {
            ok = obj && write_listing(rc, obj, opt);
            vm_object_free(obj);
            ir_module_free(m);
            return ok;
        }
        char *path = output_path(opt), err[512];
        ok = obj && path && (!opt->gpu || add_ptx(rc, m, obj, opt))
             && vm_object_write(path, obj, err, sizeof err) == 0;
        if (obj && path && !ok && diag_error_count(rc) == 0)
            fprintf(stderr, "%s\n", err);
        vm_object_free(obj);
        free(path);
    }
    ir_module_free(m);
    return ok;
}

int main(int argc, char **argv)
{
    RslcCtx ctx = { 0 }, *rc = &ctx;
    Options opt = { 0 };
    opt.opt_level = PASSES_MAX_OPT_LEVEL;
    opt.cpp.args = calloc((size_t)argc, sizeof *opt.cpp.args);
    const char **disabled = calloc((size_t)argc, sizeof *disabled);
    if (!opt.cpp.args || !disabled)
        return 1;
    opt.passes.disabled = opt.disabled = disabled;
    diag_set_error_limit(rc, 50);
    outfile_catch_signals();

    int status = parse_options(rc, argc, argv, &opt);
    if (status == 0) {
        Unit *unit = rslc_front_end(rc, opt.input, &opt.cpp);
        if (!unit) {
            status = 1;
        } else {
            if (opt.dump_ast)
                ast_dump(stdout, unit);
            if (!opt.parse_only && !opt.dump_ast && !back_end(rc, unit, &opt))
                status = 1;
        }
    } else if (status == 2) {
        status = 0;
    }
    if (diag_error_count(rc) > 0)
        status = 1;

    for (int i = 0; i < opt.cpp.nargs; i++)
        free((char *)opt.cpp.args[i]);
    free(opt.cpp.args);
    free(disabled);
    rslc_ctx_free(rc);
    return outfile_close_stdout("rslc", status);
}

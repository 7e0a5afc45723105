/*
** main.c: the rslc driver: options, then the pipeline in order:
** preprocess (cpp.c) -> parse (gram.y) -> check (check.c) -> [later: IR,
** optimisation, code generation].
*/
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ast.h"
#include "rslc/check.h"
#include "rslc/cpp.h"
#include "rslc/diag.h"
#include "rslc/parse.h"

static const char usage[] =
    "usage: rslc FILE.sl [options]\n"
    "\n"
    "Compiles a RenderMan Shading Language source file.\n"
    "\n"
    "options:\n"
    "  -o OUT          write the compiled object to OUT\n"
    "  -I DIR          add DIR to the #include search path\n"
    "  -D NAME[=VAL]   define a preprocessor macro\n"
    "  -U NAME         undefine a preprocessor macro\n"
    "  --parse-only    stop after parsing and type checking\n"
    "  --dump-ast      print the checked syntax tree to stdout\n"
    "  -Werror         treat warnings as errors\n"
    "  --version       print the version and exit\n"
    "  --help          print this help and exit\n";

typedef struct Options {
    const char *input;
    const char *output;
    bool parse_only;
    bool dump_ast;
    CppOptions cpp;
} Options;

/* Diagnostics about the command line have no source location. */
static SrcLoc no_loc(void)
{
    SrcLoc loc = { "rslc", 0, 0 };
    return loc;
}

/* Takes the value of an option written either "-Ivalue" or "-I value". */
static const char *option_value(int argc, char **argv, int *i, size_t flaglen)
{
    if (argv[*i][flaglen] != '\0')
        return argv[*i] + flaglen;
    if (*i + 1 < argc)
        return argv[++*i];
    diag_error(no_loc(), "option '%s' needs a value", argv[*i]);
    return NULL;
}

/* Returns 0 to go on, 1 on a usage error, 2 when --help/--version was
   answered. */
static int parse_options(int argc, char **argv, Options *opt)
{
    static const char *cpp_flags[] = { "-I", "-D", "-U" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 2;
        } else if (strcmp(a, "--version") == 0) {
            printf("rslc (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 2;
        } else if (strcmp(a, "--parse-only") == 0) {
            opt->parse_only = true;
        } else if (strcmp(a, "--dump-ast") == 0) {
            opt->dump_ast = true;
        } else if (strcmp(a, "-Werror") == 0) {
            diag_set_werror(true);
        } else if (strncmp(a, "-o", 2) == 0) {
            if (!(opt->output = option_value(argc, argv, &i, 2)))
                return 1;
        } else if (a[0] == '-' && a[1] != '\0' && strchr("IDU", a[1])) {
            const char *flag = cpp_flags[strchr("IDU", a[1]) - "IDU"];
            const char *val = option_value(argc, argv, &i, 2);
            if (!val)
                return 1;
            size_t n = strlen(flag) + strlen(val) + 1;
            char *arg = malloc(n);
            if (!arg)
                return 1;
            snprintf(arg, n, "%s%s", flag, val);
            opt->cpp.args[opt->cpp.nargs++] = arg;
        } else if (a[0] == '-' && a[1] != '\0') {
            diag_error(no_loc(), "unknown option '%s' (see 'rslc --help')", a);
            return 1;
        } else if (opt->input) {
            diag_error(no_loc(), "more than one input file ('%s' and '%s')",
                       opt->input, a);
            return 1;
        } else {
            opt->input = a;
        }
    }
    if (!opt->input) {
        diag_error(no_loc(), "no input file (see 'rslc --help')");
        return 1;
    }
    return 0;
}

/* Runs the front end; returns the checked unit or NULL after errors. */
static Unit *front_end(const Options *opt)
{
    size_t len;
    char *text = cpp_run(opt->input, &opt->cpp, &len);
    if (!text)
        return NULL;
    cpp_index(text, len);
    Unit *unit = parse_rsl(text, len, opt->input);
    if (unit && !check_unit(unit))
        unit = NULL;
    /* The index still points into text: diagnostics are all printed. */
    cpp_reset();
    free(text);
    return unit;
}

int main(int argc, char **argv)
{
    Options opt = { 0 };
    opt.cpp.args = calloc((size_t)argc, sizeof *opt.cpp.args);
    if (!opt.cpp.args)
        return 1;
    diag_set_error_limit(50);

    int status = parse_options(argc, argv, &opt);
    if (status == 0) {
        Unit *unit = front_end(&opt);
        if (!unit) {
            status = 1;
        } else {
            if (opt.dump_ast)
                ast_dump(stdout, unit);
            if (!opt.parse_only && !opt.dump_ast) {
                /* The IR, optimiser and code generators are later stages;
                   writing a placeholder object would only mislead. */
                diag_error(no_loc(),
                           "cannot write '%s': object code generation is not "
                           "available in this version of rslc; use "
                           "--parse-only or --dump-ast",
                           opt.output ? opt.output : "output");
                status = 1;
            }
        }
    } else if (status == 2) {
        status = 0;
    }
    if (diag_error_count() > 0)
        status = 1;

    for (int i = 0; i < opt.cpp.nargs; i++)
        free((char *)opt.cpp.args[i]);
    free(opt.cpp.args);
    check_free();
    ast_free_all();
    diag_reset();
    return status;
}

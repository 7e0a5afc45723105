/*
** toolopts.c: the options, loading and batch filling rslvm and rsldb
** share (toolopts.h).
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/compile.h"
#include "runtime/numparse.h"
#include "tools/toolopts.h"

/* Prints "TOOL: error: " and msg (a format taking arg) to stderr. */
static void fail_as(const char *tool, const char *msg, const char *arg)
{
    fprintf(stderr, "%s: error: ", tool);
    fprintf(stderr, msg, arg);
    fputc('\n', stderr);
}

int tool_fail(const ToolRun *r, const char *msg, const char *arg)
{
    fail_as(r->tool, msg, arg);
    return 1;
}

bool tool_steps_arg(const char *tool, const char *v, uint64_t *steps)
{
    long long n;
    if (!num_parse_int(v, 0, LLONG_MAX, &n)) {
        fail_as(tool, "--max-shader-steps needs a count (0: no limit), not '%s'", v);
        return false;
    }
    *steps = (uint64_t)n;
    return true;
}

void tool_init(ToolRun *r, const char *tool, int argc, int level)
{
    *r = (ToolRun){ .tool = tool, .level = level, .max_steps = VM_DEFAULT_MAX_STEPS };
    r->sets = calloc((size_t)argc + 1, sizeof *r->sets);
    r->args = calloc((size_t)argc + 1, sizeof *r->args);
    if (!r->sets || !r->args) {
        perror(tool);
        exit(1);
    }
}

/* A value of --set or --call: comma-separated floats, or else a string
   (quotes around it dropped). */
static void parse_value(const char *text, Setting *s)
{
    char *end;
    const char *p = text;
    size_t len = strlen(text);
    s->n = 0;
    s->str = len >= 2 && text[0] == '"' && text[len - 1] == '"' ? strndup(text + 1, len - 2)
                                                               : strdup(text);
    while (s->n < 16) {
        float f = strtof(p, &end);
        if (end == p)
            break;
        s->f[s->n++] = f;
        p = end;
        if (*p != ',')
            break;
        p++;
    }
    if (*p || (s->n != 1 && s->n != 3 && s->n != 16))
        s->n = 0;
}

/* An option, as opposed to a negative number argument of --call. */
static bool is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

int tool_option(ToolRun *r, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--call") && *i + 1 < argc) {
        r->call = argv[++*i];
        while (*i + 1 < argc && !is_option(argv[*i + 1]))
            parse_value(argv[++*i], &r->args[r->nargs++]);
    } else if (!strcmp(a, "--shade") && *i + 1 < argc) {
        r->shader = argv[++*i];
    } else if (!strcmp(a, "--grid") && *i + 2 < argc) {
        long long w, h;
        bool ok = num_parse_int(argv[++*i], 1, 65536, &w);
        if (!num_parse_int(argv[++*i], 1, 65536, &h) || !ok)
            return -!!tool_fail(r, "--grid needs two sizes from 1 to 65536, not '%s'",
                                ok ? argv[*i] : argv[*i - 1]);
        r->w = (int)w, r->h = (int)h;
    } else if (!strcmp(a, "--set") && *i + 1 < argc) {
        const char *arg = argv[++*i], *eq = strchr(arg, '=');
        if (!eq || eq == arg)
            return -!!tool_fail(r, "--set needs VAR=VALUE, not '%s'", arg);
        Setting *s = &r->sets[r->nsets++];
        s->name = strndup(arg, (size_t)(eq - arg));
        parse_value(eq + 1, s);
    } else if (!strcmp(a, "--max-shader-steps") && *i + 1 < argc) {
        if (!tool_steps_arg(r->tool, argv[++*i], &r->max_steps))
            return -1;
    } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '2' && !a[3]) {
        r->level = a[2] - '0';
    } else if (a[0] == '-') {
        return 0;
    } else if (r->input) {
        return -!!tool_fail(r, "more than one input file ('%s')", a);
    } else {
        r->input = a;
    }
    return 1;
}

int tool_check(ToolRun *r)
{
    if (r->call && (r->shader || r->w))
        return tool_fail(r, "--call runs a function, not a shader: drop --shade and --grid%s",
                         "");
    if (r->call && r->input) {
        size_t n = strlen(r->input);
        if (n < 3 || strcmp(r->input + n - 3, ".sl"))
            return tool_fail(r, "--call needs the source file: '%s' is not a .sl", r->input);
    }
    if (!r->input || (!r->call && (!r->shader || !r->w)))
        return tool_fail(r, "needs an input file, and --shade NAME with --grid W H or "
                         "--call NAME%s", "");
    return 0;
}

void tool_session(const ToolRun *r, VmSession *ss)
{
    ss->max_steps = r->max_steps;
    ss->program = r->tool;
}

void tool_free(ToolRun *r)
{
    for (int i = 0; i < r->nsets; i++) {
        free((char *)r->sets[i].name);
        free((char *)r->sets[i].str);
    }
    for (int i = 0; i < r->nargs; i++)
        free((char *)r->args[i].str);
    free(r->sets);
    free(r->args);
}

VmObject *tool_load(const ToolRun *r, bool debug)
{
    size_t n = strlen(r->input);
    if (n > 3 && !strcmp(r->input + n - 3, ".sl"))
        return backend_compile_file(&(RslcCtx){ 0 }, r->input, r->level, r->call, r->nargs,
                                    debug);
    char err[512];
    VmObject *o = vm_object_read(r->input, err, sizeof err);
    if (!o)
        fprintf(stderr, "%s\n", err);
    return o;
}

bool tool_fit_value(Setting *s, const VmVar *v, VmStrings *strings)
{
    unsigned want = vm_type_slots(v->type, v->arraylen);
    if (v->type == VM_T_STRING) {
        s->f[0] = vm_string_value(vm_strings_intern(strings, s->str));
        s->n = 1;
        return true;
    }
    if (s->n == 1)
        for (unsigned k = 1; k < want && k < 16; k++)
            s->f[k] = s->f[0];
    else if (s->n != (int)want)
        return false;
    s->n = (int)want;
    return true;
}

int tool_check_sets(const ToolRun *r, const VmObject *o, VmStrings *strings)
{
    for (int i = 0; i < r->nsets; i++) {
        const VmVar *v = vm_find_var(o, r->sets[i].name);
        if (!v)
            return tool_fail(r, "--set %s: no such parameter or global in the shader",
                             r->sets[i].name);
        if (!tool_fit_value(&r->sets[i], v, strings))
            return tool_fail(r, "--set %s: the value does not fit the variable's type",
                             r->sets[i].name);
    }
    return 0;
}

void tool_fill_tile(const ToolRun *r, VmSession *ss, VmState *s, VmDeriv *d, VmTile t)
{
    const VmObject *o = ss->obj;
    vm_grid_fill(o, s, d, t);
    for (int i = 0; i < r->nsets; i++) {
        for (int l = 0; l < s->n; l++)
            vm_var_store(s, vm_find_var(o, r->sets[i].name), r->sets[i].f,
                         (unsigned)r->sets[i].n, l);
        vm_param_given(o, s, r->sets[i].name);
    }
}

int tool_fill_call(const ToolRun *r, VmSession *ss, VmState *s, VmDeriv *d)
{
    const VmObject *o = ss->obj;
    vm_grid_fill(o, s, d, vm_grid_tile(0, 1, 1));
    int a = 0, inputs = 0;
    for (uint32_t i = 0; i < o->nparams; i++)
        inputs += !(o->params[i].flags & VM_VAR_OUTPUT);
    bool all = r->nargs > inputs; /* outputs given too */
    for (uint32_t i = 0; i < o->nparams; i++) {
        const VmVar *v = &o->params[i];
        bool output = v->flags & VM_VAR_OUTPUT;
        if (!strcmp(v->name, "return") || !strcmp(v->name, "result") || (output && !all))
            continue;
        if (!tool_fit_value(&r->args[a], v, ss->strings))
            return tool_fail(r, "argument for '%s' does not fit its type", v->name);
        vm_var_store(s, v, r->args[a++].f, (unsigned)vm_type_slots(v->type, v->arraylen), 0);
    }
    return 0;
}

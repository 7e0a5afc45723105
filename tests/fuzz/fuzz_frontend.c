/*
** fuzz_frontend.c: libFuzzer entry point for the rslc compiler, source
** to bytecode.
**
** Feeds arbitrary bytes to the compiler as preprocessed RSL: the line
** index of cpp's output (cpp_index, as rslc_front_end builds it, with
** the column mapping diagnostics use), the parser and checker, and for
** whatever checks, lowering, the pass pipeline and the bytecode back
** end, at the optimisation level the input's length picks (0, 1 or 2),
** with debug information every other length, and the IR verifier after
** every pass. GNU cpp itself, which rslc runs as a program, is not ours
** to fuzz. Any crash, leak, hang, sanitizer report, verifier violation
** or internal error is a bug (it traps); diagnostics of bad programs are
** expected and discarded.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/compile.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/parse.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Maps a few columns of the first lines of the file through the index
   against the text's own lines, as a diagnostic on each would. */
static void map_columns(const char *text)
{
    const char *line = text;
    for (int n = 1; n <= 16 && *line; n++) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, len);
        if (!copy)
            return;
        for (int col = 1; col <= (int)len + 2; col += 1 + col / 2)
            (void)cpp_original_column(&rc, "fuzz.sl", n, col, copy);
        free(copy);
        if (!end)
            break;
        line = end + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The parser takes NUL-terminated text, as cpp_run returns it. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    char *violations = NULL;
    size_t nviolations = 0;
    FILE *verifier = open_memstream(&violations, &nviolations);
    if (!devnull || !verifier)
        abort();
    diag_reset(&rc);
    diag_set_output(&rc, devnull);
    cpp_index(&rc, text, size);
    map_columns(text);
    Unit *unit = parse_rsl(&rc, text, size, "fuzz.sl");
    if (unit && check_unit(&rc, unit)) {
        int level = (int)(size % 3);
        PassOptions verify = { .verify = true, .verify_out = verifier };
        IrModule *m = rslc_middle_end(&rc, unit, level, &verify);
        if (m) {
            VmObject *o = backend_vm_object(&rc, m, level, "fuzz.sl", size & 4);
            if (o)
                vm_object_free(o);
            ir_module_free(m);
        }
    }
    cpp_reset(&rc);
    rslc_compile_done(&rc);
    fclose(verifier);
    if (nviolations || diag_internal_count(&rc))
        __builtin_trap();
    free(violations);
    free(text);
    return 0;
}

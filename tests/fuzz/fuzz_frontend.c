/*
** fuzz_frontend.c: libFuzzer entry point for the rslc front end.
**
** Feeds arbitrary bytes to the parser as preprocessed RSL, then checks
** whatever parses. Any crash, leak, hang or sanitizer report is a bug;
** diagnostics are expected and discarded.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ast.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/parse.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    /* The parser takes NUL-terminated text, as cpp_run returns it. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    diag_set_output(&rc, devnull);
    Unit *unit = parse_rsl(&rc, text, size, "fuzz.sl");
    if (unit)
        check_unit(&rc, unit);
    check_free(&rc);
    ast_free_all(&rc);
    diag_reset(&rc);
    free(text);
    return 0;
}

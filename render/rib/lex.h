/*
** lex.h: the ASCII RIB lexer: numbers, strings, names, brackets; comments
** skipped. Reads plain or gzip'd files through zlib, or memory.
*/
#ifndef RTCORE_RIB_LEX_H
#define RTCORE_RIB_LEX_H

#include <zlib.h>

#include "render/rib/internal.h"

typedef enum RibTokKind {
    RIB_TOK_EOF, RIB_TOK_NUMBER, RIB_TOK_STRING, RIB_TOK_NAME,
    RIB_TOK_LBRACKET, RIB_TOK_RBRACKET
} RibTokKind;

typedef struct RibToken {
    RibTokKind kind;
    RibLoc loc;
    double num;          /* RIB_TOK_NUMBER */
    const char *text;    /* STRING and NAME: NUL-terminated, valid until
                            the next token */
    size_t len;
} RibToken;

#define RIB_LEX_BUFSIZE 65536

typedef struct RibLexer {
    RibCtx *ctx;
    gzFile gz;                 /* file input, or NULL for memory */
    unsigned char *buf;        /* input read so far (all of it for memory;
                                  not written then) */
    size_t blen, bpos;
    bool eof;
    const char *file;          /* interned name for locations */
    int line, col;
    char *text;                /* the current string or name */
    size_t tlen, tcap;
    unsigned errors;           /* lexical errors so far: a request whose
                                  arguments had one is skipped */
} RibLexer;

/* Opens path for lexing; name is how locations spell it. Reports an error
   and returns false when the file cannot be read. */
bool rib_lex_open_file(RibLexer *lx, RibCtx *c, const char *path,
                       const char *name);
void rib_lex_open_memory(RibLexer *lx, RibCtx *c, const char *name,
                         const void *data, size_t size);
void rib_lex_close(RibLexer *lx);
/* The next token. Malformed input is reported, counted in lx->errors
   and skipped; EOF inside a string is reported and ends the input. */
void rib_lex_next(RibLexer *lx, RibToken *tok);

#endif /* RTCORE_RIB_LEX_H */

/*
** lex.c: turns RIB bytes into tokens with file:line:col. Input streams in
** through a fixed buffer (zlib's gzread reads plain and gzip'd files
** alike), so a large or endless input never has to fit in memory.
*/
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render/rib/lex.h"

static void lex_init(RibLexer *lx, RibCtx *c, const char *name)
{
    memset(lx, 0, sizeof *lx);
    lx->ctx = c;
    lx->file = name;
    lx->line = 1;
    lx->col = 1;
}

bool rib_lex_open_file(RibLexer *lx, RibCtx *c, const char *path,
                       const char *name)
{
    lex_init(lx, c, name);
    RibLoc where = {name, 0, 0};
    struct stat sb;
    /* Refusing devices and pipes keeps "ReadArchive /dev/zero" from
       streaming forever. */
    if (stat(path, &sb) != 0) {
        rib_error(c, where, "cannot open: %s", strerror(errno));
        return false;
    }
    if (!S_ISREG(sb.st_mode)) {
        rib_error(c, where, "not a regular file");
        return false;
    }
    lx->gz = gzopen(path, "rb");
    if (!lx->gz) {
        rib_error(c, where, "cannot open: %s", strerror(errno));
        return false;
    }
    gzbuffer(lx->gz, RIB_LEX_BUFSIZE);
    lx->buf = rib_xmalloc(RIB_LEX_BUFSIZE);
    return true;
}

void rib_lex_open_memory(RibLexer *lx, RibCtx *c, const char *name,
                         const void *data, size_t size)
{
    lex_init(lx, c, name);
    /* Memory input is its own buffer. */
    lx->buf = (unsigned char *)data;
    lx->blen = size;
    lx->eof = true;
}

void rib_lex_close(RibLexer *lx)
{
    if (lx->gz) {
        gzclose(lx->gz);
        free(lx->buf);
    }
    free(lx->text);
    memset(lx, 0, sizeof *lx);
}

static RibLoc here(const RibLexer *lx)
{
    return (RibLoc){lx->file, lx->line, lx->col};
}

/* The next byte without consuming it, or -1 at the end. A damaged file
   (a truncated or corrupt gzip stream) is a fatal error: what was read
   of it cannot be trusted to be whole. */
static int peekc(RibLexer *lx)
{
    if (lx->bpos < lx->blen)
        return lx->buf[lx->bpos];
    if (lx->eof)
        return -1;
    int n = gzread(lx->gz, lx->buf, RIB_LEX_BUFSIZE);
    if (n <= 0) {
        int err;
        const char *msg = gzerror(lx->gz, &err);
        if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) {
            /* zlib says "path: what"; the location names the file */
            size_t flen = strlen(lx->file);
            if (strncmp(msg, lx->file, flen) == 0 &&
                strncmp(msg + flen, ": ", 2) == 0)
                msg += flen + 2;
            rib_fatal(lx->ctx, here(lx), "read error: %s", msg);
        }
        lx->eof = true;
        lx->blen = lx->bpos = 0;
        return -1;
    }
    lx->blen = (size_t)n;
    lx->bpos = 0;
    return lx->buf[0];
}

static int getc_(RibLexer *lx)
{
    int ch = peekc(lx);
    if (ch < 0)
        return ch;
    lx->bpos++;
    if (ch == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    return ch;
}

static void text_reset(RibLexer *lx)
{
    lx->tlen = 0;
}

static void text_add(RibLexer *lx, int ch)
{
    lx->text = rib_grow(lx->text, &lx->tcap, lx->tlen + 2, 1);
    lx->text[lx->tlen++] = (char)ch;
    lx->text[lx->tlen] = '\0';
}

static bool is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
           ch == '\f' || ch == '\v';
}

static bool is_digit(int ch)
{
    return ch >= '0' && ch <= '9';
}

static bool is_name_start(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_name_char(int ch)
{
    return is_name_start(ch) || is_digit(ch);
}

static void skip_word(RibLexer *lx)
{
    while (is_name_char(peekc(lx)) || peekc(lx) == '.')
        getc_(lx);
}

static void take_digits(RibLexer *lx, int *count)
{
    while (is_digit(peekc(lx))) {
        text_add(lx, getc_(lx));
        (*count)++;
    }
}

/* [+-]? digits [. digits] [e [+-] digits]; false when malformed. */
static bool lex_number(RibLexer *lx, RibToken *tok)
{
    int digits = 0, expdigits = 0;
    text_reset(lx);
    if (peekc(lx) == '+' || peekc(lx) == '-')
        text_add(lx, getc_(lx));
    take_digits(lx, &digits);
    if (peekc(lx) == '.') {
        text_add(lx, getc_(lx));
        take_digits(lx, &digits);
    }
    if (digits && (peekc(lx) == 'e' || peekc(lx) == 'E')) {
        text_add(lx, getc_(lx));
        if (peekc(lx) == '+' || peekc(lx) == '-')
            text_add(lx, getc_(lx));
        take_digits(lx, &expdigits);
        if (!expdigits)
            digits = 0;
    }
    if (!digits || is_name_char(peekc(lx)) || peekc(lx) == '.') {
        skip_word(lx);
        lx->errors++;
        rib_error(lx->ctx, tok->loc, "malformed number");
        return false;
    }
    double v = strtod(lx->text, NULL);
    if (!(fabs(v) <= FLT_MAX)) {
        lx->errors++;
        rib_error(lx->ctx, tok->loc, "number out of range: %s", lx->text);
        v = 0;
    }
    tok->kind = RIB_TOK_NUMBER;
    tok->num = v;
    return true;
}

/* After the backslash at in a string: adds the character it stands for. */
static void lex_escape(RibLexer *lx, RibLoc at)
{
    int ch = peekc(lx);
    if (ch >= '0' && ch <= '7') {
        int v = 0;
        for (int i = 0; i < 3 && peekc(lx) >= '0' && peekc(lx) <= '7'; i++)
            v = v * 8 + (getc_(lx) - '0');
        text_add(lx, v & 0xff);
        return;
    }
    if (ch < 0)
        return;  /* the caller reports the unterminated string */
    getc_(lx);
    switch (ch) {
    case 'n': text_add(lx, '\n'); break;
    case 't': text_add(lx, '\t'); break;
    case 'r': text_add(lx, '\r'); break;
    case 'b': text_add(lx, '\b'); break;
    case 'f': text_add(lx, '\f'); break;
    case '\\': case '"': case '\'': text_add(lx, ch); break;
    case '\n': break;  /* line continuation */
    case '\r':
        if (peekc(lx) == '\n')
            getc_(lx);
        break;
    default:
        rib_warning(lx->ctx, at, "unknown escape '\\%c' in string", ch);
        text_add(lx, ch);
    }
}

static bool lex_string(RibLexer *lx, RibToken *tok)
{
    getc_(lx);  /* the opening quote */
    text_reset(lx);
    text_add(lx, 0);
    lx->tlen = 0;
    for (;;) {
        RibLoc at = here(lx);
        int ch = getc_(lx);
        if (ch < 0) {
            lx->errors++;
            rib_error(lx->ctx, tok->loc, "unterminated string");
            return false;
        }
        if (ch == '"')
            break;
        if (ch == '\\')
            lex_escape(lx, at);
        else
            text_add(lx, ch);
    }
    tok->kind = RIB_TOK_STRING;
    tok->text = lx->text;
    tok->len = lx->tlen;
    return true;
}

void rib_lex_next(RibLexer *lx, RibToken *tok)
{
    memset(tok, 0, sizeof *tok);
    for (;;) {
        int ch = peekc(lx);
        tok->loc = here(lx);
        if (lx->ctx->fatal || ch < 0) {
            tok->kind = RIB_TOK_EOF;
            return;
        }
        if (is_space(ch)) {
            getc_(lx);
        } else if (ch == '#') {
            while (peekc(lx) >= 0 && peekc(lx) != '\n')
                getc_(lx);
        } else if (ch == '[' || ch == ']') {
            getc_(lx);
            tok->kind = ch == '[' ? RIB_TOK_LBRACKET : RIB_TOK_RBRACKET;
            return;
        } else if (ch == '"') {
            if (!lex_string(lx, tok))
                tok->kind = RIB_TOK_EOF;
            return;
        } else if (is_digit(ch) || ch == '.' || ch == '+' || ch == '-') {
            if (lex_number(lx, tok))
                return;
        } else if (is_name_start(ch)) {
            text_reset(lx);
            while (is_name_char(peekc(lx)))
                text_add(lx, getc_(lx));
            tok->kind = RIB_TOK_NAME;
            tok->text = lx->text;
            tok->len = lx->tlen;
            return;
        } else if (ch >= 0x80) {
            /* Binary RIB encodes tokens in bytes >= 0x80; reading on would
               only produce a flood of nonsense errors. */
            rib_fatal(lx->ctx, tok->loc,
                      "binary RIB encoding is not supported");
        } else {
            getc_(lx);
            lx->errors++;
            if (ch >= 0x20 && ch < 0x7f)
                rib_error(lx->ctx, tok->loc, "unexpected character '%c'", ch);
            else
                rib_error(lx->ctx, tok->loc,
                          "unexpected character (byte 0x%02x)", ch);
        }
    }
}

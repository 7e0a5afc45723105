/*
** gram.y: the grammar of the RenderMan Shading Language (RISpec 3.2,
** Appendix B) and the syntax errors it reports.
**
** The actions only build AST nodes (ast.h); every meaning is the checker's.
** Precedence follows the RISpec: unary - and ! and typecasts bind tightest,
** then . (dot), * /, ^ (cross), + -, the relations, &&, ||, ?:, and the
** right-associative assignments. As in the RISpec, an assignment is a
** primary whose left side is a name or an indexed name, so "a + b = c"
** means "a + (b = c)".
**
** Two places depart from a plain reading of the BNF, each to keep the
** grammar LALR(1) without conflicts:
**  - An expression statement is an assignment or a call, as the RISpec's
**    statement rule says. Allowing any expression would make "color c;"
**    both a declaration and a typecast.
**  - A function without a return type (which means void) is accepted only
**    at the top level; inside a body "f(...)" is a call.
*/

%code requires {
#include <stddef.h>

#include "rslc/ast.h"

/* A list being built, so that appending costs O(1). */
typedef struct NodeList {
    Node *head, *tail;
} NodeList;

/* What the lexer and the parser share while parsing one text. */
typedef struct ParseState {
    RslcCtx *rc;            /* the compilation: diagnostics, the arena */
    const char *file;       /* original file of the current line (interned) */
    int line, col;          /* where the next character is */
    /* The latest token and the one before it, for messages: where each
       starts and ends, its kind (TOK_...) and its text. */
    SrcLoc last_start, last_end, prev_start, prev_end;
    int last_kind, prev_kind;
    char last_text[48], prev_text[48];
    bool truncated;         /* the text ended inside a comment */
    char *buf;              /* a string literal being unescaped */
    size_t buf_cap;
    Node *defs;             /* the parsed definitions */
    int depth;              /* of braces, at the latest token */
    int class_depth;        /* > 0 or in_class: inside a skipped class */
    bool in_class;          /* skipping an RSL 2.0 class (lex.l) */
} ParseState;

#define RSLLTYPE SrcLoc
#define RSLLTYPE_IS_DECLARED 1
}

%code provides {
int rsllex(RSLSTYPE *lval, RSLLTYPE *lloc, void *scanner);
}

%code {
#include <limits.h>
#include <math.h>
#include <string.h>

#include "rslc/diag.h"

/* A nonterminal starts where its first symbol does; an empty one where
   the symbol before it is. */
#define YYLLOC_DEFAULT(Cur, Rhs, N) \
    do { (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0); } while (0)

static void rslerror(SrcLoc *loc, void *scanner, ParseState *ps,
                     const char *msg);

static NodeList list_empty(void)
{
    NodeList l = { NULL, NULL };
    return l;
}

static NodeList list_add(NodeList l, Node *n)
{
    if (!n)
        return l;
    if (l.tail)
        l.tail->next = n;
    else
        l.head = n;
    l.tail = n;
    return l;
}

static NodeList list_cat(NodeList a, NodeList b)
{
    if (!a.head)
        return b;
    if (b.head) {
        a.tail->next = b.head;
        a.tail = b.tail;
    }
    return a;
}

static Node *mk(ParseState *ps, NodeKind kind, SrcLoc loc, Node *a, Node *b, Node *c)
{
    Node *n = ast_new(ps->rc, kind, loc);
    n->kid[0] = a;
    n->kid[1] = b;
    n->kid[2] = c;
    return n;
}

static Node *mk_op(ParseState *ps, NodeKind kind, Op op, SrcLoc loc, Node *a, Node *b)
{
    Node *n = mk(ps, kind, loc, a, b, NULL);
    n->op = op;
    return n;
}

static Node *mk_named(ParseState *ps, NodeKind kind, const char *name, SrcLoc loc, Node *a)
{
    Node *n = mk(ps, kind, loc, a, NULL, NULL);
    n->name = name;
    return n;
}

static Node *mk_num(ParseState *ps, NodeKind kind, double num, SrcLoc loc)
{
    Node *n = ast_new(ps->rc, kind, loc);
    n->num = num;
    return n;
}

/* A statement where the language wants exactly one: a declaration of
   several names becomes a block, a statement lost to an error an empty
   one, so that a body is never a list. */
static Node *one_stmt(ParseState *ps, NodeList l, SrcLoc loc)
{
    if (!l.head)
        return ast_new(ps->rc, N_EMPTY, loc);
    if (l.head == l.tail)
        return l.head;
    return mk(ps, N_BLOCK, loc, l.head, NULL, NULL);
}

/* "(a, b, c)" is a triple and "(a, ..., p)" a matrix; the grammar cannot
   count, so the count is checked here. */
static Node *mk_tuple(ParseState *ps, SrcLoc loc, NodeList elems)
{
    int n = ast_list_len(elems.head);
    if (n == 3) {
        Node *a = elems.head, *b = a->next, *c = b->next;
        a->next = b->next = NULL;
        return mk(ps, N_TRIPLE, loc, a, b, c);
    }
    if (n != 16)
        diag_error(ps->rc, loc, "a parenthesised list must have 3 elements (a "
                   "triple) or 16 (a matrix), not %d", n);
    return mk(ps, N_MATRIX16, loc, elems.head, NULL, NULL);
}

/* Array lengths larger than this cannot come from a real shader and would
   only make later stages allocate absurd amounts. */
enum { MAX_ARRAY_LEN = 1 << 20 };

/* The value of a constant arithmetic expression (numbers, + - * /,
   unary minus: "float a[(1+1+1)]", as aqsl and PRMan accept); false for
   anything else. */
static bool constant_value(const Node *e, double *v)
{
    double a, b;
    switch (e->kind) {
    case N_FLOATLIT:
        *v = e->num;
        return true;
    case N_UNARY:
        if (e->op != OP_NEG || !constant_value(e->kid[0], &a))
            return false;
        *v = -a;
        return true;
    case N_BINARY:
        if (!constant_value(e->kid[0], &a) || !constant_value(e->kid[1], &b))
            return false;
        switch (e->op) {
        case OP_ADD: *v = a + b; return true;
        case OP_SUB: *v = a - b; return true;
        case OP_MUL: *v = a * b; return true;
        case OP_DIV: *v = a / b; return true;
        default: return false;
        }
    default:
        return false;
    }
}

static int array_len(ParseState *ps, double v, SrcLoc loc)
{
    if (!(v >= 1 && v <= MAX_ARRAY_LEN && v == floor(v))) {
        diag_error(ps->rc, loc, "array length must be a whole number from 1 to %d",
                   (int)MAX_ARRAY_LEN);
        return 1;
    }
    return (int)v;
}

/* An array length written as an expression; it must be constant. */
static int array_len_of(ParseState *ps, const Node *e, SrcLoc loc)
{
    double v;
    if (!constant_value(e, &v)) {
        diag_error(ps->rc, loc, "array length must be a constant: a number, or numbers "
                   "joined by + - * /");
        return 1;
    }
    return array_len(ps, v, loc);
}

/* Gives a declared name its declaration's type and storage; an array
   length written after the name stays the name's own. */
static Node *apply_spec(Node *decl, DeclSpec spec)
{
    int len = decl->spec.type.arraylen;
    decl->spec = spec;
    decl->spec.type.arraylen = len;
    return decl;
}

static DeclSpec spec_of(TypeBase base, Detail detail)
{
    DeclSpec s = { { base, 0 }, detail, false, false };
    return s;
}

static Node *mk_function(ParseState *ps, DeclSpec spec, const char *name, SrcLoc loc,
                         Node *formals, Node *body)
{
    Node *n = mk(ps, N_FUNCTION, loc, formals, body, NULL);
    n->spec = spec;
    n->name = name;
    n->shader = SHADER_FUNCTION;
    return n;
}
}

/* Automake's ylwrap expects yacc's output names (y.tab.c, y.tab.h) and
   renames them to gram.c and gram.h. */
%file-prefix "y"
%define api.pure full
%define api.header.include {"rslc/gram.h"}
%define api.prefix {rsl}
%define api.token.prefix {TOK_}
%define parse.error custom
%define parse.lac full
%locations
%param {void *scanner}
%parse-param {ParseState *ps}
%expect 0

%initial-action { @$ = (SrcLoc){ ps->file, 1, 1, 0 }; }

%union {
    Node *node;
    NodeList list;
    double num;
    const char *str;
    TypeBase base;
    DeclSpec spec;
    ShaderKind shader;
    Op op;
}

%token <str> IDENT "identifier"
%token <num> NUMBER "number"
%token <str> STRING "string literal"

%token FLOAT "float" COLOR "color" POINT "point" VECTOR "vector"
%token NORMAL "normal" MATRIX "matrix" STRING_KW "string" VOID "void"
%token UNIFORM "uniform" VARYING "varying" OUTPUT "output" EXTERN "extern"
%token SURFACE "surface" LIGHT "light" DISPLACEMENT "displacement"
%token VOLUME "volume" IMAGER "imager"
%token IF "if" ELSE "else" WHILE "while" FOR "for" BREAK "break"
%token CONTINUE "continue" RETURN "return"
%token ILLUMINANCE "illuminance" ILLUMINATE "illuminate" SOLAR "solar"
%token GATHER "gather"

%token SEMI ";" COMMA "," LPAREN "(" RPAREN ")" LBRACE "{" RBRACE "}"
%token LBRACKET "[" RBRACKET "]" QUESTION "?" COLON ":"
%token PLUS "+" MINUS "-" STAR "*" SLASH "/" CARET "^" DOT "." NOT "!"
%token LT "<" GT ">" LE "<=" GE ">=" EQ "==" NE "!=" AND "&&" OR "||"
%token ASSIGN "=" ADD_ASSIGN "+=" SUB_ASSIGN "-=" MUL_ASSIGN "*="
%token DIV_ASSIGN "/="

/* Lowest first. THEN and "else": an else belongs to the nearest if (or
   gather). STRING_ALONE: after a typecast, a string followed by "-" is a
   space name ("point "world" -P"), not a string minus something, which no
   type could mean. ASSIGNMENT: the right side of an assignment extends as
   far as it can. */
%precedence THEN
%precedence "else"
%precedence STRING_ALONE
%precedence ASSIGNMENT
%right "?" ":"
%left "||"
%left "&&"
%left "==" "!="
%left "<" "<=" ">" ">="
%left "+" "-"
%left "^"
%left "*" "/"
%left "."

%type <list> definitions formals formals_opt decl stmt stmts args args_opt
%type <node> definition shader function params block body var_def init
%type <node> expr expr_opt assignment unary postfix call index
%type <base> type cast_type
%type <spec> typespec formal_spec
%type <shader> shader_kind
%type <str> callee name
%type <op> asgnop
%type <num> level

%start unit

%%

/* unit: definitions */
unit
    : definitions               { ps->defs = $1.head; }
    ;

/* definitions: { shader_definition | function_definition }. A ';' after a
   definition is harmless, as in C; a stray token at the top level is
   skipped up to the next definition. */
definitions
    : %empty                    { $$ = list_empty(); }
    | definitions definition    { $$ = list_add($1, $2); }
    | definitions ";"           { $$ = $1; }
    | definitions error         { $$ = $1; }
    ;

/* definition: shader_type identifier ( [formals] ) { statements }
             | [type] identifier ( [formals] ) { statements } */
definition
    : shader
    | function
    | IDENT params block
        { $$ = mk_function(ps, spec_of(TY_VOID, DETAIL_DEFAULT), $1, @1, $2, $3); }
    ;

shader
    : shader_kind IDENT params block
        {
            $$ = mk(ps, N_SHADER, @2, $3, $4, NULL);
            $$->name = $2;
            $$->shader = $1;
        }
    ;

shader_kind
    : "surface"                 { $$ = SHADER_SURFACE; }
    | "light"                   { $$ = SHADER_LIGHT; }
    | "displacement"            { $$ = SHADER_DISPLACEMENT; }
    | "volume"                  { $$ = SHADER_VOLUME; }
    | "imager"                  { $$ = SHADER_IMAGER; }
    ;

/* function_definition with a return type; also a statement (nested). */
function
    : typespec IDENT params block { $$ = mk_function(ps, $1, $2, @2, $3, $4); }
    ;

/* ( [formals] ); a broken parameter list is skipped up to its ")". */
params
    : "(" formals_opt ")"       { $$ = $2.head; }
    | "(" error ")"             { $$ = NULL; }
    ;

/* formals: formal_variable_definitions { ; formal_variable_definitions } [;]
   formal_variable_definitions: [output] typespec def_expressions
   Real shaders also separate groups with "," ("float a, color b"). */
formals_opt
    : %empty                    { $$ = list_empty(); }
    | formals
    | formals ";"
    ;

formals
    : formal_spec var_def           { $$ = list_add(list_empty(), apply_spec($2, $1)); }
    | formals "," var_def           { $$ = list_add($1, apply_spec($3, $1.tail->spec)); }
    | formals "," formal_spec var_def { $$ = list_add($1, apply_spec($4, $3)); }
    | formals ";" formal_spec var_def { $$ = list_add($1, apply_spec($4, $3)); }
    ;

formal_spec
    : typespec
    | "output" typespec         { $$ = $2; $$.output = true; }
    ;

/* typespec: [uniform | varying] type */
typespec
    : type                      { $$ = spec_of($1, DETAIL_DEFAULT); }
    | "uniform" type            { $$ = spec_of($2, DETAIL_UNIFORM); }
    | "varying" type            { $$ = spec_of($2, DETAIL_VARYING); }
    ;

type
    : cast_type
    | "void"                    { $$ = TY_VOID; }
    ;

/* The types a typecast may name. */
cast_type
    : "float"                   { $$ = TY_FLOAT; }
    | "string"                  { $$ = TY_STRING; }
    | "color"                   { $$ = TY_COLOR; }
    | "point"                   { $$ = TY_POINT; }
    | "vector"                  { $$ = TY_VECTOR; }
    | "normal"                  { $$ = TY_NORMAL; }
    | "matrix"                  { $$ = TY_MATRIX; }
    ;

/* variable_definitions: [extern] typespec def_expression { , def_expression } */
decl
    : typespec var_def          { $$ = list_add(list_empty(), apply_spec($2, $1)); }
    | "extern" typespec var_def
        {
            $2.is_extern = true;
            $$ = list_add(list_empty(), apply_spec($3, $2));
        }
    | decl "," var_def          { $$ = list_add($1, apply_spec($3, $1.tail->spec)); }
    ;

/* def_expression: identifier [ "[" [length] "]" ] [= initialiser]; "[]" is
   the open array of a function parameter. */
var_def
    : name                     { $$ = mk_named(ps, N_VARDECL, $1, @1, NULL); }
    | name "=" init            { $$ = mk_named(ps, N_VARDECL, $1, @1, $3); }
    | name "[" expr "]"
        {
            $$ = mk_named(ps, N_VARDECL, $1, @1, NULL);
            $$->spec.type.arraylen = array_len_of(ps, $3, @3);
        }
    | name "[" expr "]" "=" init
        {
            $$ = mk_named(ps, N_VARDECL, $1, @1, $6);
            $$->spec.type.arraylen = array_len_of(ps, $3, @3);
        }
    | name "[" "]"
        {
            $$ = mk_named(ps, N_VARDECL, $1, @1, NULL);
            $$->spec.type.arraylen = -1;
        }
    ;

/* initialiser: expression | { expression { , expression } } */
init
    : expr
    | "{" args "}"              { $$ = mk(ps, N_ARRAYINIT, @1, $2.head, NULL, NULL); }
    ;

/* { statements }; a statement broken just before the "}" ends there. */
block
    : "{" stmts "}"             { $$ = mk(ps, N_BLOCK, @1, $2.head, NULL, NULL); }
    | "{" stmts error "}"       { $$ = mk(ps, N_BLOCK, @1, $2.head, NULL, NULL); }
    ;

stmts
    : %empty                    { $$ = list_empty(); }
    | stmts stmt                { $$ = list_cat($1, $2); }
    ;

/* A statement, as a list: a declaration gives one node per name. */
stmt
    : decl ";"                  { $$ = $1; }
    | function                  { $$ = list_add(list_empty(), $1); }
    | block                     { $$ = list_add(list_empty(), $1); }
    | assignment ";"            { $$ = list_add(list_empty(), mk(ps, N_EXPRSTMT, @1, $1, NULL, NULL)); }
    | call ";"                  { $$ = list_add(list_empty(), mk(ps, N_EXPRSTMT, @1, $1, NULL, NULL)); }
    | ";"                       { $$ = list_add(list_empty(), ast_new(ps->rc, N_EMPTY, @1)); }
    | "if" "(" expr ")" body %prec THEN
        { $$ = list_add(list_empty(), mk(ps, N_IF, @1, $3, $5, NULL)); }
    | "if" "(" expr ")" body "else" body
        { $$ = list_add(list_empty(), mk(ps, N_IF, @1, $3, $5, $7)); }
    | "while" "(" expr ")" body
        { $$ = list_add(list_empty(), mk(ps, N_WHILE, @1, $3, $5, NULL)); }
    | "for" "(" expr_opt ";" expr_opt ";" expr_opt ")" body
        {
            Node *n = mk(ps, N_FOR, @1, $3, $5, $7);
            n->kid[3] = $9;
            $$ = list_add(list_empty(), n);
        }
    | "break" level ";"         { $$ = list_add(list_empty(), mk_num(ps, N_BREAK, $2, @1)); }
    | "continue" level ";"      { $$ = list_add(list_empty(), mk_num(ps, N_CONTINUE, $2, @1)); }
    | "return" ";"              { $$ = list_add(list_empty(), ast_new(ps->rc, N_RETURN, @1)); }
    | "return" expr ";"         { $$ = list_add(list_empty(), mk(ps, N_RETURN, @1, $2, NULL, NULL)); }
    | "illuminance" "(" args ")" body
        { $$ = list_add(list_empty(), mk(ps, N_ILLUMINANCE, @1, $3.head, $5, NULL)); }
    | "illuminate" "(" args ")" body
        { $$ = list_add(list_empty(), mk(ps, N_ILLUMINATE, @1, $3.head, $5, NULL)); }
    | "solar" "(" args_opt ")" body
        { $$ = list_add(list_empty(), mk(ps, N_SOLAR, @1, $3.head, $5, NULL)); }
    | "gather" "(" args ")" body %prec THEN
        { $$ = list_add(list_empty(), mk(ps, N_GATHER, @1, $3.head, $5, NULL)); }
    | "gather" "(" args ")" body "else" body
        { $$ = list_add(list_empty(), mk(ps, N_GATHER, @1, $3.head, $5, $7)); }
    | error ";"                 { $$ = list_empty(); }
    ;

/* The statement controlled by if, a loop or a light loop. */
body
    : stmt                      { $$ = one_stmt(ps, $1, @1); }
    ;

/* The optional parts of a for header. */
expr_opt
    : %empty                    { $$ = NULL; }
    | expr
    ;

/* loop_modstmt: (break | continue) [integer] */
level
    : %empty                    { $$ = 1; }
    | NUMBER
    ;

/* expression: primary | expression binop expression | - expression
             | relation ? expression : expression | typecast expression */
expr
    : unary
    | assignment
    | expr "?" expr ":" expr    { $$ = mk(ps, N_TERNARY, @2, $1, $3, $5); }
    | expr "||" expr            { $$ = mk_op(ps, N_BINARY, OP_OR, @2, $1, $3); }
    | expr "&&" expr            { $$ = mk_op(ps, N_BINARY, OP_AND, @2, $1, $3); }
    | expr "==" expr            { $$ = mk_op(ps, N_BINARY, OP_EQ, @2, $1, $3); }
    | expr "!=" expr            { $$ = mk_op(ps, N_BINARY, OP_NE, @2, $1, $3); }
    | expr "<" expr             { $$ = mk_op(ps, N_BINARY, OP_LT, @2, $1, $3); }
    | expr "<=" expr            { $$ = mk_op(ps, N_BINARY, OP_LE, @2, $1, $3); }
    | expr ">" expr             { $$ = mk_op(ps, N_BINARY, OP_GT, @2, $1, $3); }
    | expr ">=" expr            { $$ = mk_op(ps, N_BINARY, OP_GE, @2, $1, $3); }
    | expr "+" expr             { $$ = mk_op(ps, N_BINARY, OP_ADD, @2, $1, $3); }
    | expr "-" expr             { $$ = mk_op(ps, N_BINARY, OP_SUB, @2, $1, $3); }
    | expr "^" expr             { $$ = mk_op(ps, N_BINARY, OP_CROSS, @2, $1, $3); }
    | expr "*" expr             { $$ = mk_op(ps, N_BINARY, OP_MUL, @2, $1, $3); }
    | expr "/" expr             { $$ = mk_op(ps, N_BINARY, OP_DIV, @2, $1, $3); }
    | expr "." expr             { $$ = mk_op(ps, N_BINARY, OP_DOT, @2, $1, $3); }
    ;

/* assignexpression: identifier [ "[" expression "]" ] asgnop expression */
assignment
    : name asgnop expr %prec ASSIGNMENT
        { $$ = mk_op(ps, N_ASSIGN, $2, @2, mk_named(ps, N_IDENT, $1, @1, NULL), $3); }
    | name "[" expr "]" asgnop expr %prec ASSIGNMENT
        {
            Node *elem = mk(ps, N_INDEX, @1, mk_named(ps, N_IDENT, $1, @1, NULL), $3, NULL);
            $$ = mk_op(ps, N_ASSIGN, $5, @5, elem, $6);
        }
    ;

asgnop
    : "="                       { $$ = OP_ASSIGN; }
    | "+="                      { $$ = OP_ADD; }
    | "-="                      { $$ = OP_SUB; }
    | "*="                      { $$ = OP_MUL; }
    | "/="                      { $$ = OP_DIV; }
    ;

/* Unary operators and typecasts (typecast: type [spacename]) bind tighter
   than any binary operator. */
unary
    : postfix
    | "-" unary                 { $$ = mk_op(ps, N_UNARY, OP_NEG, @1, $2, NULL); }
    | "!" unary                 { $$ = mk_op(ps, N_UNARY, OP_NOT, @1, $2, NULL); }
    | cast_type unary
        {
            $$ = mk(ps, N_CAST, @1, $2, NULL, NULL);
            $$->spec.type = type_make($1);
        }
    | cast_type STRING unary
        {
            $$ = mk(ps, N_CAST, @1, $3, NULL, NULL);
            $$->spec.type = type_make($1);
            $$->name = $2;
        }
    ;

/* primary: number | stringconstant | identifier | identifier[expression]
          | procedurecall | ( expression ) | triple | sixteentuple */
postfix
    : NUMBER                    { $$ = mk_num(ps, N_FLOATLIT, $1, @1); }
    | STRING %prec STRING_ALONE { $$ = mk_named(ps, N_STRINGLIT, $1, @1, NULL); }
    | name                      { $$ = mk_named(ps, N_IDENT, $1, @1, NULL); }
    | call
    | index
    | "(" expr ")"              { $$ = $2; }
    | "(" expr "," args ")"     { $$ = mk_tuple(ps, @1, list_cat(list_add(list_empty(), $2), $4)); }
    ;

/* procedurecall: identifier ( [proc_arguments] ) */
call
    : callee "(" args_opt ")"   { $$ = mk_named(ps, N_CALL, $1, @1, $3.head); }
    ;

/* The message-passing functions surface() and displacement() share their
   names with shader types. */
callee
    : IDENT
    | "surface"                 { $$ = ast_intern(ps->rc, "surface"); }
    | "displacement"            { $$ = ast_intern(ps->rc, "displacement"); }
    ;

/* A variable's name: an identifier, or a shader type's word, which
   PRMan and aqsl take as a name inside a body ("color light = ..."). */
name
    : IDENT
    | "surface"                 { $$ = ast_intern(ps->rc, "surface"); }
    | "light"                   { $$ = ast_intern(ps->rc, "light"); }
    | "displacement"            { $$ = ast_intern(ps->rc, "displacement"); }
    | "volume"                  { $$ = ast_intern(ps->rc, "volume"); }
    | "imager"                  { $$ = ast_intern(ps->rc, "imager"); }
    ;

/* An array element, or a texture name with its channel: "name"[1]. The
   checker says which bases make sense. */
index
    : name "[" expr "]"
        { $$ = mk(ps, N_INDEX, @1, mk_named(ps, N_IDENT, $1, @1, NULL), $3, NULL); }
    | STRING "[" expr "]"
        { $$ = mk(ps, N_INDEX, @1, mk_named(ps, N_STRINGLIT, $1, @1, NULL), $3, NULL); }
    | call "[" expr "]"         { $$ = mk(ps, N_INDEX, @1, $1, $3, NULL); }
    ;

args_opt
    : %empty                    { $$ = list_empty(); }
    | args
    ;

args
    : expr                      { $$ = list_add(list_empty(), $1); }
    | args "," expr             { $$ = list_add($1, $3); }
    ;

%%

/* ---- syntax error messages ------------------------------------------------ */

/* How a token kind reads in a message: a word for the tokens that carry a
   value, the spelling in quotes for the rest. */
static void symbol_phrase(char *out, size_t n, yysymbol_kind_t sym)
{
    bool word = sym == YYSYMBOL_YYEOF || sym == YYSYMBOL_IDENT
                || sym == YYSYMBOL_NUMBER || sym == YYSYMBOL_STRING;
    snprintf(out, n, word ? "%s" : "'%s'", yysymbol_name(sym));
}

/* The unexpected token, with its text when that helps. */
static void unexpected_phrase(char *out, size_t n, yysymbol_kind_t sym,
                              const ParseState *ps)
{
    if (sym == YYSYMBOL_IDENT)
        snprintf(out, n, "identifier '%s'", ps->last_text);
    else if (sym == YYSYMBOL_NUMBER)
        snprintf(out, n, "number %s", ps->last_text);
    else if (sym == YYSYMBOL_STRING)
        snprintf(out, n, "string %s", ps->last_text);
    else
        symbol_phrase(out, n, sym);
}

static bool ends_operand(int tok)
{
    return tok == TOK_IDENT || tok == TOK_NUMBER || tok == TOK_STRING
           || tok == TOK_RPAREN || tok == TOK_RBRACKET;
}

static bool expects(const yysymbol_kind_t *exp, int n, yysymbol_kind_t sym)
{
    for (int i = 0; i < n; i++)
        if (exp[i] == sym)
            return true;
    return false;
}

/* "expected A, B or C before X" */
static void report_expected(ParseState *ps, const yysymbol_kind_t *exp, int n, SrcLoc loc,
                            const char *what)
{
    char list[256] = "", one[64];
    for (int i = 0; i < n; i++) {
        symbol_phrase(one, sizeof one, exp[i]);
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s",
                 i == 0 ? "" : i == n - 1 ? " or " : ", ", one);
    }
    diag_error(ps->rc, loc, "expected %s before %s", list, what);
}

/* Says what is wrong in the words a shader writer would use. The
   expected-token set (exact, thanks to LAC) tells where the parser was. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner,
                                 ParseState *ps)
{
    (void)scanner;
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    yysymbol_kind_t sym = yypcontext_token(ctx);
    SrcLoc loc = *yypcontext_location(ctx);
    char what[128];
    unexpected_phrase(what, sizeof what, sym, ps);
    bool after_operand = ends_operand(ps->prev_kind);
    /* Only where a type may stand are '(' and not ',' nor '+' expected
       after a name: at the top level and at the start of a statement. */
    bool type_position = ps->prev_kind == TOK_IDENT
                         && expects(exp, n, YYSYMBOL_LPAREN)
                         && !expects(exp, n, YYSYMBOL_PLUS)
                         && !expects(exp, n, YYSYMBOL_COMMA);

    if (sym == YYSYMBOL_YYEOF && ps->truncated) {
        /* The lexer has said why the text ends early. */
    } else if (sym == YYSYMBOL_YYEOF && expects(exp, n, YYSYMBOL_RBRACE)) {
        diag_error(ps->rc, loc, "expected '}' at end of file");
    } else if (expects(exp, n, YYSYMBOL_SEMI) && after_operand
               && !expects(exp, n, YYSYMBOL_RPAREN)) {
        /* Reported where the ';' belongs, not on the next line. */
        bool in_decl = expects(exp, n, YYSYMBOL_COMMA)
                       && !expects(exp, n, YYSYMBOL_PLUS);
        diag_error(ps->rc, ps->prev_end, "expected ';' after %s",
                   in_decl ? "declaration" : "expression");
    } else if (type_position && sym == YYSYMBOL_IDENT) {
        diag_error(ps->rc, ps->prev_start, "unknown type '%s'", ps->prev_text);
    } else if (type_position && expects(exp, n, YYSYMBOL_ASSIGN)) {
        diag_error(ps->rc, ps->prev_start, "a statement must be an assignment or a "
                   "function call, not an expression");
    } else if (expects(exp, n, YYSYMBOL_FLOAT) && !expects(exp, n, YYSYMBOL_NUMBER)
               && !expects(exp, n, YYSYMBOL_IF) && !expects(exp, n, YYSYMBOL_SURFACE)) {
        /* Only a type may come (after uniform, output, extern, or in a
           parameter list); a statement or a definition could start
           otherwise. */
        diag_error(ps->rc, loc, "expected a type before %s", what);
    } else if (expects(exp, n, YYSYMBOL_NUMBER) && expects(exp, n, YYSYMBOL_IDENT)) {
        diag_error(ps->rc, loc, "expected an expression before %s", what);
    } else if (expects(exp, n, YYSYMBOL_RPAREN) && after_operand
               && !expects(exp, n, YYSYMBOL_SEMI)) {
        diag_error(ps->rc, loc, "expected ')' before %s", what);
    } else if (n >= 1 && n <= 3) {
        report_expected(ps, exp, n, loc, what);
    } else {
        diag_error(ps->rc, loc, "unexpected %s", what);
    }
    return 0;
}

/* Bison reports only running out of stack through here. */
static void rslerror(SrcLoc *loc, void *scanner, ParseState *ps,
                     const char *msg)
{
    (void)scanner;
    (void)ps;
    diag_error(ps->rc, *loc, "%s: the program is nested too deeply", msg);
}

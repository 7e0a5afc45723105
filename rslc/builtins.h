/*
** builtins.h: the RSL builtin function library (RISpec 3.2 section 15) by
** signature: the one table that says which builtins exist.
**
** Each row is one builtin: an id (the IR's intrinsic number), its RSL
** name, its class (what the optimiser may do with a call), flags, the
** option list its name/value pairs are checked against, and its
** overloads as signature codes. Two rows share a name when one name
** covers two different operations (rotate of a point and of a matrix,
** comp of a color and of a matrix).
**
** Signature codes: overloads are separated by spaces. Each overload is a
** return type letter followed by one letter per parameter:
**
**     f float   c color   p point   v vector   n normal   m matrix
**     s string  x void (return only)
**     ?  a parameter of any type, arrays included
**
** A parameter letter may be followed by
**     []  an array of that type, of any length
**     &   an output parameter: the argument must be an assignable variable
** and the overload may end with one tail
**     .   the last parameter repeats, zero or more times ("fff." = min)
**     *   any number of further arguments of any type (printf)
**     ~   name/value option pairs, names being strings checked against
**         the row's option list (texture's "blur", 0.01, ...)
**
** Overloads that differ only in their return type (noise, texture) are
** chosen by the type the context expects: "color c = noise(P)" takes the
** color overload. Without context the first listed wins, so every row
** lists its float overload first.
*/
#ifndef RSLC_BUILTINS_H
#define RSLC_BUILTINS_H

#include "rslc/ast.h"

/* What the optimiser may assume about a call. */
typedef enum BuiltinClass {
    BC_PURE,    /* a function of its arguments only: fold, move, merge */
    BC_SIDE,    /* has an effect or state beyond its result (printf;
                   random advances the generator): never merged or moved */
    BC_DERIV,   /* differentiates over the shading grid (Du, area,
                   calculatenormal, filterstep): needs neighbouring points */
    BC_LIGHT,   /* loops over the lights (ambient, diffuse, specular, phong) */
    BC_RENDER   /* calls back into the renderer: texture lookups, ray
                   tracing, message passing, attribute queries */
} BuiltinClass;

/* Flags. The result of a call is varying if any argument is, unless
   BF_UNIFORM or BF_VARYING says otherwise. */
#define BF_UNIFORM  1u  /* result is always uniform (attribute, option) */
#define BF_VARYING  2u  /* result is always varying (texture, random) */
#define BF_CHANNEL  4u  /* the first argument may be name[channel] */

/* The option lists that name/value pairs (tail ~) are checked against. */
typedef enum BuiltinOptSet {
    OPTS_NONE,
    OPTS_TEXTURE,     /* texture, environment: RISpec Table 15.1 */
    OPTS_SHADOW,      /* shadow: Table 15.1 plus Table 15.2 */
    OPTS_FILTERSTEP,  /* filterstep: "width", "filter" */
    OPTS_RAYTRACE,    /* occlusion, indirectdiffuse, transmission */
    OPTS_GATHER,      /* the gather statement */
    OPTS_NSETS
} BuiltinOptSet;

/* One known option: its name, its value's type (TY_VOID: any type) and
   whether the value is an output variable. A name ending in ':' is a
   prefix ("surface:" matches "surface:Ci"). */
typedef struct BuiltinOption {
    const char *name;
    TypeBase type;
    bool output;
} BuiltinOption;

/*   id                 name              class      flags        options          signatures */
#define BUILTINS(X) \
    /* math */ \
    X(RADIANS,          "radians",        BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(DEGREES,          "degrees",        BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(SIN,              "sin",            BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(ASIN,             "asin",           BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(COS,              "cos",            BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(ACOS,             "acos",           BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(TAN,              "tan",            BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(ATAN,             "atan",           BC_PURE,   0,           OPTS_NONE,       "ff fff") \
    X(POW,              "pow",            BC_PURE,   0,           OPTS_NONE,       "fff") \
    X(EXP,              "exp",            BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(SQRT,             "sqrt",           BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(INVERSESQRT,      "inversesqrt",    BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(LOG,              "log",            BC_PURE,   0,           OPTS_NONE,       "ff fff") \
    X(MOD,              "mod",            BC_PURE,   0,           OPTS_NONE,       "fff") \
    X(ABS,              "abs",            BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(SIGN,             "sign",           BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(MIN,              "min",            BC_PURE,   0,           OPTS_NONE,       "fff. ccc. ppp. vvv. nnn.") \
    X(MAX,              "max",            BC_PURE,   0,           OPTS_NONE,       "fff. ccc. ppp. vvv. nnn.") \
    X(CLAMP,            "clamp",          BC_PURE,   0,           OPTS_NONE,       "ffff cccc pppp vvvv nnnn") \
    X(FLOOR,            "floor",          BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(CEIL,             "ceil",           BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(ROUND,            "round",          BC_PURE,   0,           OPTS_NONE,       "ff") \
    X(STEP,             "step",           BC_PURE,   0,           OPTS_NONE,       "fff") \
    X(SMOOTHSTEP,       "smoothstep",     BC_PURE,   0,           OPTS_NONE,       "ffff") \
    X(FILTERSTEP,       "filterstep",     BC_DERIV,  0,           OPTS_FILTERSTEP, "fff~ ffff~") \
    X(MIX,              "mix",            BC_PURE,   0,           OPTS_NONE,       "ffff cccf pppf vvvf nnnf cccc") \
    X(SPLINE,           "spline",         BC_PURE,   0,           OPTS_NONE,       \
      "ffffff. cfcccc. pfpppp. vfvvvv. nfnnnn. fsfffff. csfcccc. psfpppp. vsfvvvv. nsfnnnn. " \
      "fff[] cfc[] pfp[] vfv[] nfn[] fsff[] csfc[] psfp[] vsfv[] nsfn[]") \
    X(DU,               "Du",             BC_DERIV,  BF_VARYING,  OPTS_NONE,       "ff cc pp vv nn") \
    X(DV,               "Dv",             BC_DERIV,  BF_VARYING,  OPTS_NONE,       "ff cc pp vv nn") \
    X(DERIV,            "Deriv",          BC_DERIV,  BF_VARYING,  OPTS_NONE,       "fff ccf ppf vvf nnf") \
    X(RANDOM,           "random",         BC_SIDE,   BF_VARYING,  OPTS_NONE,       "f c p") \
    X(NOISE,            "noise",          BC_PURE,   0,           OPTS_NONE,       \
      "ff fff fp fpf cf cff cp cpf pf pff pp ppf vf vff vp vpf") \
    X(PNOISE,           "pnoise",         BC_PURE,   0,           OPTS_NONE,       \
      "fff fffff fpp fpfpf cff cffff cpp cpfpf pff pffff ppp ppfpf vff vffff vpp vpfpf") \
    X(CELLNOISE,        "cellnoise",      BC_PURE,   0,           OPTS_NONE,       \
      "ff fff fp fpf cf cff cp cpf pf pff pp ppf vf vff vp vpf") \
    /* geometric */ \
    X(XCOMP,            "xcomp",          BC_PURE,   0,           OPTS_NONE,       "fp fv fn") \
    X(YCOMP,            "ycomp",          BC_PURE,   0,           OPTS_NONE,       "fp fv fn") \
    X(ZCOMP,            "zcomp",          BC_PURE,   0,           OPTS_NONE,       "fp fv fn") \
    X(SETXCOMP,         "setxcomp",       BC_PURE,   0,           OPTS_NONE,       "xp&f xv&f xn&f") \
    X(SETYCOMP,         "setycomp",       BC_PURE,   0,           OPTS_NONE,       "xp&f xv&f xn&f") \
    X(SETZCOMP,         "setzcomp",       BC_PURE,   0,           OPTS_NONE,       "xp&f xv&f xn&f") \
    X(LENGTH,           "length",         BC_PURE,   0,           OPTS_NONE,       "fv") \
    X(NORMALIZE,        "normalize",      BC_PURE,   0,           OPTS_NONE,       "vv nn") \
    X(DISTANCE,         "distance",       BC_PURE,   0,           OPTS_NONE,       "fpp") \
    X(PTLINED,          "ptlined",        BC_PURE,   0,           OPTS_NONE,       "fppp") \
    X(ROTATE,           "rotate",         BC_PURE,   0,           OPTS_NONE,       "ppfpp") \
    X(AREA,             "area",           BC_DERIV,  BF_VARYING,  OPTS_NONE,       "fp") \
    X(FACEFORWARD,      "faceforward",    BC_PURE,   0,           OPTS_NONE,       "vvv vvvv nnv nnvv") \
    X(REFLECT,          "reflect",        BC_PURE,   0,           OPTS_NONE,       "vvv") \
    X(REFRACT,          "refract",        BC_PURE,   0,           OPTS_NONE,       "vvvf") \
    X(FRESNEL,          "fresnel",        BC_PURE,   0,           OPTS_NONE,       "xvvff&f& xvvff&f&v&v&") \
    X(TRANSFORM,        "transform",      BC_PURE,   0,           OPTS_NONE,       \
      "psp pssp pmp psmp vsv vssv vmv vsmv nsn nssn nmn nsmn") \
    X(VTRANSFORM,       "vtransform",     BC_PURE,   0,           OPTS_NONE,       "vsv vssv vmv vsmv") \
    X(NTRANSFORM,       "ntransform",     BC_PURE,   0,           OPTS_NONE,       "nsn nssn nmn nsmn") \
    X(DEPTH,            "depth",          BC_PURE,   0,           OPTS_NONE,       "fp") \
    X(CALCULATENORMAL,  "calculatenormal", BC_DERIV, BF_VARYING,  OPTS_NONE,       "np") \
    /* color */ \
    X(COMP,             "comp",           BC_PURE,   0,           OPTS_NONE,       "fcf") \
    X(SETCOMP,          "setcomp",        BC_PURE,   0,           OPTS_NONE,       "xc&ff") \
    X(CTRANSFORM,       "ctransform",     BC_PURE,   0,           OPTS_NONE,       "csc cssc") \
    /* matrix */ \
    X(MCOMP,            "comp",           BC_PURE,   0,           OPTS_NONE,       "fmff") \
    X(SETMCOMP,         "setcomp",        BC_PURE,   0,           OPTS_NONE,       "xm&fff") \
    X(DETERMINANT,      "determinant",    BC_PURE,   0,           OPTS_NONE,       "fm") \
    X(TRANSLATE,        "translate",      BC_PURE,   0,           OPTS_NONE,       "mmv") \
    X(MROTATE,          "rotate",         BC_PURE,   0,           OPTS_NONE,       "mmfv") \
    X(SCALE,            "scale",          BC_PURE,   0,           OPTS_NONE,       "mmp") \
    /* string */ \
    X(PRINTF,           "printf",         BC_SIDE,   0,           OPTS_NONE,       "xs*") \
    X(FORMAT,           "format",         BC_PURE,   0,           OPTS_NONE,       "ss*") \
    X(CONCAT,           "concat",         BC_PURE,   0,           OPTS_NONE,       "ss.") \
    X(MATCH,            "match",          BC_PURE,   0,           OPTS_NONE,       "fss") \
    /* shading and lighting */ \
    X(AMBIENT,          "ambient",        BC_LIGHT,  BF_VARYING,  OPTS_NONE,       "c") \
    X(DIFFUSE,          "diffuse",        BC_LIGHT,  BF_VARYING,  OPTS_NONE,       "cn") \
    X(SPECULAR,         "specular",       BC_LIGHT,  BF_VARYING,  OPTS_NONE,       "cnvf") \
    X(SPECULARBRDF,     "specularbrdf",   BC_PURE,   0,           OPTS_NONE,       "cvnvf") \
    X(PHONG,            "phong",          BC_LIGHT,  BF_VARYING,  OPTS_NONE,       "cnvf") \
    X(TRACE,            "trace",          BC_RENDER, BF_VARYING,  OPTS_NONE,       "cpv") \
    /* ray-traced shading that PRMan added after 3.2 */ \
    X(OCCLUSION,        "occlusion",      BC_RENDER, BF_VARYING,  OPTS_RAYTRACE,   "fpnf~") \
    X(INDIRECTDIFFUSE,  "indirectdiffuse", BC_RENDER, BF_VARYING, OPTS_RAYTRACE,   "cpnf~") \
    X(TRANSMISSION,     "transmission",   BC_RENDER, BF_VARYING,  OPTS_RAYTRACE,   "cpp~") \
    /* renderer extensions (PRMan, BMRT) that public shaders call */ \
    X(RAYLEVEL,         "raylevel",       BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "f") \
    X(ISSHADOWRAY,      "isshadowray",    BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "f") \
    X(ISINDIRECTRAY,    "isindirectray",  BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "f") \
    X(RAYINFO,          "rayinfo",        BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(VISIBILITY,       "visibility",     BC_RENDER, BF_VARYING,  OPTS_NONE,       "cpp") \
    X(CAUSTIC,          "caustic",        BC_RENDER, BF_VARYING,  OPTS_NONE,       "cpn") \
    /* texture mapping */ \
    X(TEXTURE,          "texture",        BC_RENDER, BF_VARYING | BF_CHANNEL, OPTS_TEXTURE, \
      "fs~ fsff~ fsffffffff~ cs~ csff~ csffffffff~") \
    X(ENVIRONMENT,      "environment",    BC_RENDER, BF_VARYING | BF_CHANNEL, OPTS_TEXTURE, \
      "fsv~ fsvvvv~ csv~ csvvvv~") \
    X(SHADOW,           "shadow",         BC_RENDER, BF_VARYING | BF_CHANNEL, OPTS_SHADOW, \
      "fsp~ fspppp~ csp~ cspppp~") \
    X(TEXTUREINFO,      "textureinfo",    BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fss?&") \
    /* message passing and information */ \
    X(ATMOSPHERE,       "atmosphere",     BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(DISPLACEMENT,     "displacement",   BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(LIGHTSOURCE,      "lightsource",    BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(SURFACE,          "surface",        BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(INCIDENT,         "incident",       BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(OPPOSITE,         "opposite",       BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(ATTRIBUTE,        "attribute",      BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(OPTION,           "option",         BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(RENDERERINFO,     "rendererinfo",   BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "fs?&") \
    X(SHADERNAME,       "shadername",     BC_RENDER, BF_UNIFORM,  OPTS_NONE,       "s ss")

typedef enum BuiltinId {
#define X(id, name, cls, flags, opts, sigs) BI_##id,
    BUILTINS(X)
#undef X
    BI_COUNT
} BuiltinId;

typedef struct Builtin {
    BuiltinId id;
    const char *name;
    BuiltinClass cls;
    unsigned flags;
    BuiltinOptSet opts;
    const char *sigs;
} Builtin;

/* The table, indexed by BuiltinId. */
extern const Builtin builtin_table[BI_COUNT];

/* Returns the first row named name, or NULL if no builtin has that name. */
const Builtin *builtin_find(const char *name);
/* Returns the next row after b with the same name, or NULL. */
const Builtin *builtin_next(const Builtin *b);

/* ---- signatures ------------------------------------------------------------- */

#define BUILTIN_MAX_PARAMS 16
/* Calls with more arguments than this are rejected by the checker. */
#define BUILTIN_MAX_ARGS 64

/* A parameter of an overload. any: the '?' letter (type unused). */
typedef struct BuiltinParam {
    Type type;
    bool any;
    bool output;
} BuiltinParam;

/* One overload, decoded. tail is '\0', '.', '*' or '~'. */
typedef struct BuiltinSig {
    Type ret;
    int nparams;
    BuiltinParam param[BUILTIN_MAX_PARAMS];
    char tail;
} BuiltinSig;

/* Decodes the overload starting at *cursor (a position in a row's sigs)
   into sig and advances *cursor past it and its separator. Returns false
   at the end of the list or on a malformed code (then *cursor is left at
   the offending character, which is not '\0'). */
bool builtin_sig_next(const char **cursor, BuiltinSig *sig);

/* The cost of passing an argument of type arg (which could also take the
   types in mask alt, as for builtin_sig_cost) to parameter p, or -1. */
int builtin_param_cost(const BuiltinParam *p, Type arg, unsigned alt);

/* Matches argument types against an overload: the total conversion cost
   (see type_convert_cost), or -1 if the arguments do not fit. Options
   (tail ~) must come in pairs whose names are strings; their values are
   checked separately against the option list. alt[i], if not NULL, is a
   bitmask (1u << TypeBase) of other types argument i could take instead
   (an untyped triple literal, a call whose result type follows context):
   a parameter whose type is in it costs nothing. */
int builtin_sig_cost(const BuiltinSig *sig, const Type *args,
                     const unsigned *alt, int nargs);

/* The parameter that argument i binds to (the repeated last parameter for
   a '.' tail), or NULL for arguments past the parameters of a '*' or '~'
   tail. */
const BuiltinParam *builtin_sig_param(const BuiltinSig *sig, int i);

/* Decodes the overload a checked N_CALL of a builtin resolved to: the
   cheapest overload of call->builtin returning call->type for the
   argument types. The checker uses this very function to settle its own
   choice, so the two always agree. Returns false if none fits. */
bool builtin_call_sig(const Node *call, BuiltinSig *sig);

/* ---- options ------------------------------------------------------------------ */

/* The known option named name in set, or NULL. */
const BuiltinOption *builtin_option(BuiltinOptSet set, const char *name);

#endif /* RSLC_BUILTINS_H */

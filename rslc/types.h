/*
** types.h: RSL types, storage details and shader kinds.
**
** An RSL type is a base type (float, color, point, ...) plus an optional
** fixed array length. Whether a value is uniform or varying is a separate
** "detail", because the checker infers it per expression.
*/
#ifndef RSLC_TYPES_H
#define RSLC_TYPES_H

#include <stdbool.h>

/* Base types. ORDER TYPE: the names in types.c follow this order. */
typedef enum TypeBase {
    TY_ERROR,    /* the type of an expression that already failed to check */
    TY_VOID,
    TY_FLOAT,
    TY_COLOR,
    TY_POINT,
    TY_VECTOR,
    TY_NORMAL,
    TY_MATRIX,
    TY_STRING,
    TY_BOOL,     /* the result of a comparison or && || !: usable only as a
                    condition, never stored (added by the checker) */
    TY_NBASE
} TypeBase;

/* A type: base plus array length (0 = not an array, -1 = array of
   unspecified length, as allowed for function parameters). */
typedef struct Type {
    TypeBase base;
    int arraylen;
} Type;

/* Uniform/varying. DETAIL_DEFAULT is what the declaration left unsaid;
   the checker resolves it (parameters of shaders default to uniform,
   locals to varying). */
typedef enum Detail {
    DETAIL_DEFAULT,
    DETAIL_UNIFORM,
    DETAIL_VARYING
} Detail;

/* The five shader types, plus SHADER_FUNCTION for user functions. */
typedef enum ShaderKind {
    SHADER_SURFACE,
    SHADER_LIGHT,
    SHADER_DISPLACEMENT,
    SHADER_VOLUME,
    SHADER_IMAGER,
    SHADER_FUNCTION
} ShaderKind;

/* Returns the RSL spelling of a base type ("float", "color", ...). */
const char *type_base_name(TypeBase base);
/* A type's name, returned by value so that one expression may print
   several and compilations on other threads cannot overwrite it:
   printf("%s", type_name(t).s) (C11 keeps the array alive to the end
   of the full expression). */
typedef struct TypeName {
    char s[32];
} TypeName;

/* Formats a type as RSL spells it ("float", "color[3]", "float[]"). */
TypeName type_name(Type t);
/* Returns the RSL name of a shader kind ("surface", ...). */
const char *shader_kind_name(ShaderKind kind);

/* True for color, point, vector, normal: the three-component types. */
bool type_is_triple(TypeBase base);
/* True for point, vector, normal: the spatial triples. */
bool type_is_spatial(TypeBase base);
/* True when two types are identical (base and array length). */
bool type_equal(Type a, Type b);
/* True when a value of type from may be assigned to type to: identical,
   float to any triple or matrix, or between spatial triples. */
bool type_assignable(Type to, Type from);
/* The cost of converting a value of type from to type to, for ranking
   overloads: 0 identical, 1 between spatial triples, 2 float to a triple,
   3 float to matrix; -1 when there is no implicit conversion. */
int type_convert_cost(Type to, Type from);

static inline Type type_make(TypeBase base) { Type t = { base, 0 }; return t; }

#endif /* RSLC_TYPES_H */

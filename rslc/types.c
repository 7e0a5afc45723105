/*
** types.c: names of RSL types and shader kinds, and the implicit
** conversions between types that assignment and argument passing allow.
*/
#include <stdio.h>

#include "rslc/types.h"

/* ORDER TYPE */
static const char base_names[TY_NBASE][8] = {
    "<error>", "void", "float", "color", "point", "vector", "normal",
    "matrix", "string", "boolean"
};

const char *type_base_name(TypeBase base)
{
    return base < TY_NBASE ? base_names[base] : "?";
}

TypeName type_name(Type t)
{
    TypeName n;
    if (t.arraylen > 0)
        snprintf(n.s, sizeof n.s, "%s[%d]", type_base_name(t.base), t.arraylen);
    else if (t.arraylen < 0)
        snprintf(n.s, sizeof n.s, "%s[]", type_base_name(t.base));
    else
        snprintf(n.s, sizeof n.s, "%s", type_base_name(t.base));
    return n;
}

const char *shader_kind_name(ShaderKind kind)
{
    static const char names[][13] = {
        "surface", "light", "displacement", "volume", "imager", "function"
    };
    return kind <= SHADER_FUNCTION ? names[kind] : "?";
}

bool type_is_triple(TypeBase base)
{
    return base == TY_COLOR || type_is_spatial(base);
}

bool type_is_spatial(TypeBase base)
{
    return base == TY_POINT || base == TY_VECTOR || base == TY_NORMAL;
}

bool type_equal(Type a, Type b)
{
    return a.base == b.base && a.arraylen == b.arraylen;
}

int type_convert_cost(Type to, Type from)
{
    if (to.arraylen != 0 || from.arraylen != 0) {
        /* Arrays never convert element-wise; an unsized array parameter
           takes an array of any length. */
        if (to.base != from.base || from.arraylen == 0 || to.arraylen == 0)
            return -1;
        return to.arraylen < 0 || to.arraylen == from.arraylen ? 0 : -1;
    }
    if (to.base == from.base)
        return to.base == TY_VOID || to.base == TY_ERROR ? -1 : 0;
    if (type_is_spatial(to.base) && type_is_spatial(from.base))
        return 1;
    if (from.base == TY_FLOAT && type_is_triple(to.base))
        return 2;
    if (from.base == TY_FLOAT && to.base == TY_MATRIX)
        return 3;
    return -1;
}

bool type_assignable(Type to, Type from)
{
    return type_convert_cost(to, from) >= 0;
}

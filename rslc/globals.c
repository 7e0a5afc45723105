/*
** globals.c: the predefined shader variables of each shader type (RISpec
** 3.2 Tables 12.1-12.5): type, uniform/varying, who may read and write.
**
** Beyond the tables, surface shaders may also write P and N, as bump
** mapping shaders do, and light shaders may set L inside illuminate or
** solar (a light with parallel rays), as compilers accept. PRMan's light
** shaders also see the surface being lit: Ps its point, Ns its normal and
** I its incident ray (lights that shape themselves by the viewer, such
** as reflection cards, read them). An imager's alpha is varying: imagers
** run over many pixels at once, each with its own coverage (RISpec's
** table lists it as uniform, from one-pixel imagers).
*/
#include <string.h>

#include "rslc/check.h"

#define S SHADER_BIT(SHADER_SURFACE)
#define L SHADER_BIT(SHADER_LIGHT)
#define D SHADER_BIT(SHADER_DISPLACEMENT)
#define V SHADER_BIT(SHADER_VOLUME)
#define I SHADER_BIT(SHADER_IMAGER)
#define U DETAIL_UNIFORM
#define VAR DETAIL_VARYING

static const GlobalVar globals[] = {
    /* name      type       detail read           write      region */
    { "P",       TY_POINT,  VAR, S | L | D | V | I, S | D,   0 },
    { "dPdu",    TY_VECTOR, VAR, S | L | D,         0,       0 },
    { "dPdv",    TY_VECTOR, VAR, S | L | D,         0,       0 },
    { "dPdtime", TY_VECTOR, VAR, S | L | D,         0,       0 },
    { "N",       TY_NORMAL, VAR, S | L | D,         S | D,   0 },
    { "Ng",      TY_NORMAL, VAR, S | L | D,         0,       0 },
    { "u",       TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "v",       TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "du",      TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "dv",      TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "s",       TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "t",       TY_FLOAT,  VAR, S | L | D,         0,       0 },
    { "Cs",      TY_COLOR,  VAR, S,                 0,       0 },
    { "Os",      TY_COLOR,  VAR, S,                 0,       0 },
    { "Ci",      TY_COLOR,  VAR, S | V | I,         S | V | I, 0 },
    { "Oi",      TY_COLOR,  VAR, S | V | I,         S | V | I, 0 },
    { "I",       TY_VECTOR, VAR, S | L | D | V,     0,       0 },
    { "E",       TY_POINT,  U,   S | L | D | V,     0,       0 },
    { "L",       TY_VECTOR, VAR, S | L | V,         L,       S | L | V },
    { "Cl",      TY_COLOR,  VAR, S | L | V,         L,       S | V },
    { "Ol",      TY_COLOR,  VAR, S | L | V,         L,       S | V },
    { "Ps",      TY_POINT,  VAR, L,                 0,       0 },
    { "Ns",      TY_NORMAL, VAR, L,                 0,       0 },
    { "alpha",   TY_FLOAT,  VAR, I,                 I,       0 },
    { "ncomps",  TY_FLOAT,  U,   S | L | D | V | I, 0,       0 },
    { "time",    TY_FLOAT,  U,   S | L | D | V | I, 0,       0 },
    { "dtime",   TY_FLOAT,  U,   S | L | D | V | I, 0,       0 },
};

const GlobalVar *global_lookup(const char *name)
{
    for (int i = 0; i < global_count(); i++)
        if (strcmp(globals[i].name, name) == 0)
            return &globals[i];
    return NULL;
}

const GlobalVar *global_at(int i)
{
    return &globals[i];
}

int global_count(void)
{
    return (int)(sizeof globals / sizeof globals[0]);
}

/*
** basis.h: evaluating cubic bases (basis.c).
*/
#ifndef RTCORE_RIB_BASIS_H
#define RTCORE_RIB_BASIS_H

#include "render/rib/internal.h"

/* The four weights of basis b at t, and their derivatives. */
void rib_basis_eval(const RibBasis *b, double t, double w[4], double dw[4]);

#endif /* RTCORE_RIB_BASIS_H */

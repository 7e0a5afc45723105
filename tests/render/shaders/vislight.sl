/* vislight: pointlight shadowed by visibility() rather than
   transmission(): a surface between the point and the light hides it
   whatever its opacity. */
light vislight(float intensity = 1; point from = point "shader" (0, 0, 0);)
{
    illuminate(from) {
        Cl = intensity / (L . L) * visibility(Ps, from);
    }
}

/* tiltlight: a light that reshapes its direction inside the light
   statement (PRMan lets a light shader assign L there): it shines
   along `dir` whatever the statement says. With `local`, an illuminate
   at `from`; else a solar. */
light tiltlight(float intensity = 1; float local = 0;
                point from = point "shader" (0, 0, 0);
                vector dir = vector "shader" (0, 0, 1))
{
    if (local != 0) {
        illuminate(from) {
            L = dir * length(Ps - from);
            Cl = intensity;
        }
    } else {
        solar(vector "shader" (0, 0, 1), 0) {
            L = dir;
            Cl = intensity;
        }
    }
}

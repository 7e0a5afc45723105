/* Message passing test: a light from the eye whose tag is twice its
   intensity plus the surface's Kd, read through surface(). */
light msglight(float intensity = 1; output varying float tag = 0)
{
    float kd = 0;
    surface("Kd", kd);
    solar(vector(0, 0, 1), 0) {
        Cl = intensity;
        tag = 2 * intensity + kd;
    }
}

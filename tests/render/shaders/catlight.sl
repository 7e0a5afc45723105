/* Light category test: a light from the eye in category "key" unless
   the instance gives __category. */
light catlight(float intensity = 1; string __category = "key")
{
    solar(vector(0, 0, 1), 0)
        Cl = intensity;
}

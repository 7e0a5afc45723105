/* envlight: light from every direction, the radiance along each given by
   the lat-long map "mapname" (in the light's shader space; none: a
   constant environment) times intensity * lightcolor. The path tracer
   samples it as an environment light (render/path_env.h). This body is
   what the classic integrator, which samples no light directions, sees:
   an ambient light of the map's mean over its texels (a blur of the
   whole map), what a matte surface open to the whole sky would reflect
   of a sky that varied little. */
light envlight(float intensity = 1; color lightcolor = 1; string mapname = "";)
{
    Cl = intensity * lightcolor;
    if (mapname != "")
        Cl *= color environment(mapname, vector (1, 0, 0), "blur", 1);
}

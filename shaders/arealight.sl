/* arealight: light from the surface of an AreaLightSource's geometry,
   each point radiating intensity * lightcolor over the side its normal
   faces, falling off with the cosine at the light and distance squared.
   The renderer samples points on the surface and averages their light
   (BMRT's convention), so intensity is the whole light's, as a
   pointlight's is, whatever the surface's size.
   shadowname "raytrace" traces shadow rays to each point; samples is
   how many points the renderer takes for each shading point. */
light arealight(float intensity = 1; color lightcolor = 1; string shadowname = "";
                float samples = 16;)
{
    illuminate(P, N, PI / 2) {
        Cl = intensity * lightcolor * ((L . normalize(N)) / length(L)) / (L . L);
        if (shadowname == "raytrace")
            Cl *= transmission(Ps, P);
    }
}

surface test(string cloud = "points.ptc";)
{
    bake3d(cloud, "", P, N, "Ci", Ci);
    Ci = Cs;
}

/* EXPECT
106_unsupported_renderer_function.sl:3:5: error: unknown function 'bake3d': point cloud baking (PRMan) is not supported by this renderer
    bake3d(cloud, "", P, N, "Ci", Ci);
    ^
*/

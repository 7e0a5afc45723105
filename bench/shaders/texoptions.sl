/* texoptions: texture, environment and shadow lookups with the options
   RISpec's Table 15.1 gives them, and filterstep with its own, on the
   test host's maps (test:st, test:dir, test:shadow): what the per-point
   reading of option names costs (bench_vm). */
surface texoptions(float blur = 0.01, width = 2, samples = 4;
                   string filter = "box";)
{
    color c = color texture("test:st", s, t, "blur", blur, "swidth", width,
                            "twidth", width, "samples", samples, "filter", filter,
                            "fill", 1);
    color e = color environment("test:dir", vector N, "sblur", blur, "tblur", blur,
                                "width", width, "samples", samples);
    float sh = shadow("test:shadow", P, "bias", 0.01, "samples", samples,
                      "blur", blur);
    float f = filterstep(0.5, s, "width", width, "filter", filter);
    Ci = (c + e) * sh * f;
    Oi = 1;
}

class tinted(float Kd = 0.5; color tint = 1;)
{
    varying color base = 0;
    public void surface(output color Ci, Oi) {
        Ci = Kd * tint * diffuse(normalize(N));
        Oi = Os;
    }
}

surface plain() { float class = 1; Ci = class; }

/* EXPECT
90_class_shader_object.sl:1:1: error: RSL 2.0 shader objects ('class') are not supported: write the shader as a surface, displacement, light, volume or imager definition
class tinted(float Kd = 0.5; color tint = 1;)
^
*/

/*
** check_state.c: each request's effect on the graphics state: transform
** order, attribute and transform blocks, the camera, options, declarations,
** shaders and lights, objects and instances, frames, archives.
*/
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/rib/check_rib.h"

/* p transformed by m, checked against want. */
static void assert_maps(const RibMatrix *m, double x, double y, double z,
                        double wx, double wy, double wz)
{
    const double p[3] = {x, y, z};
    double q[3];
    rib_transform_point(m, p, q);
    ck_assert_near(q[0], wx, 1e-9);
    ck_assert_near(q[1], wy, 1e-9);
    ck_assert_near(q[2], wz, 1e-9);
}

/* The transform of the first mesh after the requests in body. */
static RibScene *world(const char *body, RibDiag *d)
{
    char text[4096];
    snprintf(text, sizeof text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_ptr_nonnull(s);
    ck_assert_msg(d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "");
    return s;
}

START_TEST(test_translate_then_rotate)
{
    /* The later request acts first: rotate about z, then translate. */
    RibDiag d;
    RibScene *s = world("Translate 1 0 0\nRotate 90 0 0 1\nDisk 0 1 360", &d);
    const RibMatrix *m = &mesh_at(s, 0)->object_to_world;
    assert_maps(m, 1, 0, 0, 1, 1, 0);
    assert_maps(m, 0, 1, 0, 0, 0, 0);
    assert_maps(m, 0, 0, 1, 1, 0, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_scale_then_translate)
{
    RibDiag d;
    RibScene *s = world("Scale 2 3 4\nTranslate 1 1 1\nDisk 0 1 360", &d);
    assert_maps(&mesh_at(s, 0)->object_to_world, 0, 0, 0, 2, 3, 4);
    assert_maps(&mesh_at(s, 0)->object_to_world, 1, 0, 0, 4, 3, 4);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_rotate_axis_and_skew)
{
    RibDiag d;
    RibScene *s = world("Rotate 120 1 1 1\nDisk 0 1 360\n"
                        "Identity\nSkew 45 0 1 0 1 0 0\nDisk 0 1 360", &d);
    /* 120 degrees about (1,1,1) cycles the axes */
    assert_maps(&mesh_at(s, 0)->object_to_world, 1, 0, 0, 0, 1, 0);
    assert_maps(&mesh_at(s, 0)->object_to_world, 0, 0, 1, 1, 0, 0);
    /* skewing y towards x until they are 45 degrees apart */
    assert_maps(&mesh_at(s, 1)->object_to_world, 0, 1, 0, 1, 1, 0);
    assert_maps(&mesh_at(s, 1)->object_to_world, 1, 0, 0, 1, 0, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_concat_transform_identity)
{
    RibDiag d;
    RibScene *s = world(
        "Translate 5 0 0\n"
        "ConcatTransform [2 0 0 0  0 2 0 0  0 0 2 0  0 0 1 1]\n"
        "Disk 0 1 360\n"
        "Transform [1 0 0 0  0 1 0 0  0 0 1 0  0 7 0 1]\nDisk 0 1 360\n"
        "Identity\nDisk 0 1 360",
        &d);
    /* row vectors: (1,0,0) scales to 2, moves +1 in z, then +5 in x */
    assert_maps(&mesh_at(s, 0)->object_to_world, 1, 0, 0, 7, 0, 1);
    assert_maps(&mesh_at(s, 1)->object_to_world, 0, 0, 0, 0, 7, 0);
    assert_maps(&mesh_at(s, 2)->object_to_world, 1, 2, 3, 1, 2, 3);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_attribute_and_transform_blocks)
{
    RibDiag d;
    RibScene *s = world("Color 1 0 0\n"
                        "AttributeBegin\n Color 0 1 0\n Translate 1 0 0\n"
                        " Disk 0 1 360\nAttributeEnd\n"
                        "Disk 0 1 360\n"
                        "TransformBegin\n Translate 0 2 0\n Color 0 0 1\n"
                        "TransformEnd\nDisk 0 1 360",
                        &d);
    const RibMesh *a = mesh_at(s, 0), *b = mesh_at(s, 1), *c = mesh_at(s, 2);
    ck_assert_near(a->attrs->color[1], 1, 0);
    assert_maps(&a->object_to_world, 0, 0, 0, 1, 0, 0);
    ck_assert_near(b->attrs->color[0], 1, 0);
    ck_assert_near(b->attrs->color[1], 0, 0);
    assert_maps(&b->object_to_world, 0, 0, 0, 0, 0, 0);
    /* TransformEnd restores only the transform */
    ck_assert_near(c->attrs->color[2], 1, 0);
    assert_maps(&c->object_to_world, 0, 0, 0, 0, 0, 0);
    /* meshes made under the same attributes share one record */
    ck_assert_ptr_ne(a->attrs, b->attrs);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_camera_and_coordinate_systems)
{
    RibDiag d;
    RibScene *s = load_text("Projection \"perspective\" \"fov\" 30\n"
                            "Translate 0 0 5\nRotate 90 0 1 0\n"
                            "CoordinateSystem \"precam\"\n"
                            "WorldBegin\nTranslate 1 2 3\n"
                            "CoordinateSystem \"lamp\"\nIdentity\n"
                            "CoordSysTransform \"lamp\"\nDisk 0 1 360\n"
                            "CoordSysTransform \"camera\"\nDisk 0 1 360\n"
                            "WorldEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 0);
    const RibFrame *f = only_frame(s);
    ck_assert_int_eq(f->options.projection, RIB_PROJ_PERSPECTIVE);
    ck_assert_near(f->options.fov, 30, 0);
    /* world (0,0,0) is 5 in front of the camera; world +x turns to -z */
    assert_maps(&f->world_to_camera, 0, 0, 0, 0, 0, 5);
    assert_maps(&f->world_to_camera, 1, 0, 0, 0, 0, 4);
    assert_maps(&mesh_at(s, 0)->object_to_world, 0, 0, 0, 1, 2, 3);
    /* CoordSysTransform "camera" puts the disk at the camera: world +x 5 */
    RibMatrix cam = mesh_at(s, 1)->object_to_world;
    assert_maps(&cam, 0, 0, 0, 5, 0, 0);
    RibMatrix back = rib_matrix_mul(&cam, &f->world_to_camera);
    assert_maps(&back, 0.5, 0.25, 2, 0.5, 0.25, 2);
    int found = 0;
    for (size_t i = 0; i < f->ncoordsys; i++) {
        if (strcmp(f->coordsys[i].name, "lamp") == 0) {
            assert_maps(&f->coordsys[i].to_world, 0, 0, 0, 1, 2, 3);
            found++;
        }
        if (strcmp(f->coordsys[i].name, "precam") == 0) {
            /* defined just before WorldBegin: it is world space */
            assert_maps(&f->coordsys[i].to_world, 1, 2, 3, 1, 2, 3);
            found++;
        }
    }
    ck_assert_int_eq(found, 2);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_options)
{
    RibDiag d;
    RibScene *s = load_text(
        "Format 800 600 2\nFrameAspectRatio 1.5\n"
        "ScreenWindow -2 2 -1 1\nCropWindow 0.25 0.75 0 0.5\n"
        "Projection \"orthographic\"\nClipping 0.5 100\nPixelSamples 4 3\n"
        "PixelFilter \"catmull-rom\" 3 4\nExposure 1.5 2.2\n"
        "Quantize \"rgba\" 65535 0 65535 0\n"
        "Display \"out.tif\" \"tiff\" \"rgba\" \"quantize\" [0 255 0 255]\n"
        "Display \"+depth.exr\" \"exr\" \"z\"\nHider \"raytrace\"\n"
        "Option \"trace\" \"maxdepth\" [7]\n"
        "WorldBegin\nWorldEnd\n",
        &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_int_eq(d.nwarnings, 0);
    const RibOptions *o = &only_frame(s)->options;
    ck_assert_int_eq(o->xres, 800);
    ck_assert_int_eq(o->yres, 600);
    ck_assert_near(o->pixel_aspect, 2, 0);
    ck_assert_near(rib_frame_aspect(o), 1.5, 0);
    ck_assert_near(o->screen[0], -2, 0);
    ck_assert_near(o->crop[1], 0.75, 0);
    ck_assert_int_eq(o->projection, RIB_PROJ_ORTHOGRAPHIC);
    ck_assert_near(o->near_clip, 0.5, 0);
    ck_assert_near(o->far_clip, 100, 0);
    ck_assert_near(o->pixel_samples[0], 4, 0);
    ck_assert_int_eq(o->filter, RIB_FILTER_CATMULLROM);
    ck_assert_near(o->filter_width[1], 4, 0);
    ck_assert_near(o->exposure_gamma, 2.2, 1e-6);
    ck_assert_near(o->quantize_rgba.one, 65535, 0);
    ck_assert_uint_eq(o->ndisplays, 2);
    ck_assert_str_eq(o->displays[0].name, "out.tif");
    ck_assert_int_eq(o->displays[0].type, RIB_DISPLAY_TIFF);
    ck_assert_str_eq(o->displays[0].mode, "rgba");
    ck_assert_uint_eq(o->displays[0].nparams, 1);
    ck_assert_str_eq(o->displays[1].name, "depth.exr");
    ck_assert_int_eq(o->displays[1].type, RIB_DISPLAY_EXR);
    ck_assert_str_eq(o->hider, "raytrace");
    ck_assert_int_eq(o->trace_maxdepth, 7);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_default_screen_window)
{
    RibDiag d;
    RibScene *s = load_text("Format 400 800 1\nWorldBegin\nWorldEnd\n", &d);
    const RibOptions *o = &only_frame(s)->options;
    float w[4];
    rib_screen_window(o, w);
    /* aspect 0.5 < 1: x spans [-1, 1], y [-1/a, 1/a] */
    ck_assert_near(w[0], -1, 0);
    ck_assert_near(w[3], 2, 0);
    ck_assert_int_eq(o->filter, RIB_FILTER_GAUSSIAN);
    ck_assert_near(o->pixel_samples[0], 2, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_declarations)
{
    RibDiag d;
    RibScene *s = world(
        "Declare \"tint\" \"uniform color\"\n"
        "Declare \"weights\" \"float[3]\"\n"
        "Surface \"custom\" \"tint\" [1 0.5 0] \"weights\" [1 2 3 4 5 6]\n"
        "  \"constant string map\" \"brick.tx\" \"varying float[2] uv2\" [7 8]\n"
        "  \"Kd\" 0.25 \"matrix xf\" [1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1]\n"
        "Disk 0 1 360",
        &d);
    const RibShader *sh = mesh_at(s, 0)->attrs->surface;
    ck_assert_ptr_nonnull(sh);
    ck_assert_str_eq(sh->name, "custom");
    ck_assert_uint_eq(sh->nparams, 6);
    const RibParam *p = rib_param_find(sh->params, sh->nparams, "tint");
    ck_assert_int_eq(p->type, RIB_TYPE_COLOR);
    ck_assert_int_eq(p->cls, RIB_CLASS_UNIFORM);
    ck_assert_near(p->f[1], 0.5, 0);
    p = rib_param_find(sh->params, sh->nparams, "weights");
    ck_assert_int_eq(p->arraylen, 3);
    ck_assert_int_eq(p->ncomp, 3);
    ck_assert_uint_eq(p->count, 2);
    ck_assert_near(p->f[5], 6, 0);
    p = rib_param_find(sh->params, sh->nparams, "map");
    ck_assert_int_eq(p->type, RIB_TYPE_STRING);
    ck_assert_int_eq(p->cls, RIB_CLASS_CONSTANT);
    ck_assert_str_eq(p->s[0], "brick.tx");
    p = rib_param_find(sh->params, sh->nparams, "uv2");
    ck_assert_int_eq(p->cls, RIB_CLASS_VARYING);
    ck_assert_int_eq(p->ncomp, 2);
    p = rib_param_find(sh->params, sh->nparams, "Kd");  /* predeclared */
    ck_assert_int_eq(p->type, RIB_TYPE_FLOAT);
    ck_assert_near(p->f[0], 0.25, 0);
    p = rib_param_find(sh->params, sh->nparams, "xf");
    ck_assert_int_eq(p->ncomp, 16);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* An undeclared parameter of a primitive is an error and the request
   keeps the others; a shader's is kept untyped, for the renderer to type
   from the shader's own parameter. */
START_TEST(test_undeclared_parameter_skipped)
{
    RibDiag d;
    RibScene *s = load_text("WorldBegin\nSurface \"plastic\" \"bogus\" 1 "
                            "\"Ks\" 0.5 \"name\" \"x\"\nDisk 0 1 360 \"bogus\" 2\nWorldEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 1);
    ck_assert_str_eq(d.messages[0], "test.rib:3:14: error: Disk: "
                                    "undeclared parameter \"bogus\" skipped");
    const RibShader *sh = mesh_at(s, 0)->attrs->surface;
    ck_assert_uint_eq(sh->nparams, 3);
    ck_assert_str_eq(sh->params[0].name, "bogus");
    ck_assert(sh->params[0].untyped);
    ck_assert_int_eq(sh->params[0].type, RIB_TYPE_FLOAT);
    ck_assert_float_eq(sh->params[0].f[0], 1);
    ck_assert(!sh->params[1].untyped);
    ck_assert_str_eq(sh->params[2].name, "name");
    ck_assert(sh->params[2].untyped);
    ck_assert_int_eq(sh->params[2].type, RIB_TYPE_STRING);
    ck_assert_str_eq(sh->params[2].s[0], "x");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_shaders_keep_transform)
{
    RibDiag d;
    RibScene *s = load_text(
        "Imager \"background\" \"background\" [0 0 1]\n"
        "Surface \"pre\"\nTranslate 0 0 10\nWorldBegin\nTranslate 1 0 0\n"
        "Displacement \"bumpy\" \"amplitude\" 2\nAtmosphere \"fog\"\n"
        "Interior \"glass\"\nExterior \"air\"\nDisk 0 1 360\nWorldEnd\n",
        &d);
    ck_assert_int_eq(d.nerrors, 0);
    const RibFrame *f = only_frame(s);
    const RibAttributes *a = mesh_at(s, 0)->attrs;
    ck_assert_str_eq(f->options.imager->name, "background");
    ck_assert_str_eq(a->displacement->name, "bumpy");
    assert_maps(&a->displacement->to_world, 0, 0, 0, 1, 0, 0);
    ck_assert_near(a->displacement->params[0].f[0], 2, 0);
    ck_assert_str_eq(a->atmosphere->name, "fog");
    ck_assert_str_eq(a->interior->name, "glass");
    ck_assert_str_eq(a->exterior->name, "air");
    /* a surface from before WorldBegin sits at the camera, in world space */
    ck_assert_str_eq(a->surface->name, "pre");
    assert_maps(&a->surface->to_world, 0, 0, 0, 0, 0, -10);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_lights_and_illuminate)
{
    RibDiag d;
    RibScene *s = world(
        "LightSource \"pointlight\" 1 \"from\" [0 5 0] \"intensity\" 3\n"
        "LightSource \"distantlight\" \"sun\"\n"
        "AttributeBegin\n Illuminate 1 0\n Disk 0 1 360\nAttributeEnd\n"
        "Disk 0 1 360\n"
        "AttributeBegin\n Translate 0 3 0\n"
        " AreaLightSource \"arealight\" 7 \"intensity\" 5\n"
        " Disk 0 1 360\nAttributeEnd\n",
        &d);
    const RibFrame *f = only_frame(s);
    ck_assert_uint_eq(f->nlights, 3);
    ck_assert_str_eq(f->lights[0]->handle, "1");
    ck_assert_str_eq(f->lights[1]->handle, "sun");
    ck_assert_near(f->lights[0]->shader.params[0].f[1], 5, 0);
    const RibAttributes *off = mesh_at(s, 0)->attrs, *on = mesh_at(s, 1)->attrs;
    ck_assert_uint_eq(off->nlights, 1);
    ck_assert_str_eq(off->lights[0]->handle, "sun");
    ck_assert_uint_eq(on->nlights, 2);
    const RibMesh *emitter = mesh_at(s, 2);
    ck_assert_ptr_eq(emitter->attrs->area_light, f->lights[2]);
    ck_assert_int_eq(f->lights[2]->area, 1);
    assert_maps(&f->lights[2]->shader.to_world, 0, 0, 0, 0, 3, 0);
    ck_assert_ptr_null(on->area_light);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_orientation_and_sides)
{
    RibDiag d;
    RibScene *s = world("Sides 1\nDisk 0 1 360\nOrientation \"rh\"\n"
                        "Disk 0 1 360\nReverseOrientation\nDisk 0 1 360\n"
                        "Scale -1 1 1\nOrientation \"outside\"\nDisk 0 1 360\n"
                        "Orientation \"rh\"\nDisk 0 1 360\nOrientation \"lh\"\n"
                        "Disk 0 1 360\n",
                        &d);
    const RibAttributes *a = mesh_at(s, 0)->attrs;
    ck_assert_int_eq(a->sides, 1);
    ck_assert_int_eq(a->orientation, RIB_ORIENT_LH);
    ck_assert_int_eq(mesh_at(s, 1)->attrs->orientation, RIB_ORIENT_RH);
    ck_assert_int_eq(mesh_at(s, 2)->attrs->orientation, RIB_ORIENT_LH);
    /* The orientation flips with the coordinate system (RISpec 3.2,
       RiOrientation), so as it reads in camera space "outside" is
       left-handed in a mirrored space too, and so is "rh" there; "lh"
       there is right-handed, inside out. */
    const RibMesh *m = mesh_at(s, 3);
    ck_assert_int_eq(m->attrs->orientation, RIB_ORIENT_LH);
    ck_assert_int_eq(mesh_at(s, 4)->attrs->orientation, RIB_ORIENT_LH);
    ck_assert_int_eq(mesh_at(s, 5)->attrs->orientation, RIB_ORIENT_RH);
    /* Its camera-space normal is the opposite of its object-space one
       under the mirror, so it is flipped there, and would not be in an
       unmirrored space. */
    RibMatrix id;
    memset(&id, 0, sizeof id);
    id.m[0] = id.m[5] = id.m[10] = id.m[15] = 1;
    ck_assert_int_eq(rib_normals_flipped(m->attrs->orientation,
                                         &m->object_to_world), 1);
    ck_assert_int_eq(rib_normals_flipped(m->attrs->orientation, &id), 0);
    ck_assert_int_eq(rib_normals_flipped(a->orientation, &id), 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_option_and_attribute_values)
{
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.default_archive_path = "/default/archives";
    RibDiag d;
    RibScene *s = load_text_opt(
        "Option \"searchpath\" \"archive\" [\"/a:@\"]\n"
        "Option \"searchpath\" \"archive\" [\"/b:&\"] \"shader\" [\"/s\"]\n"
        "Option \"user\" \"float myopt\" [3]\n"
        "WorldBegin\nAttribute \"identifier\" \"name\" [\"ball\"]\n"
        "Attribute \"trace\" \"maxdiffusedepth\" [2] \"bias\" 0.01\n"
        "Attribute \"visibility\" \"bogus\" [1]\nDisk 0 1 360\nWorldEnd\n",
        &opt, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_diag(&d, "warning: Attribute: unknown \"visibility\" "
                       "\"bogus\" ignored");
    const RibOptions *o = &only_frame(s)->options;
    ck_assert_str_eq(o->archive_path, "/b:/a:/default/archives");
    ck_assert_str_eq(o->shader_path, "/s");
    const RibParam *p = rib_param_find(o->options, o->noptions, "user:myopt");
    ck_assert_ptr_nonnull(p);
    ck_assert_near(p->f[0], 3, 0);
    const RibAttributes *a = mesh_at(s, 0)->attrs;
    ck_assert_uint_eq(a->nattributes, 3);
    p = rib_param_find(a->attributes, a->nattributes, "identifier:name");
    ck_assert_str_eq(p->s[0], "ball");
    p = rib_param_find(a->attributes, a->nattributes, "trace:bias");
    ck_assert_near(p->f[0], 0.01, 1e-8);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_objects_and_instances)
{
    RibDiag d;
    RibScene *s = world("ObjectBegin 1\n Translate 0 0 1\n Disk 0 1 360\n"
                        " Sphere 1 -1 1 360\nObjectEnd\n"
                        "ObjectBegin \"cone\"\n Cone 1 1 360\nObjectEnd\n"
                        "Color 0 1 0\nTranslate 5 0 0\nObjectInstance 1\n"
                        "Translate 0 5 0\nObjectInstance 1\n"
                        "ObjectInstance \"cone\"\n",
                        &d);
    const RibFrame *f = only_frame(s);
    ck_assert_uint_eq(f->nmeshes, 0);
    ck_assert_uint_eq(s->nobjects, 2);
    ck_assert_uint_eq(f->ninstances, 3);
    const RibObject *o = f->instances[0].object;
    ck_assert_str_eq(o->handle, "1");
    ck_assert_uint_eq(o->nmeshes, 2);
    /* object meshes are relative to the instance */
    assert_maps(&o->meshes[0].object_to_world, 0, 0, 0, 0, 0, 1);
    assert_maps(&f->instances[0].object_to_world, 0, 0, 0, 5, 0, 0);
    assert_maps(&f->instances[1].object_to_world, 0, 0, 0, 5, 5, 0);
    ck_assert_ptr_eq(f->instances[1].object, o);
    ck_assert_near(f->instances[0].attrs->color[1], 1, 0);
    ck_assert_str_eq(f->instances[2].object->handle, "cone");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* An instance inside an object definition is copied in (rtcore has one
   level of instancing). */
START_TEST(test_nested_instance_flattened)
{
    RibDiag d;
    RibScene *s = world("ObjectBegin 1\n Translate 0 0 1\n Disk 0 1 360\n"
                        "ObjectEnd\nObjectBegin 2\n Translate 3 0 0\n"
                        " ObjectInstance 1\nObjectEnd\nObjectInstance 2\n",
                        &d);
    const RibFrame *f = only_frame(s);
    const RibObject *o = f->instances[0].object;
    ck_assert_str_eq(o->handle, "2");
    ck_assert_uint_eq(o->nmeshes, 1);
    assert_maps(&o->meshes[0].object_to_world, 0, 0, 0, 3, 0, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_frames)
{
    RibDiag d;
    RibScene *s = load_text("Format 100 100 1\n"
                            "FrameBegin 1\nFormat 200 100 1\nWorldBegin\n"
                            "Disk 0 1 360\nWorldEnd\nFrameEnd\n"
                            "FrameBegin 2\nWorldBegin\nSphere 1 -1 1 360\n"
                            "Disk 0 1 360\nWorldEnd\nFrameEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_uint_eq(s->nframes, 2);
    ck_assert_int_eq(s->frames[0].number, 1);
    ck_assert_int_eq(s->frames[0].options.xres, 200);
    /* FrameEnd restored the options */
    ck_assert_int_eq(s->frames[1].options.xres, 100);
    ck_assert_int_eq(s->frames[1].number, 2);
    ck_assert_uint_eq(s->frames[1].nmeshes, 2);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_read_archive)
{
    const char *dir = temp_dir();
    char sub[512], lib[512], text[2048];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(lib, sizeof lib, "%s/lib", dir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    ck_assert_int_eq(mkdir(lib, 0700), 0);
    /* relative to the file that reads it: sub/part.rib reads near.rib */
    write_file(sub, "near.rib", "Disk 0 2 360\n");
    write_file(sub, "part.rib", "ReadArchive \"near.rib\"\nColor 1 0 0\n");
    /* found along the archive searchpath */
    write_file(lib, "far.rib", "Cylinder 1 0 1 360\n");
    snprintf(text, sizeof text,
             "Option \"searchpath\" \"archive\" [\"/nonexistent:%s\"]\n"
             "WorldBegin\nReadArchive \"sub/part.rib\"\n"
             "ReadArchive \"far.rib\"\nWorldEnd\n", lib);
    const char *main_path = write_file(dir, "main.rib", text);
    RibDiag d;
    rib_diag_init(&d, NULL);
    RibScene *s = rib_load(main_path, &d);
    ck_assert_int_eq(d.nerrors, 0);
    const RibFrame *f = only_frame(s);
    ck_assert_uint_eq(f->nmeshes, 2);
    ck_assert_str_eq(f->meshes[0].prim, "Disk");
    ck_assert_str_eq(f->meshes[1].prim, "Cylinder");
    /* the archive's Color stays in force: archives share the state */
    ck_assert_near(f->meshes[1].attrs->color[1], 0, 0);
    ck_assert_ptr_nonnull(strstr(f->meshes[0].loc.file, "sub/near.rib"));
    ck_assert_int_eq(f->meshes[0].loc.line, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_delayed_read_archive)
{
    const char *dir = temp_dir();
    write_file(dir, "piece.rib", "Sphere 1 -1 1 360\n");
    const char *path = write_file(
        dir, "main.rib",
        "WorldBegin\nProcedural \"DelayedReadArchive\" [\"piece.rib\"] "
        "[-1 1 -1 1 -1 1]\nWorldEnd\n");
    RibDiag d;
    rib_diag_init(&d, NULL);
    RibScene *s = rib_load(path, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_str_eq(mesh_at(s, 0)->prim, "Sphere");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_motion_uses_first_sample)
{
    RibDiag d;
    RibScene *s = load_text("WorldBegin\nMotionBegin [0 1]\nTranslate 1 0 0\n"
                            "Translate 9 0 0\nMotionEnd\nDisk 0 1 360\n"
                            "WorldEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_diag(&d, "test.rib:2:1: warning: motion blur is not supported");
    assert_maps(&mesh_at(s, 0)->object_to_world, 0, 0, 0, 1, 0, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Requests a renderer may ignore pass silently. */
START_TEST(test_ignored_requests_are_silent)
{
    RibDiag d;
    RibScene *s = load_text(
        "version 3.04\nShadingRate 1\nShutter 0 1\nPixelVariance 0.01\n"
        "WorldBegin\nShadingInterpolation \"smooth\"\n"
        "GeometricApproximation \"motionfactor\" 1\nMatte 0\n"
        "Bound [-1 1 -1 1 -1 1]\nDetailRange [0 0 1 1]\nDisk 0 1 360\n"
        "WorldEnd\n",
        &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_int_eq(d.nwarnings, 0);
    ck_assert_uint_eq(only_frame(s)->nmeshes, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *state_suite(void)
{
    Suite *s = suite_create("state");
    TCase *tc = tcase_create("state");
    tcase_add_checked_fixture(tc, NULL, remove_temp_dirs);
    tcase_add_test(tc, test_translate_then_rotate);
    tcase_add_test(tc, test_scale_then_translate);
    tcase_add_test(tc, test_rotate_axis_and_skew);
    tcase_add_test(tc, test_concat_transform_identity);
    tcase_add_test(tc, test_attribute_and_transform_blocks);
    tcase_add_test(tc, test_camera_and_coordinate_systems);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_default_screen_window);
    tcase_add_test(tc, test_declarations);
    tcase_add_test(tc, test_undeclared_parameter_skipped);
    tcase_add_test(tc, test_shaders_keep_transform);
    tcase_add_test(tc, test_lights_and_illuminate);
    tcase_add_test(tc, test_orientation_and_sides);
    tcase_add_test(tc, test_option_and_attribute_values);
    tcase_add_test(tc, test_objects_and_instances);
    tcase_add_test(tc, test_nested_instance_flattened);
    tcase_add_test(tc, test_frames);
    tcase_add_test(tc, test_read_archive);
    tcase_add_test(tc, test_delayed_read_archive);
    tcase_add_test(tc, test_motion_uses_first_sample);
    tcase_add_test(tc, test_ignored_requests_are_silent);
    suite_add_tcase(s, tc);
    return s;
}

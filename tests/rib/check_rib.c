/*
** check_rib.c: runs the RIB reader's suites, and the helpers they share.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/rib/check_rib.h"

RibScene *load_text_opt(const char *text, const RibLoadOptions *opt,
                        RibDiag *diag)
{
    rib_diag_init(diag, NULL);
    return rib_load_memory("test.rib", text, strlen(text), opt, diag);
}

RibScene *load_text(const char *text, RibDiag *diag)
{
    return load_text_opt(text, NULL, diag);
}

static char dirs[64][64];
static int ndirs;

const char *temp_dir(void)
{
    ck_assert_int_lt(ndirs, 64);
    strcpy(dirs[ndirs], "/tmp/check_rib.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dirs[ndirs]));
    return dirs[ndirs++];
}

/* Removes a directory tree of plain files and subdirectories. */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    char sub[512];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        struct stat sb;
        if (lstat(sub, &sb) == 0 && S_ISDIR(sb.st_mode))
            remove_tree(sub);
        else
            unlink(sub);
    }
    closedir(d);
    rmdir(path);
}

void remove_temp_dirs(void)
{
    while (ndirs > 0)
        remove_tree(dirs[--ndirs]);
}

const char *write_file(const char *dir, const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

const RibFrame *only_frame(const RibScene *s)
{
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->nframes, 1);
    return &s->frames[0];
}

const RibMesh *mesh_at(const RibScene *s, size_t i)
{
    const RibFrame *f = only_frame(s);
    ck_assert_uint_gt(f->nmeshes, i);
    return &f->meshes[i];
}

void vertex(const RibMesh *m, size_t k, double p[3])
{
    for (int i = 0; i < 3; i++)
        p[i] = m->P[3 * k + i];
}

void tri_normal(const RibMesh *m, size_t t, double n[3])
{
    double a[3], b[3], c[3];
    vertex(m, m->tris[3 * t], a);
    vertex(m, m->tris[3 * t + 1], b);
    vertex(m, m->tris[3 * t + 2], c);
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

double mesh_area(const RibMesh *m)
{
    double area = 0;
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3];
        tri_normal(m, t, n);
        area += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    }
    return area;
}

int main(void)
{
    SRunner *sr = srunner_create(lex_suite());
    srunner_add_suite(sr, state_suite());
    srunner_add_suite(sr, quadric_suite());
    srunner_add_suite(sr, polygon_suite());
    srunner_add_suite(sr, patch_suite());
    srunner_add_suite(sr, subdiv_suite());
    srunner_add_suite(sr, curves_suite());
    srunner_add_suite(sr, errors_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

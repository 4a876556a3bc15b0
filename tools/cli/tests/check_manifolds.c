// Test helper: checks a `manyfold run --out` file against a direct collision of the same scene.
// Usage: cli_check_manifolds SCENE FILE [BODIES]
// Loads SCENE (or the default pile of BODIES bodies) as the program does, builds the same
// candidate pairs, runs mf_collide on them, reads step 0 of FILE (JSON Lines or CSV) and compares
// manifold by manifold: pair, bodies, contact count and ids exactly, normals and points within
// 1e-5 (the file may come from another ISA). Exit 0 when they agree, 1 with the first difference.
#include "scene_file.h"
#include "manifold_file.h"
#include "scene_collide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static bool close_enough(float a, float b) { return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(a) + fabsf(b)); }

static bool same_vec3(mf_vec3 a, mf_vec3 b)
{
    return close_enough(a.x, b.x) && close_enough(a.y, b.y) && close_enough(a.z, b.z);
}

static int compare(const manifold_list *expected, const manifold_list *found)
{
    if (expected->manifold_count != found->manifold_count || expected->contact_count != found->contact_count) {
        printf("FAIL: mf_collide gives %zu manifolds and %zu contacts, the file %zu and %zu\n",
               expected->manifold_count, expected->contact_count, found->manifold_count, found->contact_count);
        return 1;
    }
    for (size_t m = 0; m < expected->manifold_count; ++m) {
        const listed_manifold *e = &expected->manifolds[m], *f = &found->manifolds[m];
        if (e->pair != f->pair || e->a != f->a || e->b != f->b || e->count != f->count ||
            !same_vec3(e->normal, f->normal)) {
            printf("FAIL: manifold %zu: expected pair %u (%u, %u) with %u contacts, normal (%g %g %g); "
                   "the file has pair %u (%u, %u) with %u contacts, normal (%g %g %g)\n",
                   m, e->pair, e->a, e->b, e->count, (double)e->normal.x, (double)e->normal.y, (double)e->normal.z,
                   f->pair, f->a, f->b, f->count, (double)f->normal.x, (double)f->normal.y, (double)f->normal.z);
            return 1;
        }
        for (uint32_t k = 0; k < e->count; ++k) {
            const mf_contact *ce = &expected->contacts[e->first + k], *cf = &found->contacts[f->first + k];
            if (ce->id != cf->id || !same_vec3(ce->point, cf->point) || !close_enough(ce->separation, cf->separation)) {
                printf("FAIL: manifold %zu (pair %u), contact %u: expected id %u at (%g %g %g) separation %g; "
                       "the file has id %u at (%g %g %g) separation %g\n",
                       m, e->pair, k, ce->id, (double)ce->point.x, (double)ce->point.y, (double)ce->point.z,
                       (double)ce->separation, cf->id, (double)cf->point.x, (double)cf->point.y, (double)cf->point.z,
                       (double)cf->separation);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s SCENE FILE [BODIES]\n", argv[0]);
        return 2;
    }
    uint32_t bodies = argc == 4 ? (uint32_t)strtoul(argv[3], NULL, 10) : 4000u;
    cli_error error;
    scene s;
    if (!scene_file_open(argv[1], bodies, &s, &error)) {
        printf("FAIL: %s\n", error.text);
        return 1;
    }
    manifold_list expected = {0}, found = {0};
    uint32_t pair_count = 0;
    int result = 1;
    if (!scene_collide(&s, &s.config, &expected, &pair_count, &error) ||
        !manifold_file_read(argv[2], 0, &found, &error)) {
        printf("FAIL: %s\n", error.text);
    } else {
        result = compare(&expected, &found);
        if (result == 0)
            printf("ok: %u candidate pairs, %zu manifolds, %zu contacts agree with mf_collide\n", pair_count,
                   expected.manifold_count, expected.contact_count);
    }
    manifold_list_free(&expected);
    manifold_list_free(&found);
    scene_free(&s);
    return result;
}

// Scene generator entry points: names, dispatch to the recipes, and release.
#include "scene.h"

#include "scene_recipes.h"

#include <stdlib.h>
#include <string.h>

// Twice this many bodies must still fit a uint32_t, with room to spare for memory.
#define SCENE_MAX_PAIRS (1u << 26)

typedef mf_status (*scene_recipe)(scene *s, uint32_t pair_count, scene_random *random);

static const struct {
    const char *name;
    scene_recipe make;
    uint32_t default_pairs;
} recipes[] = {
    {"box_box", scene_recipe_box_box, 20000},
    {"box_resting", scene_recipe_box_resting, 20000},
    {"hull16", scene_recipe_hull16, 20000},
    {"hull48", scene_recipe_hull48, 20000},
    {"nearmiss", scene_recipe_nearmiss, 20000},
    {"crowd", scene_recipe_crowd, 1000000},
    {"pile_step", scene_recipe_pile_step, 20000},
    // The hull size family (hull16 and hull48 above belong to it too). The largest hulls take the
    // scalar path, at about 80 us a pair for hull256 and 400 us for the bunny's 319 vertices when
    // these were added: fewer pairs keep a call near a second. The cost per pair hardly depends on
    // the count.
    {"hull8", scene_recipe_hull8, 20000},
    {"hull32", scene_recipe_hull32, 20000},
    {"hull64", scene_recipe_hull64, 20000},
    {"hull128", scene_recipe_hull128, 20000},
    {"hull256", scene_recipe_hull256, 10000},
    {"hull_bunny", scene_recipe_hull_bunny, 4000},
};
#define RECIPE_COUNT (sizeof(recipes) / sizeof(recipes[0]))

const char *const *scene_names(void)
{
    // Same order as the recipes table.
    static const char *const names[RECIPE_COUNT + 1] = {"box_box", "box_resting", "hull16",     "hull48", "nearmiss",
                                                        "crowd",   "pile_step",   "hull8",      "hull32", "hull64",
                                                        "hull128", "hull256",     "hull_bunny", NULL};
    return names;
}

mf_status scene_make(const char *name, uint32_t pair_count, uint64_t seed, scene *out)
{
    if (out == NULL) return MF_ERR_INVALID_ARGUMENT;
    *out = (scene){0};
    if (name == NULL || pair_count > SCENE_MAX_PAIRS) return MF_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < RECIPE_COUNT; ++i) {
        if (strcmp(name, recipes[i].name) != 0) continue;
        scene_random random = {seed};
        mf_status status = recipes[i].make(out, pair_count > 0 ? pair_count : recipes[i].default_pairs, &random);
        if (status != MF_OK) scene_free(out);
        return status;
    }
    return MF_ERR_INVALID_ARGUMENT;
}

void scene_free(scene *s)
{
    if (s == NULL) return;
    free(s->name);
    mf_bank_destroy(s->bank);
    if (s->shapes != NULL) {
        // The store copied every hull's points; it is their only owner.
        for (uint32_t i = 0; i < s->shape_count; ++i) free((void *)s->shapes[i].points);
    }
    free(s->shapes);
    free(s->body_shape);
    free(s->body_transform);
    free(s->pairs);
    *s = (scene){0};
}

static uint64_t hash_bytes(uint64_t hash, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3u;
    return hash;
}

uint64_t scene_fingerprint(const scene *s)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (uint32_t i = 0; i < s->shape_count; ++i) {
        const scene_shape *shape = &s->shapes[i];
        hash = hash_bytes(hash, &shape->kind, sizeof(shape->kind));
        hash = hash_bytes(hash, &shape->half_extents, sizeof(shape->half_extents));
        if (shape->points != NULL) hash = hash_bytes(hash, shape->points, shape->point_count * sizeof(mf_vec3));
    }
    hash = hash_bytes(hash, s->body_shape, s->body_count * sizeof(uint32_t));
    hash = hash_bytes(hash, s->body_transform, s->body_count * sizeof(mf_transform));
    return hash_bytes(hash, s->pairs, s->pair_count * sizeof(mf_pair));
}

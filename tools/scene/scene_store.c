// Scene storage: allocation, shape registration and per-shape geometry for the recipes.
#include "scene_store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

mf_status scene_store_create(scene *s, const char *name, uint32_t body_count, uint32_t pair_count)
{
    *s = (scene){.body_count = body_count, .pair_count = pair_count, .config = mf_config_default(), .up = SCENE_AXIS_Z};
    mf_status status = mf_bank_create(&s->bank);
    if (status == MF_OK) status = scene_store_rename(s, name);
    if (status != MF_OK) {
        scene_free(s);
        return status;
    }
    // At least one of each, so that an empty scene (a scene file may be one) is not out of memory.
    s->body_shape = calloc(body_count > 0 ? body_count : 1, sizeof(uint32_t));
    s->body_transform = calloc(body_count > 0 ? body_count : 1, sizeof(mf_transform));
    s->pairs = calloc(pair_count > 0 ? pair_count : 1, sizeof(mf_pair));
    if (s->body_shape == NULL || s->body_transform == NULL || s->pairs == NULL) {
        scene_free(s);
        return MF_ERR_OUT_OF_MEMORY;
    }
    return MF_OK;
}

mf_status scene_store_rename(scene *s, const char *name)
{
    size_t size = strlen(name) + 1;
    char *copy = malloc(size);
    if (copy == NULL) return MF_ERR_OUT_OF_MEMORY;
    memcpy(copy, name, size);
    free(s->name);
    s->name = copy;
    return MF_OK;
}

// Records how to rebuild the bank's newest shape; scenes hold a handful, so growing by one is fine.
static mf_status record_shape(scene *s, uint32_t shape, scene_shape description)
{
    scene_shape *grown = realloc(s->shapes, ((size_t)shape + 1) * sizeof(scene_shape));
    if (grown == NULL) return MF_ERR_OUT_OF_MEMORY;
    s->shapes = grown;
    s->shapes[shape] = description;
    s->shape_count = shape + 1;
    return MF_OK;
}

mf_status scene_store_add_box(scene *s, mf_vec3 half_extents, uint32_t *shape)
{
    mf_status status = mf_bank_add_box(s->bank, half_extents, shape);
    if (status != MF_OK) return status;
    return record_shape(s, *shape, (scene_shape){.kind = SCENE_BOX, .half_extents = half_extents});
}

mf_status scene_store_add_hull(scene *s, const mf_vec3 *points, uint32_t point_count, uint32_t *shape)
{
    mf_vec3 *copy = malloc((point_count > 0 ? point_count : 1) * sizeof(mf_vec3));
    if (copy == NULL) return MF_ERR_OUT_OF_MEMORY;
    if (point_count > 0) memcpy(copy, points, point_count * sizeof(mf_vec3));
    mf_status status = mf_bank_add_hull(s->bank, copy, point_count, shape);
    if (status != MF_OK) {
        free(copy);
        return status;
    }
    status = record_shape(s, *shape, (scene_shape){.kind = SCENE_HULL, .points = copy, .point_count = point_count});
    if (status != MF_OK) free(copy);
    return status;
}

mf_vec3 scene_store_support_point(const scene *s, uint32_t shape, mf_vec3 d)
{
    const scene_shape *info = &s->shapes[shape];
    if (info->kind == SCENE_BOX) {
        mf_vec3 h = info->half_extents;
        return (mf_vec3){d.x < 0.0f ? -h.x : h.x, d.y < 0.0f ? -h.y : h.y, d.z < 0.0f ? -h.z : h.z};
    }
    // The hull of the input points has the same support as the points themselves.
    mf_vec3 best = info->points[0];
    float best_extent = best.x * d.x + best.y * d.y + best.z * d.z;
    for (uint32_t i = 1; i < info->point_count; ++i) {
        mf_vec3 p = info->points[i];
        float extent = p.x * d.x + p.y * d.y + p.z * d.z;
        if (extent > best_extent) best = p, best_extent = extent;
    }
    return best;
}

float scene_store_support(const scene *s, uint32_t shape, mf_vec3 d)
{
    mf_vec3 p = scene_store_support_point(s, shape, d);
    return p.x * d.x + p.y * d.y + p.z * d.z;
}

float scene_store_inradius(const scene *s, uint32_t shape)
{
    mf_shape_info info;
    if (mf_bank_shape_info(s->bank, shape, &info) != MF_OK) return 0.0f;
    float radius = INFINITY;
    for (uint32_t face = 0; face < info.face_count; ++face) {
        float offset;
        if (mf_bank_shape_face(s->bank, shape, face, NULL, &offset, NULL, 0, NULL) != MF_OK) return 0.0f;
        radius = offset < radius ? offset : radius;
    }
    return radius > 0.0f ? radius : 0.0f;
}

// The settling scenes (sim_scene.h). Up is +y. Body 0 is always the ground: a static slab whose top
// face is the plane y = 0. Stacked bodies follow from the bottom up, so the last body of "tower"
// and "pyramid" is the top one. Boxes start resting exactly on each other (no gap, no overlap):
// whatever moves afterwards is the engine's doing. Only "rocks" draws from the seed.
#include "sim_scene.h"

#include "scene_rock.h"
#include "scene_store.h"

#include <stdlib.h>
#include <string.h>

#define GROUND_HALF_WIDTH 20.0f
#define GROUND_HALF_HEIGHT 0.5f
#define TOWER_BOXES 10
#define TOWER_HALF 0.25f // 0.5 m cubes: a tower 5 m tall
#define PYRAMID_LEVELS 6
#define PYRAMID_HALF 0.5f // 1 m cubes
#define PYRAMID_GAP 0.01f // between neighbours in a row: they do not start pressed against each other
#define ROCK_COUNT 200
#define ROCK_MIN_POINTS 8
#define ROCK_MAX_POINTS 48
#define ROCK_MIN_RADIUS 0.15f // rocks 0.3 to 0.6 m across
#define ROCK_MAX_RADIUS 0.3f
#define ROCK_SPACING 0.65f  // between drop sites, more than the widest rock
#define ROCK_ROW 6          // drop sites per row and per column of a layer
#define ROCK_JITTER 0.02f   // a drop site moves up to this far along x and z
#define PEN_HALF_WIDTH 2.0f // inside the walls
#define PEN_WALL_HALF_THICKNESS 0.25f
#define PEN_WALL_HALF_HEIGHT 1.25f // walls 2.5 m tall

static const mf_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};

typedef mf_status (*sim_recipe)(scene *s, uint8_t *is_static, scene_random *random);

// Bodies are placed one after another; the count is fixed by the recipe up front.
typedef struct placer {
    scene *s;
    uint8_t *is_static;
    uint32_t next;
} placer;

static void place(placer *p, uint32_t shape, mf_vec3 position, mf_quat rotation, uint8_t fixed)
{
    p->s->body_shape[p->next] = shape;
    p->s->body_transform[p->next] = (mf_transform){position, rotation};
    p->is_static[p->next] = fixed;
    ++p->next;
}

static mf_status place_ground(placer *p)
{
    uint32_t shape;
    mf_vec3 half = {GROUND_HALF_WIDTH, GROUND_HALF_HEIGHT, GROUND_HALF_WIDTH};
    mf_status status = scene_store_add_box(p->s, half, &shape);
    if (status == MF_OK) place(p, shape, (mf_vec3){0.0f, -GROUND_HALF_HEIGHT, 0.0f}, identity, 1);
    return status;
}

static mf_status recipe_box(scene *s, uint8_t *is_static, scene_random *random)
{
    (void)random;
    placer p = {s, is_static, 0};
    uint32_t shape;
    mf_status status = place_ground(&p);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.5f, 0.5f, 0.5f}, &shape);
    if (status == MF_OK) place(&p, shape, (mf_vec3){0.0f, 0.5f, 0.0f}, identity, 0);
    return status;
}

static mf_status recipe_tower(scene *s, uint8_t *is_static, scene_random *random)
{
    (void)random;
    placer p = {s, is_static, 0};
    uint32_t shape;
    mf_status status = place_ground(&p);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){TOWER_HALF, TOWER_HALF, TOWER_HALF}, &shape);
    for (uint32_t i = 0; status == MF_OK && i < TOWER_BOXES; ++i)
        place(&p, shape, (mf_vec3){0.0f, TOWER_HALF * (float)(2 * i + 1), 0.0f}, identity, 0);
    return status;
}

// A wall of boxes along x, one box deep: level k holds PYRAMID_LEVELS - k boxes, each resting on
// the two below it, half a box in from the level below on either side.
static mf_status recipe_pyramid(scene *s, uint8_t *is_static, scene_random *random)
{
    (void)random;
    placer p = {s, is_static, 0};
    uint32_t shape;
    mf_status status = place_ground(&p);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){PYRAMID_HALF, PYRAMID_HALF, PYRAMID_HALF}, &shape);
    float pitch = 2.0f * PYRAMID_HALF + PYRAMID_GAP;
    for (uint32_t level = 0; status == MF_OK && level < PYRAMID_LEVELS; ++level) {
        uint32_t count = PYRAMID_LEVELS - level;
        float first = -0.5f * pitch * (float)(count - 1);
        for (uint32_t i = 0; i < count; ++i) {
            mf_vec3 position = {first + pitch * (float)i, PYRAMID_HALF * (float)(2 * level + 1), 0.0f};
            place(&p, shape, position, identity, 0);
        }
    }
    return status;
}

// Four walls around the pen's floor, their inner faces PEN_HALF_WIDTH from the centre.
static mf_status place_pen(placer *p)
{
    uint32_t along_x, along_z;
    float length = PEN_HALF_WIDTH + 2.0f * PEN_WALL_HALF_THICKNESS;
    mf_status status =
        scene_store_add_box(p->s, (mf_vec3){length, PEN_WALL_HALF_HEIGHT, PEN_WALL_HALF_THICKNESS}, &along_x);
    if (status == MF_OK)
        status = scene_store_add_box(p->s, (mf_vec3){PEN_WALL_HALF_THICKNESS, PEN_WALL_HALF_HEIGHT, length}, &along_z);
    if (status != MF_OK) return status;
    float offset = PEN_HALF_WIDTH + PEN_WALL_HALF_THICKNESS;
    for (int side = -1; side <= 1; side += 2) {
        place(p, along_x, (mf_vec3){0.0f, PEN_WALL_HALF_HEIGHT, (float)side * offset}, identity, 1);
        place(p, along_z, (mf_vec3){(float)side * offset, PEN_WALL_HALF_HEIGHT, 0.0f}, identity, 1);
    }
    return MF_OK;
}

// Rocks dropped from layers of a grid over the pen, each a shape of its own in a random turn: the
// lowest layer starts a rock's width above the floor, so every rock falls and they land one layer
// after another.
static mf_status recipe_rocks(scene *s, uint8_t *is_static, scene_random *random)
{
    placer p = {s, is_static, 0};
    mf_status status = place_ground(&p);
    if (status == MF_OK) status = place_pen(&p);
    const uint32_t per_layer = ROCK_ROW * ROCK_ROW;
    for (uint32_t i = 0; status == MF_OK && i < ROCK_COUNT; ++i) {
        uint32_t points = ROCK_MIN_POINTS + scene_random_below(random, ROCK_MAX_POINTS - ROCK_MIN_POINTS + 1);
        float radius = scene_random_range(random, ROCK_MIN_RADIUS, ROCK_MAX_RADIUS);
        uint32_t shape;
        status = scene_rock_add(s, random, points, radius, &shape);
        if (status != MF_OK) break;
        uint32_t layer = i / per_layer, site = i % per_layer;
        mf_vec3 position;
        position.x = ROCK_SPACING * ((float)(site % ROCK_ROW) - 0.5f * (ROCK_ROW - 1));
        position.x += scene_random_range(random, -ROCK_JITTER, ROCK_JITTER);
        position.y = ROCK_SPACING * (float)(layer + 1);
        position.z = ROCK_SPACING * ((float)(site / ROCK_ROW) - 0.5f * (ROCK_ROW - 1));
        position.z += scene_random_range(random, -ROCK_JITTER, ROCK_JITTER);
        mf_quat rotation = scene_random_rotation(random);
        place(&p, shape, position, rotation, 0);
    }
    return status;
}

static const struct {
    const char *name;
    sim_recipe make;
    uint32_t body_count;
} recipes[] = {
    {"box", recipe_box, 2},
    {"tower", recipe_tower, 1 + TOWER_BOXES},
    {"pyramid", recipe_pyramid, 1 + PYRAMID_LEVELS *(PYRAMID_LEVELS + 1) / 2},
    {"rocks", recipe_rocks, 5 + ROCK_COUNT},
};
#define RECIPE_COUNT (sizeof(recipes) / sizeof(recipes[0]))

const char *const *sim_scene_names(void)
{
    static const char *const names[RECIPE_COUNT + 1] = {"box", "tower", "pyramid", "rocks", NULL};
    return names;
}

mf_status sim_scene_make(const char *name, uint64_t seed, scene *out, uint8_t **is_static)
{
    if (out == NULL || is_static == NULL) return MF_ERR_INVALID_ARGUMENT;
    *out = (scene){0};
    *is_static = NULL;
    if (name == NULL) return MF_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < RECIPE_COUNT; ++i) {
        if (strcmp(name, recipes[i].name) != 0) continue;
        mf_status status = scene_store_create(out, name, recipes[i].body_count, 0);
        if (status != MF_OK) return status;
        out->up = SCENE_AXIS_Y;
        uint8_t *flags = calloc(recipes[i].body_count, 1);
        if (flags == NULL) {
            scene_free(out);
            return MF_ERR_OUT_OF_MEMORY;
        }
        scene_random random = {seed};
        status = recipes[i].make(out, flags, &random);
        if (status != MF_OK) {
            free(flags);
            scene_free(out);
            return status;
        }
        *is_static = flags;
        return MF_OK;
    }
    return MF_ERR_INVALID_ARGUMENT;
}

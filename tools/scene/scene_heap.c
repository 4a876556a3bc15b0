// The command line's default scene (scene_make_heap): a cone of layers on a grid, centre first, so
// any body count gives a heap. Neighbours sit a little closer than their sizes, so the heap has
// resting, penetrating and near-miss pairs, in random orientations (face-face and edge-edge
// contacts alike). Up is +y.
#include "scene.h"

#include "scene_random.h"
#include "scene_store.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define HEAP_SEED 20240531u
#define HEAP_BOX_SHAPES 3
#define HEAP_ROCK_SHAPES 4
#define HEAP_ROCK_POINTS 24
#define HEAP_LAYER_HEIGHT 0.85f // a bit less than a body's size: layers touch

typedef struct grid_cell {
    float radius;
    int32_t i, j;
} grid_cell;

static int compare_cells(const void *a, const void *b)
{
    const grid_cell *x = a, *y = b;
    if (x->radius != y->radius) return x->radius < y->radius ? -1 : 1;
    if (x->i != y->i) return x->i < y->i ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

// Cells of the base, with radius no more than `radius`, counted in a sorted list.
static uint64_t cells_within(const grid_cell *cells, uint64_t count, float radius)
{
    uint64_t low = 0, high = count;
    while (low < high) {
        uint64_t middle = (low + high) / 2;
        if (cells[middle].radius <= radius) low = middle + 1;
        else high = middle;
    }
    return low;
}

// Layer k of a cone of base radius R holds the cells within R - k: a slope of one cell per layer.
static uint64_t cone_capacity(const grid_cell *cells, uint64_t count, float base_radius)
{
    uint64_t total = 0;
    for (int layer = 0; base_radius - (float)layer >= 0.0f; ++layer)
        total += cells_within(cells, count, base_radius - (float)layer);
    return total;
}

// Shape 0 is the ground, then the crates, then the rocks.
static mf_status add_shapes(scene *s, float ground_half_width, scene_random *random)
{
    uint32_t id;
    mf_status status = scene_store_add_box(s, (mf_vec3){ground_half_width, 0.5f, ground_half_width}, &id);
    static const mf_vec3 crates[HEAP_BOX_SHAPES] = {{0.45f, 0.45f, 0.45f}, {0.5f, 0.3f, 0.4f}, {0.3f, 0.3f, 0.55f}};
    for (int i = 0; status == MF_OK && i < HEAP_BOX_SHAPES; ++i) status = scene_store_add_box(s, crates[i], &id);
    for (int r = 0; status == MF_OK && r < HEAP_ROCK_SHAPES; ++r) {
        // Points on a stretched sphere: every point ends up on the hull, like a cut stone.
        mf_vec3 stretch;
        stretch.x = scene_random_range(random, 0.4f, 0.55f);
        stretch.y = scene_random_range(random, 0.3f, 0.5f);
        stretch.z = scene_random_range(random, 0.4f, 0.55f);
        mf_vec3 points[HEAP_ROCK_POINTS];
        for (int p = 0; p < HEAP_ROCK_POINTS; ++p) {
            mf_quat q = scene_random_rotation(random); // a random unit 4-vector; its xyz is a direction
            float length = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
            if (length < 1e-3f) {
                --p;
                continue;
            }
            points[p] = (mf_vec3){stretch.x * q.x / length, stretch.y * q.y / length, stretch.z * q.z / length};
        }
        status = scene_store_add_hull(s, points, HEAP_ROCK_POINTS, &id);
    }
    return status;
}

// The base grid's cells by distance from the centre, wide enough for a cone holding pile_count
// bodies, and the smallest cone radius that does.
static mf_status make_cells(uint64_t pile_count, grid_cell **out, uint64_t *out_count, float *base_radius)
{
    grid_cell *cells = NULL;
    uint64_t cell_count = 0;
    int32_t half_width = 2;
    for (;;) {
        uint64_t side = 2u * (uint64_t)half_width + 1u;
        grid_cell *grown = realloc(cells, side * side * sizeof(grid_cell));
        if (grown == NULL) {
            free(cells);
            return MF_ERR_OUT_OF_MEMORY;
        }
        cells = grown;
        cell_count = 0;
        for (int32_t i = -half_width; i <= half_width; ++i)
            for (int32_t j = -half_width; j <= half_width; ++j)
                cells[cell_count++] = (grid_cell){sqrtf((float)(i * i + j * j)), i, j};
        qsort(cells, cell_count, sizeof(grid_cell), compare_cells);
        if (cone_capacity(cells, cell_count, (float)half_width) >= pile_count) break;
        half_width *= 2;
    }
    float low = 0.0f, high = (float)half_width;
    for (int iteration = 0; iteration < 40; ++iteration) {
        float middle = 0.5f * (low + high);
        if (cone_capacity(cells, cell_count, middle) >= pile_count) high = middle;
        else low = middle;
    }
    *out = cells;
    *out_count = cell_count;
    *base_radius = high;
    return MF_OK;
}

// Ground first, then layer by layer up the cone: each body a crate or a rock at random, jittered
// about its cell, in a random orientation. Names the scene by what it holds.
static mf_status place_bodies(scene *s, const grid_cell *cells, uint64_t cell_count, float base_radius,
                              scene_random *random)
{
    // Ground: a slab whose top face is y = 0.
    s->body_shape[0] = 0;
    s->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    uint32_t body = 1, boxes = 0, rocks = 0;
    for (int layer = 0; body < s->body_count; ++layer) {
        uint64_t in_layer = cells_within(cells, cell_count, base_radius - (float)layer);
        if (in_layer == 0) break; // cannot happen: the cone was sized to hold every body
        for (uint64_t c = 0; c < in_layer && body < s->body_count; ++c, ++body) {
            bool rock = (scene_random_next(random) & 1u) != 0;
            uint32_t variant = (uint32_t)(scene_random_next(random) >> 33);
            s->body_shape[body] =
                rock ? 1u + HEAP_BOX_SHAPES + variant % HEAP_ROCK_SHAPES : 1u + variant % HEAP_BOX_SHAPES;
            rock ? ++rocks : ++boxes;
            mf_vec3 position;
            position.x = (float)cells[c].i + scene_random_range(random, -0.08f, 0.08f);
            position.y = 0.42f + HEAP_LAYER_HEIGHT * (float)layer + scene_random_range(random, -0.03f, 0.03f);
            position.z = (float)cells[c].j + scene_random_range(random, -0.08f, 0.08f);
            s->body_transform[body] = (mf_transform){position, scene_random_rotation(random)};
        }
    }
    char name[96];
    snprintf(name, sizeof(name), "default pile (1 ground, %u boxes, %u rocks)", boxes, rocks);
    return scene_store_rename(s, name);
}

mf_status scene_make_heap(uint32_t body_count, scene *out)
{
    if (out == NULL) return MF_ERR_INVALID_ARGUMENT;
    *out = (scene){0};
    if (body_count < 1) return MF_ERR_INVALID_ARGUMENT;
    grid_cell *cells = NULL;
    uint64_t cell_count = 0;
    float base_radius = 0.0f;
    scene_random random = {HEAP_SEED};
    mf_status status = make_cells(body_count - 1u, &cells, &cell_count, &base_radius);
    if (status == MF_OK) status = scene_store_create(out, "default pile", body_count, 0);
    if (status == MF_OK) out->up = SCENE_AXIS_Y; // the heap rises along +y
    if (status == MF_OK) status = add_shapes(out, base_radius + 2.0f, &random);
    if (status == MF_OK) status = place_bodies(out, cells, cell_count, base_radius, &random);
    free(cells);
    if (status != MF_OK) scene_free(out);
    return status;
}

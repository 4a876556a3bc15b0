// The default pile: a cone of layers on a grid, centre first, so any body count gives a heap.
// Neighbours sit a little closer than their sizes, so the pile has resting, penetrating and
// near-miss pairs, in random orientations (face-face and edge-edge contacts alike).
#include "pile.h"

#include "scene_random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PILE_SEED 20240531u
#define PILE_BOX_SHAPES 3
#define PILE_ROCK_SHAPES 4
#define PILE_ROCK_POINTS 24
#define PILE_LAYER_HEIGHT 0.85f // a bit less than a body's size: layers touch

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

static bool add_shapes(mf_bank *bank, float ground_half_width, scene_random *random)
{
    uint32_t id;
    if (mf_bank_add_box(bank, (mf_vec3){ground_half_width, 0.5f, ground_half_width}, &id) != MF_OK) return false;
    static const mf_vec3 crates[PILE_BOX_SHAPES] = {{0.45f, 0.45f, 0.45f}, {0.5f, 0.3f, 0.4f}, {0.3f, 0.3f, 0.55f}};
    for (int i = 0; i < PILE_BOX_SHAPES; ++i)
        if (mf_bank_add_box(bank, crates[i], &id) != MF_OK) return false;
    for (int r = 0; r < PILE_ROCK_SHAPES; ++r) {
        // Points on a stretched sphere: every point ends up on the hull, like a cut stone.
        mf_vec3 stretch;
        stretch.x = scene_random_range(random, 0.4f, 0.55f);
        stretch.y = scene_random_range(random, 0.3f, 0.5f);
        stretch.z = scene_random_range(random, 0.4f, 0.55f);
        mf_vec3 points[PILE_ROCK_POINTS];
        for (int p = 0; p < PILE_ROCK_POINTS; ++p) {
            mf_quat q = scene_random_rotation(random); // a random unit 4-vector; its xyz is a direction
            float length = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
            if (length < 1e-3f) {
                --p;
                continue;
            }
            points[p] = (mf_vec3){stretch.x * q.x / length, stretch.y * q.y / length, stretch.z * q.z / length};
        }
        if (mf_bank_add_hull(bank, points, PILE_ROCK_POINTS, &id) != MF_OK) return false;
    }
    return true;
}

bool pile_make(uint32_t body_count, cli_scene *scene, cli_error *error)
{
    *scene = (cli_scene){0};
    if (body_count < 1) return cli_fail(error, "the default pile needs at least 1 body (the ground)");
    uint64_t pile_count = body_count - 1u;

    // A base grid wide enough for the cone, then the smallest cone radius that holds every body.
    grid_cell *cells = NULL;
    uint64_t cell_count = 0;
    int32_t half_width = 2;
    for (;;) {
        uint64_t side = 2u * (uint64_t)half_width + 1u;
        grid_cell *grown = realloc(cells, side * side * sizeof(grid_cell));
        if (grown == NULL) {
            free(cells);
            return cli_fail(error, "out of memory building a pile of %u bodies", body_count);
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
    float base_radius = high;

    scene_random random = {PILE_SEED};
    scene->config = mf_config_default();
    bool ok = mf_bank_create(&scene->bank) == MF_OK && cli_scene_reserve_bodies(scene, body_count) &&
              add_shapes(scene->bank, base_radius + 2.0f, &random);
    scene->name = malloc(96);
    if (!ok || scene->name == NULL) {
        free(cells);
        cli_scene_free(scene);
        return cli_fail(error, "out of memory building a pile of %u bodies", body_count);
    }

    // Ground: a slab whose top face is y = 0.
    scene->body_shape[0] = 0;
    scene->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    uint32_t body = 1, boxes = 0, rocks = 0;
    for (int layer = 0; body < body_count; ++layer) {
        uint64_t in_layer = cells_within(cells, cell_count, base_radius - (float)layer);
        if (in_layer == 0) break; // cannot happen: the cone was sized to hold every body
        for (uint64_t c = 0; c < in_layer && body < body_count; ++c, ++body) {
            bool rock = (scene_random_next(&random) & 1u) != 0;
            uint32_t variant = (uint32_t)(scene_random_next(&random) >> 33);
            scene->body_shape[body] =
                rock ? 1u + PILE_BOX_SHAPES + variant % PILE_ROCK_SHAPES : 1u + variant % PILE_BOX_SHAPES;
            rock ? ++rocks : ++boxes;
            mf_vec3 position;
            position.x = (float)cells[c].i + scene_random_range(&random, -0.08f, 0.08f);
            position.y = 0.42f + PILE_LAYER_HEIGHT * (float)layer + scene_random_range(&random, -0.03f, 0.03f);
            position.z = (float)cells[c].j + scene_random_range(&random, -0.08f, 0.08f);
            scene->body_transform[body] = (mf_transform){position, scene_random_rotation(&random)};
        }
    }
    free(cells);
    snprintf(scene->name, 96, "default pile (1 ground, %u boxes, %u rocks)", boxes, rocks);
    return true;
}

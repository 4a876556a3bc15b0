// The pile_step scene: boxes and rocks dropped one by one onto a ground slab and onto each other.
// Each body tries a few spots around its drop site and takes the lowest, as it would roll into a
// hollow; there it is lowered until it first touches something (scene_drop, exact), then sunk
// 0-4 mm into it or left hovering up to 3 mm above, so every penetration in the pile is shallow.
// Drop sites come in layers on a square grid, each layer shifted half a site from the one below (as
// bricks are laid) and ordered from the centre out, so that whatever the size the pile is about
// three bodies high and its last, partial layer a mound. The candidate pairs are what a broad phase
// emits: every pair whose world bounding boxes, grown by 5 mm (more than scene_step moves a body),
// overlap; about half are near misses.
#include "scene_recipes.h"

#include "scene_drop.h"
#include "scene_rock.h"
#include "scene_store.h"

#include <math.h>
#include <stdlib.h>

#define PILE_SPACING 1.1      // metres between drop sites
#define PILE_JITTER 0.3f      // a drop lands up to this far from its site, along x and z
#define PILE_TRIES 4          // spots tried per drop; the lowest wins
#define PILE_LAYERS 3         // the pile's height in bodies, about
#define PILE_PAIRS_PER_BODY 2 // about (measured), to size the footprint
#define PILE_BOXES 3
#define PILE_ROCKS 16
#define PILE_BOX_SHARE 0.4f            // of the bodies; the rest are rocks
#define PILE_GROW 0.005                // bounding boxes grow this much each way before the overlap test
#define PILE_SINK 0.004                // deepest chosen penetration, metres
#define PILE_HOVER 0.003               // widest chosen gap, metres
#define PILE_SINK_SHARE 0.7f           // of the bodies sink; the rest hover
#define SIN_TILT_HALF_ANGLE 0.0436194f // sin(2.5 degrees): boxes tilt up to 5 degrees

typedef struct pile_site {
    int32_t i, j;
} pile_site;

typedef struct pile_box {
    float low[3], high[3];
} pile_box;

typedef struct pile_candidate {
    double bound; // highest the new body could rest on this one: its top minus the new body's bottom
    uint32_t body;
} pile_candidate;

// Everything the drops share: shapes in scene_drop's terms, the bodies' boxes and a grid over x
// and z to find a body's neighbours (cells as wide as two bodies, so neighbours are adjacent).
typedef struct pile {
    scene *s;
    uint32_t shape_count;
    scene_geometry *shapes;
    scene_drop_body above, below;
    pile_box *boxes;
    double extent, cell;
    uint32_t cells_per_side;
    int32_t *cell_head, *next_in_cell;
    uint32_t *near; // scratch: the bodies around a drop, and those that could hold it up
    pile_candidate *candidates;
    uint32_t near_count, near_capacity;
    uint32_t pair_capacity;
} pile;

static int compare_sites(const void *a, const void *b)
{
    const pile_site *x = a, *y = b;
    int64_t rx = (int64_t)x->i * x->i + (int64_t)x->j * x->j, ry = (int64_t)y->i * y->i + (int64_t)y->j * y->j;
    if (rx != ry) return rx < ry ? -1 : 1;
    if (x->i != y->i) return x->i < y->i ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

// Drop sites on a square grid, nearest the centre first: the first `sites` of them are a disc.
static pile_site *make_sites(uint32_t sites, int32_t *half_width)
{
    int32_t h = 0;
    while ((uint64_t)(2 * h + 1) * (uint64_t)(2 * h + 1) < sites) ++h;
    uint64_t count = (uint64_t)(2 * h + 1) * (uint64_t)(2 * h + 1);
    pile_site *list = malloc(count * sizeof(pile_site));
    if (list == NULL) return NULL;
    uint64_t k = 0;
    for (int32_t i = -h; i <= h; ++i)
        for (int32_t j = -h; j <= h; ++j) list[k++] = (pile_site){i, j};
    qsort(list, count, sizeof(pile_site), compare_sites);
    *half_width = h;
    return list;
}

static mf_status add_shapes(pile *p, scene_random *random)
{
    static const mf_vec3 boxes[PILE_BOXES] = {{0.5f, 0.5f, 0.5f}, {0.6f, 0.25f, 0.4f}, {0.35f, 0.35f, 0.35f}};
    static const uint32_t rock_points[4] = {16, 24, 32, 48};
    uint32_t shape;
    mf_status status = MF_OK;
    for (uint32_t i = 0; status == MF_OK && i < PILE_BOXES; ++i) status = scene_store_add_box(p->s, boxes[i], &shape);
    for (uint32_t i = 0; status == MF_OK && i < PILE_ROCKS; ++i) {
        float radius = scene_random_range(random, 0.45f, 0.6f);
        status = scene_rock_add(p->s, random, rock_points[i % 4], radius, &shape);
    }
    if (status != MF_OK) return status;
    p->shape_count = p->s->shape_count;
    p->shapes = calloc(p->shape_count, sizeof(scene_geometry));
    if (p->shapes == NULL) return MF_ERR_OUT_OF_MEMORY;
    uint32_t most_vertices = 0, most_faces = 0;
    float radius = 0.0f;
    for (uint32_t i = 0; status == MF_OK && i < p->shape_count; ++i) {
        status = scene_geometry_load(p->s->bank, i, &p->shapes[i]);
        const scene_geometry *g = &p->shapes[i]; // zeroed when it failed
        most_vertices = g->vertex_count > most_vertices ? g->vertex_count : most_vertices;
        most_faces = g->face_count > most_faces ? g->face_count : most_faces;
        radius = g->radius > radius ? g->radius : radius;
    }
    if (status == MF_OK) status = scene_drop_body_create(&p->above, most_vertices, most_faces);
    if (status == MF_OK) status = scene_drop_body_create(&p->below, most_vertices, most_faces);
    p->cell = 2.0 * radius + 2.0 * PILE_GROW;
    return status;
}

static mf_status make_grid(pile *p, int32_t half_width)
{
    p->extent = (half_width + 1) * PILE_SPACING + p->cell;
    p->cells_per_side = (uint32_t)(2.0 * p->extent / p->cell) + 1;
    size_t cells = (size_t)p->cells_per_side * p->cells_per_side;
    p->cell_head = malloc(cells * sizeof(int32_t));
    p->next_in_cell = malloc(((size_t)p->s->body_count + 1) * sizeof(int32_t));
    p->boxes = malloc(((size_t)p->s->body_count + 1) * sizeof(pile_box));
    if (p->cell_head == NULL || p->next_in_cell == NULL || p->boxes == NULL) return MF_ERR_OUT_OF_MEMORY;
    for (size_t c = 0; c < cells; ++c) p->cell_head[c] = -1;
    return MF_OK;
}

static uint32_t cell_of(const pile *p, double x)
{
    double k = floor((x + p->extent) / p->cell);
    return k < 0.0 ? 0u : k >= p->cells_per_side ? p->cells_per_side - 1 : (uint32_t)k;
}

// A random turn about the vertical, then a tilt of up to 5 degrees about a horizontal axis.
static mf_quat tilted_yaw(scene_random *random)
{
    mf_quat yaw = scene_random_yaw(random);
    mf_vec3 axis = scene_random_direction(random);
    float horizontal = sqrtf(axis.x * axis.x + axis.z * axis.z);
    float sine = horizontal > 1e-3f ? SIN_TILT_HALF_ANGLE * scene_random_unit(random) / horizontal : 0.0f;
    float cosine = sqrtf(1.0f - (axis.x * axis.x + axis.z * axis.z) * sine * sine);
    mf_quat tilt = {axis.x * sine, 0.0f, axis.z * sine, cosine};
    return (mf_quat){tilt.w * yaw.x + tilt.x * yaw.w + tilt.y * yaw.z - tilt.z * yaw.y,
                     tilt.w * yaw.y - tilt.x * yaw.z + tilt.y * yaw.w + tilt.z * yaw.x,
                     tilt.w * yaw.z + tilt.x * yaw.y - tilt.y * yaw.x + tilt.z * yaw.w,
                     tilt.w * yaw.w - tilt.x * yaw.x - tilt.y * yaw.y - tilt.z * yaw.z};
}

static int compare_candidates(const void *a, const void *b)
{
    const pile_candidate *x = a, *y = b;
    if (x->bound != y->bound) return x->bound > y->bound ? -1 : 1;
    return (x->body > y->body) - (x->body < y->body);
}

// Gathers into p->near every body already in the 3 x 3 cells around (x, z): all that can touch a
// body there, as cells are two bodies wide.
static mf_status gather_neighbours(pile *p, double x, double z)
{
    uint32_t cx = cell_of(p, x), cz = cell_of(p, z);
    p->near_count = 0;
    for (uint32_t i = cx > 0 ? cx - 1 : 0; i <= cx + 1 && i < p->cells_per_side; ++i) {
        for (uint32_t j = cz > 0 ? cz - 1 : 0; j <= cz + 1 && j < p->cells_per_side; ++j) {
            for (int32_t other = p->cell_head[(size_t)i * p->cells_per_side + j]; other >= 0;
                 other = p->next_in_cell[other]) {
                if (p->near_count == p->near_capacity) {
                    uint32_t capacity = p->near_capacity > 0 ? 2 * p->near_capacity : 64;
                    uint32_t *grown = realloc(p->near, capacity * sizeof(uint32_t));
                    pile_candidate *candidates = realloc(p->candidates, capacity * sizeof(pile_candidate));
                    if (grown != NULL) p->near = grown;
                    if (candidates != NULL) p->candidates = candidates;
                    if (grown == NULL || candidates == NULL) return MF_ERR_OUT_OF_MEMORY;
                    p->near_capacity = capacity;
                }
                p->near[p->near_count++] = (uint32_t)other;
            }
        }
    }
    return MF_OK;
}

// How far up the new body (posed in p->above at height 0) must sit to touch the pile: the ground
// first, then the neighbours that could hold it higher, highest possible first.
static mf_status rest_height(pile *p, double x, double z, double *height)
{
    const scene *s = p->s;
    double best = -p->above.low[1]; // on the ground, whose top is y = 0
    uint32_t count = 0;
    mf_status status = gather_neighbours(p, x, z);
    if (status != MF_OK) return status;
    for (uint32_t k = 0; k < p->near_count; ++k) {
        const pile_box *box = &p->boxes[p->near[k]];
        if (box->high[0] < p->above.low[0] || p->above.high[0] < box->low[0] || box->high[2] < p->above.low[2] ||
            p->above.high[2] < box->low[2])
            continue;
        double bound = box->high[1] - p->above.low[1] + 1e-3; // + the float rounding of the stored box
        if (bound > best) p->candidates[count++] = (pile_candidate){bound, p->near[k]};
    }
    if (count > 1) qsort(p->candidates, count, sizeof(pile_candidate), compare_candidates);
    for (uint32_t k = 0; k < count && p->candidates[k].bound > best; ++k) {
        uint32_t other = p->candidates[k].body;
        scene_drop_pose(&p->below, &p->shapes[s->body_shape[other]], s->body_transform[other]);
        double h = scene_drop_height(&p->below, &p->above);
        best = h > best ? h : best;
    }
    *height = best;
    return MF_OK;
}

static mf_status push_pair(pile *p, uint32_t a, uint32_t b)
{
    scene *s = p->s;
    if (s->pair_count == p->pair_capacity) {
        uint32_t capacity = p->pair_capacity + p->pair_capacity / 8 + 64;
        mf_pair *grown = realloc(s->pairs, (size_t)capacity * sizeof(mf_pair));
        if (grown == NULL) return MF_ERR_OUT_OF_MEMORY;
        s->pairs = grown, p->pair_capacity = capacity;
    }
    s->pairs[s->pair_count++] = (mf_pair){a, b};
    return MF_OK;
}

static int compare_pairs(const void *a, const void *b)
{
    const mf_pair *x = a, *y = b;
    return (x->a > y->a) - (x->a < y->a);
}

// The broad phase for the body just placed: every earlier body (and the ground, body 0) whose
// grown box overlaps its grown box, in increasing body order.
static mf_status add_pairs(pile *p, uint32_t body)
{
    scene *s = p->s;
    const pile_box *mine = &p->boxes[body];
    uint32_t first = s->pair_count;
    mf_status status = MF_OK;
    if (mine->low[1] - PILE_GROW < PILE_GROW) status = push_pair(p, 0, body);
    if (status == MF_OK) status = gather_neighbours(p, s->body_transform[body].p.x, s->body_transform[body].p.z);
    for (uint32_t n = 0; status == MF_OK && n < p->near_count; ++n) {
        const pile_box *box = &p->boxes[p->near[n]];
        int overlap = 1;
        for (int k = 0; k < 3; ++k)
            overlap &= box->low[k] - PILE_GROW <= mine->high[k] + PILE_GROW &&
                       mine->low[k] - PILE_GROW <= box->high[k] + PILE_GROW;
        if (overlap) status = push_pair(p, p->near[n], body);
    }
    if (status == MF_OK) qsort(s->pairs + first, s->pair_count - first, sizeof(mf_pair), compare_pairs);
    return status;
}

// Where the body comes to rest near its site: the lowest of a few tries around it, as a body rolls
// into a hollow rather than balancing on a neighbour's corner. Writes the chosen spot (at height 0)
// and the height at which it touches the pile there.
static mf_status settle(pile *p, uint32_t shape, mf_quat q, double site_x, double site_z, scene_random *random,
                        mf_transform *spot, double *touch_height)
{
    double lowest = INFINITY;
    for (int trial = 0; trial < PILE_TRIES; ++trial) {
        float x = (float)site_x + scene_random_range(random, -PILE_JITTER, PILE_JITTER);
        float z = (float)site_z + scene_random_range(random, -PILE_JITTER, PILE_JITTER);
        scene_drop_pose(&p->above, &p->shapes[shape], (mf_transform){{x, 0.0f, z}, q});
        double height;
        mf_status status = rest_height(p, x, z, &height);
        if (status != MF_OK) return status;
        double bottom = height + p->above.low[1];
        if (bottom < lowest) {
            lowest = bottom;
            *spot = (mf_transform){{x, 0.0f, z}, q};
            *touch_height = height;
        }
    }
    return MF_OK;
}

static mf_status drop_bodies(pile *p, uint32_t pair_count, const pile_site *sites, uint32_t site_count,
                             scene_random *random)
{
    scene *s = p->s;
    uint32_t capacity = s->body_count;
    uint32_t body = 1;
    for (; s->pair_count < pair_count && body < capacity; ++body) {
        uint32_t layer = (body - 1) / site_count;
        pile_site site = sites[(body - 1) % site_count];
        double shift = layer % 2 == 1 ? 0.5 * PILE_SPACING : 0.0;
        int box = scene_random_unit(random) < PILE_BOX_SHARE;
        uint32_t shape =
            box ? scene_random_below(random, PILE_BOXES) : PILE_BOXES + scene_random_below(random, PILE_ROCKS);
        mf_quat q = box ? tilted_yaw(random) : scene_random_rotation(random);
        float choice = scene_random_unit(random);
        double sink = choice < PILE_SINK_SHARE ? PILE_SINK * (choice / PILE_SINK_SHARE)
                                               : -PILE_HOVER * ((choice - PILE_SINK_SHARE) / (1.0f - PILE_SINK_SHARE));

        s->body_shape[body] = shape;
        mf_transform rest = {{0.0f, 0.0f, 0.0f}, q};
        double height = 0.0;
        mf_status status =
            settle(p, shape, q, site.i * PILE_SPACING + shift, site.j * PILE_SPACING + shift, random, &rest, &height);
        if (status != MF_OK) return status;
        rest.p.y = (float)(height - sink);
        s->body_transform[body] = rest;

        // The box of the body where it now is, from its stored (float) pose.
        scene_drop_pose(&p->above, &p->shapes[shape], rest);
        for (int k = 0; k < 3; ++k) {
            p->boxes[body].low[k] = (float)p->above.low[k];
            p->boxes[body].high[k] = (float)p->above.high[k];
        }
        status = add_pairs(p, body);
        if (status != MF_OK) return status;
        size_t cell = (size_t)cell_of(p, rest.p.x) * p->cells_per_side + cell_of(p, rest.p.z);
        p->next_in_cell[body] = p->cell_head[cell];
        p->cell_head[cell] = (int32_t)body;
    }
    s->body_count = body;
    return MF_OK;
}

// The ground: a slab whose top face is y = 0, a metre wider than the pile each way.
static mf_status add_ground(pile *p)
{
    scene *s = p->s;
    float reach = 0.0f;
    for (uint32_t body = 1; body < s->body_count; ++body) {
        for (int k = 0; k < 3; k += 2) {
            float far = fmaxf(fabsf(p->boxes[body].low[k]), fabsf(p->boxes[body].high[k]));
            reach = far > reach ? far : reach;
        }
    }
    uint32_t ground;
    mf_status status = scene_store_add_box(s, (mf_vec3){reach + 1.0f, 0.5f, reach + 1.0f}, &ground);
    s->body_shape[0] = ground;
    s->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    return status;
}

static void release(pile *p)
{
    for (uint32_t i = 0; p->shapes != NULL && i < p->shape_count; ++i) scene_geometry_free(&p->shapes[i]);
    free(p->shapes);
    scene_drop_body_free(&p->above);
    scene_drop_body_free(&p->below);
    free(p->boxes);
    free(p->cell_head);
    free(p->next_in_cell);
    free(p->near);
    free(p->candidates);
}

// Every body but the ground makes at least one pair (with what holds it up), so pair_count + 1
// bodies always suffice; the drops stop once the pairs reach pair_count, keeping all of the last
// body's pairs, so the scene may hold a few more pairs than asked for.
mf_status scene_recipe_pile_step(scene *s, uint32_t pair_count, scene_random *random)
{
    pile p = {.s = s};
    int32_t half_width = 0;
    uint32_t site_count = pair_count / (PILE_PAIRS_PER_BODY * PILE_LAYERS) + 1;
    pile_site *sites = make_sites(site_count, &half_width);
    mf_status status =
        sites != NULL ? scene_store_create(s, "pile_step", pair_count + 1, pair_count) : MF_ERR_OUT_OF_MEMORY;
    p.pair_capacity = pair_count;
    if (status == MF_OK) status = add_shapes(&p, random);
    if (status == MF_OK) status = make_grid(&p, half_width);
    if (status == MF_OK) {
        s->pair_count = 0;
        status = drop_bodies(&p, pair_count, sites, site_count, random);
    }
    if (status == MF_OK) status = add_ground(&p);
    release(&p);
    free(sites);
    return status;
}

// The scenes but pile_step: how their shapes are chosen and how each pair's bodies are posed.
#include "scene_recipes.h"

#include "scene_bunny.h"
#include "scene_math.h"
#include "scene_rock.h"
#include "scene_store.h"

#define ROCK_POOL 32                 // distinct rock shapes in the hull scenes
#define PAIR_SPACING 4.0f            // pairs sit on a grid this far apart, clear of each other
#define SIN_ONE_DEGREE 0.0174524064f // sin(1 degree): the half angle of a 2 degree tilt

// Smallest n with n^3 >= count: the side of the grid that holds every pair.
static uint32_t grid_side(uint32_t count)
{
    uint32_t n = 1;
    while ((uint64_t)n * n * n < count) ++n;
    return n;
}

// Where pair i of count sits: a cube of sites around the origin.
static mf_vec3 pair_site(uint32_t i, uint32_t count)
{
    uint32_t n = grid_side(count);
    float centre = 0.5f * (float)(n - 1);
    return (mf_vec3){((float)(i % n) - centre) * PAIR_SPACING, ((float)(i / n % n) - centre) * PAIR_SPACING,
                     ((float)(i / n / n) - centre) * PAIR_SPACING};
}

// Largest extent of a posed shape along a world direction.
static float world_support(const scene *s, uint32_t body, mf_vec3 direction)
{
    const mf_transform *t = &s->body_transform[body];
    return scene_store_support(s, s->body_shape[body], scene_unrotate(t->q, direction)) + scene_dot(t->p, direction);
}

// The test a broad phase makes: do the world-aligned bounding boxes of the two bodies overlap?
static int bounding_boxes_overlap(const scene *s, uint32_t a, uint32_t b)
{
    static const mf_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int k = 0; k < 3; ++k) {
        mf_vec3 up = axes[k], down = scene_scale(up, -1.0f);
        if (world_support(s, a, up) < -world_support(s, b, down)) return 0;
        if (world_support(s, b, up) < -world_support(s, a, down)) return 0;
    }
    return 1;
}

// Poses both bodies of a pair overlapping: random orientations, centres closer than the sum of the
// inradii (so the inscribed balls, hence the bodies, intersect), mostly deep.
static void pose_overlapping(scene *s, scene_random *random, uint32_t a, uint32_t b, mf_vec3 site)
{
    float reach = scene_store_inradius(s, s->body_shape[a]) + scene_store_inradius(s, s->body_shape[b]);
    mf_vec3 direction = scene_random_direction(random);
    float distance = reach * scene_random_range(random, 0.35f, 1.0f);
    s->body_transform[a] = (mf_transform){site, scene_random_rotation(random)};
    s->body_transform[b] =
        (mf_transform){scene_add(site, scene_scale(direction, distance)), scene_random_rotation(random)};
}

// Pairs of their own two bodies, each body one of the given shapes at random, posed overlapping.
static void overlapping_pairs(scene *s, uint32_t pair_count, scene_random *random, const uint32_t *shapes,
                              uint32_t shape_count)
{
    for (uint32_t i = 0; i < pair_count; ++i) {
        uint32_t a = 2 * i, b = 2 * i + 1;
        s->body_shape[a] = shapes[scene_random_below(random, shape_count)];
        s->body_shape[b] = shapes[scene_random_below(random, shape_count)];
        s->pairs[i] = (mf_pair){a, b};
        pose_overlapping(s, random, a, b, pair_site(i, pair_count));
    }
}

mf_status scene_recipe_box_box(scene *s, uint32_t pair_count, scene_random *random)
{
    uint32_t box;
    mf_status status = scene_store_create(s, "box_box", 2 * pair_count, pair_count);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.5f, 0.5f, 0.5f}, &box);
    if (status == MF_OK) overlapping_pairs(s, pair_count, random, &box, 1);
    return status;
}

static mf_status rock_scene(scene *s, const char *name, uint32_t points, uint32_t pair_count, scene_random *random)
{
    uint32_t rocks[ROCK_POOL];
    mf_status status = scene_store_create(s, name, 2 * pair_count, pair_count);
    for (uint32_t i = 0; status == MF_OK && i < ROCK_POOL; ++i)
        status = scene_rock_add(s, random, points, 1.0f, &rocks[i]);
    if (status == MF_OK) overlapping_pairs(s, pair_count, random, rocks, ROCK_POOL);
    return status;
}

// The hull size family: the same rocks and overlaps with ever more points, so that the cost per
// pair can be read against hull size. The more points on the shell, the more fall inside the hull:
// hull32's rocks have about 29 vertices, hull256's about 106.
mf_status scene_recipe_hull8(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull8", 8, pair_count, random);
}

mf_status scene_recipe_hull16(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull16", 16, pair_count, random);
}

mf_status scene_recipe_hull32(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull32", 32, pair_count, random);
}

mf_status scene_recipe_hull48(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull48", 48, pair_count, random);
}

mf_status scene_recipe_hull64(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull64", 64, pair_count, random);
}

mf_status scene_recipe_hull128(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull128", 128, pair_count, random);
}

mf_status scene_recipe_hull256(scene *s, uint32_t pair_count, scene_random *random)
{
    return rock_scene(s, "hull256", 256, pair_count, random);
}

// Every body the bunny's hull, the size of a rock, posed as in the rock scenes. One shape for all,
// as a game's many copies of one asset: its rows stay in cache, where the rock pools' may not.
mf_status scene_recipe_hull_bunny(scene *s, uint32_t pair_count, scene_random *random)
{
    uint32_t bunny;
    mf_status status = scene_store_create(s, "hull_bunny", 2 * pair_count, pair_count);
    if (status == MF_OK) status = scene_bunny_add(s, 1.0f, &bunny);
    if (status == MF_OK) overlapping_pairs(s, pair_count, random, &bunny, 1);
    return status;
}

// One ground slab (body 0, top face at y = 0) shared by a grid of unit boxes lying face down on it:
// turned about the vertical at random, tilted under 2 degrees, sunk 0-5 mm at their lowest corner.
mf_status scene_recipe_box_resting(scene *s, uint32_t pair_count, scene_random *random)
{
    const float spacing = 1.5f;
    uint32_t side = 1;
    while ((uint64_t)side * side < pair_count) ++side;
    float half_width = 0.5f * spacing * (float)side + 1.0f;

    uint32_t ground, box;
    mf_status status = scene_store_create(s, "box_resting", pair_count + 1, pair_count);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){half_width, 0.5f, half_width}, &ground);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.5f, 0.5f, 0.5f}, &box);
    if (status != MF_OK) return status;
    s->body_shape[0] = ground;
    s->body_transform[0] = (mf_transform){{0.0f, -0.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};

    float centre = 0.5f * (float)(side - 1);
    for (uint32_t i = 0; i < pair_count; ++i) {
        uint32_t body = i + 1;
        mf_vec3 axis = scene_random_direction(random); // tilt axis: its horizontal part, normalised
        float horizontal = sqrtf(axis.x * axis.x + axis.z * axis.z);
        float sine = horizontal > 1e-3f ? SIN_ONE_DEGREE * scene_random_unit(random) / horizontal : 0.0f;
        float cosine = sqrtf(1.0f - (axis.x * axis.x + axis.z * axis.z) * sine * sine);
        mf_quat tilt = {axis.x * sine, 0.0f, axis.z * sine, cosine};
        mf_quat q = scene_quat_then(scene_random_yaw(random), tilt);

        s->body_shape[body] = box;
        s->body_transform[body].q = q;
        float below = scene_store_support(s, box, scene_unrotate(q, (mf_vec3){0.0f, -1.0f, 0.0f}));
        float sink = scene_random_range(random, 0.0f, 0.005f);
        s->body_transform[body].p =
            (mf_vec3){((float)(i % side) - centre) * spacing, below - sink, ((float)(i / side) - centre) * spacing};
        s->pairs[i] = (mf_pair){0, body};
    }
    return MF_OK;
}

// What a broad phase hands over: bounding boxes overlap, but about 70% of the pairs are 30-400 mm
// apart; the rest overlap by up to 100 mm. Boxes and rocks of two sizes, all about a metre across.
// B's farthest point along -d is put at A's farthest point along d, plus d times the gap: with a
// positive gap the plane between them separates the bodies and the two points are closest, so the
// distance is the gap; with a negative one B's point lies inside A.
mf_status scene_recipe_nearmiss(scene *s, uint32_t pair_count, scene_random *random)
{
    enum { BOXES = 2, ROCKS16 = 8, ROCKS48 = 4 };
    mf_status status = scene_store_create(s, "nearmiss", 2 * pair_count, pair_count);
    uint32_t boxes[BOXES], rocks[ROCKS16 + ROCKS48];
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.5f, 0.5f, 0.5f}, &boxes[0]);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.6f, 0.25f, 0.4f}, &boxes[1]);
    for (uint32_t i = 0; status == MF_OK && i < ROCKS16 + ROCKS48; ++i) {
        status = scene_rock_add(s, random, i < ROCKS16 ? 16 : 48, 0.6f, &rocks[i]);
    }
    if (status != MF_OK) return status;

    for (uint32_t i = 0; i < pair_count; ++i) {
        uint32_t a = 2 * i, b = 2 * i + 1;
        for (uint32_t k = 0; k < 2; ++k) {
            int box = scene_random_unit(random) < 0.5f;
            s->body_shape[a + k] =
                box ? boxes[scene_random_below(random, BOXES)] : rocks[scene_random_below(random, ROCKS16 + ROCKS48)];
        }
        s->pairs[i] = (mf_pair){a, b};
        int apart = scene_random_unit(random) < 0.7f;
        mf_vec3 site = pair_site(i, pair_count);
        // Redraw the pose until the bounding boxes overlap; after many misses keep the last pose.
        for (int attempt = 0; attempt < 64; ++attempt) {
            mf_vec3 d = scene_random_direction(random);
            float gap = apart ? scene_random_range(random, 0.03f, 0.4f) : -scene_random_range(random, 0.0f, 0.1f);
            mf_quat qa = scene_random_rotation(random);
            mf_quat qb = scene_random_rotation(random);
            mf_vec3 tip_a = scene_rotate(qa, scene_store_support_point(s, s->body_shape[a], scene_unrotate(qa, d)));
            mf_vec3 tip_b = scene_rotate(
                qb, scene_store_support_point(s, s->body_shape[b], scene_unrotate(qb, scene_scale(d, -1.0f))));
            s->body_transform[a] = (mf_transform){site, qa};
            s->body_transform[b] =
                (mf_transform){scene_add(scene_add(site, scene_sub(tip_a, tip_b)), scene_scale(d, gap)), qb};
            if (bounding_boxes_overlap(s, a, b)) break;
        }
    }
    return MF_OK;
}

// A particle pile: bodies on a jittered cubic lattice 1.1 apart, each a cube, a slab or a rock at a
// random orientation, and the candidate pairs are lattice neighbours along +x, +y and +z, in lattice
// order. Bodies are shared between pairs, as in a simulation.
mf_status scene_recipe_crowd(scene *s, uint32_t pair_count, scene_random *random)
{
    const float spacing = 1.1f, jitter = 0.1f;
    uint32_t n = 2;
    while (3ull * n * n * (n - 1) < pair_count) ++n;

    uint32_t cube, slab, rock;
    mf_status status = scene_store_create(s, "crowd", n * n * n, pair_count);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.5f, 0.5f, 0.5f}, &cube);
    if (status == MF_OK) status = scene_store_add_box(s, (mf_vec3){0.6f, 0.3f, 0.45f}, &slab);
    if (status == MF_OK) status = scene_rock_add(s, random, 16, 0.55f, &rock);
    if (status != MF_OK) return status;

    float centre = 0.5f * (float)(n - 1);
    for (uint32_t body = 0; body < n * n * n; ++body) {
        float choice = scene_random_unit(random);
        s->body_shape[body] = choice < 0.4f ? cube : choice < 0.7f ? slab : rock;
        mf_vec3 cell = {(float)(body % n) - centre, (float)(body / n % n) - centre, (float)(body / n / n) - centre};
        mf_vec3 wobble;
        wobble.x = scene_random_range(random, -jitter, jitter);
        wobble.y = scene_random_range(random, -jitter, jitter);
        wobble.z = scene_random_range(random, -jitter, jitter);
        s->body_transform[body] =
            (mf_transform){scene_add(scene_scale(cell, spacing), wobble), scene_random_rotation(random)};
    }

    uint32_t made = 0;
    for (uint32_t body = 0; body < n * n * n && made < pair_count; ++body) {
        uint32_t x = body % n, y = body / n % n, z = body / n / n;
        if (x + 1 < n && made < pair_count) s->pairs[made++] = (mf_pair){body, body + 1};
        if (y + 1 < n && made < pair_count) s->pairs[made++] = (mf_pair){body, body + n};
        if (z + 1 < n && made < pair_count) s->pairs[made++] = (mf_pair){body, body + n * n};
    }
    return MF_OK;
}

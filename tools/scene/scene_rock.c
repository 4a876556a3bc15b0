// Rock shapes: random points on a thick spherical shell, kept when their hull is round enough.
#include "scene_rock.h"

#include "scene_math.h"
#include "scene_store.h"

#define ROCK_MAX_POINTS 256

// Whether the hull of the points holds a ball of the given radius around the origin, tried in a
// scratch bank so that a rejected rock leaves no trace in the scene. Fails only when the bank
// cannot build hulls at all (no qhull in this build, out of memory).
static mf_status rock_is_round_enough(const mf_vec3 *points, uint32_t point_count, float inradius, int *round)
{
    scene trial = {0};
    uint32_t shape;
    mf_status status = mf_bank_create(&trial.bank);
    if (status == MF_OK) status = mf_bank_add_hull(trial.bank, points, point_count, &shape);
    *round = status == MF_OK && scene_store_inradius(&trial, shape) > inradius;
    mf_bank_destroy(trial.bank);
    return status == MF_ERR_DEGENERATE_HULL ? MF_OK : status;
}

// A few draws in a hundred are redrawn; a thousand in a row means something else is wrong.
mf_status scene_rock_add(scene *s, scene_random *random, uint32_t point_count, float radius, uint32_t *shape)
{
    mf_vec3 points[ROCK_MAX_POINTS];
    if (point_count > ROCK_MAX_POINTS) return MF_ERR_INVALID_ARGUMENT;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        for (uint32_t i = 0; i < point_count; ++i) {
            mf_vec3 direction = scene_random_direction(random);
            points[i] = scene_scale(direction, radius * scene_random_range(random, 0.85f, 1.0f));
        }
        int round = 0;
        mf_status status = rock_is_round_enough(points, point_count, 0.25f * radius, &round);
        if (status != MF_OK) return status;
        if (round) return scene_store_add_hull(s, points, point_count, shape);
    }
    return MF_ERR_DEGENERATE_HULL;
}

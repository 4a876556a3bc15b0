// SAT caching. A cached axis that still separates by the margin settles an apart pair exactly (the
// pair's separation is at least that axis'). Otherwise the search's best is at most the pair's
// signed distance (minus the penetration depth when the bodies overlap, where the two are equal),
// which moves by at most the distance b's points moved in a's frame, δ. An entry keeps an upper
// bound of the signed distance: the best itself for an overlapping pair, else the nearest
// contact's |separation| (its two points lie on the two surfaces). So if the cached axis is within
// linear_slop of that bound plus δ, it is within the slop of the best now, and the search can be
// skipped. The bound then carries over to the next step.
#include "cache.h"
#include "tolerances.h"

#include "continuity.h"
#include "core.h"
#include "scale.h"

#include <math.h>
#include <stddef.h>

_Static_assert(sizeof(mf_pair_cache) == 192, "manyfold.h states the entry's size");

static mf_quat quat_multiply(mf_quat a, mf_quat b)
{
    return (mf_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

static mf_quat quat_conjugate(mf_quat q) { return (mf_quat){-q.x, -q.y, -q.z, q.w}; }

// b's pose in a's frame, and a's rotation.
static void relative_pose(const mf_bodies *bodies, mf_pair pair, mf_quat *rotation, mf_vec3 *position,
                          mf_mat3 *rotation_a)
{
    const mf_transform *ta = &bodies->transform[pair.a], *tb = &bodies->transform[pair.b];
    mf_quat qa = mf_quat_normalize(ta->q), qb = mf_quat_normalize(tb->q);
    *rotation_a = mf_mat3_from_quat(qa);
    *rotation = quat_multiply(quat_conjugate(qa), qb);
    *position = mf_mat3_mul_transposed(rotation_a, mf_sub(tb->p, ta->p));
}

// Keeps the manifold in the entry for reuse (PhysX's persistent contact manifold): each contact as
// its two surface points, the midpoint less and plus half the separation along the normal, fixed
// in a's frame (both: b's point is carried with b by the relative pose), and the normal in a's
// frame. Manifolds with more contacts than the entry holds are not kept.
static void keep_contacts(mf_pair_cache *entry, mf_vec3 position_a, const mf_mat3 *rotation_a,
                          const mf_pair_result *result)
{
    entry->contact_count = 0;
    entry->age = 0;
    if (result == NULL || result->count > MF_CACHE_CONTACTS) return;
    mf_vec3 normal = mf_mat3_mul_transposed(rotation_a, result->normal);
    // b's point goes into b's frame from a's: the inverse of the relative pose.
    mf_mat3 relative = mf_mat3_from_quat(entry->relative_rotation);
    for (uint32_t k = 0; k < result->count; ++k) {
        const mf_contact *c = &result->contacts[k];
        mf_vec3 point = mf_mat3_mul_transposed(rotation_a, mf_sub(c->point, position_a));
        mf_vec3 on_b = mf_mul_add(point, 0.5f * c->separation, normal);
        entry->contacts[k] =
            (mf_cached_contact){mf_mul_add(point, -0.5f * c->separation, normal),
                                mf_mat3_mul_transposed(&relative, mf_sub(on_b, entry->relative_position)), c->id};
    }
    entry->normal = normal;
    entry->contact_count = (uint8_t)result->count;
}

static uint32_t encode_axis(const mf_axis *axis)
{
    return ((uint32_t)axis->kind + 1u) | axis->feature_a << 2 | axis->feature_b << 17;
}

// The entry's axis (encode_axis undone), separation and normal not yet evaluated.
static mf_axis decode_axis(const mf_pair_cache *entry)
{
    return (mf_axis){
        (mf_axis_kind)((entry->axis & 3u) - 1u), 0.0f, entry->axis >> 2 & 0x7fffu, entry->axis >> 17, {0, 0, 0}};
}

// Whether the entry holds an answer for the pair's bodies: their shapes, made by the same adds of
// the bank (an id freed by a removal may name a new shape since), at the same scales. An empty or
// foreign entry does not; nor one of other scales, whose lengths (separations, kept points, bounds)
// are another body's.
static int fits_pair(const mf_pair_cache *entry, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair)
{
    return entry->axis != 0 && entry->shape_a == bodies->shape[pair.a] && entry->shape_b == bodies->shape[pair.b] &&
           entry->serial_a == bank->shapes[entry->shape_a].serial &&
           entry->serial_b == bank->shapes[entry->shape_b].serial && entry->scale_a == mf_body_scale(bodies, pair.a) &&
           entry->scale_b == mf_body_scale(bodies, pair.b);
}

// An upper bound of the pair's signed distance from its contacts: the nearest contact's
// |separation| (or the distance the result states, where its contact understates it), a hair more
// for the rounding of its points and the clamping of edge contacts' closest points
// (mf_edge_contact's slack); infinity without contacts.
static float distance_bound(const mf_pair_result *result, float scale)
{
    float nearest = INFINITY;
    for (uint32_t k = 0; result != NULL && k < result->count; ++k)
        nearest = mf_minf(nearest, fabsf(result->contacts[k].separation));
    if (result != NULL && result->count > 0 && result->distance < INFINITY) nearest = result->distance;
    return nearest + MF_DISTANCE_SLACK * scale;
}

int mf_cache_kept_axis(const mf_pair_cache *entry, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                       mf_axis *axis, mf_vec3 *normal)
{
    if (entry == NULL || !fits_pair(entry, bank, bodies, pair) || entry->contact_count == 0) return 0;
    *axis = decode_axis(entry);
    *normal = entry->normal;
    return 1;
}

// How far the bodies moved relative to each other since the entry was written: b's pose in a's
// frame now, the chord of the turn (2 sin(θ/2) = 2 |xyz| of the change quaternion: how far it
// moves a point at unit distance from the axis) and the bound δ on how far any point of b moved
// in a's frame, the change of b's origin there plus the chord times b's radius.
typedef struct pose_change {
    mf_quat rotation;
    mf_vec3 position;
    float chord, b_moved;
} pose_change;

static pose_change pose_change_of(const mf_bodies *bodies, mf_pair pair, const mf_pair_cache *entry, float b_radius)
{
    pose_change c;
    mf_mat3 rotation_a;
    relative_pose(bodies, pair, &c.rotation, &c.position, &rotation_a);
    mf_quat change = quat_multiply(c.rotation, quat_conjugate(entry->relative_rotation));
    c.chord = 2.0f * mf_length((mf_vec3){change.x, change.y, change.z});
    c.b_moved = mf_length(mf_sub(c.position, entry->relative_position)) + c.chord * b_radius;
    return c;
}

// A pair apart along a face axis last step stays apart while that face's separation, less how far
// the other hull's points can have moved in the face's frame since, reaches the margin: settled
// from the poses alone, without moving a vertex. b's points in a's frame moved at most
// change->b_moved, and a's points in b's frame at most the change of a's origin there plus the
// chord times a's radius (the turn has the same angle seen from either body). A hair more covers
// the float rounding of the poses. 1 if it settles the pair, with the separation's lower bound.
static int still_apart(const mf_config *config, const mf_bank *bank, const mf_pair_cache *entry,
                       const pose_change *change, float *bound)
{
    mf_axis_kind kind = (mf_axis_kind)((entry->axis & 3u) - 1u);
    if (!(entry->separation >= config->margin) || (kind != MF_AXIS_FACE_A && kind != MF_AXIS_FACE_B)) return 0;
    // The bodies' radii at the entry's scales, which are the bodies' (fits_pair).
    float radius_a = bank->shapes[entry->shape_a].radius * entry->scale_a;
    float radius_b = bank->shapes[entry->shape_b].radius * entry->scale_b;
    float moved = change->b_moved;
    if (kind == MF_AXIS_FACE_B) {
        // a's origin in b's frame is -R^T p (its sign drops out of the change).
        mf_mat3 now = mf_mat3_from_quat(change->rotation), before = mf_mat3_from_quat(entry->relative_rotation);
        mf_vec3 origin_now = mf_mat3_mul_transposed(&now, change->position);
        mf_vec3 origin_before = mf_mat3_mul_transposed(&before, entry->relative_position);
        moved = mf_length(mf_sub(origin_now, origin_before)) + change->chord * radius_a;
    }
    moved += MF_LENGTH_NOISE * (radius_a + radius_b + mf_length(change->position));
    float separation = entry->separation - moved;
    if (!(separation >= config->margin)) return 0;
    *bound = separation; // a lower bound, as it stays from step to step
    return 1;
}

int mf_cache_keeps_manifold(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                            const mf_pair_cache *entry)
{
    return fits_pair(entry, bank, bodies, pair) && entry->contact_count > 0 &&
           entry->contact_count <= MF_CACHE_CONTACTS && entry->contact_count <= config->max_contacts &&
           entry->age < MF_CACHE_REUSE_STEPS;
}

mf_cache_hint mf_cache_recall(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                              const mf_pair_cache *entry, mf_pair_answer *answer)
{
    if (!fits_pair(entry, bank, bodies, pair)) return MF_CACHE_NOTHING;
    // Touching boxes whose kept manifold could not be reused: their search (9 edge axes, in SIMD
    // bundles) costs less than this scalar re-test, and the clip costs the same either way. The
    // cache serves them when they are apart.
    if (entry->separation < config->margin && bank->shapes[entry->shape_a].parallelepiped &&
        bank->shapes[entry->shape_b].parallelepiped)
        return MF_CACHE_NOTHING;
    pose_change change = pose_change_of(bodies, pair, entry, bank->shapes[entry->shape_b].radius * entry->scale_b);
    *answer = (mf_pair_answer){.kind = MF_ANSWER_CLIPPED,
                               .axis = decode_axis(entry),
                               .best = entry->best + change.b_moved,
                               .relative_rotation = change.rotation,
                               .relative_position = change.position};
    if (still_apart(config, bank, entry, &change, &answer->axis.separation)) {
        answer->kind = MF_ANSWER_STILL_APART;
        return MF_CACHE_APART;
    }
    return MF_CACHE_RETEST;
}

int mf_cache_axis_serves(const mf_config *config, const mf_pair_answer *answer)
{
    // Never with an infinite bound.
    return answer->axis.separation >= answer->best - config->linear_slop;
}

// A searched pair's entry: the answer's axis, the bound of its distance, and where the axis gave
// contacts, the manifold kept after continuity with the previous entry.
static void store_searched(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                           const mf_pair_cache *previous, const mf_pair_answer *answer, mf_pair_result *result,
                           mf_pair_cache *entry)
{
    float best = answer->best;
    mf_pair_cache next = {.shape_a = bodies->shape[pair.a],
                          .shape_b = bodies->shape[pair.b],
                          .axis = encode_axis(&answer->axis),
                          .separation = answer->axis.separation,
                          .route = MF_ROUTE_SEARCHED,
                          .scale_a = mf_body_scale(bodies, pair.a),
                          .scale_b = mf_body_scale(bodies, pair.b),
                          .serial_a = bank->shapes[bodies->shape[pair.a]].serial,
                          .serial_b = bank->shapes[bodies->shape[pair.b]].serial};
    mf_mat3 rotation_a;
    relative_pose(bodies, pair, &next.relative_rotation, &next.relative_position, &rotation_a);
    mf_vec3 position_a = bodies->transform[pair.a].p;
    // The distance bound from the clip's contacts alone: the kept ones continuity adds may have
    // slid by up to the slop.
    next.best = best < 0.0f ? best : distance_bound(answer->used ? result : NULL, answer->scale);
    // The previous entry may be this one (written in place): read before it is overwritten.
    if (answer->used) {
        mf_continue_manifold(config, previous, &next, &rotation_a, position_a, result);
        keep_contacts(&next, position_a, &rotation_a, result);
    }
    *entry = next;
}

// A pair the entry answered: the entry as it was, at the pose now, with the kept axis' separation
// now (a lower bound where the poses alone settled it apart).
static mf_pair_cache carried_entry(const mf_pair_cache *previous, const mf_pair_answer *answer)
{
    mf_pair_cache next = *previous;
    next.separation = answer->axis.separation;
    next.relative_rotation = answer->relative_rotation;
    next.relative_position = answer->relative_position;
    return next;
}

// A pair whose kept axis was clipped again: its bound is the least of the entry's carried to now
// and the clip's contacts' (alone, as for a searched pair); its new contacts continue the kept
// manifold, and are kept in their turn.
static void store_clipped(const mf_config *config, const mf_bodies *bodies, mf_pair pair, const mf_pair_cache *previous,
                          const mf_pair_answer *answer, mf_pair_result *result, mf_pair_cache *entry)
{
    mf_pair_cache next = carried_entry(previous, answer);
    next.contact_count = 0;
    next.age = 0;
    mf_mat3 rotation_a = mf_mat3_from_quat(mf_quat_normalize(bodies->transform[pair.a].q)); // as the frame's
    mf_vec3 position_a = bodies->transform[pair.a].p;
    next.best = mf_minf(answer->best, distance_bound(result, answer->scale));
    mf_continue_manifold(config, previous, &next, &rotation_a, position_a, result);
    next.route = MF_ROUTE_CLIPPED;
    keep_contacts(&next, position_a, &rotation_a, result);
    *entry = next;
}

void mf_cache_write(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                    const mf_pair_cache *previous, const mf_pair_answer *answer, mf_pair_result *result,
                    mf_pair_cache *entry)
{
    MF_ASSERT(previous != NULL && entry != NULL);
    switch (answer->kind) {
    case MF_ANSWER_EMPTY:
        *entry = (mf_pair_cache){0};
        return;
    case MF_ANSWER_SEARCHED:
        store_searched(config, bank, bodies, pair, previous, answer, result, entry);
        return;
    case MF_ANSWER_STILL_APART: {
        mf_pair_cache next = carried_entry(previous, answer);
        next.best = INFINITY; // no contacts: no bound
        next.route = MF_ROUTE_APART;
        *entry = next;
        return;
    }
    case MF_ANSWER_APART: {
        mf_pair_cache next = carried_entry(previous, answer);
        next.contact_count = 0;
        next.age = 0;
        next.best = INFINITY;
        next.route = MF_ROUTE_APART;
        *entry = next;
        return;
    }
    case MF_ANSWER_CLIPPED:
        store_clipped(config, bodies, pair, previous, answer, result, entry);
        return;
    case MF_ANSWER_REUSED: {
        // In place, only the step count and the route change.
        uint8_t age = (uint8_t)(previous->age + 1u);
        if (entry != previous) *entry = *previous;
        entry->age = age;
        entry->route = MF_ROUTE_REUSED;
        return;
    }
    }
}

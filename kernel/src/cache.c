// SAT caching. A cached axis that still separates by the margin settles an apart pair exactly (the
// pair's separation is at least that axis'). Otherwise the search's best is at most the pair's
// signed distance (minus the penetration depth when the bodies overlap, where the two are equal),
// which moves by at most the distance b's points moved in a's frame, δ. An entry keeps an upper
// bound of the signed distance: the best itself for an overlapping pair, else the nearest
// contact's |separation| (its two points lie on the two surfaces). So if the cached axis is within
// linear_slop of that bound plus δ, it is within the slop of the best now, and the search can be
// skipped. The bound then carries over to the next step.
#include "cache.h"

#include "pair.h"

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

// Whether two entries were written for the same bodies: shapes (the same adds) and scales.
static int same_bodies(const mf_pair_cache *x, const mf_pair_cache *y)
{
    return x->shape_a == y->shape_a && x->shape_b == y->shape_b && x->serial_a == y->serial_a &&
           x->serial_b == y->serial_b && x->scale_a == y->scale_a && x->scale_b == y->scale_b;
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
    return nearest + 1e-4f * scale;
}

// Whether `id` names one of the result's first `count` contacts.
static int has_id(const mf_pair_result *result, uint32_t count, uint32_t id)
{
    for (uint32_t n = 0; n < count; ++n)
        if (result->contacts[n].id == id) return 1;
    return 0;
}

// The previous entry's kept contacts carried with the bodies to now, in a's frame: each one's
// midpoint and the gap from its point on a to its point on b, and whether a new contact stands in
// its place.
typedef struct carried_contacts {
    const mf_pair_cache *previous;
    mf_vec3 point[MF_CACHE_CONTACTS], between[MF_CACHE_CONTACTS];
    int matched[MF_CACHE_CONTACTS];
} carried_contacts;

// Names: each new contact within a quarter of the slop of a carried one takes its id (unless
// another contact has it already). named[n]: new contact n stands where a kept one stood, or
// carries a kept id.
static void name_contacts(const mf_config *config, carried_contacts *kept, const mf_mat3 *rotation_a,
                          mf_vec3 position_a, mf_pair_result *result, int named[MF_MAX_CONTACTS])
{
    const mf_pair_cache *previous = kept->previous;
    float near = 0.25f * config->linear_slop;
    for (uint32_t n = 0; n < result->count; ++n) {
        mf_contact *contact = &result->contacts[n];
        mf_vec3 local = mf_mat3_mul_transposed(rotation_a, mf_sub(contact->point, position_a));
        uint32_t nearest = MF_CACHE_CONTACTS;
        float nearest_squared = near * near; // distances compared squared
        for (uint32_t k = 0; k < previous->contact_count; ++k) {
            mf_vec3 d = mf_sub(kept->point[k], local);
            float squared = mf_dot(d, d);
            if (!kept->matched[k] && squared < nearest_squared) nearest = k, nearest_squared = squared;
        }
        if (nearest == MF_CACHE_CONTACTS) continue;
        kept->matched[nearest] = 1;
        named[n] = 1;
        uint32_t id = previous->contacts[nearest].id;
        if (id != contact->id && !has_id(result, result->count, id)) contact->id = id;
    }
    for (uint32_t n = 0; n < result->count; ++n) // a new contact under a kept id persists too
        for (uint32_t k = 0; k < previous->contact_count; ++k)
            named[n] |= result->contacts[n].id == previous->contacts[k].id;
}

// Entry: drops the new contacts that no kept one names and that lie within the slop of the
// margin, never the deepest, keeping named[] in step; returns where the deepest now is.
static uint32_t admit_new_contacts(const mf_config *config, mf_pair_result *result, int named[MF_MAX_CONTACTS])
{
    uint32_t count = 0, deepest_at = 0;
    for (uint32_t n = 1; n < result->count; ++n)
        if (result->contacts[n].separation < result->contacts[deepest_at].separation) deepest_at = n;
    float entry = config->margin - config->linear_slop;
    for (uint32_t n = 0; n < result->count; ++n) {
        if (!named[n] && n != deepest_at && !(result->contacts[n].separation < entry)) continue;
        if (n == deepest_at) deepest_at = count;
        named[count] = named[n];
        result->contacts[count++] = result->contacts[n];
    }
    result->count = count;
    return deepest_at;
}

// Persistence: the carried contacts no new one stands for, where they still hold (see
// continue_manifold), fill the room max_contacts leaves, then take the places of new contacts
// that nothing named, never the deepest's.
static void keep_persisting_contacts(const mf_config *config, const carried_contacts *kept, mf_vec3 normal,
                                     const mf_mat3 *rotation_a, mf_vec3 position_a, uint32_t deepest_at,
                                     int named[MF_MAX_CONTACTS], mf_pair_result *result)
{
    const mf_pair_cache *previous = kept->previous;
    float deepest = result->contacts[deepest_at].separation;
    float slop_squared = config->linear_slop * config->linear_slop;
    uint32_t count = result->count;
    for (uint32_t k = 0; k < previous->contact_count; ++k) {
        uint32_t id = previous->contacts[k].id;
        float separation = mf_dot(kept->between[k], normal);
        mf_vec3 slide = mf_mul_add(kept->between[k], -separation, normal);
        if (kept->matched[k] || has_id(result, count, id) ||
            !(separation >= deepest - 0.5f * config->linear_slop &&
              separation < config->margin + config->linear_slop) ||
            !(mf_dot(slide, slide) < slop_squared))
            continue;
        uint32_t slot = count;
        if (count == config->max_contacts) { // full: a new contact no kept one named gives way
            slot = MF_MAX_CONTACTS;
            for (uint32_t n = 0; n < count && slot == MF_MAX_CONTACTS; ++n)
                if (!named[n] && n != deepest_at) slot = n;
            if (slot == MF_MAX_CONTACTS) break;
            named[slot] = 1;
        } else {
            ++count;
        }
        result->contacts[slot] =
            (mf_contact){mf_add(mf_mat3_mul(rotation_a, kept->point[k]), position_a), separation, id};
    }
    result->count = count;
}

// Continuity with the previous entry's kept manifold, where the new clip has the kept normal
// (within 2.5 degrees), the kept contacts carried with the bodies to now:
// - Names: a new contact within a quarter of the slop of a kept one takes the kept one's id. Where
//   features tie (a corner on a corner or an edge), the clip names a point by whichever feature
//   the float noise favours; the point, not the name, is what persists.
// - Entry: a new contact that no kept one names comes in only a slop inside the margin (the deepest
//   always does), as kept ones leave only a slop past it: a corner at the margin does not come
//   and go as the bodies jitter, nor appear whenever a reused manifold is clipped again.
// - Persistence: kept contacts the clip left out stay, as reuse keeps them (reuse_pass.c), where
//   they sit less than the slop past the margin, no deeper than half the slop below the clip's
//   deepest (which attains the best axis), and their two points have slid along each other by
//   under the slop. A contact at the margin does not come and go with every jitter, nor one of two
//   nearly coincident points (a short edge, a corner on a corner) with whichever the clip and the
//   reduction happen to keep. They fill the room max_contacts leaves; a full result gives up new
//   contacts that carry no kept id for them (never its deepest): the reduction would otherwise
//   alternate between sets of about equal worth as the poses jitter.
static void continue_manifold(const mf_config *config, const mf_pair_cache *previous, const mf_pair_cache *now,
                              const mf_mat3 *rotation_a, mf_vec3 position_a, mf_pair_result *result)
{
    if (previous == NULL || previous->axis == 0 || !same_bodies(previous, now) ||
        previous->contact_count > MF_CACHE_CONTACTS || result->count == 0)
        return;
    mf_vec3 normal = mf_mat3_mul_transposed(rotation_a, result->normal);
    if (!(mf_dot(previous->normal, normal) >= 0.999f)) return;
    // In a's frame, b's kept points carried by b's pose there now.
    mf_mat3 relative = mf_mat3_from_quat(now->relative_rotation);
    carried_contacts kept = {.previous = previous};
    for (uint32_t k = 0; k < previous->contact_count; ++k) {
        const mf_cached_contact *c = &previous->contacts[k];
        kept.between[k] = mf_sub(mf_add(mf_mat3_mul(&relative, c->on_b), now->relative_position), c->on_a);
        kept.point[k] = mf_mul_add(c->on_a, 0.5f, kept.between[k]);
    }
    int named[MF_MAX_CONTACTS] = {0};
    name_contacts(config, &kept, rotation_a, position_a, result, named);
    uint32_t deepest_at = admit_new_contacts(config, result, named);
    keep_persisting_contacts(config, &kept, normal, rotation_a, position_a, deepest_at, named, result);
}

void mf_cache_store(const mf_config *config, const mf_bank *bank, mf_pair_cache *entry, const mf_bodies *bodies,
                    mf_pair pair, const mf_axis_candidates *c, const mf_axis *used, mf_pair_result *result)
{
    float best = mf_best_separation(c);
    mf_axis axis = {MF_AXIS_FACE_A, c->face_a.separation, c->face_a.face, 0, {0, 0, 0}};
    if (used != NULL) {
        axis = *used;
    } else if (c->face_b.separation >= best) {
        axis = (mf_axis){MF_AXIS_FACE_B, c->face_b.separation, 0, c->face_b.face, {0, 0, 0}};
    } else if (c->edge.separation >= best && c->face_a.separation < best) {
        axis = (mf_axis){MF_AXIS_EDGES, c->edge.separation, c->edge.edge_a, c->edge.edge_b, c->edge.normal};
    }
    mf_pair_cache next = {.shape_a = bodies->shape[pair.a],
                          .shape_b = bodies->shape[pair.b],
                          .axis = encode_axis(&axis),
                          .separation = axis.separation,
                          .route = MF_ROUTE_SEARCHED,
                          .scale_a = mf_body_scale(bodies, pair.a),
                          .scale_b = mf_body_scale(bodies, pair.b),
                          .serial_a = bank->shapes[bodies->shape[pair.a]].serial,
                          .serial_b = bank->shapes[bodies->shape[pair.b]].serial};
    mf_mat3 rotation_a;
    relative_pose(bodies, pair, &next.relative_rotation, &next.relative_position, &rotation_a);
    mf_vec3 position_a = bodies->transform[pair.a].p;
    // The distance bound from the clip's contacts alone: the kept ones continue_manifold adds may
    // have slid by up to the slop.
    next.best = best < 0.0f ? best : distance_bound(used != NULL ? result : NULL, c->scale);
    // The previous entry may be this one (written in place): read before it is overwritten.
    if (used != NULL) {
        continue_manifold(config, result->previous, &next, &rotation_a, position_a, result);
        keep_contacts(&next, position_a, &rotation_a, result);
    }
    *entry = next;
}

int mf_cache_kept_axis(const mf_pair_cache *entry, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                       mf_axis *axis)
{
    if (entry == NULL || !fits_pair(entry, bank, bodies, pair) || entry->contact_count == 0) return 0;
    *axis = decode_axis(entry);
    return 1;
}

int mf_cache_evaluate_axis(const mf_pair_frame *frame, int projection, mf_axis *axis)
{
    const mf_hull_view *a = frame->a, *b = frame->b;
    if (axis->kind == MF_AXIS_FACE_A) {
        mf_vec3 normal = mf_view_normal(a, axis->feature_a);
        float support = INFINITY;
        for (uint32_t v = 0; v < b->vertex_count; ++v) support = mf_minf(support, mf_dot(normal, frame->b_vertices[v]));
        axis->separation = support - a->offset[axis->feature_a];
        return 1;
    }
    if (axis->kind == MF_AXIS_FACE_B) {
        mf_vec3 normal = mf_mat3_mul(&frame->rotation, mf_view_normal(b, axis->feature_b));
        float offset = b->offset[axis->feature_b] + mf_dot(normal, frame->translation), support = INFINITY;
        for (uint32_t v = 0; v < a->vertex_count; ++v) support = mf_minf(support, mf_dot(normal, mf_view_vertex(a, v)));
        axis->separation = support - offset;
        return 1;
    }
    mf_vec3 a_direction, b_direction, a_point = {0, 0, 0};
    if (projection) {
        a_direction = a->shape->directions[axis->feature_a];
        b_direction = b->shape->directions[axis->feature_b];
    } else {
        uint32_t i = axis->feature_a, j = axis->feature_b;
        a_direction = (mf_vec3){a->edge_x[i], a->edge_y[i], a->edge_z[i]};
        b_direction = (mf_vec3){b->edge_x[j], b->edge_y[j], b->edge_z[j]};
        a_point = mf_view_vertex(a, a->edge_vertex0[i]);
    }
    mf_vec3 normal = mf_cross(a_direction, mf_mat3_mul(&frame->rotation, b_direction));
    float length = mf_length(normal);
    if (length < MF_PARALLEL_SINE) return 0;
    normal = mf_scale(normal, 1.0f / length);
    if (projection) {
        // As in the projection query: the orientation that separates more.
        if (mf_projected_gap(frame, mf_neg(normal)) > mf_projected_gap(frame, normal)) normal = mf_neg(normal);
    } else if (mf_dot(normal, mf_sub(a_point, a->centroid)) < 0.0f) {
        normal = mf_neg(normal);
    }
    axis->normal = normal;
    axis->separation = mf_projected_gap(frame, normal);
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
// the float rounding of the poses. 1 if it settles the pair (result and entry written).
static int still_apart(const mf_config *config, const mf_bank *bank, const mf_pair_cache *entry,
                       const pose_change *change, mf_pair_result *result)
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
    moved += 1e-5f * (radius_a + radius_b + mf_length(change->position));
    float separation = entry->separation - moved;
    if (!(separation >= config->margin)) return 0;
    mf_pair_cache next = *entry;
    next.separation = separation; // a lower bound, as it stays from step to step
    next.best = INFINITY;         // no contacts: no bound
    next.relative_rotation = change->rotation;
    next.relative_position = change->position;
    next.route = MF_ROUTE_APART;
    result->count = 0;
    *result->cache = next;
    return 1;
}

int mf_cache_keeps_manifold(const mf_config *config, const mf_bank *bank, const mf_bodies *bodies, mf_pair pair,
                            const mf_pair_cache *entry)
{
    return fits_pair(entry, bank, bodies, pair) && entry->contact_count > 0 &&
           entry->contact_count <= MF_CACHE_CONTACTS && entry->contact_count <= config->max_contacts &&
           entry->age < MF_CACHE_REUSE_STEPS;
}

int mf_cache_answer(const mf_config *config, mf_pair_scratch *scratch, const mf_bank *bank, const mf_bodies *bodies,
                    mf_pair pair, const mf_pair_cache *entry, mf_pair_result *result)
{
    if (!fits_pair(entry, bank, bodies, pair)) return 0;
    // Touching boxes whose kept manifold could not be reused: their search (9 edge axes, in SIMD
    // bundles) costs less than this scalar re-test, and the clip costs the same either way. The
    // cache serves them when they are apart.
    if (entry->separation < config->margin && bank->shapes[entry->shape_a].parallelepiped &&
        bank->shapes[entry->shape_b].parallelepiped)
        return 0;
    pose_change change = pose_change_of(bodies, pair, entry, bank->shapes[entry->shape_b].radius * entry->scale_b);
    if (still_apart(config, bank, entry, &change, result)) return 1;
    mf_mat3 rotation_a;
    mf_pair_frame frame = mf_frame_setup(bank, bodies, pair, scratch, 0, &rotation_a);
    const mf_hull_view *a = frame.a, *b = frame.b;
    int projection = mf_uses_projection(a, b);
    mf_axis axis = decode_axis(entry);
    if (!mf_cache_evaluate_axis(&frame, projection, &axis)) return 0;

    mf_pair_cache next = *entry;
    next.separation = axis.separation;
    next.relative_rotation = change.rotation;
    next.relative_position = change.position;
    next.contact_count = 0;
    next.age = 0;
    if (axis.separation >= config->margin) {
        // Still apart along the cached axis, hence apart.
        result->count = 0;
        next.best = INFINITY;
        next.route = MF_ROUTE_APART;
        *result->cache = next;
        return 1;
    }

    float best_bound = entry->best + change.b_moved;
    if (!(axis.separation >= best_bound - config->linear_slop)) return 0; // never with an infinite bound

    // The cached axis is within the slop of the best: its contacts must attain its own separation.
    float allowance = mf_allowance(config->linear_slop, a->shape->radius + b->shape->radius, axis.separation);
    mf_contacts_of_axis(config, &frame, &axis, projection, axis.separation + allowance, &rotation_a,
                        bodies->transform[pair.a].p, result);
    if (result->count == 0) return 0;
    next.best = mf_minf(best_bound, distance_bound(result, a->shape->radius + b->shape->radius)); // clip's alone
    continue_manifold(config, entry, &next, &rotation_a, bodies->transform[pair.a].p, result);
    next.route = MF_ROUTE_CLIPPED;
    keep_contacts(&next, bodies->transform[pair.a].p, &rotation_a, result);
    *result->cache = next;
    return 1;
}

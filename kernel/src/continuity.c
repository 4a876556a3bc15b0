// Contact continuity from step to step (continuity.h): names, entry and persistence of contacts
// against the previous cache entry's kept manifold.
#include "continuity.h"

#include "vec.h"

#include <stddef.h>

// Whether two entries were written for the same bodies: shapes (the same adds) and scales.
static int same_bodies(const mf_pair_cache *x, const mf_pair_cache *y)
{
    return x->shape_a == y->shape_a && x->shape_b == y->shape_b && x->serial_a == y->serial_a &&
           x->serial_b == y->serial_b && x->scale_a == y->scale_a && x->scale_b == y->scale_b;
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
// mf_continue_manifold), fill the room max_contacts leaves, then take the places of new contacts
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

void mf_continue_manifold(const mf_config *config, const mf_pair_cache *previous, const mf_pair_cache *now,
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

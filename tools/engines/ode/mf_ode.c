// The ODE adapter (mf_ode.h): registered geoms and their proxies, the step's pairs from the
// proxies' sweep-and-prune space, each pair's mf_pair_cache entry carried from the last step, one
// mf_collide_cached (or mf_collide) call, and contact joints from its manifolds.
#include "mf_ode.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A registered geom: the caller's geom, and the adapter's proxy (a box or a ball) that finds its pairs.
typedef struct ode_entry {
    dGeomID geom;
    dGeomID proxy;
    dVector3 proxy_centre; // in the geom's frame
} ode_entry;

// An equal box registered once: ODE's lengths and the bank's shape.
typedef struct ode_box_shape {
    dVector3 lengths;
    uint32_t shape;
} ode_box_shape;

struct mf_ode {
    dWorldID world;
    mf_bank *bank;
    mf_ode_config config;
    mf_context *context;
    dSpaceID space; // the proxies'

    // Registered geoms; shapes and transforms are mf_collide's bodies, refreshed every step.
    ode_entry *entries;
    uint32_t *shapes;
    mf_transform *transforms;
    uint32_t entry_count, entry_capacity;

    ode_box_shape *boxes;
    uint32_t box_count, box_capacity;

    // The step's pairs (a < b, geom indices), sorted by (a, b) when cached, and their entries:
    // caches[i] is pairs[i]'s.
    mf_pair *pairs;
    mf_pair_cache *caches;
    uint32_t pair_count, pair_capacity, cache_capacity;
    int pairs_overflowed; // a pair list that could not grow: the step fails

    // The last successful cached step's pairs, sorted, and their entries: the next step takes its
    // entries from these. Swapped with pairs and caches after each step, so that in steady state
    // nothing is allocated. A geom's index never changes (geoms are only added), so a kept pair
    // names the same two geoms from step to step.
    mf_pair *kept_pairs;
    mf_pair_cache *kept_caches;
    uint32_t kept_count, kept_pair_capacity, kept_cache_capacity;

    mf_manifold *manifolds;
    mf_contact *contacts;
    uint32_t manifold_capacity, contact_capacity;

    char message[256];
};

static mf_status fail(mf_ode *adapter, mf_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(adapter->message, sizeof(adapter->message), format, args);
    va_end(args);
    return status;
}

// Grows an array to hold at least `needed` items: doubling, or to `needed` itself where doubling
// would pass UINT32_MAX. 0 when out of memory or when the bytes do not fit a size_t.
static int grow(void **items, uint32_t *capacity, uint32_t needed, size_t item_size)
{
    if (needed <= *capacity) return 1;
    uint32_t size = *capacity > 0 ? *capacity : 16;
    while (size < needed) size = size > UINT32_MAX / 2 ? needed : 2 * size;
    if (size > SIZE_MAX / item_size) return 0;
    void *grown = realloc(*items, (size_t)size * item_size);
    if (grown == NULL) return 0;
    *items = grown;
    *capacity = size;
    return 1;
}

mf_ode_config mf_ode_config_default(void)
{
    mf_ode_config config = {.collide = mf_config_default(), .step = 1.0 / 60.0};
    config.collide.threads = 1;
    config.collide.on_fault = MF_FAULT_SKIP; // one bad geom costs its own pairs, not the step
    config.surface.mode = dContactApprox1;
    config.surface.mu = 0.6;
    config.cached = 1;
    return config;
}

mf_status mf_ode_create(dWorldID world, mf_bank *bank, const mf_ode_config *config, mf_ode **out)
{
    if (out == NULL) return MF_ERR_INVALID_ARGUMENT;
    *out = NULL;
    mf_ode_config chosen = config != NULL ? *config : mf_ode_config_default();
    if (world == NULL || bank == NULL || !(chosen.step > 0) || !isfinite(chosen.step)) return MF_ERR_INVALID_ARGUMENT;
    mf_ode *adapter = calloc(1, sizeof(mf_ode));
    if (adapter == NULL) return MF_ERR_OUT_OF_MEMORY;
    adapter->world = world;
    adapter->bank = bank;
    adapter->config = chosen;
    mf_status status = mf_context_create(&chosen.collide, &adapter->context);
    if (status != MF_OK) {
        free(adapter);
        return status;
    }
    // Sorted along x, then z: for a y-up world the two spread axes. (ODE's hash space missed about
    // 0.3% of the overlapping pairs in #14's piles; sweep-and-prune missed none.)
    adapter->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XZY);
    dSpaceSetCleanup(adapter->space, 1); // the proxies go with the space
    *out = adapter;
    return MF_OK;
}

void mf_ode_destroy(mf_ode *adapter)
{
    if (adapter == NULL) return;
    dSpaceDestroy(adapter->space);
    mf_context_destroy(adapter->context);
    free(adapter->entries);
    free(adapter->shapes);
    free(adapter->transforms);
    free(adapter->boxes);
    free(adapter->pairs);
    free(adapter->caches);
    free(adapter->kept_pairs);
    free(adapter->kept_caches);
    free(adapter->manifolds);
    free(adapter->contacts);
    free(adapter);
}

const char *mf_ode_message(const mf_ode *adapter) { return adapter != NULL ? adapter->message : ""; }

// The proxy, whichever of two has the smaller bounding box for a turn at random: the shape's
// bounding box in its own frame, or the ball around the shape's origin that holds it, either grown
// by the margin on every side. Either one's world bounding box holds the shape's grown by the
// margin whatever the turn (a turned box's extent along an axis grows by the margin times at
// least 1). A random turn gives a box an extent of half the sum of its half extents on average,
// a ball its radius: boxes keep boxes, round rocks get balls (43% fewer candidate pairs in
// the rock pile: 970 a step against 1716 with boxes only).
static mf_status add_entry(mf_ode *adapter, dGeomID geom, uint32_t shape, const float low[3], const float high[3],
                           float radius)
{
    if (adapter->entry_count == adapter->entry_capacity) {
        // Three arrays grown one by one: each keeps its new block, the capacity only once all have.
        uint32_t capacity = adapter->entry_capacity > 0 ? 2 * adapter->entry_capacity : 16;
        ode_entry *entries = realloc(adapter->entries, capacity * sizeof(ode_entry));
        if (entries != NULL) adapter->entries = entries;
        uint32_t *shapes = entries != NULL ? realloc(adapter->shapes, capacity * sizeof(uint32_t)) : NULL;
        if (shapes != NULL) adapter->shapes = shapes;
        mf_transform *transforms =
            shapes != NULL ? realloc(adapter->transforms, capacity * sizeof(mf_transform)) : NULL;
        if (transforms == NULL)
            return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for geom %u", adapter->entry_count);
        adapter->transforms = transforms;
        adapter->entry_capacity = capacity;
    }
    ode_entry *entry = &adapter->entries[adapter->entry_count];
    float margin = adapter->config.collide.margin;
    dReal lengths[3], half_sum = 0.0;
    for (int k = 0; k < 3; ++k) {
        entry->proxy_centre[k] = 0.5 * ((dReal)low[k] + (dReal)high[k]);
        lengths[k] = (dReal)high[k] - (dReal)low[k] + 2.0 * (dReal)margin;
        half_sum += 0.5 * ((dReal)high[k] - (dReal)low[k]);
    }
    if (radius < 0.5 * half_sum) {
        for (int k = 0; k < 3; ++k) entry->proxy_centre[k] = 0.0;
        entry->proxy = dCreateSphere(adapter->space, (dReal)radius + (dReal)margin);
    } else {
        entry->proxy = dCreateBox(adapter->space, lengths[0], lengths[1], lengths[2]);
    }
    entry->geom = geom;
    dGeomSetData(entry->proxy, (void *)(uintptr_t)adapter->entry_count);
    adapter->shapes[adapter->entry_count] = shape;
    ++adapter->entry_count;
    return MF_OK;
}

mf_status mf_ode_add_box(mf_ode *adapter, dGeomID box)
{
    if (adapter == NULL) return MF_ERR_INVALID_ARGUMENT;
    if (box == NULL || dGeomGetClass(box) != dBoxClass)
        return fail(adapter, MF_ERR_INVALID_ARGUMENT, "mf_ode_add_box: the geom is no dBox");
    dVector3 lengths;
    dGeomBoxGetLengths(box, lengths);
    uint32_t shape = UINT32_MAX;
    for (uint32_t i = 0; i < adapter->box_count && shape == UINT32_MAX; ++i) {
        const dReal *known = adapter->boxes[i].lengths;
        if (known[0] == lengths[0] && known[1] == lengths[1] && known[2] == lengths[2]) shape = adapter->boxes[i].shape;
    }
    float half[3] = {(float)(0.5 * lengths[0]), (float)(0.5 * lengths[1]), (float)(0.5 * lengths[2])};
    if (shape == UINT32_MAX) {
        mf_status status = mf_bank_add_box(adapter->bank, (mf_vec3){half[0], half[1], half[2]}, &shape);
        if (status != MF_OK)
            return fail(adapter, status, "mf_ode_add_box: a box of lengths %g x %g x %g: %s", (double)lengths[0],
                        (double)lengths[1], (double)lengths[2], mf_status_string(status));
        if (!grow((void **)&adapter->boxes, &adapter->box_capacity, adapter->box_count + 1, sizeof(ode_box_shape)))
            return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for box shapes");
        ode_box_shape *known = &adapter->boxes[adapter->box_count++];
        memcpy(known->lengths, lengths, sizeof(dVector3));
        known->shape = shape;
    }
    float low[3] = {-half[0], -half[1], -half[2]};
    float radius = sqrtf(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
    return add_entry(adapter, box, shape, low, half, radius);
}

mf_status mf_ode_add_hull(mf_ode *adapter, dGeomID geom, uint32_t shape)
{
    if (adapter == NULL) return MF_ERR_INVALID_ARGUMENT;
    if (geom == NULL) return fail(adapter, MF_ERR_INVALID_ARGUMENT, "mf_ode_add_hull: no geom");
    mf_shape_info info;
    mf_status status = mf_bank_shape_info(adapter->bank, shape, &info);
    if (status != MF_OK) return fail(adapter, status, "mf_ode_add_hull: shape %u is not in the bank", shape);
    mf_vec3 *vertices = malloc(info.vertex_count * sizeof(mf_vec3));
    if (vertices == NULL) return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for shape %u", shape);
    status = mf_bank_shape_vertices(adapter->bank, shape, vertices, info.vertex_count);
    float low[3] = {INFINITY, INFINITY, INFINITY}, high[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; status == MF_OK && i < info.vertex_count; ++i) {
        const float v[3] = {vertices[i].x, vertices[i].y, vertices[i].z};
        for (int k = 0; k < 3; ++k) low[k] = fminf(low[k], v[k]), high[k] = fmaxf(high[k], v[k]);
    }
    free(vertices);
    if (status != MF_OK) return fail(adapter, status, "mf_ode_add_hull: shape %u: %s", shape, mf_status_string(status));
    return add_entry(adapter, geom, shape, low, high, info.radius);
}

// Copies each geom's pose to manyfold's bodies and to its proxy.
static void update_poses(mf_ode *adapter)
{
    for (uint32_t i = 0; i < adapter->entry_count; ++i) {
        ode_entry *entry = &adapter->entries[i];
        const dReal *position = dGeomGetPosition(entry->geom);
        const dReal *rotation = dGeomGetRotation(entry->geom); // 3x4, row major
        dQuaternion q;                                         // w, x, y, z
        dGeomGetQuaternion(entry->geom, q);
        adapter->transforms[i] = (mf_transform){{(float)position[0], (float)position[1], (float)position[2]},
                                                {(float)q[1], (float)q[2], (float)q[3], (float)q[0]}};
        const dReal *c = entry->proxy_centre;
        dReal centre[3];
        for (int k = 0; k < 3; ++k)
            centre[k] = position[k] + rotation[4 * k] * c[0] + rotation[4 * k + 1] * c[1] + rotation[4 * k + 2] * c[2];
        dGeomSetPosition(entry->proxy, centre[0], centre[1], centre[2]);
        dGeomSetRotation(entry->proxy, rotation);
    }
}

// A body takes part in contacts unless it is disabled; a geom without one is static.
static int is_awake(dBodyID body) { return body != NULL && dBodyIsEnabled(body); }

// The filters dSpaceCollide applies to the geoms it is given, applied to the registered geoms
// (the space only sees their proxies, whose flags and bits are the defaults): both enabled, and
// one's category bits meet the other's collide bits, either way round.
static int geoms_may_collide(dGeomID a, dGeomID b)
{
    if (!dGeomIsEnabled(a) || !dGeomIsEnabled(b)) return 0;
    return (dGeomGetCategoryBits(a) & dGeomGetCollideBits(b)) != 0 ||
           (dGeomGetCategoryBits(b) & dGeomGetCollideBits(a)) != 0;
}

// dSpaceCollide's callback: the proxies' bounding boxes overlap.
static void gather_pair(void *data, dGeomID proxy1, dGeomID proxy2)
{
    mf_ode *adapter = data;
    uint32_t a = (uint32_t)(uintptr_t)dGeomGetData(proxy1), b = (uint32_t)(uintptr_t)dGeomGetData(proxy2);
    dGeomID geom_a = adapter->entries[a].geom, geom_b = adapter->entries[b].geom;
    if (!geoms_may_collide(geom_a, geom_b)) return;
    dBodyID body_a = dGeomGetBody(geom_a), body_b = dGeomGetBody(geom_b);
    if (body_a == body_b) return; // one body, or two static geoms
    if (!is_awake(body_a) && !is_awake(body_b)) return;
    if (body_a != NULL && body_b != NULL && dAreConnectedExcluding(body_a, body_b, dJointTypeContact)) return;
    if (adapter->pair_count == UINT32_MAX ||
        !grow((void **)&adapter->pairs, &adapter->pair_capacity, adapter->pair_count + 1, sizeof(mf_pair))) {
        adapter->pairs_overflowed = 1;
        return;
    }
    adapter->pairs[adapter->pair_count++] = a < b ? (mf_pair){a, b} : (mf_pair){b, a};
}

static mf_status ensure_stream(mf_ode *adapter)
{
    uint32_t manifolds, contacts;
    mf_stream_bound(adapter->pair_count, adapter->config.collide.max_contacts, &manifolds, &contacts);
    if (!grow((void **)&adapter->manifolds, &adapter->manifold_capacity, manifolds, sizeof(mf_manifold)) ||
        !grow((void **)&adapter->contacts, &adapter->contact_capacity, contacts, sizeof(mf_contact)))
        return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for the contacts of %u pairs", adapter->pair_count);
    return MF_OK;
}

static int compare_pairs(const void *left, const void *right)
{
    const mf_pair *p = left, *q = right;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

// Gives each of the step's pairs the entry the same pair kept from the last step, or an empty one
// for a pair new this step: a merge of two lists sorted by (a, b), whatever order the proxies
// reported the pairs in.
static mf_status carry_entries(mf_ode *adapter)
{
    if (!grow((void **)&adapter->caches, &adapter->cache_capacity, adapter->pair_count, sizeof(mf_pair_cache)))
        return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for the entries of %u pairs", adapter->pair_count);
    if (adapter->pair_count > 0) qsort(adapter->pairs, adapter->pair_count, sizeof(mf_pair), compare_pairs);
    uint32_t k = 0;
    for (uint32_t i = 0; i < adapter->pair_count; ++i) {
        const mf_pair *pair = &adapter->pairs[i];
        while (k < adapter->kept_count && compare_pairs(&adapter->kept_pairs[k], pair) < 0) ++k;
        int kept = k < adapter->kept_count && compare_pairs(&adapter->kept_pairs[k], pair) == 0;
        adapter->caches[i] = kept ? adapter->kept_caches[k] : (mf_pair_cache){0};
    }
    return MF_OK;
}

// This step's pairs and entries become the kept ones; the kept arrays are reused next step.
static void keep_entries(mf_ode *adapter)
{
    mf_pair *pairs = adapter->kept_pairs;
    mf_pair_cache *caches = adapter->kept_caches;
    uint32_t pair_capacity = adapter->kept_pair_capacity, cache_capacity = adapter->kept_cache_capacity;
    adapter->kept_pairs = adapter->pairs, adapter->kept_pair_capacity = adapter->pair_capacity;
    adapter->kept_caches = adapter->caches, adapter->kept_cache_capacity = adapter->cache_capacity;
    adapter->kept_count = adapter->pair_count;
    adapter->pairs = pairs, adapter->pair_capacity = pair_capacity;
    adapter->caches = caches, adapter->cache_capacity = cache_capacity;
    adapter->pair_count = 0;
}

static uint32_t geom_index(const mf_ode *adapter, dGeomID geom)
{
    for (uint32_t i = 0; i < adapter->entry_count; ++i)
        if (adapter->entries[i].geom == geom) return i;
    return UINT32_MAX;
}

const mf_pair_cache *mf_ode_pair_cache(const mf_ode *adapter, dGeomID g1, dGeomID g2)
{
    if (adapter == NULL) return NULL;
    uint32_t i = geom_index(adapter, g1), j = geom_index(adapter, g2);
    if (i == UINT32_MAX || j == UINT32_MAX || i == j || adapter->kept_count == 0) return NULL;
    mf_pair pair = i < j ? (mf_pair){i, j} : (mf_pair){j, i};
    const mf_pair *found = bsearch(&pair, adapter->kept_pairs, adapter->kept_count, sizeof(mf_pair), compare_pairs);
    return found != NULL ? &adapter->kept_caches[found - adapter->kept_pairs] : NULL;
}

// One contact joint per contact of a manifold: ODE's g1 is a and g2 is b, so its normal (from g2
// into g1) is manyfold's (from a to b) negated.
static void add_joints(mf_ode *adapter, dJointGroupID group, const mf_manifold *manifold, mf_ode_report *report)
{
    mf_pair pair = adapter->pairs[manifold->pair];
    dGeomID geom_a = adapter->entries[pair.a].geom, geom_b = adapter->entries[pair.b].geom;
    dBodyID body_a = dGeomGetBody(geom_a), body_b = dGeomGetBody(geom_b);
    for (uint32_t k = 0; k < manifold->count; ++k) {
        const mf_contact *c = &adapter->contacts[manifold->first + k];
        dContact joint = {.surface = adapter->config.surface};
        joint.geom.pos[0] = c->point.x, joint.geom.pos[1] = c->point.y, joint.geom.pos[2] = c->point.z;
        joint.geom.normal[0] = -manifold->normal.x;
        joint.geom.normal[1] = -manifold->normal.y;
        joint.geom.normal[2] = -manifold->normal.z;
        joint.geom.g1 = geom_a, joint.geom.g2 = geom_b;
        if (c->separation < 0.0f) {
            joint.geom.depth = -c->separation;
        } else {
            // Speculative: no push, but no approach faster than closes the gap within this step.
            joint.geom.depth = 0.0;
            joint.surface.mode |= dContactMotionN;
            joint.surface.motionN -= (dReal)c->separation / adapter->config.step;
        }
        dJointID id = dJointCreateContact(adapter->world, group, &joint);
        dJointAttach(id, body_a, body_b);
        report->deepest = fminf(report->deepest, c->separation);
    }
    report->contact_count += manifold->count;
}

mf_status mf_ode_collide(mf_ode *adapter, dJointGroupID group, mf_ode_report *report)
{
    mf_ode_report ignored;
    if (report == NULL) report = &ignored;
    *report = (mf_ode_report){0};
    if (adapter == NULL) return MF_ERR_INVALID_ARGUMENT;
    adapter->message[0] = '\0';
    if (group == NULL) return fail(adapter, MF_ERR_INVALID_ARGUMENT, "mf_ode_collide: no joint group");
    update_poses(adapter);
    adapter->pair_count = 0;
    adapter->pairs_overflowed = 0;
    dSpaceCollide(adapter->space, adapter, gather_pair);
    if (adapter->pairs_overflowed) return fail(adapter, MF_ERR_OUT_OF_MEMORY, "no memory for the candidate pairs");
    int cached = adapter->config.cached;
    mf_status status = ensure_stream(adapter);
    if (status == MF_OK && cached) status = carry_entries(adapter);
    if (status != MF_OK) return status;
    mf_stream stream = {adapter->manifolds,
                        adapter->manifold_capacity,
                        0,
                        adapter->contacts,
                        adapter->contact_capacity,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_bodies bodies = {.shape = adapter->shapes, .transform = adapter->transforms, .count = adapter->entry_count};
    status = cached
                 ? mf_collide_cached(adapter->context, adapter->bank, &bodies, adapter->pairs, adapter->pair_count,
                                     adapter->caches, &stream)
                 : mf_collide(adapter->context, adapter->bank, &bodies, adapter->pairs, adapter->pair_count, &stream);
    if (status != MF_OK)
        return fail(adapter, status, "%s: %s (%s)", cached ? "mf_collide_cached" : "mf_collide",
                    mf_status_string(status), mf_context_message(adapter->context));
    report->pair_count = adapter->pair_count;
    report->manifold_count = stream.manifold_count;
    report->skipped_pair_count = stream.fault_count;
    if (stream.fault_count > 0) // the step goes on; what was skipped is told, as a failure would be
        fail(adapter, MF_OK, "%s: %s", cached ? "mf_collide_cached" : "mf_collide",
             mf_context_message(adapter->context));
    for (uint32_t m = 0; m < stream.manifold_count; ++m) add_joints(adapter, group, &adapter->manifolds[m], report);
    if (cached) keep_entries(adapter);
    return MF_OK;
}

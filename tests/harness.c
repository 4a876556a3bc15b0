// Helpers for the tests (see harness.h).
#include "harness.h"

#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mf_status test_collide_pair(const mf_bank *bank, const mf_config *config, uint32_t shape_a, mf_transform a,
                            uint32_t shape_b, mf_transform b, test_output *out)
{
    *out = (test_output){0};
    mf_context *context = NULL;
    mf_status status = mf_context_create(config, &context);
    if (status != MF_OK) return status;
    uint32_t shapes[2] = {shape_a, shape_b};
    mf_transform transforms[2] = {a, b};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2};
    mf_pair pair = {0, 1};
    mf_manifold manifolds[2];
    mf_contact contacts[MF_MAX_CONTACTS + 1];
    mf_stream stream = {manifolds, 2, 0, contacts, MF_MAX_CONTACTS + 1, 0, 0, NULL, 0, 0};
    status = mf_collide(context, bank, &bodies, &pair, 1, &stream);
    if (status == MF_OK) {
        if (stream.manifold_count > 1 || (stream.manifold_count == 1 && manifolds[0].pair != 0) ||
            stream.contact_count > MF_MAX_CONTACTS ||
            (stream.manifold_count == 1 && (manifolds[0].first != 0 || manifolds[0].count != stream.contact_count)) ||
            (stream.manifold_count == 0 && stream.contact_count != 0)) {
            fprintf(stderr, "malformed stream for one pair: %u manifolds, %u contacts\n", stream.manifold_count,
                    stream.contact_count);
            status = MF_ERR_INVALID_ARGUMENT;
        } else if (stream.manifold_count == 1) {
            out->touching = 1;
            out->manifold = manifolds[0];
            for (uint32_t k = 0; k < stream.contact_count; ++k) out->contacts[k] = contacts[k];
        }
    }
    mf_context_destroy(context);
    return status;
}

int test_reference_check(const mf_bank *bank, const mf_config *config, uint32_t shape_a, mf_transform a,
                         uint32_t shape_b, mf_transform b, const test_output *out)
{
    ref_hull hull_a, hull_b;
    if (ref_hull_load(bank, shape_a, &hull_a) != MF_OK) return 1;
    if (ref_hull_load(bank, shape_b, &hull_b) != MF_OK) {
        ref_hull_free(&hull_a);
        return 1;
    }
    ref_pair *pair = ref_pair_create();
    ref_pair_set(pair, &hull_a, a, &hull_b, b);
    mf_config c = config != NULL ? *config : mf_config_default();
    ref_stats stats = {0};
    char why[512];
    int violations =
        ref_check_pair(pair, &c, out->touching ? &out->manifold : NULL, out->contacts, &stats, why, sizeof(why));
    if (violations != 0) fprintf(stderr, "reference check: %d violations, first: %s\n", violations, why);
    ref_pair_destroy(pair);
    ref_hull_free(&hull_a);
    ref_hull_free(&hull_b);
    return violations;
}

mf_quat test_quat_axis_angle(double x, double y, double z, double angle)
{
    double length = sqrt(x * x + y * y + z * z), s = sin(0.5 * angle) / length;
    return (mf_quat){(float)(x * s), (float)(y * s), (float)(z * s), (float)cos(0.5 * angle)};
}

mf_quat test_quat_multiply(mf_quat a, mf_quat b)
{
    return (mf_quat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

mf_transform test_pose(double x, double y, double z, mf_quat q)
{
    return (mf_transform){{(float)x, (float)y, (float)z}, q};
}

uint32_t test_nearest_contact(const test_output *out, double x, double y, double z, double *distance)
{
    uint32_t nearest = 0;
    *distance = INFINITY;
    for (uint32_t k = 0; out->touching && k < out->manifold.count; ++k) {
        mf_vec3 p = out->contacts[k].point;
        double d = sqrt((p.x - x) * (p.x - x) + (p.y - y) * (p.y - y) + (p.z - z) * (p.z - z));
        if (d < *distance) {
            *distance = d;
            nearest = k;
        }
    }
    return nearest;
}

const mf_isa test_isas[TEST_ISA_COUNT] = {MF_ISA_SCALAR, MF_ISA_SSE, MF_ISA_AVX2, MF_ISA_AVX512, MF_ISA_NEON};

mf_context *test_context_with(mf_isa isa, mf_fault_mode on_fault)
{
    mf_config config = mf_config_default();
    config.isa = isa;
    config.on_fault = on_fault;
    mf_context *context = NULL;
    mf_status status = mf_context_create(&config, &context);
    if (status != MF_OK) {
        fprintf(stderr, "mf_context_create (%s): %s\n", mf_isa_name(isa), mf_status_string(status));
        abort();
    }
    return context;
}

mf_stream test_stream_make(uint32_t pairs, uint32_t max_contacts)
{
    uint32_t manifolds, contacts;
    mf_stream_bound(pairs, max_contacts, &manifolds, &contacts);
    return (mf_stream){.manifolds = calloc(manifolds + 1, sizeof(mf_manifold)),
                       .manifold_capacity = manifolds,
                       .contacts = calloc(contacts + 1, sizeof(mf_contact)),
                       .contact_capacity = contacts,
                       .faults = calloc(pairs + 1, sizeof(mf_fault)),
                       .fault_capacity = pairs};
}

void test_stream_free(mf_stream *stream)
{
    free(stream->manifolds);
    free(stream->contacts);
    free(stream->faults);
    *stream = (mf_stream){0};
}

// memcmp of `size` bytes, for arrays that may be NULL when empty (a stream without faults).
static int same_bytes(const void *x, const void *y, size_t size) { return size == 0 || memcmp(x, y, size) == 0; }

int test_same_stream(const mf_stream *x, const mf_stream *y)
{
    return x->manifold_count == y->manifold_count && x->contact_count == y->contact_count &&
           x->fault_count == y->fault_count && x->pairs_done == y->pairs_done &&
           same_bytes(x->manifolds, y->manifolds, x->manifold_count * sizeof(mf_manifold)) &&
           same_bytes(x->contacts, y->contacts, x->contact_count * sizeof(mf_contact)) &&
           same_bytes(x->faults, y->faults, x->fault_count * sizeof(mf_fault));
}

void test_jitter(mf_transform *transforms, const mf_transform *rest, uint32_t count, test_random *random,
                 double distance, double angle)
{
    for (uint32_t i = 0; i < count; ++i) {
        mf_transform t = rest[i];
        t.p.x += (float)((test_random_unit(random) * 2 - 1) * distance);
        t.p.y += (float)((test_random_unit(random) * 2 - 1) * distance);
        t.p.z += (float)((test_random_unit(random) * 2 - 1) * distance);
        double h = 0.5 * angle * (test_random_unit(random) * 2 - 1);
        mf_quat d = {(float)sin(h), 0.0f, 0.0f, (float)cos(h)}; // a turn about x, then renormalised
        mf_quat q = t.q;
        t.q = (mf_quat){d.w * q.x + d.x * q.w, d.w * q.y - d.x * q.z, d.w * q.z + d.x * q.y, d.w * q.w - d.x * q.x};
        transforms[i] = t;
    }
}

// The brute force's hull of every body: its shape's, times its scale where it has one. NULL (and
// the failure printed) if a hull does not load.
static ref_hull *body_hulls(const mf_bank *bank, const mf_bodies *bodies)
{
    ref_hull *hulls = calloc(bodies->count, sizeof(ref_hull));
    for (uint32_t b = 0; hulls != NULL && b < bodies->count; ++b) {
        mf_status status = ref_hull_load(bank, bodies->shape[b], &hulls[b]);
        if (status == MF_OK && bodies->scales != NULL) {
            ref_hull unit = hulls[b];
            status = ref_hull_scaled(&unit, bodies->scales[b], &hulls[b]);
            ref_hull_free(&unit);
        }
        if (status != MF_OK) {
            fprintf(stderr, "body %u: the brute force's hull: %s\n", b, mf_status_string(status));
            for (uint32_t k = 0; k < b; ++k) ref_hull_free(&hulls[k]);
            free(hulls);
            return NULL;
        }
    }
    return hulls;
}

test_stepping test_cached_stepping(const mf_bank *bank, const mf_bodies *rest, const mf_pair *pairs,
                                   uint32_t pair_count, uint64_t seed, uint64_t stream, int steps, const char *what)
{
    test_stepping result = {0};
    mf_config config = mf_config_default();
    mf_context *context = NULL;
    ref_hull *hulls = body_hulls(bank, rest);
    if (mf_context_create(&config, &context) != MF_OK || hulls == NULL) {
        fprintf(stderr, "%s: no context or no brute-force hulls (seed %llu)\n", what, (unsigned long long)seed);
        result.violations = 1;
        steps = 0;
    }
    mf_transform *moved = malloc(rest->count * sizeof(mf_transform));
    mf_pair_cache *cache = calloc(pair_count, sizeof(mf_pair_cache));
    mf_stream plain = test_stream_make(pair_count, MF_MAX_CONTACTS),
              cached = test_stream_make(pair_count, MF_MAX_CONTACTS);
    ref_pair *pair = ref_pair_create();
    test_random random = test_random_seed(seed, stream);
    for (int step = 0; step < steps; ++step) {
        test_jitter(moved, rest->transform, rest->count, &random, 2e-4, 2e-3);
        mf_bodies bodies = *rest;
        bodies.transform = moved;
        mf_status plain_status = mf_collide(context, bank, &bodies, pairs, pair_count, &plain);
        mf_status cached_status = mf_collide_cached(context, bank, &bodies, pairs, pair_count, cache, &cached);
        if (plain_status != MF_OK || cached_status != MF_OK) {
            fprintf(stderr, "%s step %d: mf_collide gave %s, mf_collide_cached %s (seed %llu)\n", what, step,
                    mf_status_string(plain_status), mf_status_string(cached_status), (unsigned long long)seed);
            ++result.violations;
        }
        if (plain.manifold_count != cached.manifold_count) {
            fprintf(stderr, "%s step %d: %u manifolds cached, %u without (seed %llu)\n", what, step,
                    cached.manifold_count, plain.manifold_count, (unsigned long long)seed);
            ++result.violations;
        }
        uint32_t count = plain.manifold_count < cached.manifold_count ? plain.manifold_count : cached.manifold_count;
        for (uint32_t m = 0; m < count; ++m) {
            const mf_manifold *x = &plain.manifolds[m], *y = &cached.manifolds[m];
            if (x->pair != y->pair) {
                fprintf(stderr, "%s step %d: manifold %u is pair %u cached, %u without (seed %llu)\n", what, step, m,
                        y->pair, x->pair, (unsigned long long)seed);
                ++result.violations;
            }
            mf_pair p = pairs[y->pair];
            ref_pair_set(pair, &hulls[p.a], moved[p.a], &hulls[p.b], moved[p.b]);
            ref_axis best = ref_best_axis(pair);
            double n[3] = {y->normal.x, y->normal.y, y->normal.z};
            double deficit = best.separation - ref_separation_along(pair, n);
            result.worst_deficit = fmax(result.worst_deficit, deficit);
            if (!(deficit <= config.linear_slop + 1e-4)) {
                fprintf(stderr, "%s step %d pair %u: cached normal %.6f short of the best (seed %llu)\n", what, step,
                        y->pair, deficit, (unsigned long long)seed);
                ++result.violations;
            }
        }
        for (uint32_t i = 0; i < pair_count; ++i) result.reused += cache[i].route == MF_ROUTE_REUSED;
    }
    ref_pair_destroy(pair);
    for (uint32_t b = 0; hulls != NULL && b < rest->count; ++b) ref_hull_free(&hulls[b]);
    free(hulls);
    test_stream_free(&plain);
    test_stream_free(&cached);
    free(cache);
    free(moved);
    mf_context_destroy(context);
    return result;
}

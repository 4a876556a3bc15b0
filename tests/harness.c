// Helpers for hand-written scenes (see harness.h).
#include "harness.h"

#include "reference.h"

#include <math.h>
#include <stdio.h>

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

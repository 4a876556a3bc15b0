// Helpers for hand-written scenes: collide one pair, build rotations, look up contacts.
#pragma once

#include "manyfold.h"

#include <stdint.h>

typedef struct test_output {
    int touching; // 1 if the pair got a manifold
    mf_manifold manifold;
    mf_contact contacts[MF_MAX_CONTACTS];
} test_output;

// Collides the single pair (a, b) with `config` (NULL: defaults) and copies its manifold out.
// Returns mf_collide's status; also checks the stream's shape (at most one manifold, pair 0).
mf_status test_collide_pair(const mf_bank *bank, const mf_config *config, uint32_t shape_a, mf_transform a,
                            uint32_t shape_b, mf_transform b, test_output *out);

// The same pair checked against the brute-force reference: returns the number of violations and
// prints them. Known-answer tests call it so that every hand-written scene also passes the
// general rules.
int test_reference_check(const mf_bank *bank, const mf_config *config, uint32_t shape_a, mf_transform a,
                         uint32_t shape_b, mf_transform b, const test_output *out);

mf_quat test_quat_axis_angle(double x, double y, double z, double angle);
mf_quat test_quat_multiply(mf_quat a, mf_quat b);
mf_transform test_pose(double x, double y, double z, mf_quat q);
#define TEST_IDENTITY ((mf_quat){0.0f, 0.0f, 0.0f, 1.0f})

// Index of the contact nearest to (x, y, z), and its distance.
uint32_t test_nearest_contact(const test_output *out, double x, double y, double z, double *distance);

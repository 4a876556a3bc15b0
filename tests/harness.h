// Helpers for the tests: collide one pair of a hand-written scene, build rotations, look up
// contacts; whole streams and the ISAs to compare them across; cached stepping against mf_collide.
// None of them CHECKs (check.h counts failures per file): each returns what it found and the test
// asserts on it.
#pragma once

#include "manyfold.h"
#include "random.h"

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

// ---- whole streams, every ISA ----

// Every ISA, the scalar path first; a test skips those mf_isa_supported refuses.
enum { TEST_ISA_COUNT = 5 };
extern const mf_isa test_isas[TEST_ISA_COUNT];

// A context on `isa` with `on_fault` and the other settings at their defaults. A context that cannot
// be made ends the test program (printed, abort): nothing after it could run.
mf_context *test_context_with(mf_isa isa, mf_fault_mode on_fault);

// A stream with room for the whole output of `pairs` pairs at `max_contacts` (mf_stream_bound) and
// a fault per pair: no call on those pairs returns MF_ERR_CAPACITY. test_stream_free gives it back.
mf_stream test_stream_make(uint32_t pairs, uint32_t max_contacts);
void test_stream_free(mf_stream *stream);

// Whether two streams hold the same bytes: the counts, pairs_done, the manifolds, the contacts and
// the faults.
int test_same_stream(const mf_stream *x, const mf_stream *y);

// ---- cached stepping ----

// Moves each of `count` bodies from its rest pose by under `distance` along each axis and turns it
// by under `angle` radians about x, from `random`.
void test_jitter(mf_transform *transforms, const mf_transform *rest, uint32_t count, test_random *random,
                 double distance, double angle);

typedef struct test_stepping {
    int violations;       // failed claims, each printed
    double worst_deficit; // the most a cached normal fell short of the brute force's best axis
    uint32_t reused;      // pair-steps answered from the cache (MF_ROUTE_REUSED)
} test_stepping;

// `steps` small motions about the rest poses of `rest` (test_jitter by 2e-4 and 2e-3 radians, from
// the random stream (seed, stream)), each collided by mf_collide and by mf_collide_cached with the
// default config: the cached call finds the same touching pairs, in the same order, each with a
// normal within the slop of the brute force's best axis for the pair as posed (on the scaled hulls
// where `rest` has scales). `what` names the scene in the messages, which give the seed.
test_stepping test_cached_stepping(const mf_bank *bank, const mf_bodies *rest, const mf_pair *pairs,
                                   uint32_t pair_count, uint64_t seed, uint64_t stream, int steps, const char *what);

// Shared by the robustness tests: a bank of named shapes with their double-precision references,
// random pairs placed around contact at any scale, and one pass that collides a batch of pairs and
// holds every manifold against the rules and the brute force (tests/reference.h).
#pragma once

#include "manyfold.h"
#include "random.h"
#include "reference.h"

#include <stdint.h>

enum { ROBUST_MAX_SHAPES = 64 };

typedef struct robust_bank {
    mf_bank *bank;
    uint32_t count;
    const char *name[ROBUST_MAX_SHAPES];
    ref_hull reference[ROBUST_MAX_SHAPES];
} robust_bank;

void robust_bank_make(robust_bank *bank);
void robust_bank_free(robust_bank *bank);
// Adds a box or a hull and loads its reference; returns its shape id. A refused shape aborts: the
// tests build only shapes the library must accept (robust_add_hull's callers that expect a refusal
// call mf_bank_add_hull themselves).
uint32_t robust_add_box(robust_bank *bank, const char *name, double x, double y, double z);
uint32_t robust_add_hull(robust_bank *bank, const char *name, const mf_vec3 *points, uint32_t count);

// A random pair of the two shapes around contact, at the scale of the smaller one: half overlap by
// up to a quarter of its size, a fifth lie within [-1%, margin], the rest just beyond the margin.
// Half face a face of b against a face of a (resting, many clip points); positions are within
// `spread` of the origin.
void robust_make_pair(test_random *random, const robust_bank *bank, uint32_t shape_a, uint32_t shape_b, double margin,
                      double spread, mf_transform transform[2]);

// One collided pair: its manifold (if any) and contacts.
typedef struct robust_result {
    int touching;
    mf_manifold manifold;
    mf_contact contacts[MF_MAX_CONTACTS];
} robust_result;

// Collides `count` pairs, body 2i against body 2i + 1, in one mf_collide call; results[i] gets
// pair i. Returns 0, or 1 with a message if the call failed or its stream is malformed. (The
// helpers report through return values: check.h's failure count is per translation unit.)
uint32_t robust_collide(const mf_bank *bank, const mf_config *config, uint32_t count, const uint32_t *shapes,
                        const mf_transform *transforms, robust_result *results);

// The rules every manifold obeys whatever the geometry: unit finite normal, 1..max_contacts
// finite contacts, distinct ids. Returns the number of violations, the first described in `why`.
int robust_check_sane(const robust_result *result, uint32_t max_contacts, char *why, size_t why_size);

// Collides the pairs and holds each against robust_check_sane and, unless `reference` is 0, the
// brute force. Failures print the seed, the pair, its shapes and transforms (at most a few).
// Returns the number of failed pairs (plus 1 if the call itself failed).
uint32_t robust_check_pairs(const char *test, uint64_t seed, const robust_bank *bank, const mf_config *config,
                            uint32_t count, const uint32_t *shapes, const mf_transform *transforms, int reference);

// Random pairs of shapes drawn from `choices`, placed by robust_make_pair, checked as above.
uint32_t robust_check_random_pairs(const char *test, uint64_t seed, const robust_bank *bank, const mf_config *config,
                                   const uint32_t *choices, uint32_t choice_count, uint32_t pairs, double spread,
                                   int reference);

// Compares two results of the same pair: the same presence, contact count and ids (contacts are
// matched by id: their order is not part of the contract), values within `tolerance` after b's
// points are moved back by `shift` (NULL: none). Returns 1 if they are the same; *worst gets the
// largest difference seen.
int robust_same_manifold(const robust_result *a, const robust_result *b, const double *shift, double tolerance,
                         double *worst);

mf_quat robust_quat_axis_angle(double x, double y, double z, double angle);

// An independent double-precision reference for the separating-axis test, and a checker that
// holds the kernel's output for one pair against it. It reads hull geometry only through the public
// API and tries every face normal of both hulls and every edge-pair cross product: no Gauss-map
// pruning, nothing shared with the kernel's code.
#pragma once

#include "manyfold.h"

#include <stddef.h>
#include <stdint.h>

// One hull in double precision, in its local frame. Face normals are recomputed from the face
// loops (Newell) and offsets are the support over all vertices, so they do not repeat the bank's.
typedef struct ref_hull {
    uint32_t vertex_count, face_count, edge_count;
    double *vertices;     // xyz per vertex
    double *normals;      // xyz per face, unit, outward
    double *offsets;      // per face: max over vertices of dot(normal, vertex)
    uint32_t *edges;      // vertex0, vertex1 per edge
    uint32_t *edge_faces; // face0, face1 per edge
    double radius;        // largest vertex distance from the local origin
    double center[3];     // vertex average
    double inradius;      // radius of a ball around `center` inside the hull
} ref_hull;

mf_status ref_hull_load(const mf_bank *bank, uint32_t shape, ref_hull *hull);
void ref_hull_free(ref_hull *hull);

// A copy of the hull scaled by `scale` about its origin, as a body of that scale (mf_bodies.scales)
// has it: vertices, offsets, radius, centre and inradius times the scale in double, normals and
// topology as they are. Free it with ref_hull_free.
mf_status ref_hull_scaled(const ref_hull *hull, double scale, ref_hull *scaled);

// A rigid transform in double with the quaternion normalised: world = rotation * local + position.
typedef struct ref_pose {
    double rotation[3][3];
    double position[3];
} ref_pose;

ref_pose ref_pose_make(mf_transform transform);
void ref_pose_apply(const ref_pose *pose, const double local[3], double world[3]);

// A pair in world space: both hulls' vertices, face normals and edge directions transformed once.
typedef struct ref_pair {
    const ref_hull *hull[2];
    ref_pose pose[2];
    double center[2][3];
    double *x[2], *y[2], *z[2]; // world vertices, structure of arrays
    double *normal[2];          // world face normals, xyz per face
    double *edge[2];            // world unit edge directions, xyz per edge
    uint32_t capacity_vertices, capacity_faces, capacity_edges;
} ref_pair;

ref_pair *ref_pair_create(void);
void ref_pair_destroy(ref_pair *pair);
void ref_pair_set(ref_pair *pair, const ref_hull *a, mf_transform transform_a, const ref_hull *b,
                  mf_transform transform_b);

// min over b of dot(n, v) - max over a of dot(n, v): the separation along n, pointing from a to b.
double ref_separation_along(const ref_pair *pair, const double n[3]);

typedef enum ref_axis_kind { REF_AXIS_FACE_A, REF_AXIS_FACE_B, REF_AXIS_EDGES } ref_axis_kind;

typedef struct ref_axis {
    double separation; // the largest separation over every candidate axis, both orientations
    double normal[3];  // world, from a to b
    ref_axis_kind kind;
    uint32_t feature_a, feature_b; // face or edge indices
} ref_axis;

// Edge pairs whose unit directions have a cross product shorter than this are skipped as parallel.
#define REF_PARALLEL_SINE 1e-3

// Brute force over every face normal and every non-parallel edge pair. Axes that provably cannot
// beat the best so far (a bound from inscribed balls and one hull's exact extent) are not projected
// in full; the result is the exact maximum.
ref_axis ref_best_axis(const ref_pair *pair);

// The same over the candidates of Gregorius' SAT only: face normals and the edge pairs whose
// Gauss-map arcs cross (faces of the Minkowski difference), tested here in double. For
// overlapping hulls (separation <= 0) it equals ref_best_axis; for separated hulls it can be
// smaller, because a non-Minkowski edge pair may separate more than any true SAT candidate.
ref_axis ref_best_axis_gauss_map(const ref_pair *pair);

// The distance between two hulls that do not overlap, by brute force: every vertex against every
// face it projects into, every edge against every edge.
double ref_distance(const ref_pair *pair);

// max over faces of (dot(n_i, x) - d_i) for a world point: 0 on the surface, < 0 inside.
double ref_signed_distance(const ref_hull *hull, const ref_pose *pose, const double world[3]);

// What the checker saw, summed over pairs.
typedef struct ref_stats {
    uint64_t pairs;     // pairs checked
    uint64_t ambiguous; // best separation within the ambiguity band of the margin: presence not judged
    uint64_t touching;  // pairs with a manifold
    uint64_t contacts;
    uint64_t edge_axes; // brute-force best axis was an edge pair (among touching pairs)
    uint64_t failed_pairs;
    uint64_t candidate_ambiguous;          // separated pairs whose unpruned and Gauss-map answers straddle the margin
    uint64_t gauss_map_smaller;            // separated pairs where the Gauss-map answer is smaller by > the band
    uint64_t speculative_without_manifold; // speculative pairs without a manifold, not nearer than the margin
    double max_surface_error;              // |signed distance| of pushed-apart contact points / hull size
    double max_normal_deficit;             // best separation - separation along the kernel's normal (absolute)
    double max_depth_excess;               // separation along the normal - contact separation (absolute, > 0 is deeper)
    double max_normal_length_error;
    double max_feature_error; // distance of a pushed-apart point from the feature its id names / hull size
    double ambiguity_band;
} ref_stats;

// The checker's tolerances (see ref_check_pair).
#define REF_AMBIGUITY_BAND 1e-4
#define REF_SEPARATION_TOLERANCE 1e-4 // times the pair's size (sum of radii)
#define REF_SURFACE_TOLERANCE 2e-3    // times the larger hull's radius

// Checks the kernel's output for one pair (manifold NULL when it produced none, contacts its first
// contact). Returns the number of violated rules; the first is described in `why`.
int ref_check_pair(const ref_pair *pair, const mf_config *config, const mf_manifold *manifold,
                   const mf_contact *contacts, ref_stats *stats, char *why, size_t why_size);

// One line of statistics, prefixed with `label`.
void ref_stats_print(const char *label, const ref_stats *stats);

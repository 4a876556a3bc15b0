// The kernel's tolerances, named once (as Box3D's constants.h does). Each is relative: it scales
// with a length of the pair at hand (the hulls' radii summed, a separation, a squared edge length),
// so the same numbers serve millimetre grains and ten-metre crates. Changing one changes answers:
// every ISA reads the same constant, so they stay bit-identical, but the tests' references may not.
#pragma once

// Two segments or edge pairs are parallel when the square of their directions' cross product,
// a e - b^2, is below this times a e (a sine below 1e-6): their closest points are then ill-defined.
#define MF_PARALLEL_DENOMINATOR 1e-12f

// Scores below this are degenerate in contact reduction (coincident or collinear points, squared
// lengths or doubled areas): such a point adds nothing to the manifold.
#define MF_REDUCE_TINY_SCORE 1e-12f

// Float noise of a separation measured on the pair, relative to the pair's size plus |separation|:
// part of the axis-ranking allowance (mf_allowance) next to the linear slop.
#define MF_ALLOWANCE_NOISE 4e-6f

// Float noise of an edge axis' separation (its unit directions come from the face normals, whose
// rounding tilts the axis), relative to the pair's size plus |separation| (mf_edge_axis_noise); also
// the cull's margin over its gaps (sat.c) and the face reach's (mf_face_reach).
#define MF_EDGE_NOISE 1e-5f

// How far past an edge's end, in the edge's own parameter, the lines' crossing still counts as on
// the edge: float noise at a corner (mf_edge_contact, the box pass' edge crossings).
#define MF_EDGE_END_SLACK 1e-4f

// A hair more on the distance bound a cache entry keeps, relative to the pair's size: the rounding
// of the contact points and the clamping of edge contacts (cache.c).
#define MF_DISTANCE_BOUND_SLACK 1e-4f

// A hair more on how far the bodies may have moved since an entry was written, relative to the
// radii and the relative position: the rounding of the poses (cache.c's still-apart test).
#define MF_POSE_NOISE 1e-5f

// The same for the reuse pass' motion bound, relative to b's radius and origin (reuse_pass.c).
#define MF_REUSE_POSE_NOISE 2e-6f

// Closest points nearer than this times the pair's size have no direction of their own: the axis
// stands in for the normal (pair.c).
#define MF_TOUCHING_DISTANCE 1e-6f

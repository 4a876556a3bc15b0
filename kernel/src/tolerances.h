// The kernel's tolerances in one place, each with why it has its value (as Box3D's constants.h).
// Most are relative: a multiple of a length the caller chose (a pair's size, a radius, an edge's
// length), so that they hold at every scale. Float epsilon is 2^-24, about 6e-8.
#pragma once

// Edge directions whose cross product is shorter than this (a sine) are treated as parallel: their
// axis is ill-defined, and the face axes already cover that configuration.
#define MF_PARALLEL_SINE 1e-3f

// Two directions closer than this (the length of their cross product, a sine) are one direction:
// a parallelepiped's edges fall into three such groups.
#define MF_SAME_DIRECTION_SINE 1e-6f

// Segments whose a e - b^2 (a, e their squared lengths, b their directions' product) is at most
// this times a e are parallel for closest points: the squared sine of their angle is below 1e-12
// and the closest points' parameters would have no digits left.
#define MF_PARALLEL_SEGMENTS 1e-12f

// Scores of the contact reduction (distances squared, areas) at or below this are degenerate:
// coincident or collinear points add nothing.
#define MF_DEGENERATE_SCORE 1e-12f

// The float noise of an axis' separation between the query that found it and the measure that
// ranks it, relative to the pair's size plus the separation: a few roundings of each, with room
// (mf_allowance).
#define MF_ALLOWANCE_NOISE 4e-6f

// The float noise of a point or length carried through a few transforms, relative to the lengths
// involved: each rounding is 2^-24 of them, and this is ten times a handful of roundings. The face
// reach's hair, the support map's slack, an edge axis' noise, the edge cull's reach, the cache's
// pose bound and the bank's radii (widened by it, so they bound the float hull) all take it.
#define MF_LENGTH_NOISE 1e-5f

// As MF_LENGTH_NOISE for the reuse pass' pose bound: the relative poses now and when kept are each
// a few float epsilons of b's origin and radius off.
#define MF_REUSE_POSE_NOISE 2e-6f

// How far past its ends (in its parameter, 0 to 1) an edge still meets another: lines crossing at
// an end must still give the edge-edge contact.
#define MF_EDGE_END_SLACK 1e-4f

// The cache's bound of a pair's distance: the nearest kept contact, this much of the pair's size
// more, for the float noise of the contacts it comes from.
#define MF_DISTANCE_SLACK 1e-4f

// Closest points nearer than this times the radii summed have no direction of their own: the axis
// stands in for it.
#define MF_TOUCHING_DISTANCE 1e-6f

// A face's own vertices may lie this much of the hull's radius below its plane: more means the
// loop does not bound a plane face (given clockwise, or not flat).
#define MF_FACE_FLATNESS 1e-3f

// The bank's checks of a new shape, and how point clouds become hulls (in double, as they are
// computed there):

// An edge's direction is its faces' normal0 x normal1 (normalised in double) where that cross
// product is at least this long, and the direction between its vertices otherwise.
#define MF_EDGE_ARC_SINE 1e-2

// A hull's volume must exceed this times its radius cubed: below it the points are nearly flat and
// the planes, normals and mass properties would be noise.
#define MF_FLAT_VOLUME 1e-9

// Points of a cloud nearer than this times its radius are welded into one before the hull is
// built, and qhull merges facets whose centrums lie within it of a neighbour's plane: nearly
// coplanar triangles become one polygonal face.
#define MF_WELD_DISTANCE 1e-5

// A face loop's corner turning clockwise by more than this sine (in the face's plane) is reflex:
// the loop is split into triangles.
#define MF_REFLEX_SINE 1e-6

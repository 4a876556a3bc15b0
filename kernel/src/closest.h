// Closest points of two hulls nearer than the margin (closest.c), for speculative pairs whose clip
// finds no contact.
#pragma once

#include "sat.h"

typedef struct mf_closest {
    float distance;
    mf_vec3 point_a, point_b;      // in a's frame, on a's and on b's surface
    uint16_t feature_a, feature_b; // the vertex, edge or face each lies on (MF_FEATURE)
} mf_closest;

// The closest points of a and b when the hulls are nearer than `margin` (they must not overlap);
// `axis` is any unit vector, best one that separates them, which keeps the search to the features
// near the gap. Returns 0 when they are not that near.
int mf_closest_points(const mf_pair_frame *frame, mf_vec3 axis, float margin, mf_closest *closest);

// Contact points from the chosen axis: Sutherland–Hodgman clipping of the incident face against
// the reference face's side planes with feature tracking, and the edge–edge closest points.
#pragma once

#include "sat.h"

#define MF_FEATURE(kind, index) ((uint16_t)((kind) << 14 | (index)))

// Clipping can add one point per side plane to the incident face.
#define MF_CLIP_CAPACITY (2 * MF_MAX_FACE_VERTICES + 2)
_Static_assert(2 * MF_MAX_FACE_VERTICES <= MF_CLIP_CAPACITY, "an incident face clipped by a reference face's sides");

typedef struct mf_clip_point {
    mf_vec3 position;          // on the incident face, in a's frame
    float separation;          // below the reference face when negative
    uint16_t incident_feature; // MF_FEATURE of the incident hull that made the point
    uint16_t reference_feature;
    uint16_t carrier; // the polygon edge leaving this point: an incident edge or a reference side
    uint16_t carrier_is_side;
} mf_clip_point;

typedef struct mf_face_clip {
    mf_vec3 reference_normal; // a's frame, outward from the reference hull
    uint32_t count;
    mf_clip_point points[MF_CLIP_CAPACITY];
} mf_face_clip;

// Clips for a face axis and keeps points below the reference face plus margin, one per feature
// pair (the deeper one if a degenerate clip yields a pair twice).
void mf_clip_faces(const mf_pair_frame *frame, const mf_axis *axis, float margin, mf_face_clip *clip);

// Feature id of a clip point: a's feature in the high half whichever hull was the reference.
static inline uint32_t mf_clip_point_id(const mf_clip_point *point, int reference_is_a)
{
    uint32_t a = reference_is_a ? point->reference_feature : point->incident_feature;
    uint32_t b = reference_is_a ? point->incident_feature : point->reference_feature;
    return a << 16 | b;
}

// The one contact of an edge axis: the midpoint of the edges' closest points, in a's frame.
// Returns 0 when those points are not inside both edges (the lines cross beyond an end): then
// the point would lie on neither surface. `reach` lets them lie that far past an end (clamped to
// it), for the axis a manifold had a step before: a contact must not vanish because the crossing
// drifted past a corner by float noise. Clamping moves the points along their edges, which the
// axis is normal to: the separation stays the axis'.
int mf_edge_contact(const mf_pair_frame *frame, const mf_axis *axis, float reach, mf_contact *contact);

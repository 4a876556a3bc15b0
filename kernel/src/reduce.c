// Contact reduction in the manner of Box3D: the deepest point, the point farthest from it, the
// point making the largest triangle with those two, then the point adding the most area outside
// that triangle. Beyond four, each next point is the one farthest from all chosen so far.
#include "reduce.h"
#include "tolerances.h"

#include "core.h"

static int is_chosen(const uint32_t *chosen, uint32_t count, uint32_t i)
{
    for (uint32_t k = 0; k < count; ++k)
        if (chosen[k] == i) return 1;
    return 0;
}

// Twice the area `p` adds outside the triangle a, b, c (oriented counter-clockwise about normal).
static float area_outside(mf_vec3 a, mf_vec3 b, mf_vec3 c, mf_vec3 p, mf_vec3 normal)
{
    float ab = mf_dot(mf_cross(mf_sub(b, a), mf_sub(p, a)), normal);
    float bc = mf_dot(mf_cross(mf_sub(c, b), mf_sub(p, b)), normal);
    float ca = mf_dot(mf_cross(mf_sub(a, c), mf_sub(p, c)), normal);
    return -fminf(fminf(ab, bc), ca);
}

uint32_t mf_reduce(const mf_clip_point *points, uint32_t count, mf_vec3 normal, uint32_t max_contacts,
                   uint32_t chosen[MF_MAX_CONTACTS])
{
    MF_ASSERT(count <= MF_CLIP_CAPACITY && (points != NULL || count == 0));
    MF_ASSERT(max_contacts >= 1 && max_contacts <= MF_MAX_CONTACTS);
    if (count == 0) return 0;
    uint32_t deepest = 0;
    for (uint32_t i = 1; i < count; ++i)
        if (points[i].separation < points[deepest].separation) deepest = i;
    chosen[0] = deepest;
    if (count <= max_contacts) {
        uint32_t n = 1;
        for (uint32_t i = 0; i < count; ++i)
            if (i != deepest) chosen[n++] = i;
        return n;
    }

    // Scores below this are degenerate (coincident or collinear points) and add nothing.
    const float tiny = MF_DEGENERATE_SCORE;
    uint32_t n = 1;
    mf_vec3 p0 = points[deepest].position;
    while (n < max_contacts) {
        uint32_t best = count;
        float best_score = tiny;
        for (uint32_t i = 0; i < count; ++i) {
            if (is_chosen(chosen, n, i)) continue;
            mf_vec3 p = points[i].position;
            float score;
            if (n == 1) {
                mf_vec3 d = mf_sub(p, p0);
                score = mf_dot(d, d);
            } else if (n == 2) {
                score = fabsf(mf_dot(mf_cross(mf_sub(points[chosen[1]].position, p0), mf_sub(p, p0)), normal));
            } else if (n == 3) {
                mf_vec3 p1 = points[chosen[1]].position, p2 = points[chosen[2]].position;
                int counter_clockwise = mf_dot(mf_cross(mf_sub(p1, p0), mf_sub(p2, p0)), normal) > 0.0f;
                score = counter_clockwise ? area_outside(p0, p1, p2, p, normal) : area_outside(p0, p2, p1, p, normal);
            } else {
                score = INFINITY;
                for (uint32_t k = 0; k < n; ++k) {
                    mf_vec3 d = mf_sub(p, points[chosen[k]].position);
                    score = fminf(score, mf_dot(d, d));
                }
            }
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (best == count) break;
        chosen[n++] = best;
    }
    MF_ASSERT(n <= max_contacts && n <= count);
    return n;
}

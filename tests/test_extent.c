// The extents in lanes (kernel/src/extent_lanes.c): every ISA's build, in every tuning, against a
// scan in order, bit for bit: the least n . v (a zero as +0) and the first point that attains it.
// Point counts from 1 to past the largest hull, ties on purpose, and rows whose entries past the
// last are poison (a NaN, or a value lower than any point's) that no lane may read.
#include "check.h"
#include "dispatch.h"
#include "random.h"

#include <math.h>
#include <string.h>

enum { MAX_POINTS = MF_MAX_HULL_VERTICES, ROWS = MAX_POINTS + 16 };

static const mf_isa isas[] = {MF_ISA_SCALAR, MF_ISA_SSE, MF_ISA_AVX2, MF_ISA_AVX512, MF_ISA_NEON};

// The scan the builds must agree with: each product as mf_dot, the first least.
static uint32_t scan_in_order(const float *x, const float *y, const float *z, uint32_t count, mf_vec3 n, float *least)
{
    uint32_t deepest = 0;
    *least = INFINITY;
    for (uint32_t v = 0; v < count; ++v) {
        float d = mf_dot((mf_vec3){x[v], y[v], z[v]}, n);
        if (d < *least) *least = d, deepest = v;
    }
    *least += 0.0f; // a zero as +0, as the kernel's scans
    return deepest;
}

// A random direction, or an axis; points on a coarse grid, so that many tie along axis-aligned
// directions. Past the last point: NaNs, or entries lower along n than any point.
static void make_rows(test_random *r, uint32_t count, int nan_poison, float rows[3][ROWS], mf_vec3 *n)
{
    uint32_t kind = test_random_int(r, 0, 3);
    if (kind < 3) *n = (mf_vec3){kind == 0 ? 1.0f : 0.0f, kind == 1 ? -1.0f : 0.0f, kind == 2 ? 1.0f : 0.0f};
    else
        *n = (mf_vec3){(float)test_random_range(r, -1, 1), (float)test_random_range(r, -1, 1),
                       (float)test_random_range(r, -1, 1)};
    const float along[3] = {n->x, n->y, n->z};
    for (uint32_t c = 0; c < 3; ++c) {
        float poison = nan_poison ? NAN : along[c] >= 0.0f ? -1e30f : 1e30f;
        for (uint32_t v = 0; v < ROWS; ++v) rows[c][v] = v < count ? (float)test_random_int(r, 0, 6) - 3.0f : poison;
    }
}

static void extents_match_a_scan_in_order(void)
{
    static float rows[3][ROWS];
    uint32_t compared = 0;
    for (int i = 0; i < (int)(sizeof isas / sizeof isas[0]); ++i) {
        for (int t = 0; t < MF_TUNING_COUNT; ++t) {
            const mf_wide_kernel *kernel = mf_dispatch_tuned(isas[i], (mf_tuning)t);
            if (kernel == NULL) continue;
            test_random r = test_random_seed(7, (uint64_t)(i * MF_TUNING_COUNT + t));
            for (uint32_t trial = 0; trial < test_scaled(4000); ++trial) {
                uint32_t count = 1 + trial % MAX_POINTS;
                mf_vec3 n;
                make_rows(&r, count, trial % 2, rows, &n);
                float least;
                uint32_t deepest = scan_in_order(rows[0], rows[1], rows[2], count, n, &least);
                float lowest = kernel->extent.lowest(rows[0], rows[1], rows[2], count, n);
                uint32_t found = kernel->extent.deepest(rows[0], rows[1], rows[2], count, n);
                CHECKF(memcmp(&lowest, &least, sizeof lowest) == 0 && found == deepest,
                       "%s (tuning %d), %u points along (%g, %g, %g): least %.9g at %u, expected %.9g at %u",
                       mf_isa_name(isas[i]), t, count, (double)n.x, (double)n.y, (double)n.z, (double)lowest, found,
                       (double)least, deepest);
                ++compared;
            }
        }
    }
    CHECK(compared >= test_scaled(4000));
    printf("%u comparisons\n", compared);
}

static const test_case tests[] = {
    TEST_CASE(extents_match_a_scan_in_order),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }

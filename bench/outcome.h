// What an implementation made of each pair, reduced to what compares across libraries, and how
// two sets of outcomes agree.
#pragma once

#include "manyfold.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_outcome {
    mf_vec3 normal;    // unit, pointing from a to b (manyfold's convention); set when contacts > 0
    float depth;       // deepest penetration over the contacts; negative when only speculative
    uint32_t contacts; // 0: no manifold
} bench_outcome;

// A pair is touching when its deepest contact penetrates (depth > 0): peers report only
// penetration, while manyfold also reports pairs within its margin.
static inline int bench_outcome_touching(const bench_outcome *outcome)
{
    return outcome->contacts > 0 && outcome->depth > 0.0f;
}

typedef struct bench_agreement {
    double both_touching;  // fraction of all pairs that both call touching
    double normal_agree;   // fraction of those whose normals agree: dot > 0.99
    double depth_agree;    // fraction of those whose depths agree: within 1 mm + 2%
    double only_reference; // fraction of all pairs only the reference calls touching
    double only_peer;      // fraction of all pairs only the peer calls touching
} bench_agreement;

bench_agreement bench_agree(const bench_outcome *reference, const bench_outcome *peer, uint32_t pair_count);

// Prints up to `limit` pairs where the two disagree (touching, normal or depth), for a person to
// investigate with the scene's pair index.
void bench_explain_disagreements(const char *label, const bench_outcome *reference, const bench_outcome *peer,
                                 uint32_t pair_count, uint32_t limit);

// Manifolds and contacts per pair.
void bench_outcome_totals(const bench_outcome *outcomes, uint32_t pair_count, double *manifolds_per_pair,
                          double *contacts_per_pair);

#ifdef __cplusplus
}
#endif

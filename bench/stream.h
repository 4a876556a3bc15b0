// Output streams sized for a whole scene, and their reduction to per-pair outcomes.
#pragma once

#include "outcome.h"

// Allocates a stream that never returns MF_ERR_CAPACITY for pair_count pairs.
mf_status bench_stream_create(mf_stream *stream, uint32_t pair_count, uint32_t max_contacts);
void bench_stream_destroy(mf_stream *stream);

// One outcome per pair: the manifold's normal, its deepest penetration and contact count.
void bench_outcomes_from_stream(const mf_stream *stream, uint32_t pair_count, bench_outcome *outcomes);

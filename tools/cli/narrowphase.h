// Colliding a pair list through mf_collide in chunks: memory stays bounded (each chunk's stream
// is sized with mf_stream_bound), the caller sees progress between chunks, and MF_ERR_CAPACITY
// is handled by resuming where the stream filled up.
#pragma once

#include "cli_error.h"
#include "manyfold.h"

#include <stdbool.h>
#include <stdint.h>

// Called once per chunk with its stream; the stream's pair indices count from pairs + pair_offset.
typedef bool (*narrowphase_sink)(void *user, const mf_pair *pairs, uint32_t pair_offset, uint32_t pairs_done,
                                 const mf_stream *stream, cli_error *error);

typedef struct narrowphase {
    mf_stream stream;
    uint32_t chunk_pairs;
    double collide_seconds; // time inside mf_collide, summed over calls
    uint64_t pairs, manifolds, contacts;
} narrowphase;

#define NARROWPHASE_CHUNK_PAIRS 65536u

bool narrowphase_init(narrowphase *narrowphase, uint32_t chunk_pairs, uint32_t max_contacts, cli_error *error);
void narrowphase_free(narrowphase *narrowphase);

// Collides all pairs; `sink` (may be NULL) sees every chunk's output.
bool narrowphase_collide(narrowphase *narrowphase, mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                         const mf_pair *pairs, uint32_t pair_count, narrowphase_sink sink, void *user,
                         cli_error *error);

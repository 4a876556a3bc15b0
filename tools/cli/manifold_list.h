// Manifolds held in memory: what a collision produced (for render and the tests) or what a
// `run --out` file holds. Pair indices and contact offsets are absolute, unlike a chunk's stream.
#pragma once

#include "manyfold.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct listed_manifold {
    uint32_t step, pair, a, b; // the candidate pair's index and its bodies
    uint32_t first, count;     // contacts[first .. first + count)
    mf_vec3 normal;
} listed_manifold;

typedef struct manifold_list {
    listed_manifold *manifolds;
    size_t manifold_count, manifold_capacity;
    mf_contact *contacts;
    size_t contact_count, contact_capacity;
} manifold_list;

// Appends one chunk's stream: its pair indices are relative to pairs + pair_offset.
bool manifold_list_append_stream(manifold_list *list, uint32_t step, const mf_pair *pairs, uint32_t pair_offset,
                                 const mf_stream *stream);

// Appends one manifold with room for `contact_count` contacts, returned for the caller to fill.
listed_manifold *manifold_list_push(manifold_list *list, uint32_t contact_count, mf_contact **contacts);

void manifold_list_free(manifold_list *list);

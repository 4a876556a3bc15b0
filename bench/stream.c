// Stream allocation and reduction (see stream.h).
#include "stream.h"

#include "machine.h"

#include <math.h>
#include <stdlib.h>

mf_status bench_stream_create(mf_stream *stream, uint32_t pair_count, uint32_t max_contacts)
{
    *stream = (mf_stream){0};
    mf_stream_bound(pair_count, max_contacts, &stream->manifold_capacity, &stream->contact_capacity);
    size_t manifolds_size = ((size_t)stream->manifold_capacity + 1) * sizeof(mf_manifold);
    size_t contacts_size = ((size_t)stream->contact_capacity + 1) * sizeof(mf_contact);
    stream->manifolds = calloc(1, manifolds_size);
    stream->contacts = calloc(1, contacts_size);
    if (stream->manifolds == NULL || stream->contacts == NULL) {
        bench_stream_destroy(stream);
        return MF_ERR_OUT_OF_MEMORY;
    }
    // Every page now, so that first-use page faults are not timed (and the resident size is the
    // worst-case stream's, as for a caller who sizes it with mf_stream_bound).
    bench_touch_pages(stream->manifolds, manifolds_size);
    bench_touch_pages(stream->contacts, contacts_size);
    return MF_OK;
}

void bench_stream_destroy(mf_stream *stream)
{
    free(stream->manifolds);
    free(stream->contacts);
    *stream = (mf_stream){0};
}

void bench_outcomes_from_stream(const mf_stream *stream, uint32_t pair_count, bench_outcome *outcomes)
{
    for (uint32_t i = 0; i < pair_count; ++i) outcomes[i] = (bench_outcome){0};
    for (uint32_t m = 0; m < stream->manifold_count; ++m) {
        const mf_manifold *manifold = &stream->manifolds[m];
        if (manifold->pair >= pair_count) continue;
        float deepest = -INFINITY;
        for (uint32_t k = 0; k < manifold->count; ++k) {
            float depth = -stream->contacts[manifold->first + k].separation;
            deepest = depth > deepest ? depth : deepest;
        }
        outcomes[manifold->pair] = (bench_outcome){manifold->normal, deepest, manifold->count};
    }
}

// Chunked mf_collide with resumption on a full stream.
#include "narrowphase.h"

#include "stopwatch.h"

#include <stdlib.h>

bool narrowphase_init(narrowphase *n, uint32_t chunk_pairs, uint32_t max_contacts, cli_error *error)
{
    *n = (narrowphase){.chunk_pairs = chunk_pairs > 0 ? chunk_pairs : NARROWPHASE_CHUNK_PAIRS};
    mf_stream_bound(n->chunk_pairs, max_contacts, &n->stream.manifold_capacity, &n->stream.contact_capacity);
    n->stream.manifolds = malloc((size_t)n->stream.manifold_capacity * sizeof(mf_manifold));
    n->stream.contacts = malloc((size_t)n->stream.contact_capacity * sizeof(mf_contact));
    if (n->stream.manifolds == NULL || n->stream.contacts == NULL) {
        narrowphase_free(n);
        return cli_fail(error, "out of memory for an output stream of %u pairs", chunk_pairs);
    }
    return true;
}

void narrowphase_free(narrowphase *n)
{
    free(n->stream.manifolds);
    free(n->stream.contacts);
    n->stream = (mf_stream){0};
}

bool narrowphase_collide(narrowphase *n, mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                         const mf_pair *pairs, uint32_t pair_count, narrowphase_sink sink, void *user, cli_error *error)
{
    uint32_t done = 0;
    while (done < pair_count) {
        uint32_t chunk = pair_count - done < n->chunk_pairs ? pair_count - done : n->chunk_pairs;
        double start = stopwatch_seconds();
        mf_status status = mf_collide(context, bank, bodies, pairs + done, chunk, &n->stream);
        n->collide_seconds += stopwatch_seconds() - start;
        uint32_t finished = chunk;
        if (status == MF_ERR_CAPACITY) {
            // The stream holds pairs [done, done + pairs_done): take them and carry on after them.
            finished = n->stream.pairs_done;
            if (finished == 0)
                return cli_fail(error,
                                "mf_collide made no progress at pair %u with a stream sized by mf_stream_bound: %s",
                                done, mf_status_string(status));
        } else if (status != MF_OK) {
            const char *detail = mf_context_message(context);
            return cli_fail(error, "mf_collide failed on pairs %u..%u: %s%s%s%s", done, done + chunk - 1,
                            mf_status_string(status), detail[0] != '\0' ? " (" : "", detail,
                            detail[0] != '\0' ? ")" : "");
        }
        n->pairs += finished;
        n->manifolds += n->stream.manifold_count;
        n->contacts += n->stream.contact_count;
        if (sink != NULL && !sink(user, pairs, done, finished, &n->stream, error)) return false;
        done += finished;
    }
    return true;
}

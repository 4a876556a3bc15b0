// Broad phase plus chunked narrow phase into a manifold list.
#include "scene_collide.h"

#include "scene_broadphase.h"
#include "narrowphase.h"

static bool append_chunk(void *user, const mf_pair *pairs, uint32_t pair_offset, uint32_t pairs_done,
                         const mf_stream *stream, cli_error *error)
{
    (void)pairs_done;
    if (!manifold_list_append_stream(user, 0, pairs, pair_offset, stream))
        return cli_fail(error, "out of memory collecting manifolds");
    return true;
}

bool scene_collide(const scene *s, const mf_config *config, manifold_list *list, uint32_t *pair_count, cli_error *error)
{
    mf_context *context;
    mf_status status = mf_context_create(config, &context);
    if (status != MF_OK) return cli_fail(error, "the library refused the configuration: %s", mf_status_string(status));
    scene_broadphase *broad = scene_broadphase_create(s->bank);
    narrowphase narrow;
    bool ok = broad != NULL ? narrowphase_init(&narrow, NARROWPHASE_CHUNK_PAIRS, config->max_contacts, error)
                            : cli_fail(error, "out of memory for the broad phase");
    if (ok) {
        mf_bodies bodies = scene_bodies(s);
        const mf_pair *pairs;
        status = scene_broadphase_find_pairs(broad, context, &bodies, config->margin, &pairs, pair_count);
        ok = status == MF_OK ? narrowphase_collide(&narrow, context, s->bank, &bodies, pairs, *pair_count, append_chunk,
                                                   list, error)
                             : cli_fail(error, "the broad phase failed: %s", mf_status_string(status));
        narrowphase_free(&narrow);
    }
    scene_broadphase_destroy(broad);
    mf_context_destroy(context);
    return ok;
}

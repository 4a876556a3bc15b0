// The chunked narrow phase gives the same manifolds whatever the chunk size and however small the
// stream: with a stream that fills up after a few manifolds, MF_ERR_CAPACITY comes back and the
// narrow phase resumes after pairs_done. Checked on the default pile against one big call.
#include "manifold_list.h"
#include "narrowphase.h"
#include "scene_broadphase.h"
#include "scene.h"

#include <stdio.h>
#include <string.h>

static bool collect(void *user, const mf_pair *pairs, uint32_t pair_offset, uint32_t pairs_done,
                    const mf_stream *stream, cli_error *error)
{
    (void)pairs_done;
    if (!manifold_list_append_stream(user, 0, pairs, pair_offset, stream)) return cli_fail(error, "out of memory");
    return true;
}

static bool same_lists(const manifold_list *a, const manifold_list *b)
{
    if (a->manifold_count != b->manifold_count || a->contact_count != b->contact_count) return false;
    for (size_t m = 0; m < a->manifold_count; ++m) {
        const listed_manifold *x = &a->manifolds[m], *y = &b->manifolds[m];
        if (x->pair != y->pair || x->a != y->a || x->b != y->b || x->count != y->count || x->first != y->first ||
            memcmp(&x->normal, &y->normal, sizeof(mf_vec3)) != 0)
            return false;
    }
    return memcmp(a->contacts, b->contacts, a->contact_count * sizeof(mf_contact)) == 0;
}

// Collides with the given chunk size and, if contact_capacity > 0, a stream cut down to it.
static bool collide(const scene *s, const mf_pair *pairs, uint32_t pair_count, uint32_t chunk,
                    uint32_t manifold_capacity, uint32_t contact_capacity, manifold_list *list)
{
    mf_context *context;
    if (mf_context_create(&s->config, &context) != MF_OK) return false;
    narrowphase narrow;
    cli_error error;
    if (!narrowphase_init(&narrow, chunk, s->config.max_contacts, &error)) {
        mf_context_destroy(context);
        return false;
    }
    if (contact_capacity > 0) {
        narrow.stream.manifold_capacity = manifold_capacity;
        narrow.stream.contact_capacity = contact_capacity;
    }
    mf_bodies bodies = scene_bodies(s);
    bool ok = narrowphase_collide(&narrow, context, s->bank, &bodies, pairs, pair_count, collect, list, &error);
    if (!ok) printf("narrow phase failed: %s\n", error.text);
    narrowphase_free(&narrow);
    mf_context_destroy(context);
    return ok;
}

int main(void)
{
    scene s;
    mf_status status = scene_make_heap(1500, &s);
    if (status != MF_OK) {
        printf("FAIL: the default pile: %s\n", mf_status_string(status));
        return 1;
    }
    scene_broadphase *broad = scene_broadphase_create(s.bank);
    mf_context *broad_context = NULL;
    mf_bodies bodies = scene_bodies(&s);
    const mf_pair *pairs;
    uint32_t pair_count;
    if (broad == NULL || mf_context_create(&s.config, &broad_context) != MF_OK ||
        scene_broadphase_find_pairs(broad, broad_context, &bodies, s.config.margin, &pairs, &pair_count) != MF_OK) {
        printf("FAIL: broad phase\n");
        return 1;
    }

    manifold_list reference = {0};
    int failures = 0;
    if (!collide(&s, pairs, pair_count, pair_count, 0, 0, &reference)) return 1;
    static const struct {
        uint32_t chunk, manifolds, contacts;
        const char *what;
    } cases[] = {{1000, 0, 0, "chunks of 1000 pairs"},
                 {7, 0, 0, "chunks of 7 pairs"},
                 {1000, 5, 1000, "a stream of 5 manifolds"},
                 {1000, 1000, 9, "a stream of 9 contacts"},
                 {1000, 1, MF_MAX_CONTACTS, "a stream of one manifold"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        manifold_list list = {0};
        bool ok = collide(&s, pairs, pair_count, cases[i].chunk, cases[i].manifolds, cases[i].contacts, &list) &&
                  same_lists(&reference, &list);
        printf("%s %s: %zu manifolds, %zu contacts (one call: %zu, %zu)\n", ok ? "ok" : "FAIL", cases[i].what,
               list.manifold_count, list.contact_count, reference.manifold_count, reference.contact_count);
        failures += !ok;
        manifold_list_free(&list);
    }
    manifold_list_free(&reference);
    scene_broadphase_destroy(broad);
    mf_context_destroy(broad_context);
    scene_free(&s);
    return failures == 0 ? 0 : 1;
}

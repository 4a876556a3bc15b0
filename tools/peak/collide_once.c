// One mf_collide call over a built-in scene on a chosen ISA and one thread: what
// tools/peak/flops.sh runs under callgrind to count the floating-point work per pair.
//   collide_once SCENE PAIRS scalar|sse|avx2|avx512
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int isa_named(const char *name, mf_isa *isa)
{
    for (int k = MF_ISA_SCALAR; k <= MF_ISA_NEON; ++k)
        if (strcmp(mf_isa_name((mf_isa)k), name) == 0) return *isa = (mf_isa)k, 1;
    return 0;
}

int main(int argc, char **argv)
{
    mf_config config = mf_config_default();
    config.threads = 1;
    if (argc != 4 || !isa_named(argv[3], &config.isa)) {
        fprintf(stderr, "usage: collide_once SCENE PAIRS scalar|sse|avx2|avx512\n");
        return 2;
    }
    scene s;
    mf_status status = scene_make(argv[1], (uint32_t)strtoul(argv[2], NULL, 10), 1, &s);
    if (status != MF_OK) {
        fprintf(stderr, "collide_once: scene %s: %s\n", argv[1], mf_status_string(status));
        return 1;
    }
    mf_context *context = NULL;
    status = mf_context_create(&config, &context);
    uint32_t manifolds, contacts;
    mf_stream_bound(s.pair_count, config.max_contacts, &manifolds, &contacts);
    mf_stream stream = {malloc(manifolds * sizeof(mf_manifold)),
                        manifolds,
                        0,
                        malloc(contacts * sizeof(mf_contact)),
                        contacts,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    mf_bodies bodies = scene_bodies(&s);
    if (status == MF_OK && (stream.manifolds == NULL || stream.contacts == NULL)) status = MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = mf_collide(context, s.bank, &bodies, s.pairs, s.pair_count, &stream);
    if (status == MF_OK)
        printf("%s: %u pairs on %s, %u manifolds\n", argv[1], s.pair_count, argv[3], stream.manifold_count);
    else fprintf(stderr, "collide_once: %s\n", mf_status_string(status));
    free(stream.manifolds);
    free(stream.contacts);
    mf_context_destroy(context);
    scene_free(&s);
    return status == MF_OK ? 0 : 1;
}

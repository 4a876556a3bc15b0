// Registration of the suite: every scene with every manyfold ISA, then the peers that apply.
#include "suite.h"

#include "collide.h"

#include <stdio.h>

#define MAX_SCENES 16

static const struct {
    const char *name;
    mf_isa isa;
    uint32_t threads;
} manyfold_impls[] = {
    {"manyfold_scalar", MF_ISA_SCALAR, 1},     {"manyfold_sse", MF_ISA_SSE, 1},   {"manyfold_avx2", MF_ISA_AVX2, 1},
    {"manyfold_avx512", MF_ISA_AVX512, 1},     {"manyfold_neon", MF_ISA_NEON, 1}, {"manyfold_auto", MF_ISA_AUTO, 1},
    {"manyfold_auto_threads", MF_ISA_AUTO, 0},
};
#define MANYFOLD_IMPLS (sizeof(manyfold_impls) / sizeof(manyfold_impls[0]))

static const struct {
    const char *name;
    peer_kind kind;
    int box_only; // registered only where every pair is a box against a box
    int built;
} peers[] = {
    {"bullet_hull", PEER_BULLET_HULL, 0, BENCH_HAVE_BULLET},
    {"bullet_boxbox", PEER_BULLET_BOXBOX, 1, BENCH_HAVE_BULLET},
    {"ode", PEER_ODE, 0, BENCH_HAVE_ODE},
};
#define PEERS (sizeof(peers) / sizeof(peers[0]))

static bench_scene scenes[MAX_SCENES];
static manyfold_case manyfold_cases[MAX_SCENES][MANYFOLD_IMPLS];
static peer_case peer_cases[MAX_SCENES][PEERS];
static uint32_t scene_count = 0;

int bench_suite_register(void)
{
    char name[128], sizes[512] = "", fingerprints[512] = "";
    size_t sizes_used = 0, fingerprints_used = 0;
    for (const char *const *scene_name = scene_names(); *scene_name != NULL && scene_count < MAX_SCENES; ++scene_name) {
        bench_scene *s = &scenes[scene_count];
        mf_status status = bench_scene_build(s, *scene_name);
        if (status != MF_OK) {
            fprintf(stderr, "scene %s: %s\n", *scene_name, mf_status_string(status));
            return 1;
        }
        uint32_t pairs = s->scene.pair_count;
        for (size_t i = 0; i < MANYFOLD_IMPLS; ++i) {
            manyfold_cases[scene_count][i] = (manyfold_case){s, manyfold_impls[i].isa, manyfold_impls[i].threads};
            snprintf(name, sizeof(name), "collide/%s/%s", *scene_name, manyfold_impls[i].name);
            bench_register(name, bench_collide_manyfold, &manyfold_cases[scene_count][i], pairs);
        }
        for (size_t i = 0; i < PEERS; ++i) {
            if (!peers[i].built || (peers[i].box_only && !s->box_only)) continue;
            peer_cases[scene_count][i] = (peer_case){.scene = s, .kind = peers[i].kind};
            snprintf(name, sizeof(name), "collide/%s/%s", *scene_name, peers[i].name);
            bench_register(name, bench_collide_peer, &peer_cases[scene_count][i], pairs);
        }
        if (sizes_used < sizeof(sizes)) {
            int n = snprintf(sizes + sizes_used, sizeof(sizes) - sizes_used, "%s%s=%u", sizes_used ? " " : "",
                             *scene_name, pairs);
            sizes_used += n > 0 ? (size_t)n : 0;
        }
        if (fingerprints_used < sizeof(fingerprints)) {
            int n =
                snprintf(fingerprints + fingerprints_used, sizeof(fingerprints) - fingerprints_used, "%s%s=%016llx",
                         fingerprints_used ? " " : "", *scene_name, (unsigned long long)scene_fingerprint(&s->scene));
            fingerprints_used += n > 0 ? (size_t)n : 0;
        }
        ++scene_count;
    }
    bench_context("manyfold_version", mf_version());
    bench_context("manyfold_isa_best", mf_isa_name(mf_isa_best()));
    bench_context("scene_pairs", sizes);
    bench_context("scene_fingerprints", fingerprints);
    return 0;
}

void bench_suite_release(void)
{
    for (uint32_t i = 0; i < scene_count; ++i) {
        for (size_t k = 0; k < PEERS; ++k) bench_peer_release(&peer_cases[i][k]);
        bench_scene_release(&scenes[i]);
    }
    scene_count = 0;
}

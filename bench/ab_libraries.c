// manyfold-ab: two builds of libmanyfold timed against each other in one process.
//
//   manyfold-ab OLD_LIBRARY NEW_LIBRARY [--rounds N] [--pairs N] [--isa NAME] [--threads N] SCENE...
//
// A shared or noisy host moves one benchmark's rate by tens of percent within a minute, more than
// most changes are worth, and two runs of the suite minutes apart compare the host's moods. Here
// each build is loaded into its own link-map namespace (dlmopen), so both export the same names
// and keep their own code, and the two are timed in alternation on the same scene data: a round
// times each for about 40 ms (the best of three), the first of each round alternating, and the
// line per scene gives the median and quartiles of the rounds' ratios, new speed over old. Host
// noise that lasts longer than a round touches both sides of it.
//
// The scenes are built with the library this program links (`tools/scene`); both builds read the
// same bank, so they must agree on its layout: a tool for changes to the kernel's queries, not to
// the bank.
#define _GNU_SOURCE // dlmopen, LM_ID_NEWLM
#include "isa_names.h"
#include "manyfold.h"
#include "scene.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TIMES_PER_SIDE = 3 };
#define ROUND_SECONDS 0.04

// The entry points the timing needs, from one build.
typedef struct library_build {
    void *handle;
    mf_config (*config_default)(void);
    mf_status (*context_create)(const mf_config *, mf_context **);
    mf_status (*collide)(mf_context *, const mf_bank *, const mf_bodies *, const mf_pair *, uint32_t, mf_stream *);
    void (*context_destroy)(mf_context *);
} library_build;

static int load_build(const char *path, library_build *build)
{
    build->handle = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (build->handle == NULL) {
        fprintf(stderr, "manyfold-ab: %s\n", dlerror());
        return 0;
    }
    // POSIX leaves converting a data pointer to a function pointer to the implementation; dlsym's
    // results are meant to be used so, through memcpy.
    void *symbol[4] = {dlsym(build->handle, "mf_config_default"), dlsym(build->handle, "mf_context_create"),
                       dlsym(build->handle, "mf_collide"), dlsym(build->handle, "mf_context_destroy")};
    for (int i = 0; i < 4; ++i) {
        if (symbol[i] == NULL) {
            fprintf(stderr, "manyfold-ab: %s lacks an mf_ entry point\n", path);
            return 0;
        }
    }
    memcpy(&build->config_default, &symbol[0], sizeof(symbol[0]));
    memcpy(&build->context_create, &symbol[1], sizeof(symbol[1]));
    memcpy(&build->collide, &symbol[2], sizeof(symbol[2]));
    memcpy(&build->context_destroy, &symbol[3], sizeof(symbol[3]));
    return 1;
}

static double seconds_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// One build's context and stream on a scene.
typedef struct side {
    const library_build *build;
    mf_context *context;
    mf_stream stream;
} side;

static int side_open(side *s, const library_build *build, mf_isa isa, uint32_t threads, uint32_t pair_count)
{
    *s = (side){build, NULL, {0}};
    mf_config config = build->config_default();
    config.isa = isa;
    config.threads = threads;
    if (build->context_create(&config, &s->context) != MF_OK) return 0;
    mf_stream_bound(pair_count, config.max_contacts, &s->stream.manifold_capacity, &s->stream.contact_capacity);
    s->stream.manifolds = malloc((s->stream.manifold_capacity + 1) * sizeof(mf_manifold));
    s->stream.contacts = malloc((s->stream.contact_capacity + 1) * sizeof(mf_contact));
    return s->stream.manifolds != NULL && s->stream.contacts != NULL;
}

static void side_close(side *s)
{
    free(s->stream.manifolds);
    free(s->stream.contacts);
    if (s->context != NULL) s->build->context_destroy(s->context);
}

// The best of TIMES_PER_SIDE times of `calls` calls, in seconds a call.
static double time_side(side *s, const scene *sc, const mf_bodies *bodies, int calls)
{
    double best = 1e30;
    for (int t = 0; t < TIMES_PER_SIDE; ++t) {
        double start = seconds_now();
        for (int c = 0; c < calls; ++c)
            s->build->collide(s->context, sc->bank, bodies, sc->pairs, sc->pair_count, &s->stream);
        double each = (seconds_now() - start) / calls;
        if (each < best) best = each;
    }
    return best;
}

static int compare_on_scene(const library_build builds[2], const char *name, uint32_t pair_count, mf_isa isa,
                            uint32_t threads, int rounds)
{
    scene sc;
    if (scene_make(name, pair_count, 7, &sc) != MF_OK) {
        fprintf(stderr, "manyfold-ab: no scene %s\n", name);
        return 0;
    }
    side sides[2];
    int ok = side_open(&sides[0], &builds[0], isa, threads, sc.pair_count);
    ok = side_open(&sides[1], &builds[1], isa, threads, sc.pair_count) && ok;
    double *ratio = malloc((size_t)rounds * sizeof(double));
    if (ok && ratio != NULL) {
        mf_bodies bodies = {.shape = sc.body_shape, .transform = sc.body_transform, .count = sc.body_count};
        double warm = time_side(&sides[0], &sc, &bodies, 1) + time_side(&sides[1], &sc, &bodies, 1);
        int calls = (int)(2.0 * ROUND_SECONDS / warm) + 1;
        for (int r = 0; r < rounds; ++r) {
            double seconds[2];
            for (int k = 0; k < 2; ++k) {
                int s = (r + k) % 2;
                seconds[s] = time_side(&sides[s], &sc, &bodies, calls);
            }
            ratio[r] = seconds[0] / seconds[1];
        }
        qsort(ratio, (size_t)rounds, sizeof(double), compare_doubles);
        printf("%-12s %-7s %u thread%s new/old speed: median %.3f (quartiles %.3f %.3f), %d rounds\n", name,
               mf_isa_name(isa), threads, threads == 1 ? "" : "s", ratio[rounds / 2], ratio[rounds / 4],
               ratio[3 * rounds / 4], rounds);
        fflush(stdout);
    } else {
        fprintf(stderr, "manyfold-ab: %s: a context or stream could not be made\n", name);
        ok = 0;
    }
    free(ratio);
    side_close(&sides[0]);
    side_close(&sides[1]);
    scene_free(&sc);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: manyfold-ab OLD_LIBRARY NEW_LIBRARY [--rounds N] [--pairs N] [--isa NAME] [--threads "
                        "N] SCENE...\n");
        return 2;
    }
    library_build builds[2];
    if (!load_build(argv[1], &builds[0]) || !load_build(argv[2], &builds[1])) return 1;
    int rounds = 16, scenes = 0, ok = 1;
    uint32_t pair_count = 20000, threads = 1;
    mf_isa isa = MF_ISA_AUTO;
    for (int i = 3; i < argc; ++i) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc) {
            pair_count = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--isa") == 0 && i + 1 < argc) {
            if (!isa_from_name(argv[++i], &isa)) {
                fprintf(stderr, "manyfold-ab: no ISA %s\n", argv[i]);
                return 2;
            }
        } else {
            if (rounds < 1 || pair_count < 1 || threads < 1) {
                fprintf(stderr, "manyfold-ab: --rounds, --pairs and --threads need a positive count\n");
                return 2;
            }
            ok = compare_on_scene(builds, argv[i], pair_count, isa, threads, rounds) && ok;
            ++scenes;
        }
    }
    if (scenes == 0) fprintf(stderr, "manyfold-ab: no scene named\n");
    return ok && scenes > 0 ? 0 : 1;
}

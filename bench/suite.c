// Registration of the suite: every scene with every manyfold ISA, then the peers that apply; the
// cache benchmarks on the resting scenes; thread scaling; the size sweep; the hull size family.
#include "suite.h"

#include "collide.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

// Scenes where bodies rest and move a little from step to step, as the cache expects.
static const char *const cached_scenes[] = {"box_resting", "pile_step", "hull16", "hull48"};
#define CACHED_SCENES (sizeof(cached_scenes) / sizeof(cached_scenes[0]))

// collide_threads/<scene>/<n>: counts above the machine's hardware threads are skipped at run time.
// box_box_256: the first 256 pairs of box_box, a call too small to share between threads.
static const char *const thread_scenes[] = {"box_box", "box_resting", "crowd", "hull16", "box_box_256"};
static const uint32_t thread_counts[] = {1, 2, 4, 8, 16};
#define THREAD_SCENES (sizeof(thread_scenes) / sizeof(thread_scenes[0]))
#define THREAD_COUNTS (sizeof(thread_counts) / sizeof(thread_counts[0]))

// collide_caller_cpu/<scene>/cpu<k>/<n>: one thread and two with the calling thread pinned to each
// logical CPU k in turn (the first CALLER_CPUS), so that 2 threads against 1 can be read for every
// placement of the caller: a worker must not share the caller's core.
static const char *const caller_scenes[] = {"box_box", "box_resting"};
#define CALLER_SCENES (sizeof(caller_scenes) / sizeof(caller_scenes[0]))
#define CALLER_CPUS 8

// collide_size/crowd/<pairs>: 10^3 .. 10^6, and 10^7 with MANYFOLD_BENCH_HUGE=1 (a gigabyte and a
// minute); with MANYFOLD_BENCH_PAIRS=n only n.
#define SIZE_SCENE "crowd"
static const uint32_t sweep_sizes[] = {1000, 10000, 100000, 1000000, 10000000};
#define SWEEP_SIZES (sizeof(sweep_sizes) / sizeof(sweep_sizes[0]))

// collide_hull_size/<scene>/{manyfold_auto,ode}: cost per pair against hull size, rocks of 8 to 256
// points and the bunny's hull. No Bullet: its hull clipping already takes about a minute an
// iteration on hull48 (collide/hull48/bullet_hull). hull16 and hull48 are in collide/ as well, with
// every implementation; the others only here, where two implementations keep the suite short.
static const struct {
    const char *name;
    int in_collide;
} hull_size_scenes[] = {
    {"hull8", 0},  {"hull16", 1},  {"hull32", 0},  {"hull48", 1},
    {"hull64", 0}, {"hull128", 0}, {"hull256", 0}, {"hull_bunny", 0},
};
#define HULL_SIZE_SCENES (sizeof(hull_size_scenes) / sizeof(hull_size_scenes[0]))

static bench_scene scenes[MAX_SCENES];
static manyfold_case manyfold_cases[MAX_SCENES][MANYFOLD_IMPLS];
static peer_case peer_cases[MAX_SCENES][PEERS];
static cached_case cached_cases[MAX_SCENES][2];
static manyfold_case thread_cases[THREAD_SCENES][THREAD_COUNTS];

// collide_copies/<scene>/<n>: n one-thread calls at once, each on its own thread with its own
// context and stream (nothing shared but the scene), their pairs per second added up. What n
// threads can reach on this machine: the ceiling for collide_threads/<scene>/<n>. On a shared host
// two busy cores may each run slower than one alone (their SMT siblings, the host's clock).
static const char *const copies_scenes[] = {"box_box", "box_resting", "crowd", "hull16"};
#define COPIES_SCENES (sizeof(copies_scenes) / sizeof(copies_scenes[0]))
static manyfold_case copies_cases[COPIES_SCENES][THREAD_COUNTS];
static manyfold_case caller_cases[CALLER_SCENES][CALLER_CPUS][2];
// find_pairs/heap/<bodies>/<impl>: the broad phase on the default heap, 1 and 2 threads against the
// former sort-and-sweep; with MANYFOLD_BENCH_PAIRS=n only n bodies.
static const uint32_t find_pairs_sizes[] = {10000, 100000, 200000, 1000000};
static const struct {
    const char *name;
    uint32_t threads;
} find_pairs_impls[] = {{"sweep_before", 0}, {"threads1", 1}, {"threads2", 2}};
#define FIND_PAIRS_SIZES (sizeof(find_pairs_sizes) / sizeof(find_pairs_sizes[0]))
#define FIND_PAIRS_IMPLS (sizeof(find_pairs_impls) / sizeof(find_pairs_impls[0]))
static find_pairs_case find_pairs_cases[FIND_PAIRS_SIZES][FIND_PAIRS_IMPLS];

static size_case size_cases[SWEEP_SIZES];
static manyfold_case hull_size_cases[HULL_SIZE_SCENES];
static peer_case hull_size_peers[HULL_SIZE_SCENES];
static uint32_t scene_count = 0;

static int environment_flag(const char *name)
{
    const char *text = getenv(name);
    return text != NULL && strcmp(text, "") != 0 && strcmp(text, "0") != 0;
}

static bench_scene *scene_named(const char *name)
{
    for (uint32_t i = 0; i < scene_count; ++i)
        if (strcmp(scenes[i].scene.name, name) == 0) return &scenes[i];
    return NULL;
}

// Whether a scene gets the collide/ family: all but those made for the hull size family alone.
static int in_collide(const char *name)
{
    for (size_t i = 0; i < HULL_SIZE_SCENES; ++i)
        if (strcmp(name, hull_size_scenes[i].name) == 0) return hull_size_scenes[i].in_collide;
    return 1;
}

static void register_cached(bench_scene *s, uint32_t index)
{
    char name[128];
    for (uint32_t i = 0; i < CACHED_SCENES; ++i) {
        if (strcmp(s->scene.name, cached_scenes[i]) != 0) continue;
        for (int warm = 1; warm >= 0; --warm) {
            cached_cases[index][warm] = (cached_case){s, warm};
            snprintf(name, sizeof(name), "collide/%s/manyfold_auto_cached_%s", s->scene.name, warm ? "warm" : "cold");
            bench_register(name, bench_collide_cached, &cached_cases[index][warm], s->scene.pair_count);
        }
    }
}

static void register_threads(void)
{
    char name[128];
    for (size_t i = 0; i < THREAD_SCENES; ++i) {
        int small = strcmp(thread_scenes[i], "box_box_256") == 0;
        bench_scene *s = scene_named(small ? "box_box" : thread_scenes[i]);
        uint32_t pairs = s == NULL ? 0 : small && s->scene.pair_count > 256 ? 256 : s->scene.pair_count;
        for (size_t k = 0; s != NULL && k < THREAD_COUNTS; ++k) {
            thread_cases[i][k] = (manyfold_case){s, MF_ISA_AUTO, thread_counts[k], pairs, 0, 0, 0};
            snprintf(name, sizeof(name), "collide_threads/%s/%u", thread_scenes[i], thread_counts[k]);
            bench_register(name, bench_collide_manyfold, &thread_cases[i][k], pairs);
        }
    }
    for (size_t i = 0; i < COPIES_SCENES; ++i) {
        bench_scene *s = scene_named(copies_scenes[i]);
        for (size_t k = 0; s != NULL && k < THREAD_COUNTS; ++k) {
            if (thread_counts[k] < 2) continue; // one copy: collide_threads/<scene>/1
            copies_cases[i][k] = (manyfold_case){s, MF_ISA_AUTO, 1, 0, 0, 0, thread_counts[k]};
            snprintf(name, sizeof(name), "collide_copies/%s/%u", copies_scenes[i], thread_counts[k]);
            bench_register_copies(name, bench_collide_manyfold, &copies_cases[i][k], s->scene.pair_count,
                                  thread_counts[k]);
        }
    }
}

static void register_caller_cpus(void)
{
    char name[128];
    uint32_t online = bench_online_cpus(); // a CPU the process may not run on is skipped at run time
    uint32_t cpus = online < CALLER_CPUS ? online : CALLER_CPUS;
    for (size_t i = 0; i < CALLER_SCENES; ++i) {
        bench_scene *s = scene_named(caller_scenes[i]);
        for (uint32_t cpu = 0; s != NULL && cpu < cpus; ++cpu) {
            for (uint32_t threads = 1; threads <= 2; ++threads) {
                caller_cases[i][cpu][threads - 1] = (manyfold_case){s, MF_ISA_AUTO, threads, 0, 1, (int)cpu, 0};
                snprintf(name, sizeof(name), "collide_caller_cpu/%s/cpu%u/%u", caller_scenes[i], cpu, threads);
                bench_register(name, bench_collide_manyfold, &caller_cases[i][cpu][threads - 1], s->scene.pair_count);
            }
        }
    }
}

static void register_sizes(void)
{
    char name[128];
    const char *requested = getenv("MANYFOLD_BENCH_PAIRS");
    uint32_t only = requested != NULL ? (uint32_t)strtoul(requested, NULL, 10) : 0;
    size_t count = environment_flag("MANYFOLD_BENCH_HUGE") ? SWEEP_SIZES : SWEEP_SIZES - 1;
    for (size_t i = 0; i < count; ++i) {
        size_cases[i] = (size_case){SIZE_SCENE, only > 0 ? only : sweep_sizes[i]};
        snprintf(name, sizeof(name), "collide_size/%s/%u", SIZE_SCENE, size_cases[i].pairs);
        bench_register(name, bench_collide_size, &size_cases[i], size_cases[i].pairs);
        if (only > 0) break;
    }
}

static void register_find_pairs(void)
{
    char name[128];
    const char *requested = getenv("MANYFOLD_BENCH_PAIRS");
    uint32_t only = requested != NULL ? (uint32_t)strtoul(requested, NULL, 10) : 0;
    for (size_t i = 0; i < FIND_PAIRS_SIZES; ++i) {
        uint32_t bodies = only > 0 ? only : find_pairs_sizes[i];
        for (size_t k = 0; k < FIND_PAIRS_IMPLS; ++k) {
            find_pairs_cases[i][k] = (find_pairs_case){bodies, find_pairs_impls[k].threads};
            snprintf(name, sizeof(name), "find_pairs/heap/%u/%s", bodies, find_pairs_impls[k].name);
            bench_register(name, bench_find_pairs, &find_pairs_cases[i][k], bodies);
        }
        if (only > 0) break;
    }
}

static void register_collide(bench_scene *s, uint32_t index)
{
    char name[128];
    uint32_t pairs = s->scene.pair_count;
    for (size_t i = 0; i < MANYFOLD_IMPLS; ++i) {
        manyfold_cases[index][i] = (manyfold_case){s, manyfold_impls[i].isa, manyfold_impls[i].threads, 0, 0, 0, 0};
        snprintf(name, sizeof(name), "collide/%s/%s", s->scene.name, manyfold_impls[i].name);
        bench_register(name, bench_collide_manyfold, &manyfold_cases[index][i], pairs);
    }
    register_cached(s, index);
    for (size_t i = 0; i < PEERS; ++i) {
        if (!peers[i].built || (peers[i].box_only && !s->box_only)) continue;
        peer_cases[index][i] = (peer_case){.scene = s, .kind = peers[i].kind};
        snprintf(name, sizeof(name), "collide/%s/%s", s->scene.name, peers[i].name);
        bench_register(name, bench_collide_peer, &peer_cases[index][i], pairs);
    }
}

// The hulls' mean vertex count over the scene's bodies: the size the family is read against (the
// rocks' points on the shell that fall inside the hull are not vertices).
static double mean_vertices(const scene *s)
{
    double sum = 0.0;
    for (uint32_t body = 0; body < s->body_count; ++body) {
        mf_shape_info info = {0};
        mf_bank_shape_info(s->bank, s->body_shape[body], &info);
        sum += info.vertex_count;
    }
    return s->body_count > 0 ? sum / s->body_count : 0.0;
}

// Also says each scene's mean vertex count in the context, as "hull_vertices".
static void register_hull_sizes(void)
{
    char name[128], vertices[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < HULL_SIZE_SCENES; ++i) {
        bench_scene *s = scene_named(hull_size_scenes[i].name);
        if (s == NULL) continue;
        uint32_t pairs = s->scene.pair_count;
        hull_size_cases[i] = (manyfold_case){s, MF_ISA_AUTO, 1, 0, 0, 0, 0};
        snprintf(name, sizeof(name), "collide_hull_size/%s/manyfold_auto", s->scene.name);
        bench_register(name, bench_collide_manyfold, &hull_size_cases[i], pairs);
        if (BENCH_HAVE_ODE) {
            hull_size_peers[i] = (peer_case){.scene = s, .kind = PEER_ODE};
            snprintf(name, sizeof(name), "collide_hull_size/%s/ode", s->scene.name);
            bench_register(name, bench_collide_peer, &hull_size_peers[i], pairs);
        }
        if (used < sizeof(vertices)) {
            int n = snprintf(vertices + used, sizeof(vertices) - used, "%s%s=%.1f", used ? " " : "", s->scene.name,
                             mean_vertices(&s->scene));
            used += n > 0 ? (size_t)n : 0;
        }
    }
    bench_context("hull_vertices", vertices);
}

int bench_suite_register(void)
{
    char sizes[512] = "", fingerprints[512] = "";
    size_t sizes_used = 0, fingerprints_used = 0;
    for (const char *const *scene_name = scene_names(); *scene_name != NULL && scene_count < MAX_SCENES; ++scene_name) {
        bench_scene *s = &scenes[scene_count];
        mf_status status = bench_scene_build(s, *scene_name);
        if (status != MF_OK) {
            fprintf(stderr, "scene %s: %s\n", *scene_name, mf_status_string(status));
            return 1;
        }
        uint32_t pairs = s->scene.pair_count;
        if (in_collide(*scene_name)) register_collide(s, scene_count);
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
    register_threads();
    register_caller_cpus();
    register_sizes();
    register_find_pairs();
    register_hull_sizes();
    bench_context("manyfold_version", mf_version());
    bench_context("manyfold_isa_best", mf_isa_name(mf_isa_best()));
    // Which build of the ISA runs, and why (dispatch.c: on Intel CPUs, the hull stages tuned for them).
    bench_context("manyfold_isa_best_reason", mf_isa_best_reason());
    bench_context("scene_pairs", sizes);
    bench_context("scene_fingerprints", fingerprints);
    return 0;
}

void bench_suite_release(void)
{
    for (uint32_t i = 0; i < scene_count; ++i) {
        for (size_t k = 0; k < PEERS; ++k) bench_peer_release(&peer_cases[i][k]);
    }
    for (size_t i = 0; i < HULL_SIZE_SCENES; ++i) bench_peer_release(&hull_size_peers[i]);
    for (uint32_t i = 0; i < scene_count; ++i) bench_scene_release(&scenes[i]);
    bench_size_release();
    bench_find_pairs_release();
    scene_count = 0;
}

// Every wide ISA against the scalar path: the same output bytes (manyfold.h promises bit-identical
// streams; docs/testing.md, Correctness). Two sources of pairs, one comparison:
//   test_isa pool PAIRS SEED            random pairs of the test pool (tests/pairs.h): box, hull and
//                                       mixed categories, resting, tilted and random poses
//   test_isa scene NAME PAIRS SEED [scaled]
//                                       a shared scene of tools/scene; "scaled" gives every body a
//                                       scale from [0.5, 2] (every fifth exactly 1); the scene is
//                                       also stepped through mf_collide_cached, streams and cache
//                                       entries compared byte for byte
// Each run compares every wide ISA this build and CPU have (SSE4.1, AVX2, AVX-512, NEON), each in
// every tuning the build has (dispatch.h: AVX-512's Intel-tuned hull stages run on any CPU with
// AVX-512, so an AMD machine checks them too), and fails if none ran where the CPU has one. PAIRS
// is scaled by MF_TEST_SCALE like the property tests. On a difference the first few differing
// manifolds are printed with their values.
#include "check.h"
#include "context.h"
#include "dispatch.h"
#include "harness.h"
#include "pairs.h"
#include "scene.h"

#include <math.h>

#ifndef TEST_DEFAULT_SCALE
#define TEST_DEFAULT_SCALE 1.0
#endif

// One call's input: bodies and pairs.
typedef struct batch {
    const mf_bank *bank;
    mf_bodies bodies;
    const mf_pair *pairs;
    uint32_t pair_count;
} batch;

typedef struct output {
    mf_stream stream;
    mf_status status;
} output;

// A path: one ISA's table in one tuning. Path 0 is the scalar path.
enum { PATH_COUNT = TEST_ISA_COUNT * MF_TUNING_COUNT };

static const mf_wide_kernel *path_table(unsigned path)
{
    return mf_dispatch_tuned(test_isas[path / MF_TUNING_COUNT], (mf_tuning)(path % MF_TUNING_COUNT));
}

static const char *path_name(unsigned path)
{
    static const char *const tunings[MF_TUNING_COUNT] = {"", " (tuned for Intel)"};
    static char names[PATH_COUNT][48];
    snprintf(names[path], sizeof(names[path]), "%s%s", mf_isa_name(test_isas[path / MF_TUNING_COUNT]),
             tunings[path % MF_TUNING_COUNT]);
    return names[path];
}

// A context on the path's ISA that runs the path's table, whichever tuning this CPU would take.
static mf_context *path_context(unsigned path)
{
    mf_context *context = test_context_with(test_isas[path / MF_TUNING_COUNT], mf_config_default().on_fault);
    context->kernel = path_table(path);
    return context;
}

static output collide_with(const batch *in, unsigned path)
{
    mf_config config = mf_config_default();
    output out = {test_stream_make(in->pair_count, config.max_contacts), MF_OK};
    mf_context *context = path_context(path);
    CHECK_EQ(mf_context_isa(context), test_isas[path / MF_TUNING_COUNT]);
    out.status = mf_collide(context, in->bank, &in->bodies, in->pairs, in->pair_count, &out.stream);
    mf_context_destroy(context);
    return out;
}

// Prints the first differing manifolds (at most `budget` lines in all, counted down).
static void explain(const mf_stream *x, const mf_stream *y, const char *isa, const char *what, int *budget)
{
    uint32_t count = x->manifold_count < y->manifold_count ? x->manifold_count : y->manifold_count;
    for (uint32_t m = 0; m<count && * budget> 0; ++m) {
        const mf_manifold *p = &x->manifolds[m], *q = &y->manifolds[m];
        int same = memcmp(p, q, sizeof(*p)) == 0 &&
                   memcmp(x->contacts + p->first, y->contacts + q->first, p->count * sizeof(mf_contact)) == 0;
        if (same) continue;
        --*budget;
        fprintf(stderr,
                "%s, %s: manifold %u (pair %u, %u contacts, normal %.9g %.9g %.9g) is pair %u, %u contacts, "
                "normal %.9g %.9g %.9g on the scalar path\n",
                what, isa, m, q->pair, q->count, q->normal.x, q->normal.y, q->normal.z, p->pair, p->count, p->normal.x,
                p->normal.y, p->normal.z);
        for (uint32_t k = 0; k < p->count && k < q->count; ++k) {
            const mf_contact *c = &x->contacts[p->first + k], *d = &y->contacts[q->first + k];
            fprintf(stderr, "  contact %u: id %08x (%.9g %.9g %.9g | %.9g), scalar %08x (%.9g %.9g %.9g | %.9g)\n", k,
                    d->id, d->point.x, d->point.y, d->point.z, d->separation, c->id, c->point.x, c->point.y, c->point.z,
                    c->separation);
        }
        return;
    }
}

// The whole claim for one batch: every wide path gives the scalar path's bytes. Returns how many
// wide paths ran; *neon tells whether NEON was among them.
static int compare_isas(const batch *in, const char *what, int *budget, int *neon)
{
    output scalar = collide_with(in, 0);
    CHECKF(scalar.status == MF_OK, "%s: the scalar path gave %s", what, mf_status_string(scalar.status));
    int ran = 0;
    // The wide paths: every one after the scalar path.
    for (unsigned path = 1; path < PATH_COUNT; ++path) {
        if (path_table(path) == NULL) continue;
        const char *isa = path_name(path);
        output wide = collide_with(in, path);
        const mf_stream *x = &scalar.stream, *y = &wide.stream;
        int same = wide.status == scalar.status && test_same_stream(x, y);
        CHECKF(same, "%s: %s's output (%s, %u manifolds, %u contacts) is not the scalar path's bytes (%s, %u, %u)",
               what, isa, mf_status_string(wide.status), y->manifold_count, y->contact_count,
               mf_status_string(scalar.status), x->manifold_count, x->contact_count);
        if (!same) explain(x, y, isa, what, budget);
        ++ran;
        *neon |= test_isas[path / MF_TUNING_COUNT] == MF_ISA_NEON;
        test_stream_free(&wide.stream);
    }
    test_stream_free(&scalar.stream);
    return ran;
}

static uint32_t scaled_count(const char *text, uint32_t at_least)
{
    const char *scale_text = getenv("MF_TEST_SCALE");
    double scale = scale_text != NULL && scale_text[0] != '\0' ? atof(scale_text) : TEST_DEFAULT_SCALE;
    return (uint32_t)fmax((double)at_least, floor(atof(text) * scale + 0.5));
}

// Random pairs of the pool, category after category, in batches of one call each.
static int run_pool(uint32_t pair_count, uint64_t seed, int *budget, int *neon)
{
    test_pool pool;
    CHECK_EQ(test_pool_make(seed, 64, 64, &pool), MF_OK);
    if (pool.bank == NULL) return 0;
    enum { BATCH = 4096 };
    uint32_t *shapes = malloc(2 * BATCH * sizeof(uint32_t));
    mf_transform *transforms = malloc(2 * BATCH * sizeof(mf_transform));
    mf_pair *pairs = malloc(BATCH * sizeof(mf_pair));
    static const char *const categories[] = {"box", "hull", "mixed"};
    int ran = 0;
    for (int category = 0; category < 3; ++category) {
        for (uint32_t base = 0; base < pair_count; base += BATCH) {
            uint32_t count = pair_count - base < BATCH ? pair_count - base : BATCH;
            for (uint32_t i = 0; i < count; ++i) {
                test_make_pair(&pool, (test_category)category, seed, base + i, mf_config_default().margin,
                               shapes + 2 * i, transforms + 2 * i);
                pairs[i] = (mf_pair){2 * i, 2 * i + 1};
            }
            batch in = {.bank = pool.bank,
                        .bodies = {.shape = shapes, .transform = transforms, .count = 2 * count},
                        .pairs = pairs,
                        .pair_count = count};
            char what[128];
            snprintf(what, sizeof(what), "pool %s pairs [%u, %u), seed %llu", categories[category], base, base + count,
                     (unsigned long long)seed);
            ran = compare_isas(&in, what, budget, neon);
        }
    }
    free(shapes);
    free(transforms);
    free(pairs);
    test_pool_free(&pool);
    return ran;
}

// The cached call, step after step (scene_step's motion): every wide path gives the scalar path's
// stream bytes and writes the scalar path's cache entries, byte for byte, pairs found apart
// included (the separating axis an entry keeps is the one the scalar search stops at).
enum { CACHED_STEPS = 4 };
static void compare_cached_isas(const scene *s, const float *scales, const char *what, int *budget)
{
    mf_config config = mf_config_default();
    mf_transform *moved = malloc((s->body_count + 1) * sizeof(mf_transform));
    mf_context *context[PATH_COUNT] = {NULL};
    mf_pair_cache *cache[PATH_COUNT] = {NULL};
    mf_stream stream[PATH_COUNT];
    for (unsigned i = 0; i < PATH_COUNT; ++i) {
        stream[i] = test_stream_make(s->pair_count, config.max_contacts);
        if (path_table(i) == NULL) continue;
        context[i] = path_context(i);
        cache[i] = calloc(s->pair_count + 1, sizeof(mf_pair_cache));
    }
    for (uint32_t step = 0; step < CACHED_STEPS; ++step) {
        scene_step(s, step, 11, moved);
        mf_bodies bodies = {.shape = s->body_shape, .transform = moved, .count = s->body_count, .scales = scales};
        mf_status status[PATH_COUNT];
        for (unsigned i = 0; i < PATH_COUNT; ++i)
            if (context[i] != NULL)
                status[i] =
                    mf_collide_cached(context[i], s->bank, &bodies, s->pairs, s->pair_count, cache[i], &stream[i]);
        CHECKF(status[0] == MF_OK, "%s, cached step %u: the scalar path gave %s", what, step,
               mf_status_string(status[0]));
        for (unsigned i = 1; i < PATH_COUNT; ++i) {
            if (context[i] == NULL) continue;
            int same = status[i] == status[0] && test_same_stream(&stream[0], &stream[i]);
            CHECKF(same, "%s, cached step %u: %s's stream is not the scalar path's bytes", what, step, path_name(i));
            if (!same) explain(&stream[0], &stream[i], path_name(i), what, budget);
            uint32_t first_different = s->pair_count;
            for (uint32_t p = 0; p < s->pair_count && first_different == s->pair_count; ++p)
                if (memcmp(&cache[0][p], &cache[i][p], sizeof(mf_pair_cache)) != 0) first_different = p;
            CHECKF(first_different == s->pair_count,
                   "%s, cached step %u: %s's cache entry of pair %u (axis %u, separation %.9g, route %u) is not the "
                   "scalar path's (axis %u, separation %.9g, route %u)",
                   what, step, path_name(i), first_different, cache[i][first_different].axis,
                   cache[i][first_different].separation, cache[i][first_different].route,
                   cache[0][first_different].axis, cache[0][first_different].separation,
                   cache[0][first_different].route);
        }
    }
    for (unsigned i = 0; i < PATH_COUNT; ++i) {
        mf_context_destroy(context[i]);
        free(cache[i]);
        test_stream_free(&stream[i]);
    }
    free(moved);
}

// One shared scene, optionally with every body scaled.
static int run_scene(const char *name, uint32_t pair_count, uint64_t seed, int scaled, int *budget, int *neon)
{
    scene s;
    mf_status status = scene_make(name, pair_count, seed, &s);
    CHECKF(status == MF_OK, "scene %s: %s", name, mf_status_string(status));
    if (status != MF_OK) return 0;
    float *scales = NULL;
    if (scaled) {
        scales = malloc((s.body_count + 1) * sizeof(float));
        uint64_t state = seed;
        for (uint32_t i = 0; i < s.body_count; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(state >> 11) * 0x1.0p-53;
            scales[i] = i % 5 == 0 ? 1.0f : (float)pow(2.0, 2.0 * u - 1.0);
        }
    }
    batch in = {
        .bank = s.bank,
        .bodies = {.shape = s.body_shape, .transform = s.body_transform, .count = s.body_count, .scales = scales},
        .pairs = s.pairs,
        .pair_count = s.pair_count};
    char what[128];
    snprintf(what, sizeof(what), "scene %s%s, %u pairs, seed %llu", name, scaled ? " (scaled)" : "", s.pair_count,
             (unsigned long long)seed);
    int ran = compare_isas(&in, what, budget, neon);
    compare_cached_isas(&s, scales, what, budget);
    free(scales);
    scene_free(&s);
    return ran;
}

int main(int argc, char **argv)
{
    int is_pool = argc >= 4 && strcmp(argv[1], "pool") == 0;
    int is_scene = argc >= 5 && strcmp(argv[1], "scene") == 0;
    if (!is_pool && !is_scene) {
        fprintf(stderr, "usage: %s pool PAIRS SEED | %s scene NAME PAIRS SEED [scaled]\n", argv[0], argv[0]);
        return 2;
    }
    int budget = 5, neon = 0, ran;
    if (is_pool) {
        ran = run_pool(scaled_count(argv[2], 1), strtoull(argv[3], NULL, 10), &budget, &neon);
    } else {
        int scaled = argc > 5 && strcmp(argv[5], "scaled") == 0;
        ran = run_scene(argv[2], scaled_count(argv[3], 64), strtoull(argv[4], NULL, 10), scaled, &budget, &neon);
    }
    // Which paths ran is part of the claim: a build that silently lost its wide paths must fail.
#if defined(__aarch64__)
    CHECKF(neon, "the NEON path did not run on this aarch64 build");
    CHECK_EQ(mf_isa_best(), MF_ISA_NEON);
#elif defined(__x86_64__)
    __builtin_cpu_init();
    CHECKF(ran >= 1 || !__builtin_cpu_supports("sse4.1"), "no wide path ran on an x86-64 CPU with SSE4.1");
    if (__builtin_cpu_supports("avx2")) CHECKF(mf_isa_supported(MF_ISA_AVX2), "AVX2 CPU but no AVX2 path");
    if (TEST_INTEL_TUNED_KERNELS && mf_isa_supported(MF_ISA_AVX512))
        CHECKF(mf_dispatch_tuned(MF_ISA_AVX512, MF_TUNING_INTEL) != NULL,
               "the build has AVX-512's Intel-tuned hull stages, but they did not run");
#endif
    (void)neon;
    printf("%d wide paths compared with scalar, %s\n", ran, check_failures == 0 ? "the same bytes" : "DIFFERENT");
    return check_failures != 0;
}

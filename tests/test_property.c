// Property test: random pairs from a fixed seed, every manifold held against the double-precision
// brute-force SAT (reference.c).
//
// usage: test_property box|hull|mixed PAIRS SEED [--only PAIR] [--margin M] [--slop S] [--max-contacts K]
//                     [--print N] [--isa scalar|sse|avx2|avx512|neon] [--scales LOW,HIGH]
// --scales gives each body a scale (mf_bodies.scales) drawn from [LOW, HIGH], held against the
// brute force on the scaled hulls.
// PAIRS is scaled by the environment variable MF_TEST_SCALE (default 1; sanitizer builds default lower).
// On a failure the seed, the pair index, both shapes and both transforms are printed; `--only PAIR`
// reruns that one pair.
#include "pairs.h"
#include "pool.h"
#include "random.h"
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TEST_DEFAULT_SCALE
#define TEST_DEFAULT_SCALE 1.0
#endif

enum { POOL_BOXES = 64, POOL_HULLS = 64, BATCH = 2048 };

static void print_pair(const test_pool *pool, const ref_pair *reference, const char *name, uint64_t seed,
                       uint32_t index, const uint32_t shape[2], const mf_transform transform[2], const float *scale,
                       const char *why, const mf_manifold *manifold, const mf_contact *contacts)
{
    fprintf(stderr, "FAIL %s seed %llu pair %u: %s\n", name, (unsigned long long)seed, index, why);
    ref_axis best = ref_best_axis(reference);
    static const char *const kinds[] = {"face of a", "face of b", "edge pair"};
    fprintf(stderr, "  brute force: separation %.9g along {%.7f, %.7f, %.7f}, %s (%u, %u)\n", best.separation,
            best.normal[0], best.normal[1], best.normal[2], kinds[best.kind], best.feature_a, best.feature_b);
    if (best.separation > 0.0) {
        ref_axis sat = ref_best_axis_gauss_map(reference);
        fprintf(stderr, "  Gauss-map candidates only: separation %.9g along {%.7f, %.7f, %.7f}, %s (%u, %u)\n",
                sat.separation, sat.normal[0], sat.normal[1], sat.normal[2], kinds[sat.kind], sat.feature_a,
                sat.feature_b);
    }
    if (manifold != NULL && contacts != NULL) {
        fprintf(stderr, "  manifold: normal {%.9g, %.9g, %.9g}, %u contacts:", manifold->normal.x, manifold->normal.y,
                manifold->normal.z, manifold->count);
        for (uint32_t k = 0; k < manifold->count && k < MF_MAX_CONTACTS; ++k)
            fprintf(stderr, " {%.7g %.7g %.7g | %.6g | %08x}", contacts[k].point.x, contacts[k].point.y,
                    contacts[k].point.z, contacts[k].separation, contacts[k].id);
        fputc('\n', stderr);
    }
    for (int h = 0; h < 2; ++h) {
        const mf_transform *t = &transform[h];
        fprintf(stderr, "  body %c: shape %u, p {%.9g, %.9g, %.9g}, q {%.9g, %.9g, %.9g, %.9g}, scale %.9g\n",
                h == 0 ? 'a' : 'b', shape[h], t->p.x, t->p.y, t->p.z, t->q.x, t->q.y, t->q.z, t->q.w,
                scale != NULL ? (double)scale[h] : 1.0);
    }
    test_pool_print_shape(pool, shape[0]);
    if (shape[1] != shape[0]) test_pool_print_shape(pool, shape[1]);
}

static double seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr,
                "usage: %s box|hull|mixed PAIRS SEED [--only PAIR] [--margin M] [--slop S] "
                "[--max-contacts K] [--print N] [--isa NAME] [--scales LOW,HIGH]\n",
                argv[0]);
        return 2;
    }
    const char *name = argv[1];
    test_category kind = strcmp(name, "box") == 0    ? TEST_PAIRS_BOX
                         : strcmp(name, "hull") == 0 ? TEST_PAIRS_HULL
                                                     : TEST_PAIRS_MIXED;
    if (kind == TEST_PAIRS_MIXED && strcmp(name, "mixed") != 0) {
        fprintf(stderr, "unknown category %s\n", name);
        return 2;
    }
    double scale = TEST_DEFAULT_SCALE;
    const char *scale_text = getenv("MF_TEST_SCALE");
    if (scale_text != NULL && scale_text[0] != '\0') scale = atof(scale_text);
    uint32_t pair_count = (uint32_t)fmax(1.0, floor(atof(argv[2]) * scale + 0.5));
    uint64_t seed = strtoull(argv[3], NULL, 0);
    long only = -1;
    int max_printed = 10; // failing pairs printed in full
    float scale_low = 1.0f, scale_high = 1.0f;
    int scaled = 0;
    mf_config config = mf_config_default();
    for (int i = 4; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--only") == 0) only = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--margin") == 0) config.margin = (float)atof(argv[i + 1]);
        else if (strcmp(argv[i], "--slop") == 0) config.linear_slop = (float)atof(argv[i + 1]);
        else if (strcmp(argv[i], "--max-contacts") == 0) config.max_contacts = (uint32_t)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--print") == 0) max_printed = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--scales") == 0) {
            scaled = sscanf(argv[i + 1], "%f,%f", &scale_low, &scale_high) == 2;
            if (!scaled || !(scale_low > 0.0f && scale_high >= scale_low)) {
                fprintf(stderr, "--scales wants LOW,HIGH with 0 < LOW <= HIGH\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--isa") == 0) {
            for (int isa = MF_ISA_AUTO; isa <= MF_ISA_NEON; ++isa)
                if (strcmp(argv[i + 1], mf_isa_name((mf_isa)isa)) == 0) config.isa = (mf_isa)isa;
            if (!mf_isa_supported(config.isa) || strcmp(argv[i + 1], mf_isa_name(config.isa)) != 0) {
                printf("isa %s is not supported here: skipped\n", argv[i + 1]);
                return 77; // meson's "skipped"
            }
        } else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }

    test_pool pool;
    mf_status status = test_pool_make(seed, POOL_BOXES, POOL_HULLS, &pool);
    if (status != MF_OK) {
        fprintf(stderr, "FAIL seed %llu: the shape pool could not be built: %s\n", (unsigned long long)seed,
                mf_status_string(status));
        return 1;
    }
    mf_context *context = NULL;
    status = mf_context_create(&config, &context);
    if (status != MF_OK) {
        fprintf(stderr, "FAIL: mf_context_create: %s\n", mf_status_string(status));
        test_pool_free(&pool);
        return 1;
    }

    uint32_t *shapes = malloc(2 * BATCH * sizeof(uint32_t));
    mf_transform *transforms = malloc(2 * BATCH * sizeof(mf_transform));
    mf_pair *pairs = malloc(BATCH * sizeof(mf_pair));
    float *scales = malloc(2 * BATCH * sizeof(float));
    ref_hull scaled_hulls[2];
    mf_stream stream = {0};
    mf_stream_bound(BATCH, config.max_contacts, &stream.manifold_capacity, &stream.contact_capacity);
    stream.manifolds = malloc(stream.manifold_capacity * sizeof(mf_manifold));
    stream.contacts = malloc(stream.contact_capacity * sizeof(mf_contact));
    ref_pair *reference = ref_pair_create();
    if (!shapes || !transforms || !pairs || !scales || !stream.manifolds || !stream.contacts || !reference) {
        fprintf(stderr, "FAIL: out of memory\n");
        return 1;
    }

    ref_stats stats = {0};
    int failures = 0;
    double kernel_time = 0.0, reference_time = 0.0;
    uint32_t first = only >= 0 ? (uint32_t)only : 0, end = only >= 0 ? (uint32_t)only + 1 : pair_count;
    for (uint32_t base = first; base < end; base += BATCH) {
        uint32_t count = end - base < BATCH ? end - base : BATCH;
        for (uint32_t i = 0; i < count; ++i) {
            if (scaled)
                test_make_scaled_pair(&pool, kind, seed, base + i, config.margin, scale_low, scale_high, shapes + 2 * i,
                                      transforms + 2 * i, scales + 2 * i);
            else test_make_pair(&pool, kind, seed, base + i, config.margin, shapes + 2 * i, transforms + 2 * i);
            pairs[i] = (mf_pair){2 * i, 2 * i + 1};
        }
        mf_bodies bodies = {
            .shape = shapes, .transform = transforms, .count = 2 * count, .scales = scaled ? scales : NULL};
        double start = seconds();
        status = mf_collide(context, pool.bank, &bodies, pairs, count, &stream);
        kernel_time += seconds() - start;
        if (status != MF_OK) {
            fprintf(stderr, "FAIL %s seed %llu: mf_collide on pairs [%u, %u): %s (%s)\n", name,
                    (unsigned long long)seed, base, base + count, mf_status_string(status),
                    mf_context_message(context));
            ++failures;
            break;
        }

        start = seconds();
        uint32_t m = 0, contact_total = 0;
        for (uint32_t i = 0; i < count; ++i) {
            const mf_manifold *manifold = NULL;
            char why[512] = "";
            int stream_ok = 1;
            if (m < stream.manifold_count && stream.manifolds[m].pair == i) {
                manifold = &stream.manifolds[m++];
                // The stream's own rules: increasing pair order, contacts contiguous and in bounds.
                stream_ok = manifold->first == contact_total && manifold->count <= MF_MAX_CONTACTS &&
                            manifold->first + manifold->count <= stream.contact_count;
                if (stream_ok) contact_total += manifold->count;
            } else if (m < stream.manifold_count && stream.manifolds[m].pair < i) {
                stream_ok = 0;
            }
            const ref_hull *hull_a = &pool.reference[shapes[2 * i]], *hull_b = &pool.reference[shapes[2 * i + 1]];
            if (scaled) {
                if (ref_hull_scaled(hull_a, scales[2 * i], &scaled_hulls[0]) != MF_OK ||
                    ref_hull_scaled(hull_b, scales[2 * i + 1], &scaled_hulls[1]) != MF_OK) {
                    fprintf(stderr, "FAIL: out of memory\n");
                    return 1;
                }
                hull_a = &scaled_hulls[0], hull_b = &scaled_hulls[1];
            }
            ref_pair_set(reference, hull_a, transforms[2 * i], hull_b, transforms[2 * i + 1]);
            int violations = 0;
            if (!stream_ok) {
                snprintf(why, sizeof(why), "stream out of order or contacts not contiguous at manifold %u", m);
                violations = 1;
                m = stream.manifold_count; // the rest of the batch cannot be matched
            } else {
                violations = ref_check_pair(reference, &config, manifold,
                                            manifold != NULL ? stream.contacts + manifold->first : NULL, &stats, why,
                                            sizeof(why));
            }
            if (violations != 0 && failures++ < max_printed)
                print_pair(&pool, reference, name, seed, base + i, shapes + 2 * i, transforms + 2 * i,
                           scaled ? scales + 2 * i : NULL, why, manifold,
                           manifold != NULL && stream_ok ? stream.contacts + manifold->first : NULL);
            if (scaled) {
                ref_hull_free(&scaled_hulls[0]);
                ref_hull_free(&scaled_hulls[1]);
            }
        }
        if (m != stream.manifold_count || contact_total != stream.contact_count) {
            fprintf(stderr,
                    "FAIL %s seed %llu: batch at %u: %u manifolds / %u contacts matched, the stream holds %u / %u\n",
                    name, (unsigned long long)seed, base, m, contact_total, stream.manifold_count,
                    stream.contact_count);
            ++failures;
        }
        reference_time += seconds() - start;
    }

    char label[128];
    snprintf(label, sizeof(label), "%s seed %llu margin %g slop %g max_contacts %u isa %s scales [%g, %g]", name,
             (unsigned long long)seed, (double)config.margin, (double)config.linear_slop, config.max_contacts,
             mf_isa_name(mf_context_isa(context)), (double)scale_low, (double)scale_high);
    ref_stats_print(label, &stats);
    printf("%s: kernel %.3f s (%.0f pairs/s), reference %.3f s\n", name, kernel_time,
           kernel_time > 0 ? stats.pairs / kernel_time : 0.0, reference_time);
    if (failures != 0)
        fprintf(stderr, "%d failing pairs (first %d printed); seed %llu\n", failures, max_printed,
                (unsigned long long)seed);

    ref_pair_destroy(reference);
    free(stream.manifolds);
    free(stream.contacts);
    free(shapes);
    free(transforms);
    free(pairs);
    free(scales);
    mf_context_destroy(context);
    test_pool_free(&pool);
    return failures != 0;
}

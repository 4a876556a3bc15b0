// Every ISA path against the scalar path on the same random pairs: the same manifolds, contact
// counts and feature ids, normals, positions and separations within a small tolerance
// (docs/testing.md, Correctness).
//
// usage: test_isa ISA PAIRS SEED   (ISA: sse, avx2, avx512, neon; exits 77, "skipped", if this build
// or CPU cannot run it). PAIRS is scaled by MF_TEST_SCALE like the property tests.
#include "pairs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEST_DEFAULT_SCALE
#define TEST_DEFAULT_SCALE 1.0
#endif

enum { MAX_PRINTED = 10 };

#define POSITION_TOLERANCE 1e-4 // times (1 + |position|)
#define VALUE_TOLERANCE 1e-4    // normals and separations

typedef struct output {
    mf_stream stream;
} output;

static mf_status collide(mf_isa isa, const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t count,
                         mf_stream *stream)
{
    mf_config config = mf_config_default();
    config.isa = isa;
    mf_context *context = NULL;
    mf_status status = mf_context_create(&config, &context);
    if (status == MF_OK) status = mf_collide(context, bank, bodies, pairs, count, stream);
    mf_context_destroy(context);
    return status;
}

static int near(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

// Compares the manifolds of one batch; returns the number of pairs that differ.
static int compare(const mf_stream *scalar, const mf_stream *wide, uint32_t base, const char *isa, uint64_t seed,
                   const char *category, int *printed)
{
    int differences = 0;
    uint32_t m = 0, w = 0;
    while (m < scalar->manifold_count || w < wide->manifold_count) {
        const mf_manifold *x = m < scalar->manifold_count ? &scalar->manifolds[m] : NULL;
        const mf_manifold *y = w < wide->manifold_count ? &wide->manifolds[w] : NULL;
        char why[256] = "";
        uint32_t pair;
        if (x == NULL || (y != NULL && y->pair < x->pair)) {
            pair = y->pair;
            snprintf(why, sizeof(why), "only %s gives a manifold", isa);
            ++w;
        } else if (y == NULL || x->pair < y->pair) {
            pair = x->pair;
            snprintf(why, sizeof(why), "only scalar gives a manifold");
            ++m;
        } else {
            pair = x->pair;
            ++m, ++w;
            if (x->count != y->count) {
                snprintf(why, sizeof(why), "%u contacts from scalar, %u from %s", x->count, y->count, isa);
            } else if (!near(x->normal.x, y->normal.x, VALUE_TOLERANCE) ||
                       !near(x->normal.y, y->normal.y, VALUE_TOLERANCE) ||
                       !near(x->normal.z, y->normal.z, VALUE_TOLERANCE)) {
                snprintf(why, sizeof(why), "normal (%.7g %.7g %.7g) from scalar, (%.7g %.7g %.7g) from %s", x->normal.x,
                         x->normal.y, x->normal.z, y->normal.x, y->normal.y, y->normal.z, isa);
            } else {
                // Contacts are matched by id, in whatever order each path lists them.
                for (uint32_t k = 0; k < x->count && why[0] == '\0'; ++k) {
                    const mf_contact *c = &scalar->contacts[x->first + k], *d = NULL;
                    for (uint32_t j = 0; j < y->count; ++j)
                        if (wide->contacts[y->first + j].id == c->id) d = &wide->contacts[y->first + j];
                    if (d == NULL) {
                        snprintf(why, sizeof(why), "scalar contact id %08x missing from %s", c->id, isa);
                        break;
                    }
                    double scale = 1.0 + fabs(c->point.x) + fabs(c->point.y) + fabs(c->point.z);
                    if (!near(c->point.x, d->point.x, POSITION_TOLERANCE * scale) ||
                        !near(c->point.y, d->point.y, POSITION_TOLERANCE * scale) ||
                        !near(c->point.z, d->point.z, POSITION_TOLERANCE * scale) ||
                        !near(c->separation, d->separation, VALUE_TOLERANCE)) {
                        snprintf(why, sizeof(why),
                                 "contact %08x at (%.7g %.7g %.7g | %.7g) from scalar, (%.7g %.7g %.7g | %.7g) from %s",
                                 c->id, c->point.x, c->point.y, c->point.z, c->separation, d->point.x, d->point.y,
                                 d->point.z, d->separation, isa);
                    }
                }
            }
        }
        if (why[0] != '\0') {
            ++differences;
            if ((*printed)++ < MAX_PRINTED)
                fprintf(stderr, "FAIL %s vs scalar, %s seed %llu pair %u: %s\n", isa, category,
                        (unsigned long long)seed, base + pair, why);
        }
    }
    return differences;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s sse|avx2|avx512|neon PAIRS SEED\n", argv[0]);
        return 2;
    }
    mf_isa isa = MF_ISA_AUTO;
    for (int i = MF_ISA_SCALAR; i <= MF_ISA_NEON; ++i)
        if (strcmp(argv[1], mf_isa_name((mf_isa)i)) == 0) isa = (mf_isa)i;
    if (isa == MF_ISA_AUTO || !mf_isa_supported(isa)) {
        printf("isa %s is not supported by this build or CPU: skipped\n", argv[1]);
        return 77;
    }
    double scale = TEST_DEFAULT_SCALE;
    const char *scale_text = getenv("MF_TEST_SCALE");
    if (scale_text != NULL && scale_text[0] != '\0') scale = atof(scale_text);
    uint32_t pair_count = (uint32_t)fmax(1.0, floor(atof(argv[2]) * scale + 0.5));
    uint64_t seed = strtoull(argv[3], NULL, 0);

    test_pool pool;
    if (test_pool_make(seed, 64, 64, &pool) != MF_OK) {
        fprintf(stderr, "FAIL: the shape pool could not be built (seed %llu)\n", (unsigned long long)seed);
        return 1;
    }
    enum { BATCH = 4096 };
    uint32_t *shapes = malloc(2 * BATCH * sizeof(uint32_t));
    mf_transform *transforms = malloc(2 * BATCH * sizeof(mf_transform));
    mf_pair *pairs = malloc(BATCH * sizeof(mf_pair));
    mf_stream streams[2];
    for (int s = 0; s < 2; ++s) {
        streams[s] = (mf_stream){0};
        mf_stream_bound(BATCH, mf_config_default().max_contacts, &streams[s].manifold_capacity,
                        &streams[s].contact_capacity);
        streams[s].manifolds = malloc(streams[s].manifold_capacity * sizeof(mf_manifold));
        streams[s].contacts = malloc(streams[s].contact_capacity * sizeof(mf_contact));
    }
    static const char *const categories[] = {"box", "hull", "mixed"};
    int differences = 0, printed = 0, failures = 0;
    uint64_t compared = 0, touching = 0;
    for (int category = 0; category < 3; ++category) {
        for (uint32_t base = 0; base < pair_count; base += BATCH) {
            uint32_t count = pair_count - base < BATCH ? pair_count - base : BATCH;
            for (uint32_t i = 0; i < count; ++i) {
                test_make_pair(&pool, (test_category)category, seed, base + i, mf_config_default().margin,
                               shapes + 2 * i, transforms + 2 * i);
                pairs[i] = (mf_pair){2 * i, 2 * i + 1};
            }
            mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2 * count};
            mf_status a = collide(MF_ISA_SCALAR, pool.bank, &bodies, pairs, count, &streams[0]);
            mf_status b = collide(isa, pool.bank, &bodies, pairs, count, &streams[1]);
            if (a != MF_OK || b != MF_OK) {
                fprintf(stderr, "FAIL: mf_collide gave %s (scalar) and %s (%s)\n", mf_status_string(a),
                        mf_status_string(b), argv[1]);
                ++failures;
                break;
            }
            differences += compare(&streams[0], &streams[1], base, argv[1], seed, categories[category], &printed);
            compared += count;
            touching += streams[0].manifold_count;
        }
    }
    printf("%s vs scalar, seed %llu: %llu pairs (%llu touching), %d differ\n", argv[1], (unsigned long long)seed,
           (unsigned long long)compared, (unsigned long long)touching, differences);
    for (int s = 0; s < 2; ++s) {
        free(streams[s].manifolds);
        free(streams[s].contacts);
    }
    free(shapes);
    free(transforms);
    free(pairs);
    test_pool_free(&pool);
    return differences != 0 || failures != 0;
}

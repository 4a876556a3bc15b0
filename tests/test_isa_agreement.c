// Every ISA path against the scalar path on the shared scenes: the same manifolds, contact counts
// and feature ids, and points, normals and separations within 1e-5 relative. The scenes come from
// tools/scene with fixed seeds; argv: scene name, pairs (times MF_TEST_SCALE), seed, and
// optionally "scaled": every body gets a scale (mf_bodies.scales) from [0.5, 2] (every fifth
// exactly 1), and the outputs must then be the same bytes.
#include "check.h"
#include "scene.h"

#include <math.h>

static const mf_isa wide_isas[] = {MF_ISA_SSE, MF_ISA_AVX2, MF_ISA_AVX512, MF_ISA_NEON};

typedef struct output {
    mf_stream stream;
} output;

static output collide_with(const scene *s, const float *scales, mf_isa isa)
{
    mf_config config = mf_config_default();
    config.isa = isa;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    uint32_t manifolds, contacts;
    mf_stream_bound(s->pair_count, config.max_contacts, &manifolds, &contacts);
    output out = {{malloc((size_t)manifolds * sizeof(mf_manifold) + 1), manifolds, 0,
                   malloc((size_t)contacts * sizeof(mf_contact) + 1), contacts, 0, 0, NULL, 0, 0}};
    mf_bodies bodies = {
        .shape = s->body_shape, .transform = s->body_transform, .count = s->body_count, .scales = scales};
    CHECK_EQ(mf_collide(context, s->bank, &bodies, s->pairs, s->pair_count, &out.stream), MF_OK);
    CHECK_EQ(mf_context_isa(context), isa);
    mf_context_destroy(context);
    return out;
}

static int near(float a, float b) { return fabsf(a - b) <= 1e-5f * fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b))); }
static int near3(mf_vec3 a, mf_vec3 b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z); }

// Compares one ISA's output with the scalar one; returns the number of differing manifolds.
static uint32_t compare(const output *scalar, const output *wide, mf_isa isa, uint64_t seed)
{
    const mf_stream *x = &scalar->stream, *y = &wide->stream;
    CHECKF(x->manifold_count == y->manifold_count && x->contact_count == y->contact_count,
           "%s: %u manifolds and %u contacts, scalar %u and %u (seed %llu)", mf_isa_name(isa), y->manifold_count,
           y->contact_count, x->manifold_count, x->contact_count, (unsigned long long)seed);
    uint32_t count = x->manifold_count < y->manifold_count ? x->manifold_count : y->manifold_count, differing = 0;
    for (uint32_t m = 0; m < count; ++m) {
        const mf_manifold *p = &x->manifolds[m], *q = &y->manifolds[m];
        int same = p->pair == q->pair && p->count == q->count && near3(p->normal, q->normal);
        for (uint32_t k = 0; same && k < p->count; ++k) {
            const mf_contact *c = &x->contacts[p->first + k], *d = &y->contacts[q->first + k];
            same = c->id == d->id && near3(c->point, d->point) && near(c->separation, d->separation);
        }
        if (!same && differing++ < 5)
            CHECKF(0, "%s differs from scalar at pair %u (seed %llu)", mf_isa_name(isa), p->pair,
                   (unsigned long long)seed);
    }
    return differing;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s SCENE PAIRS SEED\n", argv[0]);
        return 2;
    }
    const char *scale_text = getenv("MF_TEST_SCALE");
    double scale = scale_text != NULL ? atof(scale_text) : TEST_DEFAULT_SCALE;
    uint32_t pairs = (uint32_t)fmax(64.0, atof(argv[2]) * scale);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    int scaled = argc > 4 && strcmp(argv[4], "scaled") == 0;
    scene s;
    mf_status status = scene_make(argv[1], pairs, seed, &s);
    CHECKF(status == MF_OK, "scene %s: %s", argv[1], mf_status_string(status));
    if (status != MF_OK) return 1;
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

    output scalar = collide_with(&s, scales, MF_ISA_SCALAR);
    int compared = 0, neon_compared = 0;
    for (unsigned i = 0; i < sizeof(wide_isas) / sizeof(wide_isas[0]); ++i) {
        if (!mf_isa_supported(wide_isas[i])) continue;
        output wide = collide_with(&s, scales, wide_isas[i]);
        uint32_t differing = compare(&scalar, &wide, wide_isas[i], seed);
        if (scaled) {
            const mf_stream *x = &scalar.stream, *y = &wide.stream;
            int same = x->manifold_count == y->manifold_count && x->contact_count == y->contact_count &&
                       memcmp(x->manifolds, y->manifolds, x->manifold_count * sizeof(mf_manifold)) == 0 &&
                       memcmp(x->contacts, y->contacts, x->contact_count * sizeof(mf_contact)) == 0;
            CHECKF(same, "%s: %s's output on scaled bodies is not the scalar path's bytes (seed %llu)", argv[1],
                   mf_isa_name(wide_isas[i]), (unsigned long long)seed);
        }
        printf("%s: %s vs scalar on %u pairs: %u manifolds, %u contacts, %u differ\n", argv[1],
               mf_isa_name(wide_isas[i]), s.pair_count, wide.stream.manifold_count, wide.stream.contact_count,
               differing);
        compared++;
        neon_compared |= wide_isas[i] == MF_ISA_NEON;
        free(wide.stream.manifolds);
        free(wide.stream.contacts);
    }
    // Which paths ran is part of the claim: a build that silently lost its wide paths must fail.
#if defined(__aarch64__)
    CHECKF(neon_compared, "the NEON path did not run on this aarch64 build");
    CHECK_EQ(mf_isa_best(), MF_ISA_NEON);
#elif defined(__x86_64__)
    __builtin_cpu_init();
    CHECKF(compared >= 1 || !__builtin_cpu_supports("sse4.1"), "no wide path ran on an x86-64 CPU with SSE4.1");
    if (__builtin_cpu_supports("avx2")) CHECKF(mf_isa_supported(MF_ISA_AVX2), "AVX2 CPU but no AVX2 path");
#endif
    (void)neon_compared;
    printf("%s%s: %d wide paths compared with scalar\n", argv[1], scaled ? " (scaled)" : "", compared);
    free(scales);
    free(scalar.stream.manifolds);
    free(scalar.stream.contacts);
    scene_free(&s);
    return check_failures != 0;
}

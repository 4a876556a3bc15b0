// The settling scenes are what sim_scene.h promises: the same on every machine, the ground and
// walls static, nothing overlapping at the start, stacks resting exactly on each other.
#include "check.h"
#include "sim_scene.h"

#include <math.h>

#define SEED 14u

// Every pair of the scene's bodies with a moving one collided at once (the scenes are small): the
// deepest separation, and the number of pairs nearer than `margin`. (Walls and ground may overlap.)
static float deepest_separation(const scene *s, const uint8_t *is_static, float margin, uint32_t *touching)
{
    uint32_t n = s->body_count, pair_count = 0;
    mf_pair *pairs = malloc((size_t)n * n / 2 * sizeof(mf_pair) + sizeof(mf_pair));
    for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = a + 1; b < n; ++b)
            if (!is_static[a] || !is_static[b]) pairs[pair_count++] = (mf_pair){a, b};
    mf_config config = mf_config_default();
    config.margin = margin;
    config.threads = 1;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&config, &context), MF_OK);
    mf_stream stream = {0};
    mf_stream_bound(pair_count, config.max_contacts, &stream.manifold_capacity, &stream.contact_capacity);
    stream.manifolds = malloc(stream.manifold_capacity * sizeof(mf_manifold) + 1);
    stream.contacts = malloc(stream.contact_capacity * sizeof(mf_contact) + 1);
    mf_bodies bodies = scene_bodies(s);
    CHECK_EQ(mf_collide(context, s->bank, &bodies, pairs, pair_count, &stream), MF_OK);
    float deepest = INFINITY;
    for (uint32_t c = 0; c < stream.contact_count; ++c) deepest = fminf(deepest, stream.contacts[c].separation);
    *touching = stream.manifold_count;
    free(stream.manifolds);
    free(stream.contacts);
    free(pairs);
    mf_context_destroy(context);
    return deepest;
}

// "The same scene for a (name, seed) on every machine": each scene's fingerprint (shapes, bodies,
// poses, bit for bit) for seed 1, the seed the engine tests and `manyfold simulate` use, pinned
// as computed on x86-64. A pinned value changes when a recipe, its constants, the rocks' generator
// (scene_rock.c, scene_random.h) or the float arithmetic beneath them changes (an FMA contracted
// where -ffp-contract=off should forbid it, say): the settling figures in docs/engines.md and the
// bounds in the engine tests were measured on these scenes, so a change means measuring them again.
static void scenes_match_their_pinned_fingerprints(void)
{
    static const struct {
        const char *name;
        uint64_t fingerprint;
    } pinned[] = {
        {"box", 0x3f348cc5123cba74u},
        {"tower", 0x752b720eca010e05u},
        {"pyramid", 0x724aed633fee828au},
        {"rocks", 0x0669b031beea3ef4u},
    };
    uint32_t checked = 0;
    for (const char *const *name = sim_scene_names(); *name != NULL; ++name) {
        scene s;
        uint8_t *is_static;
        CHECK_EQ(sim_scene_make(*name, 1, &s, &is_static), MF_OK);
        uint64_t fingerprint = scene_fingerprint(&s);
        int found = 0;
        for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); ++i) {
            if (strcmp(pinned[i].name, *name) != 0) continue;
            found = 1;
            CHECKF(fingerprint == pinned[i].fingerprint, "scene %s, seed 1: fingerprint 0x%016llx, pinned 0x%016llx",
                   *name, (unsigned long long)fingerprint, (unsigned long long)pinned[i].fingerprint);
        }
        CHECKF(found, "scene %s has no pinned fingerprint", *name);
        checked += (uint32_t)found;
        free(is_static);
        scene_free(&s);
    }
    CHECK_EQ(checked, sizeof(pinned) / sizeof(pinned[0]));
}

static void unknown_names_are_refused(void)
{
    scene s;
    uint8_t *is_static = (uint8_t *)&s;
    CHECK_EQ(sim_scene_make("towers", SEED, &s, &is_static), MF_ERR_INVALID_ARGUMENT);
    CHECK(is_static == NULL && s.bank == NULL);
    CHECK_EQ(sim_scene_make(NULL, SEED, &s, &is_static), MF_ERR_INVALID_ARGUMENT);
}

// Body 0 is the static ground with its top at y = 0; moving bodies lie above it.
static void the_ground_is_body_zero_and_static(void)
{
    for (const char *const *name = sim_scene_names(); *name != NULL; ++name) {
        scene s;
        uint8_t *is_static;
        CHECK_EQ(sim_scene_make(*name, SEED, &s, &is_static), MF_OK);
        CHECKF(is_static[0] == 1, "scene %s", *name);
        const scene_shape *ground = &s.shapes[s.body_shape[0]];
        CHECKF(ground->kind == SCENE_BOX, "scene %s", *name);
        CHECK_NEAR(s.body_transform[0].p.y + ground->half_extents.y, 0.0, 1e-6);
        uint32_t moving = 0;
        for (uint32_t i = 0; i < s.body_count; ++i) {
            moving += is_static[i] == 0;
            if (is_static[i] == 0) CHECKF(s.body_transform[i].p.y > 0.0f, "scene %s body %u", *name, i);
        }
        uint32_t expected = strcmp(*name, "box") == 0       ? 1
                            : strcmp(*name, "tower") == 0   ? 10
                            : strcmp(*name, "pyramid") == 0 ? 21
                                                            : 200;
        CHECKF(moving == expected, "scene %s has %u moving bodies", *name, moving);
        free(is_static);
        scene_free(&s);
    }
}

// Stacks start exactly resting (every touching pair within a micrometre of contact, none deeper);
// the rocks start apart from everything.
static void bodies_start_resting_or_apart(void)
{
    for (const char *const *name = sim_scene_names(); *name != NULL; ++name) {
        scene s;
        uint8_t *is_static;
        CHECK_EQ(sim_scene_make(*name, SEED, &s, &is_static), MF_OK);
        uint32_t touching = 0;
        float deepest = deepest_separation(&s, is_static, 1e-4f, &touching);
        if (strcmp(*name, "rocks") == 0) {
            CHECKF(touching == 0, "%u rock pairs touch at the start", touching);
        } else {
            uint32_t expected = strcmp(*name, "box") == 0 ? 1 : strcmp(*name, "tower") == 0 ? 10 : 6 + 2 * 15;
            CHECKF(touching == expected, "scene %s: %u pairs touch, expected %u", *name, touching, expected);
            CHECKF(deepest > -1e-6f, "scene %s: bodies overlap by %g m at the start", *name, -deepest);
        }
        free(is_static);
        scene_free(&s);
    }
}

int main(int argc, char **argv)
{
    static const test_case tests[] = {
        TEST_CASE(scenes_match_their_pinned_fingerprints),
        TEST_CASE(unknown_names_are_refused),
        TEST_CASE(the_ground_is_body_zero_and_static),
        TEST_CASE(bodies_start_resting_or_apart),
    };
    return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv);
}

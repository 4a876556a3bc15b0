// The settling scenes are what sim_scene.h promises: deterministic, the ground and walls static,
// nothing overlapping at the start, stacks resting exactly on each other.
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

static void every_scene_is_the_same_for_a_seed(void)
{
    for (const char *const *name = sim_scene_names(); *name != NULL; ++name) {
        scene first, second;
        uint8_t *first_static, *second_static;
        CHECK_EQ(sim_scene_make(*name, SEED, &first, &first_static), MF_OK);
        CHECK_EQ(sim_scene_make(*name, SEED, &second, &second_static), MF_OK);
        CHECKF(scene_fingerprint(&first) == scene_fingerprint(&second), "scene %s", *name);
        CHECKF(memcmp(first_static, second_static, first.body_count) == 0, "scene %s", *name);
        free(first_static);
        free(second_static);
        scene_free(&first);
        scene_free(&second);
    }
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
        TEST_CASE(every_scene_is_the_same_for_a_seed),
        TEST_CASE(unknown_names_are_refused),
        TEST_CASE(the_ground_is_body_zero_and_static),
        TEST_CASE(bodies_start_resting_or_apart),
    };
    return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv);
}

// Small deterministic motion about a scene's rest pose, as a resting pile shows from step to step.
// Each body wobbles about its rest pose: three translation and three rotation components, each a
// triangle wave of period SCENE_STEP_PERIOD with its own phase (drawn from the seed and the body).
// A triangle wave moves by 4 / period of its amplitude per step and never drifts, so the motion is
// small per step, bounded overall and repeats exactly every period. Only + - * / and sqrt.
#include "scene.h"

#include "scene_math.h"
#include "scene_random.h"

#define STEP_TRANSLATION 0.0004f    // metres: amplitude of each translation component
#define STEP_ROTATION 0.000872665f  // radians (0.05 degrees): amplitude of each rotation component, at most
#define STEP_ROTATION_REACH 0.0004f // metres: nor more than moves the body's farthest point this far

_Static_assert(SCENE_STEP_PERIOD % 2 == 0, "the triangle wave turns on whole steps");

// A triangle wave in [-1, 1] of period SCENE_STEP_PERIOD, at whole step k.
static float triangle(uint32_t k)
{
    const uint32_t half = SCENE_STEP_PERIOD / 2;
    uint32_t phase = k % SCENE_STEP_PERIOD;
    uint32_t distance = phase > half ? phase - half : half - phase; // from the trough at half
    return (float)distance * (2.0f / (float)half) - 1.0f;
}

void scene_step(const scene *s, uint32_t step, uint64_t seed, mf_transform *moved)
{
    for (uint32_t body = 0; body < s->body_count; ++body) {
        // Phases depend only on the seed and the body, so every step sees the same wobble.
        scene_random random = {seed ^ (0x9e3779b97f4a7c15u * ((uint64_t)body + 1))};
        uint32_t phase[6];
        for (int k = 0; k < 6; ++k) phase[k] = scene_random_below(&random, SCENE_STEP_PERIOD);

        mf_shape_info info;
        float radius = mf_bank_shape_info(s->bank, s->body_shape[body], &info) == MF_OK ? info.radius : 1.0f;
        float angle = STEP_ROTATION_REACH / (radius > 1e-3f ? radius : 1e-3f);
        angle = angle < STEP_ROTATION ? angle : STEP_ROTATION;

        const mf_transform rest = s->body_transform[body];
        mf_vec3 shift = {STEP_TRANSLATION * triangle(step + phase[0]), STEP_TRANSLATION * triangle(step + phase[1]),
                         STEP_TRANSLATION * triangle(step + phase[2])};
        // A small rotation vector r as the quaternion (r / 2, 1), normalised.
        mf_quat turn = {0.5f * angle * triangle(step + phase[3]), 0.5f * angle * triangle(step + phase[4]),
                        0.5f * angle * triangle(step + phase[5]), 1.0f};
        float inverse = 1.0f / sqrtf(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z + 1.0f);
        turn = (mf_quat){turn.x * inverse, turn.y * inverse, turn.z * inverse, inverse};
        moved[body] = (mf_transform){scene_add(rest.p, shift), scene_quat_then(rest.q, turn)};
    }
}

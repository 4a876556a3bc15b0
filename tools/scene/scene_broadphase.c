// mf_find_pairs into an array that keeps the largest size asked for so far.
#include "scene_broadphase.h"

#include <stdlib.h>

struct scene_broadphase {
    const mf_bank *bank;
    mf_pair *pairs;
    uint32_t capacity;
};

scene_broadphase *scene_broadphase_create(const mf_bank *bank)
{
    scene_broadphase *b = calloc(1, sizeof(scene_broadphase));
    if (b != NULL) b->bank = bank;
    return b;
}

void scene_broadphase_destroy(scene_broadphase *b)
{
    if (b == NULL) return;
    free(b->pairs);
    free(b);
}

mf_status scene_broadphase_find_pairs(scene_broadphase *b, mf_context *context, const mf_bodies *bodies, float margin,
                                      const mf_pair **pairs, uint32_t *pair_count)
{
    mf_status status = mf_find_pairs(context, b->bank, bodies, margin, b->pairs, b->capacity, pair_count);
    if (status == MF_ERR_CAPACITY) {
        // A quarter more than asked for, so a pile that gains a few pairs a step does not ask again.
        uint32_t count = *pair_count, capacity = count + count / 4 + 1024;
        if (capacity < count) capacity = UINT32_MAX;
        mf_pair *grown = malloc((size_t)capacity * sizeof(mf_pair));
        if (grown == NULL) return MF_ERR_OUT_OF_MEMORY;
        free(b->pairs);
        b->pairs = grown;
        b->capacity = capacity;
        status = mf_find_pairs(context, b->bank, bodies, margin, b->pairs, b->capacity, pair_count);
    }
    *pairs = b->pairs;
    if (status != MF_OK) *pair_count = 0;
    return status;
}

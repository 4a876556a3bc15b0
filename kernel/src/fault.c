// Pair checks and the fault list (fault.h).
#include "fault.h"

#include "scale.h"
#include "vec.h"

#include <stdio.h>

static int is_finite_transform(const mf_transform *t)
{
    return mf_is_finite3(t->p) && isfinite(t->q.x) && isfinite(t->q.y) && isfinite(t->q.z) && isfinite(t->q.w);
}

uint32_t mf_first_invalid_pair(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t begin,
                               uint32_t end)
{
    for (uint32_t i = begin; i < end; ++i)
        if (!mf_pair_is_valid(bank, bodies, pairs[i])) return i;
    return end;
}

mf_status mf_describe_body(const mf_bank *bank, const mf_bodies *bodies, uint32_t body, char *text, size_t size)
{
    uint32_t shape = bodies->shape[body];
    if (shape >= bank->shape_count) {
        snprintf(text, size, "body %u has shape %u but the bank holds %u shapes", body, shape, bank->shape_count);
        return MF_ERR_INVALID_ARGUMENT;
    }
    if (!mf_bank_has_shape(bank, shape)) {
        snprintf(text, size, "body %u has shape %u, which was removed from the bank (mf_bank_remove_shape)", body,
                 shape);
        return MF_ERR_INVALID_ARGUMENT;
    }
    float scale = mf_body_scale(bodies, body);
    const mf_shape *s = &bank->shapes[shape];
    if (!isfinite(scale) || !(scale > 0.0f)) {
        snprintf(text, size, "body %u has scale %g: a scale must be finite and > 0", body, (double)scale);
        return isfinite(scale) ? MF_ERR_INVALID_ARGUMENT : MF_ERR_NONFINITE;
    }
    if (!mf_scale_fits(s, scale)) {
        snprintf(text, size,
                 "body %u has scale %g: its shape %u takes scales in [%g, %g], which keep its coordinates within "
                 "MF_MAX_LENGTH (%g) and its volume at least FLT_MIN",
                 body, (double)scale, shape, (double)s->scale_low, (double)s->scale_high, (double)MF_MAX_LENGTH);
        return MF_ERR_INVALID_ARGUMENT;
    }
    if (!is_finite_transform(&bodies->transform[body])) {
        snprintf(text, size, "body %u has a non-finite transform", body);
        return MF_ERR_NONFINITE;
    }
    snprintf(text, size, "body %u has a zero quaternion", body);
    return MF_ERR_INVALID_ARGUMENT;
}

// What is wrong with the pair's body that mf_body_is_valid refused; text may be NULL with size 0.
static mf_status describe_body(const mf_bank *bank, const mf_bodies *bodies, uint32_t body, uint32_t pair, char *text,
                               size_t size)
{
    if (body >= bodies->count) {
        snprintf(text, size, "pair %u names body %u but there are %u bodies", pair, body, bodies->count);
        return MF_ERR_INVALID_ARGUMENT;
    }
    return mf_describe_body(bank, bodies, body, text, size);
}

mf_status mf_describe_fault(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t i, char *text,
                            size_t size)
{
    if (pairs[i].a == pairs[i].b) {
        snprintf(text, size, "pair %u names body %u twice", i, pairs[i].a);
        return MF_ERR_INVALID_ARGUMENT;
    }
    uint32_t body = mf_body_is_valid(bank, bodies, pairs[i].a) ? pairs[i].b : pairs[i].a;
    return describe_body(bank, bodies, body, i, text, size);
}

// The status alone, as mf_describe_fault gives it.
static mf_status fault_status(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t i)
{
    return mf_describe_fault(bank, bodies, pairs, i, NULL, 0);
}

uint32_t mf_list_faults(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t first,
                        uint32_t end, mf_stream *stream)
{
    uint32_t count = 0;
    for (uint32_t i = mf_first_invalid_pair(bank, bodies, pairs, first, end); i < end;
         i = mf_first_invalid_pair(bank, bodies, pairs, i + 1, end)) {
        if (count < stream->fault_capacity) stream->faults[count] = (mf_fault){i, fault_status(bank, bodies, pairs, i)};
        ++count;
    }
    stream->fault_count = count;
    return count;
}

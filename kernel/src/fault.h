// Which pairs a call may collide: the checks of a pair's bodies, what is wrong with a pair they
// refuse, and the list of pairs a call skipped under MF_FAULT_SKIP (mf_stream.faults).
#pragma once

#include "bank.h"
#include "lanes4.h"
#include "scale.h"

#include <stddef.h>

// A loaded quaternion (mf_transform_load4's q) has some component other than zero.
static inline int mf_loaded_quaternion_is_nonzero(simde__m128 q)
{
    return simde_mm_movemask_ps(simde_mm_cmpneq_ps(q, simde_mm_setzero_ps())) != 0;
}

// A transform loaded by mf_transform_load4 (p and q.x, then q) is finite and its quaternion not zero.
static inline int mf_loaded_transform_is_valid(simde__m128 head, simde__m128 q)
{
    simde__m128 zero = simde_mm_setzero_ps();
    // x - x is 0 for a finite x, NaN for an infinite one or a NaN.
    simde__m128 finite = simde_mm_and_ps(simde_mm_cmpeq_ps(simde_mm_sub_ps(head, head), zero),
                                         simde_mm_cmpeq_ps(simde_mm_sub_ps(q, q), zero));
    return (simde_mm_movemask_ps(finite) == 15) & mf_loaded_quaternion_is_nonzero(q);
}

// mf_loaded_transform_is_valid of two transforms at once, as a checked chunk's routing tests a
// pair's bodies (chunk.c): x - x is 0 for a finite x and NaN for any other, and a sum of such
// terms is 0 only where each is, so one compare tests all four vectors' finiteness.
static inline int mf_loaded_transforms_are_valid(simde__m128 head_a, simde__m128 q_a, simde__m128 head_b,
                                                 simde__m128 q_b)
{
    simde__m128 zero = simde_mm_setzero_ps();
    simde__m128 residue = simde_mm_add_ps(simde_mm_add_ps(simde_mm_sub_ps(head_a, head_a), simde_mm_sub_ps(q_a, q_a)),
                                          simde_mm_add_ps(simde_mm_sub_ps(head_b, head_b), simde_mm_sub_ps(q_b, q_b)));
    int finite = simde_mm_movemask_ps(simde_mm_cmpeq_ps(residue, zero)) == 15;
    return finite & mf_loaded_quaternion_is_nonzero(q_a) & mf_loaded_quaternion_is_nonzero(q_b);
}

// A transform is finite and its quaternion not zero, in two overlapping loads.
static inline int mf_transform_is_valid(const mf_transform *t)
{
    simde__m128 head, q;
    mf_transform_load4(t, &head, &q);
    return mf_loaded_transform_is_valid(head, q);
}

// A body exists, names a shape of the bank (not removed), has a scale its shape takes (scale.h)
// and a valid transform. (The routing of a checked chunk makes the same checks of both bodies of a
// pair at once: route_of_checked_pair, chunk.c.)
static inline int mf_body_is_valid(const mf_bank *bank, const mf_bodies *bodies, uint32_t body)
{
    if (body >= bodies->count || !mf_bank_has_shape(bank, bodies->shape[body])) return 0;
    const mf_shape *shape = &bank->shapes[bodies->shape[body]];
    if (bodies->scales != NULL && !mf_scale_fits(shape, bodies->scales[body])) return 0;
    return mf_transform_is_valid(&bodies->transform[body]);
}

// Whether both bodies of the pair exist, differ and pass mf_body_is_valid. Inline: every pair of a
// call is checked before it is collided, most as a chunk routes them (chunk.c).
static inline int mf_pair_is_valid(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair)
{
    return pair.a != pair.b && mf_body_is_valid(bank, bodies, pair.a) && mf_body_is_valid(bank, bodies, pair.b);
}

// What is wrong with a body (below bodies->count) that mf_body_is_valid refused: its status and a
// sentence naming the body and the value into text (size bytes; NULL with size 0 for the status
// alone).
mf_status mf_describe_body(const mf_bank *bank, const mf_bodies *bodies, uint32_t body, char *text, size_t size);

// The first pair of pairs[begin, end) that mf_pair_is_valid refuses, or end for none.
uint32_t mf_first_invalid_pair(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t begin,
                               uint32_t end);

// What is wrong with pairs[i], a pair mf_pair_is_valid refused: the status MF_FAULT_STOP fails the
// call with, and a sentence naming the pair, the body and the value into text (size bytes; NULL
// with size 0 for the status alone).
mf_status mf_describe_fault(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t i, char *text,
                            size_t size);

// Lists the invalid pairs of pairs[first, end) in stream->faults (up to fault_capacity of them)
// and counts them all in fault_count. Returns the count.
uint32_t mf_list_faults(const mf_bank *bank, const mf_bodies *bodies, const mf_pair *pairs, uint32_t first,
                        uint32_t end, mf_stream *stream);

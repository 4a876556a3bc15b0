// Which pairs a call may collide: the checks of a pair's bodies, what is wrong with a pair they
// refuse, and the list of pairs a call skipped under MF_FAULT_SKIP (mf_stream.faults).
#pragma once

#include "bank.h"

#include <stddef.h>

// Whether both bodies of the pair exist, differ, have a shape in the bank (not removed), a scale
// their shape takes (scale.h), a finite transform and a non-zero quaternion.
int mf_pair_is_valid(const mf_bank *bank, const mf_bodies *bodies, mf_pair pair);

// The same checks of one body, below bodies->count.
int mf_body_is_valid(const mf_bank *bank, const mf_bodies *bodies, uint32_t body);

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

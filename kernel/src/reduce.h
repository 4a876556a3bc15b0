// Reduction of a clipped contact polygon to at most max_contacts points that keep its area.
#pragma once

#include "clip.h"

// Writes the indices of the chosen points into `chosen`, deepest first; returns their count.
uint32_t mf_reduce(const mf_clip_point *points, uint32_t count, mf_vec3 normal, uint32_t max_contacts,
                   uint32_t chosen[MF_MAX_CONTACTS]);

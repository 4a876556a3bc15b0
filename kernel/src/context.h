// The context: configuration, the ISA in use, a message for the last failure, per-pair scratch.
#pragma once

#include "manyfold.h"

// Per-pair working memory of the scalar path, sized for the largest hulls the bank accepts.
typedef struct mf_pair_scratch {
    mf_vec3 b_vertices[MF_MAX_HULL_VERTICES]; // b's vertices in a's frame
    mf_vec3 a_vertices[MF_MAX_HULL_VERTICES]; // a's vertices in b's frame
    mf_vec3 b_normals[MF_MAX_HULL_FACES];     // b's face normals in a's frame
} mf_pair_scratch;

struct mf_context {
    mf_config config;
    mf_isa isa;
    char message[256];
    mf_pair_scratch *scratch;
};

// Records a detailed message for mf_context_message and returns the status.
mf_status mf_context_fail(mf_context *context, mf_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

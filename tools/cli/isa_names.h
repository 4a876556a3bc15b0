// Parsing ISA names given on the command line (the inverse of mf_isa_name).
#pragma once

#include "manyfold.h"

#include <stdbool.h>

// True and *isa set when `name` is one of auto, scalar, sse, avx2, avx512, neon.
bool isa_from_name(const char *name, mf_isa *isa);

// Parsing ISA names given on the command line (the inverse of mf_isa_name).
#pragma once

#include "manyfold.h"

#include <stdbool.h>
#include <stddef.h>

// True and *isa set when `name` is one of auto, scalar, sse, avx2, avx512, neon.
bool isa_from_name(const char *name, mf_isa *isa);

// Why `isa` cannot run here, in the command line's words (its names, not the C API's), with the
// ISAs that can: "neon is ARM's (aarch64) and this program is built for x86-64; here: auto
// (avx2), scalar, sse, avx2".
void isa_why_unsupported(mf_isa isa, char *text, size_t size);

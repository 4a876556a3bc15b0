// ISA choice: which wide builds exist in this library and which the CPU can run.
#pragma once

#include "wide_pass.h"

typedef struct mf_wide_kernel {
    mf_wide_axes_fn *axes; // NULL for the scalar path
    uint32_t width;
} mf_wide_kernel;

mf_wide_kernel mf_dispatch(mf_isa isa);

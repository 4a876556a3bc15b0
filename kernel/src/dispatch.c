// ISA dispatch: each wide build is compiled with its own flags and only called when the CPU
// reports the instructions it needs.
#include "dispatch.h"

#include "box_pass.h"

#include <stddef.h>

static int cpu_has(mf_isa isa)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    switch (isa) {
    case MF_ISA_SSE:
        return __builtin_cpu_supports("sse4.1");
    case MF_ISA_AVX2:
        return __builtin_cpu_supports("avx2");
    case MF_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    default:
        return 0;
    }
#elif defined(__aarch64__)
    return isa == MF_ISA_NEON; // Advanced SIMD is part of every AArch64 core
#else
    (void)isa;
    return 0;
#endif
}

mf_wide_kernel mf_dispatch(mf_isa isa)
{
    mf_wide_kernel none = {NULL, mf_box_pairs_scalar, 1};
    switch (isa) {
#if MF_HAVE_WIDE_SSE
    case MF_ISA_SSE:
        return cpu_has(isa) ? (mf_wide_kernel){mf_wide_axes_sse, mf_box_pairs_sse, 4} : none;
#endif
#if MF_HAVE_WIDE_AVX2
    case MF_ISA_AVX2:
        return cpu_has(isa) ? (mf_wide_kernel){mf_wide_axes_avx2, mf_box_pairs_avx2, 8} : none;
#endif
#if MF_HAVE_WIDE_AVX512
    case MF_ISA_AVX512:
        return cpu_has(isa) ? (mf_wide_kernel){mf_wide_axes_avx512, mf_box_pairs_avx512, 16} : none;
#endif
#if MF_HAVE_WIDE_NEON
    case MF_ISA_NEON:
        return cpu_has(isa) ? (mf_wide_kernel){mf_wide_axes_neon, mf_box_pairs_neon, 4} : none;
#endif
    default:
        return none;
    }
}

int mf_isa_supported(mf_isa isa)
{
    if (isa == MF_ISA_AUTO || isa == MF_ISA_SCALAR) return 1;
    return mf_dispatch(isa).axes != NULL;
}

mf_isa mf_isa_best(void)
{
    // todo: AVX-512 joins this list once the benchmarks show it pays over AVX2 here.
    static const mf_isa preference[] = {MF_ISA_AVX2, MF_ISA_NEON, MF_ISA_SSE};
    for (unsigned i = 0; i < sizeof(preference) / sizeof(preference[0]); ++i)
        if (mf_isa_supported(preference[i])) return preference[i];
    return MF_ISA_SCALAR;
}

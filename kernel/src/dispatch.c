// ISA dispatch: each wide build is compiled with its own flags and only called when the CPU
// reports the instructions it needs.
#include "dispatch.h"

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
        // The build's flags (kernel/meson.build): F, DQ, VL and BW; the compiler may use any of them.
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
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

// Which tuning this CPU takes: Intel's cores the Intel-tuned tables, every other core the generic.
static mf_tuning cpu_tuning(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_is("intel") ? MF_TUNING_INTEL : MF_TUNING_GENERIC;
#else
    return MF_TUNING_GENERIC;
#endif
}

static const mf_wide_kernel *generic_table(mf_isa isa)
{
    switch (isa) {
    case MF_ISA_SCALAR:
        return &mf_kernel_scalar;
#if MF_HAVE_WIDE_SSE
    case MF_ISA_SSE:
        return &mf_kernel_sse;
#endif
#if MF_HAVE_WIDE_AVX2
    case MF_ISA_AVX2:
        return &mf_kernel_avx2;
#endif
#if MF_HAVE_WIDE_AVX512
    case MF_ISA_AVX512:
        return &mf_kernel_avx512;
#endif
#if MF_HAVE_WIDE_NEON
    case MF_ISA_NEON:
        return &mf_kernel_neon;
#endif
    default:
        return NULL;
    }
}

static const mf_wide_kernel *intel_table(mf_isa isa)
{
#if MF_HAVE_WIDE_AVX512_INTEL
    if (isa == MF_ISA_AVX512) return &mf_kernel_avx512_intel;
#endif
    (void)isa;
    return NULL;
}

const mf_wide_kernel *mf_dispatch_tuned(mf_isa isa, mf_tuning tuning)
{
    if (isa != MF_ISA_SCALAR && !cpu_has(isa)) return NULL;
    switch (tuning) {
    case MF_TUNING_GENERIC:
        return generic_table(isa);
    case MF_TUNING_INTEL:
        return intel_table(isa);
    default:
        return NULL;
    }
}

const mf_wide_kernel *mf_dispatch(mf_isa isa)
{
    const mf_wide_kernel *kernel = mf_dispatch_tuned(isa, cpu_tuning());
    if (kernel == NULL) kernel = mf_dispatch_tuned(isa, MF_TUNING_GENERIC);
    return kernel != NULL ? kernel : &mf_kernel_scalar;
}

int mf_isa_supported(mf_isa isa)
{
    if (isa == MF_ISA_AUTO || isa == MF_ISA_SCALAR) return 1;
    return mf_dispatch(isa)->axes != NULL;
}

// AVX-512 pays where a core runs 512-bit code at full clock: AMD Zen 4 and later, Intel Ice Lake
// and later. Those all have VBMI2; Skylake-SP and Cascade Lake, which lower the clock for heavy
// 512-bit code and ran mixed bundles slower than AVX2, do not.
static int avx512_at_full_clock(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vbmi2");
#else
    return 0;
#endif
}

static mf_isa best_isa(const char **reason)
{
    // cppcheck-suppress knownConditionTrueFalse ; cppcheck does not model __builtin_cpu_supports
    if (mf_isa_supported(MF_ISA_AVX512) && avx512_at_full_clock()) {
        *reason = mf_dispatch(MF_ISA_AVX512) == intel_table(MF_ISA_AVX512)
                      ? "AVX-512 with VBMI2 (Ice Lake, Zen 4 or later): 512-bit code runs at full clock; an Intel "
                        "core: the hull stages built tuned for Intel's (-mtune=sapphirerapids)"
                      : "AVX-512 with VBMI2 (Ice Lake, Zen 4 or later): 512-bit code runs at full clock";
        return MF_ISA_AVX512;
    }
    if (mf_isa_supported(MF_ISA_AVX2)) {
        *reason =
            mf_isa_supported(MF_ISA_AVX512)
                ? "AVX-512 without VBMI2 (Skylake-SP, Cascade Lake): 512-bit code lowers the clock; AVX2 is faster"
                : "AVX2 is the widest this CPU and build run";
        return MF_ISA_AVX2;
    }
    if (mf_isa_supported(MF_ISA_NEON)) {
        *reason = "NEON: every AArch64 core has it";
        return MF_ISA_NEON;
    }
    if (mf_isa_supported(MF_ISA_SSE)) {
        *reason = "SSE4.1 is the widest this CPU and build run";
        return MF_ISA_SSE;
    }
    *reason = "no SIMD build for this CPU";
    return MF_ISA_SCALAR;
}

mf_isa mf_isa_best(void)
{
    const char *reason;
    return best_isa(&reason);
}

const char *mf_isa_best_reason(void)
{
    const char *reason;
    best_isa(&reason);
    return reason;
}

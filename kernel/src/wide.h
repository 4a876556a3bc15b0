// Wide types and helpers: one SIMD register holds one quantity for MF_WIDE_WIDTH pairs. The same
// source compiles for SSE4.1 and NEON (4 lanes), AVX2 (8) and AVX-512 (16) through SIMDe, and
// with width 1 (plain floats) for the scalar path of the code written only in wide form.
// Helpers do exactly one IEEE operation each (no fused multiply-add) so every ISA rounds like the
// scalar path and picks the same features.
#pragma once

#ifndef MF_WIDE_WIDTH
#error "MF_WIDE_WIDTH must be 1, 4, 8 or 16"
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

// A name of this ISA's build: MF_NAMED(mf_box_pairs, MF_WIDE_NAME) is mf_box_pairs_avx2 in the AVX2
// build. Every wide source exports its entry points under such names (dispatch.h lists them).
#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

#if MF_WIDE_WIDTH == 1
// The scalar path: each helper is the same single IEEE operation on one float, and min/max pick
// like SSE's minps/maxps (the second operand unless the first is strictly smaller or larger).
typedef float mf_floatw;
typedef int mf_maskw;
static inline mf_floatw mf_splatw(float a) { return a; }
static inline mf_maskw mf_ltw(mf_floatw a, mf_floatw b) { return a < b; }
static inline mf_maskw mf_gtw(mf_floatw a, mf_floatw b) { return a > b; }
static inline mf_maskw mf_gew(mf_floatw a, mf_floatw b) { return a >= b; }
static inline mf_maskw mf_lew(mf_floatw a, mf_floatw b) { return a <= b; }
static inline mf_maskw mf_eqw(mf_floatw a, mf_floatw b) { return a == b; }
static inline mf_maskw mf_andw(mf_maskw a, mf_maskw b) { return a & b; }
static inline mf_maskw mf_orw(mf_maskw a, mf_maskw b) { return a | b; }
static inline mf_maskw mf_andnotw(mf_maskw a, mf_maskw b) { return (!a) & b; }
static inline mf_floatw mf_selectw(mf_maskw m, mf_floatw yes, mf_floatw no) { return m ? yes : no; }
static inline int mf_anyw(mf_maskw m) { return m != 0; }
static inline uint32_t mf_lane_bitsw(mf_maskw m) { return (uint32_t)(m != 0); }
static inline mf_floatw mf_negw(mf_floatw a) { return -a; }
static inline mf_floatw mf_absw(mf_floatw a) { return fabsf(a); }
static inline mf_floatw mf_int_to_floatw(const int32_t *p) { return (float)p[0]; }
static inline mf_floatw mf_loadw(const float *p) { return *p; }
static inline mf_floatw mf_loaduw(const float *p) { return *p; }
static inline void mf_storew(float *p, mf_floatw a) { *p = a; }
static inline void mf_storeuw(float *p, mf_floatw a) { *p = a; }
static inline mf_floatw mf_addw(mf_floatw a, mf_floatw b) { return a + b; }
static inline mf_floatw mf_subw(mf_floatw a, mf_floatw b) { return a - b; }
static inline mf_floatw mf_mulw(mf_floatw a, mf_floatw b) { return a * b; }
static inline mf_floatw mf_divw(mf_floatw a, mf_floatw b) { return a / b; }
static inline mf_floatw mf_sqrtw(mf_floatw a) { return sqrtf(a); }
static inline mf_floatw mf_minw(mf_floatw a, mf_floatw b) { return a < b ? a : b; }
static inline mf_floatw mf_maxw(mf_floatw a, mf_floatw b) { return a > b ? a : b; }

#elif MF_WIDE_WIDTH == 4
#include <simde/x86/sse4.1.h>
typedef simde__m128 mf_floatw;
typedef simde__m128 mf_maskw;
#define MF_W(name) simde_mm_##name
static inline mf_floatw mf_splatw(float a) { return simde_mm_set1_ps(a); }
static inline mf_maskw mf_ltw(mf_floatw a, mf_floatw b) { return simde_mm_cmplt_ps(a, b); }
static inline mf_maskw mf_gtw(mf_floatw a, mf_floatw b) { return simde_mm_cmpgt_ps(a, b); }
static inline mf_maskw mf_gew(mf_floatw a, mf_floatw b) { return simde_mm_cmpge_ps(a, b); }
static inline mf_maskw mf_lew(mf_floatw a, mf_floatw b) { return simde_mm_cmple_ps(a, b); }
static inline mf_maskw mf_eqw(mf_floatw a, mf_floatw b) { return simde_mm_cmpeq_ps(a, b); }
static inline mf_maskw mf_andw(mf_maskw a, mf_maskw b) { return simde_mm_and_ps(a, b); }
static inline mf_maskw mf_orw(mf_maskw a, mf_maskw b) { return simde_mm_or_ps(a, b); }
static inline mf_maskw mf_andnotw(mf_maskw a, mf_maskw b) { return simde_mm_andnot_ps(a, b); }
static inline mf_floatw mf_selectw(mf_maskw m, mf_floatw yes, mf_floatw no) { return simde_mm_blendv_ps(no, yes, m); }
static inline int mf_anyw(mf_maskw m) { return simde_mm_movemask_ps(m) != 0; }
static inline uint32_t mf_lane_bitsw(mf_maskw m) { return (uint32_t)simde_mm_movemask_ps(m); }
static inline mf_floatw mf_negw(mf_floatw a) { return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f)); }
static inline mf_floatw mf_absw(mf_floatw a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
static inline mf_floatw mf_int_to_floatw(const int32_t *p)
{
    return simde_mm_cvtepi32_ps(simde_mm_loadu_si128((const simde__m128i *)p));
}

#elif MF_WIDE_WIDTH == 8
#include <simde/x86/avx2.h>
typedef simde__m256 mf_floatw;
typedef simde__m256 mf_maskw;
#define MF_W(name) simde_mm256_##name
static inline mf_floatw mf_splatw(float a) { return simde_mm256_set1_ps(a); }
static inline mf_maskw mf_ltw(mf_floatw a, mf_floatw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline mf_maskw mf_gtw(mf_floatw a, mf_floatw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline mf_maskw mf_gew(mf_floatw a, mf_floatw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GE_OQ); }
static inline mf_maskw mf_lew(mf_floatw a, mf_floatw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline mf_maskw mf_eqw(mf_floatw a, mf_floatw b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
static inline mf_maskw mf_andw(mf_maskw a, mf_maskw b) { return simde_mm256_and_ps(a, b); }
static inline mf_maskw mf_orw(mf_maskw a, mf_maskw b) { return simde_mm256_or_ps(a, b); }
static inline mf_maskw mf_andnotw(mf_maskw a, mf_maskw b) { return simde_mm256_andnot_ps(a, b); }
static inline mf_floatw mf_selectw(mf_maskw m, mf_floatw yes, mf_floatw no)
{
    return simde_mm256_blendv_ps(no, yes, m);
}
static inline int mf_anyw(mf_maskw m) { return simde_mm256_movemask_ps(m) != 0; }
static inline uint32_t mf_lane_bitsw(mf_maskw m) { return (uint32_t)simde_mm256_movemask_ps(m); }
static inline mf_floatw mf_negw(mf_floatw a) { return simde_mm256_xor_ps(a, simde_mm256_set1_ps(-0.0f)); }
static inline mf_floatw mf_absw(mf_floatw a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline mf_floatw mf_int_to_floatw(const int32_t *p)
{
    return simde_mm256_cvtepi32_ps(simde_mm256_loadu_si256((const simde__m256i *)p));
}

#elif MF_WIDE_WIDTH == 16
#include <simde/x86/avx512.h>
typedef simde__m512 mf_floatw;
typedef simde__mmask16 mf_maskw;
#define MF_W(name) simde_mm512_##name
static inline mf_floatw mf_splatw(float a) { return simde_mm512_set1_ps(a); }
static inline mf_maskw mf_ltw(mf_floatw a, mf_floatw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline mf_maskw mf_gtw(mf_floatw a, mf_floatw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline mf_maskw mf_gew(mf_floatw a, mf_floatw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GE_OQ); }
static inline mf_maskw mf_lew(mf_floatw a, mf_floatw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline mf_maskw mf_eqw(mf_floatw a, mf_floatw b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline mf_maskw mf_andw(mf_maskw a, mf_maskw b) { return (mf_maskw)(a & b); }
static inline mf_maskw mf_orw(mf_maskw a, mf_maskw b) { return (mf_maskw)(a | b); }
static inline mf_maskw mf_andnotw(mf_maskw a, mf_maskw b) { return (mf_maskw)(~a & b); }
static inline mf_floatw mf_selectw(mf_maskw m, mf_floatw yes, mf_floatw no)
{
    return simde_mm512_mask_blend_ps(m, no, yes);
}
static inline int mf_anyw(mf_maskw m) { return m != 0; }
static inline uint32_t mf_lane_bitsw(mf_maskw m) { return (uint32_t)m; }
static inline mf_floatw mf_negw(mf_floatw a) { return simde_mm512_xor_ps(a, simde_mm512_set1_ps(-0.0f)); }
static inline mf_floatw mf_absw(mf_floatw a) { return simde_mm512_abs_ps(a); }
// Indices, never negative: this SIMDe has only the unsigned conversion.
static inline mf_floatw mf_int_to_floatw(const int32_t *p)
{
    return simde_mm512_cvtepu32_ps(simde_mm512_loadu_si512(p));
}

#else
#error "MF_WIDE_WIDTH must be 1, 4, 8 or 16"
#endif

// Whether every lane of the mask is set.
static inline int mf_allw(mf_maskw m) { return mf_lane_bitsw(m) == (1u << MF_WIDE_WIDTH) - 1u; }

// The lane numbers 0 to 15, for every width: loaded, not built (simde_mm512_set_epi32 of them cost a
// masked broadcast per lane at every use).
_Alignas(64) static const int32_t mf_lane_numbers[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

#if MF_WIDE_WIDTH > 1
static inline mf_floatw mf_loadw(const float *p) { return MF_W(load_ps)(p); }
static inline mf_floatw mf_loaduw(const float *p) { return MF_W(loadu_ps)(p); } // any alignment
static inline void mf_storew(float *p, mf_floatw a) { MF_W(store_ps)(p, a); }
static inline void mf_storeuw(float *p, mf_floatw a) { MF_W(storeu_ps)(p, a); } // any alignment
static inline mf_floatw mf_addw(mf_floatw a, mf_floatw b) { return MF_W(add_ps)(a, b); }
static inline mf_floatw mf_subw(mf_floatw a, mf_floatw b) { return MF_W(sub_ps)(a, b); }
static inline mf_floatw mf_mulw(mf_floatw a, mf_floatw b) { return MF_W(mul_ps)(a, b); }
static inline mf_floatw mf_divw(mf_floatw a, mf_floatw b) { return MF_W(div_ps)(a, b); }
static inline mf_floatw mf_sqrtw(mf_floatw a) { return MF_W(sqrt_ps)(a); }
static inline mf_floatw mf_minw(mf_floatw a, mf_floatw b) { return MF_W(min_ps)(a, b); }
static inline mf_floatw mf_maxw(mf_floatw a, mf_floatw b) { return MF_W(max_ps)(a, b); }
#endif

// v[index] per lane, index 0, 1 or 2 held as a float.
static inline mf_floatw mf_pick3w(const mf_floatw v[3], mf_floatw index)
{
    return mf_selectw(mf_eqw(index, mf_splatw(0.0f)), v[0], mf_selectw(mf_eqw(index, mf_splatw(1.0f)), v[1], v[2]));
}

// The axis after `axis` (0, 1 or 2 held as a float), cyclically: 1, 2, 0.
static inline mf_floatw mf_next_axisw(mf_floatw axis)
{
    return mf_selectw(mf_eqw(axis, mf_splatw(2.0f)), mf_splatw(0.0f), mf_addw(axis, mf_splatw(1.0f)));
}

#if MF_WIDE_WIDTH >= 8
// Integer lanes for bit lookups: W 32-bit integers, from 16-bit ones; shifted right each by its own
// count (by 32 or more: zero); looked up in a register of W; the lanes whose lowest bit is set.
#if MF_WIDE_WIDTH == 16
typedef simde__m512i mf_intw;
// In two halves: this SIMDe widens 16-bit lanes to 32 only 8 at a time.
static inline mf_intw mf_load_u16_intw(const uint16_t *p)
{
    simde__m256i low = simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const simde__m128i *)(const void *)p));
    simde__m256i high = simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const simde__m128i *)(const void *)(p + 8)));
    return simde_mm512_inserti64x4(simde_mm512_castsi256_si512(low), high, 1);
}
static inline mf_intw mf_splat_intw(int32_t a) { return simde_mm512_set1_epi32(a); }
static inline mf_intw mf_or_intw(mf_intw a, mf_intw b) { return simde_mm512_or_si512(a, b); }
static inline mf_intw mf_shift_right_intw(mf_intw a, mf_intw count) { return simde_mm512_srlv_epi32(a, count); }
static inline mf_intw mf_and_intw(mf_intw a, mf_intw b) { return simde_mm512_and_si512(a, b); }
// Lanes 0 to 3 the 32-bit quarters of low then high (low's low quarter first), the rest 0.
static inline mf_intw mf_quarters_intw(uint64_t low, uint64_t high)
{
    return simde_mm512_inserti32x4(simde_mm512_setzero_si512(), simde_mm_set_epi64x((int64_t)high, (int64_t)low), 0);
}
// Each lane's entry of `table` at the lane its `index` names (0 to W - 1).
static inline mf_intw mf_lookup_intw(mf_intw table, mf_intw index)
{
    return simde_mm512_permutexvar_epi32(index, table);
}
static inline uint32_t mf_low_bit_lanesw(mf_intw a)
{
    return (uint32_t)simde_mm512_test_epi32_mask(a, simde_mm512_set1_epi32(1));
}
#else
typedef simde__m256i mf_intw;
static inline mf_intw mf_load_u16_intw(const uint16_t *p)
{
    return simde_mm256_cvtepu16_epi32(simde_mm_loadu_si128((const simde__m128i *)p));
}
static inline mf_intw mf_splat_intw(int32_t a) { return simde_mm256_set1_epi32(a); }
static inline mf_intw mf_or_intw(mf_intw a, mf_intw b) { return simde_mm256_or_si256(a, b); }
static inline mf_intw mf_shift_right_intw(mf_intw a, mf_intw count) { return simde_mm256_srlv_epi32(a, count); }
static inline mf_intw mf_and_intw(mf_intw a, mf_intw b) { return simde_mm256_and_si256(a, b); }
static inline mf_intw mf_quarters_intw(uint64_t low, uint64_t high)
{
    return simde_mm256_inserti128_si256(simde_mm256_setzero_si256(), simde_mm_set_epi64x((int64_t)high, (int64_t)low),
                                        0);
}
static inline mf_intw mf_lookup_intw(mf_intw table, mf_intw index)
{
    return simde_mm256_permutevar8x32_epi32(table, index);
}
static inline uint32_t mf_low_bit_lanesw(mf_intw a)
{
    return (uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(simde_mm256_slli_epi32(a, 31)));
}
#endif
#endif

// W 16-bit indices as floats (exact: below 2^16).
static inline mf_floatw mf_u16_to_floatw(const uint16_t *p)
{
#if MF_WIDE_WIDTH == 1
    return (float)p[0];
#elif MF_WIDE_WIDTH == 16
    return simde_mm512_cvtepu32_ps(mf_load_u16_intw(p));
#elif MF_WIDE_WIDTH == 8
    return simde_mm256_cvtepi32_ps(mf_load_u16_intw(p));
#else
    return simde_mm_cvtepi32_ps(simde_mm_cvtepu16_epi32(simde_mm_loadl_epi64((const simde__m128i *)p)));
#endif
}

#if MF_WIDE_WIDTH > 1

// A register from W / 4 four-lane parts, part k in lanes 4 k to 4 k + 3.
static inline mf_floatw mf_from_quartersw(const simde__m128 *part)
{
#if MF_WIDE_WIDTH == 16
    simde__m512 r = simde_mm512_insertf32x4(simde_mm512_castps128_ps512(part[0]), part[1], 1);
    return simde_mm512_insertf32x4(simde_mm512_insertf32x4(r, part[2], 2), part[3], 3);
#elif MF_WIDE_WIDTH == 8
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(part[0]), part[1], 1);
#else
    return part[0];
#endif
}

// Byte shuffles that move the lanes set in four bits to the front, in order (the lanes after them
// take anything): row b for bits b, one 32-bit word per destination lane.
#define MF_LANE0 0x03020100u
#define MF_LANE1 0x07060504u
#define MF_LANE2 0x0b0a0908u
#define MF_LANE3 0x0f0e0d0cu
static const uint32_t mf_compress4_shuffle[16][4] = {
    {0, 0, 0, 0},
    {MF_LANE0, 0, 0, 0},
    {MF_LANE1, 0, 0, 0},
    {MF_LANE0, MF_LANE1, 0, 0},
    {MF_LANE2, 0, 0, 0},
    {MF_LANE0, MF_LANE2, 0, 0},
    {MF_LANE1, MF_LANE2, 0, 0},
    {MF_LANE0, MF_LANE1, MF_LANE2, 0},
    {MF_LANE3, 0, 0, 0},
    {MF_LANE0, MF_LANE3, 0, 0},
    {MF_LANE1, MF_LANE3, 0, 0},
    {MF_LANE0, MF_LANE1, MF_LANE3, 0},
    {MF_LANE2, MF_LANE3, 0, 0},
    {MF_LANE0, MF_LANE2, MF_LANE3, 0},
    {MF_LANE1, MF_LANE2, MF_LANE3, 0},
    {MF_LANE0, MF_LANE1, MF_LANE2, MF_LANE3},
};
#undef MF_LANE0
#undef MF_LANE1
#undef MF_LANE2
#undef MF_LANE3

// The four lanes of v set in `bits` (four bits) stored in order from `out` on; four floats are
// written, those past the set lanes hold anything.
static inline void mf_compress_store4(float *out, uint32_t bits, simde__m128 v)
{
    simde__m128i shuffle = simde_mm_loadu_si128((const simde__m128i *)(const void *)mf_compress4_shuffle[bits]);
    simde_mm_storeu_ps(out, simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), shuffle)));
}

#endif

// Each lane truncated to an integer, stored (the lanes hold small whole numbers: indices).
static inline void mf_store_intw(int32_t *p, mf_floatw a)
{
#if MF_WIDE_WIDTH == 1
    *p = (int32_t)a;
#elif MF_WIDE_WIDTH == 16
    // This SIMDe converts 512 bits to integers only in halves.
    simde_mm256_storeu_si256((simde__m256i *)(void *)p, simde_mm256_cvttps_epi32(simde_mm512_castps512_ps256(a)));
    simde_mm256_storeu_si256(
        (simde__m256i *)(void *)(p + 8),
        simde_mm256_cvttps_epi32(simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(a), 1))));
#elif MF_WIDE_WIDTH == 8
    simde_mm256_storeu_si256((simde__m256i *)(void *)p, simde_mm256_cvttps_epi32(a));
#else
    simde_mm_storeu_si128((simde__m128i *)(void *)p, simde_mm_cvttps_epi32(a));
#endif
}

// Each lane's pair of 16-bit codes (whole numbers below 2^16, held as floats) stored as one
// integer, `high` in the upper half: the ids of contacts, made in lanes (two conversions, a shift
// and an OR for W lanes) where each lane's two scalar conversions would wait on the stored rows.
static inline void mf_store_code_pairw(uint32_t *p, mf_floatw high, mf_floatw low)
{
#if MF_WIDE_WIDTH == 1
    *p = (uint32_t)high << 16 | (uint32_t)low;
#elif MF_WIDE_WIDTH == 16
    // This SIMDe converts 512 bits to integers only in halves (as mf_store_intw); the extract's
    // half is an immediate, so the two are written out.
    simde__m256 high_half[2] = {simde_mm512_castps512_ps256(high),
                                simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(high), 1))};
    simde__m256 low_half[2] = {simde_mm512_castps512_ps256(low),
                               simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(low), 1))};
    for (int half = 0; half < 2; ++half) {
        simde__m256i id = simde_mm256_or_si256(simde_mm256_slli_epi32(simde_mm256_cvttps_epi32(high_half[half]), 16),
                                               simde_mm256_cvttps_epi32(low_half[half]));
        simde_mm256_storeu_si256((simde__m256i *)(void *)(p + 8 * half), id);
    }
#elif MF_WIDE_WIDTH == 8
    simde__m256i id =
        simde_mm256_or_si256(simde_mm256_slli_epi32(simde_mm256_cvttps_epi32(high), 16), simde_mm256_cvttps_epi32(low));
    simde_mm256_storeu_si256((simde__m256i *)(void *)p, id);
#else
    simde__m128i id =
        simde_mm_or_si128(simde_mm_slli_epi32(simde_mm_cvttps_epi32(high), 16), simde_mm_cvttps_epi32(low));
    simde_mm_storeu_si128((simde__m128i *)(void *)p, id);
#endif
}

// Each lane's entry of a table of 32 floats at its index, a whole number below `used` (at most 32)
// held as a float: a value copied, so the same bits on every ISA. The permutes read an index's low
// bits, which adding 2^23 puts at the bottom of the float's mantissa, exactly (no conversion: this
// SIMDe converts 512 bits to integers only in halves).
static inline mf_floatw mf_lookup32w(const float *table, uint32_t used, mf_floatw index)
{
#if MF_WIDE_WIDTH == 1
    (void)used;
    return table[(uint32_t)index];
#elif MF_WIDE_WIDTH == 16
    (void)used;
    simde__m512i at = simde_mm512_castps_si512(simde_mm512_add_ps(index, simde_mm512_set1_ps(8388608.0f)));
    return simde_mm512_permutex2var_ps(simde_mm512_loadu_ps(table), at, simde_mm512_loadu_ps(table + 16));
#elif MF_WIDE_WIDTH == 8
    simde__m256i at = simde_mm256_castps_si256(simde_mm256_add_ps(index, simde_mm256_set1_ps(8388608.0f)));
    mf_floatw entry = simde_mm256_permutevar8x32_ps(simde_mm256_loadu_ps(table), at);
    for (uint32_t part = 1; 8 * part < used; ++part) {
        mf_floatw later = simde_mm256_permutevar8x32_ps(simde_mm256_loadu_ps(table + 8 * part), at);
        entry = mf_selectw(mf_gew(index, mf_splatw(8.0f * (float)part)), later, entry);
    }
    return entry;
#else
    (void)used; // SSE has no variable permute of floats: four loads
    _Alignas(16) float lane[4];
    simde_mm_store_ps(lane, index);
    return simde_mm_setr_ps(table[(uint32_t)lane[0]], table[(uint32_t)lane[1]], table[(uint32_t)lane[2]],
                            table[(uint32_t)lane[3]]);
#endif
}

#if MF_WIDE_WIDTH == 16
// The 32-bit lanes of `values` set in `bits`, compressed to the front and stored from `out` on as
// 16-bit integers (16 entries written). Each must be below 2^15, which the saturating narrowing
// leaves alone. Returns how many were set.
static inline uint32_t mf_compress_narrow16(uint16_t *out, uint32_t bits, simde__m512i values)
{
    simde__m256i packed = simde_mm512_cvtsepi32_epi16(simde_mm512_maskz_compress_epi32((simde__mmask16)bits, values));
    simde_mm256_storeu_si256((simde__m256i *)(void *)out, packed);
    return (uint32_t)__builtin_popcount(bits);
}
#endif

// The entries in[l] of the lanes l set in `bits`, stored in order from `out` on (`out` may point
// into `in`, at or before it: no entry is overwritten before it is read); W entries are written,
// those past the set ones hold anything. Entries must fit 15 bits. Returns how many were set.
static inline uint32_t mf_compress_u16w(uint16_t *out, uint32_t bits, const uint16_t *in)
{
#if MF_WIDE_WIDTH == 16
    return mf_compress_narrow16(out, bits, mf_load_u16_intw(in));
#else
    uint32_t count = 0;
    for (; bits != 0; bits &= bits - 1u) out[count++] = in[__builtin_ctz(bits)];
    return count;
#endif
}

#if MF_WIDE_WIDTH == 8
// Row b lists the lanes set in the eight bits b, in order, three bits each from bit 0 up (the rest
// zero): one lookup for a register, where two four-lane halves took a lookup each and a store
// that waited on the first half's count. (Compressing floats with it, a permute each, ran the box
// path's face queue slower: its stores are left four lanes wide.)
static const uint32_t mf_compress8_order[256] = {
    0x000000, 0x000000, 0x000001, 0x000008, 0x000002, 0x000010, 0x000011, 0x000088, 0x000003, 0x000018, 0x000019,
    0x0000c8, 0x00001a, 0x0000d0, 0x0000d1, 0x000688, 0x000004, 0x000020, 0x000021, 0x000108, 0x000022, 0x000110,
    0x000111, 0x000888, 0x000023, 0x000118, 0x000119, 0x0008c8, 0x00011a, 0x0008d0, 0x0008d1, 0x004688, 0x000005,
    0x000028, 0x000029, 0x000148, 0x00002a, 0x000150, 0x000151, 0x000a88, 0x00002b, 0x000158, 0x000159, 0x000ac8,
    0x00015a, 0x000ad0, 0x000ad1, 0x005688, 0x00002c, 0x000160, 0x000161, 0x000b08, 0x000162, 0x000b10, 0x000b11,
    0x005888, 0x000163, 0x000b18, 0x000b19, 0x0058c8, 0x000b1a, 0x0058d0, 0x0058d1, 0x02c688, 0x000006, 0x000030,
    0x000031, 0x000188, 0x000032, 0x000190, 0x000191, 0x000c88, 0x000033, 0x000198, 0x000199, 0x000cc8, 0x00019a,
    0x000cd0, 0x000cd1, 0x006688, 0x000034, 0x0001a0, 0x0001a1, 0x000d08, 0x0001a2, 0x000d10, 0x000d11, 0x006888,
    0x0001a3, 0x000d18, 0x000d19, 0x0068c8, 0x000d1a, 0x0068d0, 0x0068d1, 0x034688, 0x000035, 0x0001a8, 0x0001a9,
    0x000d48, 0x0001aa, 0x000d50, 0x000d51, 0x006a88, 0x0001ab, 0x000d58, 0x000d59, 0x006ac8, 0x000d5a, 0x006ad0,
    0x006ad1, 0x035688, 0x0001ac, 0x000d60, 0x000d61, 0x006b08, 0x000d62, 0x006b10, 0x006b11, 0x035888, 0x000d63,
    0x006b18, 0x006b19, 0x0358c8, 0x006b1a, 0x0358d0, 0x0358d1, 0x1ac688, 0x000007, 0x000038, 0x000039, 0x0001c8,
    0x00003a, 0x0001d0, 0x0001d1, 0x000e88, 0x00003b, 0x0001d8, 0x0001d9, 0x000ec8, 0x0001da, 0x000ed0, 0x000ed1,
    0x007688, 0x00003c, 0x0001e0, 0x0001e1, 0x000f08, 0x0001e2, 0x000f10, 0x000f11, 0x007888, 0x0001e3, 0x000f18,
    0x000f19, 0x0078c8, 0x000f1a, 0x0078d0, 0x0078d1, 0x03c688, 0x00003d, 0x0001e8, 0x0001e9, 0x000f48, 0x0001ea,
    0x000f50, 0x000f51, 0x007a88, 0x0001eb, 0x000f58, 0x000f59, 0x007ac8, 0x000f5a, 0x007ad0, 0x007ad1, 0x03d688,
    0x0001ec, 0x000f60, 0x000f61, 0x007b08, 0x000f62, 0x007b10, 0x007b11, 0x03d888, 0x000f63, 0x007b18, 0x007b19,
    0x03d8c8, 0x007b1a, 0x03d8d0, 0x03d8d1, 0x1ec688, 0x00003e, 0x0001f0, 0x0001f1, 0x000f88, 0x0001f2, 0x000f90,
    0x000f91, 0x007c88, 0x0001f3, 0x000f98, 0x000f99, 0x007cc8, 0x000f9a, 0x007cd0, 0x007cd1, 0x03e688, 0x0001f4,
    0x000fa0, 0x000fa1, 0x007d08, 0x000fa2, 0x007d10, 0x007d11, 0x03e888, 0x000fa3, 0x007d18, 0x007d19, 0x03e8c8,
    0x007d1a, 0x03e8d0, 0x03e8d1, 0x1f4688, 0x0001f5, 0x000fa8, 0x000fa9, 0x007d48, 0x000faa, 0x007d50, 0x007d51,
    0x03ea88, 0x000fab, 0x007d58, 0x007d59, 0x03eac8, 0x007d5a, 0x03ead0, 0x03ead1, 0x1f5688, 0x000fac, 0x007d60,
    0x007d61, 0x03eb08, 0x007d62, 0x03eb10, 0x03eb11, 0x1f5888, 0x007d63, 0x03eb18, 0x03eb19, 0x1f58c8, 0x03eb1a,
    0x1f58d0, 0x1f58d1, 0xfac688,
};

// The lane numbers set in `bits`, in order, in lanes 0 up (the lanes after them hold 0).
static inline simde__m256i mf_compress8_lanes(uint32_t bits)
{
    const simde__m256i shifts = simde_mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
    simde__m256i order = simde_mm256_set1_epi32((int32_t)mf_compress8_order[bits]);
    return simde_mm256_and_si256(simde_mm256_srlv_epi32(order, shifts), simde_mm256_set1_epi32(7));
}
#endif

#if MF_WIDE_WIDTH > 1
// The numbers first + l of the lanes l set in `bits`, stored in order from `out` on as 16-bit
// integers (first + W - 1 must fit 15 bits); W entries are written, those past the set ones hold
// anything. Returns how many were set. AVX-512 compresses the numbers in a register, AVX2 looks
// all eight lanes' order up at once (mf_compress8_order); four-lane builds store one word from a
// table of the four lanes' orders.
static inline uint32_t mf_compress_lane_numbers(uint16_t *out, uint32_t bits, uint32_t first)
{
#if MF_WIDE_WIDTH == 16
    simde__m512i numbers = simde_mm512_add_epi32(simde_mm512_set1_epi32((int32_t)first),
                                                 simde_mm512_load_si512((const void *)mf_lane_numbers));
    return mf_compress_narrow16(out, bits, numbers);
#elif MF_WIDE_WIDTH == 8
    simde__m256i numbers = simde_mm256_add_epi32(mf_compress8_lanes(bits), simde_mm256_set1_epi32((int32_t)first));
    simde__m128i packed =
        simde_mm_packus_epi32(simde_mm256_castsi256_si128(numbers), simde_mm256_extracti128_si256(numbers, 1));
    simde_mm_storeu_si128((simde__m128i *)(void *)out, packed);
    return (uint32_t)__builtin_popcount(bits);
#else
    // Row b lists the lanes set in the four bits b, in order, then zeros.
    static const uint16_t set_lanes[16][4] = {
        {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
        {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
    uint32_t count = 0;
    // The group's first number in each 16-bit field (no carries: numbers stay below 2^15).
    uint64_t group_first = 0x0001000100010001u * first;
    for (uint32_t group = 0; group < MF_WIDE_WIDTH; group += 4, group_first += 0x0004000400040004u) {
        uint32_t four = bits >> group & 15u;
        uint64_t word;
        memcpy(&word, set_lanes[four], sizeof word);
        word += group_first;
        memcpy(out + count, &word, sizeof word);
        count += (uint32_t)__builtin_popcount(four);
    }
    return count;
#endif
}
#endif

// The lanes of v set in `bits` stored in order from `out` on (as AVX-512's compress); W floats are
// written, those past the set lanes hold anything. Returns how many were set.
static inline uint32_t mf_compress_storew(float *out, uint32_t bits, mf_floatw v)
{
#if MF_WIDE_WIDTH == 1
    *out = v;
    return bits & 1u;
#elif MF_WIDE_WIDTH == 16
    simde_mm512_storeu_ps(out, simde_mm512_maskz_compress_ps((simde__mmask16)bits, v));
#elif MF_WIDE_WIDTH == 8
    mf_compress_store4(out, bits & 15u, simde_mm256_castps256_ps128(v));
    mf_compress_store4(out + __builtin_popcount(bits & 15u), bits >> 4, simde_mm256_extractf128_ps(v, 1));
#else
    mf_compress_store4(out, bits, v);
#endif
    return (uint32_t)__builtin_popcount(bits);
}

#if MF_WIDE_WIDTH > 1
// Within each four-lane quarter, the 4x4 block of v[0..3] transposed: out[c] lane 4 q + k is v[k]
// lane 4 q + c (unpacks and shuffles act on each 128-bit quarter alone).
static inline void mf_transpose_quartersw(const mf_floatw v[4], mf_floatw out[4])
{
#if MF_WIDE_WIDTH == 16
    simde__m512 t0 = simde_mm512_unpacklo_ps(v[0], v[1]), t1 = simde_mm512_unpacklo_ps(v[2], v[3]);
    simde__m512 t2 = simde_mm512_unpackhi_ps(v[0], v[1]), t3 = simde_mm512_unpackhi_ps(v[2], v[3]);
    out[0] = simde_mm512_shuffle_ps(t0, t1, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[1] = simde_mm512_shuffle_ps(t0, t1, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    out[2] = simde_mm512_shuffle_ps(t2, t3, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[3] = simde_mm512_shuffle_ps(t2, t3, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
#elif MF_WIDE_WIDTH == 8
    simde__m256 t0 = simde_mm256_unpacklo_ps(v[0], v[1]), t1 = simde_mm256_unpacklo_ps(v[2], v[3]);
    simde__m256 t2 = simde_mm256_unpackhi_ps(v[0], v[1]), t3 = simde_mm256_unpackhi_ps(v[2], v[3]);
    out[0] = simde_mm256_shuffle_ps(t0, t1, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[1] = simde_mm256_shuffle_ps(t0, t1, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
    out[2] = simde_mm256_shuffle_ps(t2, t3, SIMDE_MM_SHUFFLE(1, 0, 1, 0));
    out[3] = simde_mm256_shuffle_ps(t2, t3, SIMDE_MM_SHUFFLE(3, 2, 3, 2));
#else
    for (int k = 0; k < 4; ++k) out[k] = v[k];
    SIMDE_MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);
#endif
}
#endif

#if MF_WIDE_WIDTH > 1
// W four-float vectors, lane l's in row[l], transposed: out[k] holds each lane's k-th float.
// Register k first takes rows k, k + 4, ... whole, a row per quarter, and one transpose within the
// quarters finishes all W rows: W inserts and 8 shuffles, where transposing four rows at a time
// and joining the quarters costs about three times more.
static inline void mf_columns4w(const simde__m128 *row, mf_floatw out[4])
{
    mf_floatw v[4];
    for (int k = 0; k < 4; ++k) {
        simde__m128 part[MF_WIDE_WIDTH / 4];
        for (int quarter = 0; quarter < MF_WIDE_WIDTH / 4; ++quarter) part[quarter] = row[4 * quarter + k];
        v[k] = mf_from_quartersw(part);
    }
    mf_transpose_quartersw(v, out);
}
#endif

// Four floats from each of W places (row[l], lane l's, any alignment), transposed: out[k] holds each
// lane's k-th float (mf_columns4w).
static inline void mf_load_columns4w(const float *const *row, mf_floatw out[4])
{
#if MF_WIDE_WIDTH == 1
    for (int k = 0; k < 4; ++k) out[k] = row[0][k];
#else
    simde__m128 rows[MF_WIDE_WIDTH];
    for (int l = 0; l < MF_WIDE_WIDTH; ++l) rows[l] = simde_mm_loadu_ps(row[l]);
    mf_columns4w(rows, out);
#endif
}

typedef struct mf_vec3w {
    mf_floatw x, y, z;
} mf_vec3w;

static inline mf_vec3w mf_load3w(const float *x, const float *y, const float *z)
{
    return (mf_vec3w){mf_loadw(x), mf_loadw(y), mf_loadw(z)};
}
static inline mf_vec3w mf_load3uw(const float *x, const float *y, const float *z) // any alignment
{
    return (mf_vec3w){mf_loaduw(x), mf_loaduw(y), mf_loaduw(z)};
}
// Each lane's index, 0 to MF_WIDE_WIDTH - 1.
static inline mf_floatw mf_lane_indexw(void) { return mf_int_to_floatw(mf_lane_numbers); }
static inline mf_vec3w mf_add3w(mf_vec3w a, mf_vec3w b)
{
    return (mf_vec3w){mf_addw(a.x, b.x), mf_addw(a.y, b.y), mf_addw(a.z, b.z)};
}
static inline mf_vec3w mf_sub3w(mf_vec3w a, mf_vec3w b)
{
    return (mf_vec3w){mf_subw(a.x, b.x), mf_subw(a.y, b.y), mf_subw(a.z, b.z)};
}
static inline mf_vec3w mf_scale3w(mf_vec3w a, mf_floatw s)
{
    return (mf_vec3w){mf_mulw(a.x, s), mf_mulw(a.y, s), mf_mulw(a.z, s)};
}
static inline mf_vec3w mf_neg3w(mf_vec3w a) { return (mf_vec3w){mf_negw(a.x), mf_negw(a.y), mf_negw(a.z)}; }
// v in every lane.
static inline mf_vec3w mf_splat3w(mf_vec3 v) { return (mf_vec3w){mf_splatw(v.x), mf_splatw(v.y), mf_splatw(v.z)}; }
// Same order of operations as mf_dot: (x*x + y*y) + z*z.
static inline mf_floatw mf_dotw(mf_vec3w a, mf_vec3w b)
{
    return mf_addw(mf_addw(mf_mulw(a.x, b.x), mf_mulw(a.y, b.y)), mf_mulw(a.z, b.z));
}
static inline mf_vec3w mf_cross3w(mf_vec3w a, mf_vec3w b)
{
    return (mf_vec3w){mf_subw(mf_mulw(a.y, b.z), mf_mulw(a.z, b.y)), mf_subw(mf_mulw(a.z, b.x), mf_mulw(a.x, b.z)),
                      mf_subw(mf_mulw(a.x, b.y), mf_mulw(a.y, b.x))};
}
static inline mf_vec3w mf_select3w(mf_maskw m, mf_vec3w yes, mf_vec3w no)
{
    return (mf_vec3w){mf_selectw(m, yes.x, no.x), mf_selectw(m, yes.y, no.y), mf_selectw(m, yes.z, no.z)};
}
static inline mf_floatw mf_lengthw(mf_vec3w v) { return mf_sqrtw(mf_dotw(v, v)); }

// Row-major rotation for W lanes, as mf_mat3.
typedef struct mf_mat3w {
    mf_vec3w row[3];
} mf_mat3w;

static inline mf_vec3w mf_mat3_mulw(const mf_mat3w *m, mf_vec3w v)
{
    return (mf_vec3w){mf_dotw(m->row[0], v), mf_dotw(m->row[1], v), mf_dotw(m->row[2], v)};
}
// Same order of operations as mf_mat3_mul_transposed.
static inline mf_vec3w mf_mat3_mul_transposedw(const mf_mat3w *m, mf_vec3w v)
{
    return mf_add3w(mf_add3w(mf_scale3w(m->row[0], v.x), mf_scale3w(m->row[1], v.y)), mf_scale3w(m->row[2], v.z));
}

// As mf_quat_normalize: x, y, z, w.
static inline void mf_quat_normalizew(mf_floatw q[4])
{
    mf_floatw largest = mf_maxw(mf_maxw(mf_absw(q[0]), mf_absw(q[1])), mf_maxw(mf_absw(q[2]), mf_absw(q[3])));
    for (int i = 0; i < 4; ++i) q[i] = mf_divw(q[i], largest);
    mf_floatw sum =
        mf_addw(mf_addw(mf_addw(mf_mulw(q[0], q[0]), mf_mulw(q[1], q[1])), mf_mulw(q[2], q[2])), mf_mulw(q[3], q[3]));
    mf_floatw scale = mf_divw(mf_splatw(1.0f), mf_sqrtw(sum));
    for (int i = 0; i < 4; ++i) q[i] = mf_mulw(q[i], scale);
}

// A quaternion for W lanes, as mf_quat.
typedef struct mf_quatw {
    mf_floatw x, y, z, w;
} mf_quatw;

// a b, with cache.c's order of operations.
static inline mf_quatw mf_quat_mulw(mf_quatw a, mf_quatw b)
{
    return (mf_quatw){
        mf_subw(mf_addw(mf_addw(mf_mulw(a.w, b.x), mf_mulw(a.x, b.w)), mf_mulw(a.y, b.z)), mf_mulw(a.z, b.y)),
        mf_addw(mf_addw(mf_subw(mf_mulw(a.w, b.y), mf_mulw(a.x, b.z)), mf_mulw(a.y, b.w)), mf_mulw(a.z, b.x)),
        mf_addw(mf_subw(mf_addw(mf_mulw(a.w, b.z), mf_mulw(a.x, b.y)), mf_mulw(a.y, b.x)), mf_mulw(a.z, b.w)),
        mf_subw(mf_subw(mf_subw(mf_mulw(a.w, b.w), mf_mulw(a.x, b.x)), mf_mulw(a.y, b.y)), mf_mulw(a.z, b.z))};
}

static inline mf_quatw mf_quat_conjugatew(mf_quatw q)
{
    return (mf_quatw){mf_negw(q.x), mf_negw(q.y), mf_negw(q.z), q.w};
}

// As mf_mat3_from_quat of a unit quaternion in the scalar path.
static inline mf_mat3w mf_mat3_from_quatw(mf_floatw x, mf_floatw y, mf_floatw z, mf_floatw w)
{
    mf_floatw xx = mf_mulw(x, x), yy = mf_mulw(y, y), zz = mf_mulw(z, z);
    mf_floatw xy = mf_mulw(x, y), xz = mf_mulw(x, z), yz = mf_mulw(y, z);
    mf_floatw wx = mf_mulw(w, x), wy = mf_mulw(w, y), wz = mf_mulw(w, z);
    mf_floatw one = mf_splatw(1.0f), two = mf_splatw(2.0f);
    mf_mat3w m;
    m.row[0] = (mf_vec3w){mf_subw(one, mf_mulw(two, mf_addw(yy, zz))), mf_mulw(two, mf_subw(xy, wz)),
                          mf_mulw(two, mf_addw(xz, wy))};
    m.row[1] = (mf_vec3w){mf_mulw(two, mf_addw(xy, wz)), mf_subw(one, mf_mulw(two, mf_addw(xx, zz))),
                          mf_mulw(two, mf_subw(yz, wx))};
    m.row[2] = (mf_vec3w){mf_mulw(two, mf_subw(xz, wy)), mf_mulw(two, mf_addw(yz, wx)),
                          mf_subw(one, mf_mulw(two, mf_addw(xx, yy)))};
    return m;
}

// As mf_mat3_relative: R_a^T R_b.
static inline mf_mat3w mf_mat3_relativew(const mf_mat3w *a, const mf_mat3w *b)
{
    mf_vec3w a_columns[3] = {{a->row[0].x, a->row[1].x, a->row[2].x},
                             {a->row[0].y, a->row[1].y, a->row[2].y},
                             {a->row[0].z, a->row[1].z, a->row[2].z}};
    mf_mat3w m;
    for (int i = 0; i < 3; ++i) m.row[i] = mf_mat3_mul_transposedw(b, a_columns[i]);
    return m;
}

// A lane-sized float array aligned for mf_storew.
#define MF_ALIGNED_LANES(name) _Alignas(64) float name[MF_WIDE_WIDTH]

// Folding lanes onto the first four, then those onto the first, for the reductions below.
#if MF_WIDE_WIDTH > 1
#if MF_WIDE_WIDTH == 16
#define MF_FOLD_TO_4(op, a)                                                                                            \
    simde_mm_##op##_ps(simde_mm_##op##_ps(simde_mm512_extractf32x4_ps(a, 0), simde_mm512_extractf32x4_ps(a, 1)),       \
                       simde_mm_##op##_ps(simde_mm512_extractf32x4_ps(a, 2), simde_mm512_extractf32x4_ps(a, 3)))
#elif MF_WIDE_WIDTH == 8
#define MF_FOLD_TO_4(op, a) simde_mm_##op##_ps(simde_mm256_castps256_ps128(a), simde_mm256_extractf128_ps(a, 1))
#else
#define MF_FOLD_TO_4(op, a) (a)
#endif
static inline simde__m128 mf_fold4_max(simde__m128 m)
{
    m = simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_max_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}
static inline simde__m128 mf_fold4_min(simde__m128 m)
{
    m = simde_mm_min_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(1, 0, 3, 2)));
    return simde_mm_min_ps(m, simde_mm_shuffle_ps(m, m, SIMDE_MM_SHUFFLE(2, 3, 0, 1)));
}
#endif

// The largest and the least lane (no lane is a NaN), in registers: a detour through memory would
// wait for the store.
static inline float mf_max_acrossw(mf_floatw a)
{
#if MF_WIDE_WIDTH == 1
    return a;
#else
    return simde_mm_cvtss_f32(mf_fold4_max(MF_FOLD_TO_4(max, a)));
#endif
}

static inline float mf_min_acrossw(mf_floatw a)
{
#if MF_WIDE_WIDTH == 1
    return a;
#else
    return simde_mm_cvtss_f32(mf_fold4_min(MF_FOLD_TO_4(min, a)));
#endif
}

// Each lane rounded toward zero, as truncf.
static inline mf_floatw mf_truncw(mf_floatw a)
{
#if MF_WIDE_WIDTH == 1
    return truncf(a);
#elif MF_WIDE_WIDTH == 16
    return simde_mm512_roundscale_ps(a, SIMDE_MM_FROUND_TO_ZERO);
#elif MF_WIDE_WIDTH == 8
    return simde_mm256_round_ps(a, SIMDE_MM_FROUND_TO_ZERO);
#else
    return simde_mm_round_ps(a, SIMDE_MM_FROUND_TO_ZERO);
#endif
}

// base[index] in each lane: `index` holds whole numbers below 2^24 as floats, which convert
// exactly. A load, not arithmetic: every ISA reads the same floats.
static inline mf_floatw mf_gatherw(const float *base, mf_floatw index)
{
#if MF_WIDE_WIDTH == 1
    return base[(int32_t)index];
#elif MF_WIDE_WIDTH == 16
    // This SIMDe has no 512-bit gather: two 256-bit ones (AVX-512 implies AVX2).
    simde__m256 low = simde_mm512_castps512_ps256(index);
    simde__m256 high = simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(index), 1));
    simde__m256 low_values = simde_mm256_i32gather_ps(base, simde_mm256_cvttps_epi32(low), 4);
    simde__m256 high_values = simde_mm256_i32gather_ps(base, simde_mm256_cvttps_epi32(high), 4);
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(low_values), high_values, 1);
#elif MF_WIDE_WIDTH == 8
    return simde_mm256_i32gather_ps(base, simde_mm256_cvttps_epi32(index), 4);
#else
    simde__m128i at = simde_mm_cvttps_epi32(index);
    return simde_mm_setr_ps(base[simde_mm_extract_epi32(at, 0)], base[simde_mm_extract_epi32(at, 1)],
                            base[simde_mm_extract_epi32(at, 2)], base[simde_mm_extract_epi32(at, 3)]);
#endif
}

// The lane holding the greatest of `value` (no lane NaN; the greatest in *most) and, among equal
// ones, the least `key`, then the least `second` where the keys tie too. The scalar path meets its
// candidates in ascending order and keeps the first of equals; this is that rule across lanes.
// NULL keys: lane order (lanes that hold ascending candidates); `second` may be NULL alone.
static inline uint32_t mf_best_lane(mf_floatw value, const float *key, const float *second, float *most)
{
    *most = mf_max_acrossw(value);
    uint32_t tied = mf_lane_bitsw(mf_eqw(value, mf_splatw(*most)));
    uint32_t chosen = (uint32_t)__builtin_ctz(tied);
    if (key == NULL) return chosen;
    for (tied &= tied - 1u; tied != 0; tied &= tied - 1u) {
        uint32_t l = (uint32_t)__builtin_ctz(tied);
        if (key[l] < key[chosen] || (second != NULL && key[l] == key[chosen] && second[l] < second[chosen])) chosen = l;
    }
    return chosen;
}

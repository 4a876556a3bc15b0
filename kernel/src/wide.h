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
// a with its sign flipped where `sign`'s sign bit is set (-0 too): one mask and one exclusive or.
static inline mf_floatw mf_flip_by_signw(mf_floatw a, mf_floatw sign) { return signbit(sign) ? -a : a; }
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
static inline mf_floatw mf_flip_by_signw(mf_floatw a, mf_floatw sign)
{
    return simde_mm_xor_ps(a, simde_mm_and_ps(sign, simde_mm_set1_ps(-0.0f)));
}
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
static inline mf_floatw mf_flip_by_signw(mf_floatw a, mf_floatw sign)
{
    return simde_mm256_xor_ps(a, simde_mm256_and_ps(sign, simde_mm256_set1_ps(-0.0f)));
}
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
static inline mf_floatw mf_flip_by_signw(mf_floatw a, mf_floatw sign)
{
    return simde_mm512_xor_ps(a, simde_mm512_and_ps(sign, simde_mm512_set1_ps(-0.0f)));
}
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

#if MF_WIDE_WIDTH == 4 // the four-lane builds' compress store (mf_compress_storew)
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

// Row b lists the lanes set in the four bits b, in order, then zeros (mf_compress_lane_numbers,
// mf_compress_u16w).
static const uint16_t mf_compress4_lane_numbers[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};

// The four lanes of v set in `bits` (four bits) stored in order from `out` on; four floats are
// written, those past the set lanes hold anything.
static inline void mf_compress_store4(float *out, uint32_t bits, simde__m128 v)
{
    simde__m128i shuffle = simde_mm_loadu_si128((const simde__m128i *)(const void *)mf_compress4_shuffle[bits]);
    simde_mm_storeu_ps(out, simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), shuffle)));
}
#endif

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

// Each lane's entry of a table at its index, a whole number below `used` (at most 32) held as a
// float: a value copied, so the same bits on every ISA. The permutes load whole registers, so the
// table holds `used` floats rounded up to a register's: 8 at a time on AVX2, 16 or 32 on AVX-512
// (a table of 16, the clip's slot corners, takes one register there). They read an index's low
// bits, which adding 2^23 puts at the bottom of the float's mantissa, exactly (no conversion: this
// SIMDe converts 512 bits to integers only in halves).
static inline mf_floatw mf_lookup32w(const float *table, uint32_t used, mf_floatw index)
{
#if MF_WIDE_WIDTH == 1
    (void)used;
    return table[(uint32_t)index];
#elif MF_WIDE_WIDTH == 16
    simde__m512i at = simde_mm512_castps_si512(simde_mm512_add_ps(index, simde_mm512_set1_ps(8388608.0f)));
    if (used <= 16) return simde_mm512_permutexvar_ps(at, simde_mm512_loadu_ps(table));
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

#if MF_WIDE_WIDTH == 8
// Entry b lists the lanes set in the eight bits b, in order, a byte each from the lowest byte up
// (the rest zero): one load widens them to the 16-bit lanes of a kept list. (Three bits a lane in
// 32-bit entries, spread by a shift per lane and narrowed again, took twice the instructions and two
// crossings between the register's halves: mf_edges_by_faces on hull48 spent half its time there.)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "a table entry's bytes are read lowest first");
static const uint64_t mf_compress8_lane_bytes[256] = {
    0x00000000000000, 0x00000000000000, 0x00000000000001, 0x00000000000100,  0x00000000000002, 0x00000000000200,
    0x00000000000201, 0x00000000020100, 0x00000000000003, 0x00000000000300,  0x00000000000301, 0x00000000030100,
    0x00000000000302, 0x00000000030200, 0x00000000030201, 0x00000003020100,  0x00000000000004, 0x00000000000400,
    0x00000000000401, 0x00000000040100, 0x00000000000402, 0x00000000040200,  0x00000000040201, 0x00000004020100,
    0x00000000000403, 0x00000000040300, 0x00000000040301, 0x00000004030100,  0x00000000040302, 0x00000004030200,
    0x00000004030201, 0x00000403020100, 0x00000000000005, 0x00000000000500,  0x00000000000501, 0x00000000050100,
    0x00000000000502, 0x00000000050200, 0x00000000050201, 0x00000005020100,  0x00000000000503, 0x00000000050300,
    0x00000000050301, 0x00000005030100, 0x00000000050302, 0x00000005030200,  0x00000005030201, 0x00000503020100,
    0x00000000000504, 0x00000000050400, 0x00000000050401, 0x00000005040100,  0x00000000050402, 0x00000005040200,
    0x00000005040201, 0x00000504020100, 0x00000000050403, 0x00000005040300,  0x00000005040301, 0x00000504030100,
    0x00000005040302, 0x00000504030200, 0x00000504030201, 0x00050403020100,  0x00000000000006, 0x00000000000600,
    0x00000000000601, 0x00000000060100, 0x00000000000602, 0x00000000060200,  0x00000000060201, 0x00000006020100,
    0x00000000000603, 0x00000000060300, 0x00000000060301, 0x00000006030100,  0x00000000060302, 0x00000006030200,
    0x00000006030201, 0x00000603020100, 0x00000000000604, 0x00000000060400,  0x00000000060401, 0x00000006040100,
    0x00000000060402, 0x00000006040200, 0x00000006040201, 0x00000604020100,  0x00000000060403, 0x00000006040300,
    0x00000006040301, 0x00000604030100, 0x00000006040302, 0x00000604030200,  0x00000604030201, 0x00060403020100,
    0x00000000000605, 0x00000000060500, 0x00000000060501, 0x00000006050100,  0x00000000060502, 0x00000006050200,
    0x00000006050201, 0x00000605020100, 0x00000000060503, 0x00000006050300,  0x00000006050301, 0x00000605030100,
    0x00000006050302, 0x00000605030200, 0x00000605030201, 0x00060503020100,  0x00000000060504, 0x00000006050400,
    0x00000006050401, 0x00000605040100, 0x00000006050402, 0x00000605040200,  0x00000605040201, 0x00060504020100,
    0x00000006050403, 0x00000605040300, 0x00000605040301, 0x00060504030100,  0x00000605040302, 0x00060504030200,
    0x00060504030201, 0x06050403020100, 0x00000000000007, 0x00000000000700,  0x00000000000701, 0x00000000070100,
    0x00000000000702, 0x00000000070200, 0x00000000070201, 0x00000007020100,  0x00000000000703, 0x00000000070300,
    0x00000000070301, 0x00000007030100, 0x00000000070302, 0x00000007030200,  0x00000007030201, 0x00000703020100,
    0x00000000000704, 0x00000000070400, 0x00000000070401, 0x00000007040100,  0x00000000070402, 0x00000007040200,
    0x00000007040201, 0x00000704020100, 0x00000000070403, 0x00000007040300,  0x00000007040301, 0x00000704030100,
    0x00000007040302, 0x00000704030200, 0x00000704030201, 0x00070403020100,  0x00000000000705, 0x00000000070500,
    0x00000000070501, 0x00000007050100, 0x00000000070502, 0x00000007050200,  0x00000007050201, 0x00000705020100,
    0x00000000070503, 0x00000007050300, 0x00000007050301, 0x00000705030100,  0x00000007050302, 0x00000705030200,
    0x00000705030201, 0x00070503020100, 0x00000000070504, 0x00000007050400,  0x00000007050401, 0x00000705040100,
    0x00000007050402, 0x00000705040200, 0x00000705040201, 0x00070504020100,  0x00000007050403, 0x00000705040300,
    0x00000705040301, 0x00070504030100, 0x00000705040302, 0x00070504030200,  0x00070504030201, 0x07050403020100,
    0x00000000000706, 0x00000000070600, 0x00000000070601, 0x00000007060100,  0x00000000070602, 0x00000007060200,
    0x00000007060201, 0x00000706020100, 0x00000000070603, 0x00000007060300,  0x00000007060301, 0x00000706030100,
    0x00000007060302, 0x00000706030200, 0x00000706030201, 0x00070603020100,  0x00000000070604, 0x00000007060400,
    0x00000007060401, 0x00000706040100, 0x00000007060402, 0x00000706040200,  0x00000706040201, 0x00070604020100,
    0x00000007060403, 0x00000706040300, 0x00000706040301, 0x00070604030100,  0x00000706040302, 0x00070604030200,
    0x00070604030201, 0x07060403020100, 0x00000000070605, 0x00000007060500,  0x00000007060501, 0x00000706050100,
    0x00000007060502, 0x00000706050200, 0x00000706050201, 0x00070605020100,  0x00000007060503, 0x00000706050300,
    0x00000706050301, 0x00070605030100, 0x00000706050302, 0x00070605030200,  0x00070605030201, 0x07060503020100,
    0x00000007060504, 0x00000706050400, 0x00000706050401, 0x00070605040100,  0x00000706050402, 0x00070605040200,
    0x00070605040201, 0x07060504020100, 0x00000706050403, 0x00070605040300,  0x00070605040301, 0x07060504030100,
    0x00070605040302, 0x07060504030200, 0x07060504030201, 0x706050403020100,
};
#endif

#if MF_WIDE_WIDTH == 4 || MF_WIDE_WIDTH == 8
// A byte shuffle of 16-bit lanes from their numbers (16-bit lanes too): lane l's bytes are 2l and
// 2l + 1.
static inline simde__m128i mf_u16_lanes_shuffle(simde__m128i lanes)
{
    return simde_mm_add_epi16(simde_mm_mullo_epi16(lanes, simde_mm_set1_epi16(0x0202)), simde_mm_set1_epi16(0x0100));
}
#endif

// The entries in[l] of the lanes l set in `bits`, stored in order from `out` on (`out` may point
// into `in`, at or before it: no entry is overwritten before it is read); W entries are read and
// W written, those past the set ones holding anything. Entries must fit 15 bits. Returns how many
// were set. Below 16 lanes, one byte shuffle by the set lanes' order (the tables of
// mf_compress_lane_numbers): a loop over the bits mispredicted its exit about once a register.
static inline uint32_t mf_compress_u16w(uint16_t *out, uint32_t bits, const uint16_t *in)
{
#if MF_WIDE_WIDTH == 16
    return mf_compress_narrow16(out, bits, mf_load_u16_intw(in));
#elif MF_WIDE_WIDTH == 8
    simde__m128i lanes = simde_mm_cvtepu8_epi16(simde_mm_loadl_epi64((const void *)&mf_compress8_lane_bytes[bits]));
    simde__m128i values = simde_mm_loadu_si128((const void *)in);
    simde_mm_storeu_si128((simde__m128i *)(void *)out, simde_mm_shuffle_epi8(values, mf_u16_lanes_shuffle(lanes)));
    return (uint32_t)__builtin_popcount(bits);
#elif MF_WIDE_WIDTH == 4
    simde__m128i lanes = simde_mm_loadl_epi64((const void *)mf_compress4_lane_numbers[bits]);
    simde__m128i values = simde_mm_loadl_epi64((const void *)in);
    simde_mm_storel_epi64((simde__m128i *)(void *)out, simde_mm_shuffle_epi8(values, mf_u16_lanes_shuffle(lanes)));
    return (uint32_t)__builtin_popcount(bits);
#else
    *out = *in;
    return bits & 1u;
#endif
}

#if MF_WIDE_WIDTH > 1
// The numbers first + l of the lanes l set in `bits`, stored in order from `out` on as 16-bit
// integers (first + W - 1 must fit 15 bits); W entries are written, those past the set ones hold
// anything. Returns how many were set. AVX-512 compresses the numbers in a register, AVX2 looks
// all eight lanes' order up at once (mf_compress8_lane_bytes); four-lane builds store one word from a
// table of the four lanes' orders.
static inline uint32_t mf_compress_lane_numbers(uint16_t *out, uint32_t bits, uint32_t first)
{
#if MF_WIDE_WIDTH == 16
    simde__m512i numbers = simde_mm512_add_epi32(simde_mm512_set1_epi32((int32_t)first),
                                                 simde_mm512_load_si512((const void *)mf_lane_numbers));
    return mf_compress_narrow16(out, bits, numbers);
#elif MF_WIDE_WIDTH == 8
    simde__m128i lanes = simde_mm_cvtepu8_epi16(simde_mm_loadl_epi64((const void *)&mf_compress8_lane_bytes[bits]));
    simde_mm_storeu_si128((simde__m128i *)(void *)out, simde_mm_add_epi16(lanes, simde_mm_set1_epi16((int16_t)first)));
    return (uint32_t)__builtin_popcount(bits);
#else
    uint32_t count = 0;
    // The group's first number in each 16-bit field (no carries: numbers stay below 2^15).
    uint64_t group_first = 0x0001000100010001u * first;
    for (uint32_t group = 0; group < MF_WIDE_WIDTH; group += 4, group_first += 0x0004000400040004u) {
        uint32_t four = bits >> group & 15u;
        uint64_t word;
        memcpy(&word, mf_compress4_lane_numbers[four], sizeof word);
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
    // One permute across the whole register by the lanes' order (mf_compress8_lane_bytes), where
    // a shuffle of each half and two stores took twice the instructions; a caller storing many rows
    // under one `bits` gets the order loaded and widened once.
    simde__m256i order = simde_mm256_cvtepu8_epi32(simde_mm_loadl_epi64((const void *)&mf_compress8_lane_bytes[bits]));
    simde_mm256_storeu_ps(out, simde_mm256_permutevar8x32_ps(v, order));
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

// x^2 + y^2 + z^2 + w^2 in mf_quat_normalize's order.
static inline mf_floatw mf_quat_squaredw(const mf_floatw q[4])
{
    return mf_addw(mf_addw(mf_addw(mf_mulw(q[0], q[0]), mf_mulw(q[1], q[1])), mf_mulw(q[2], q[2])),
                   mf_mulw(q[3], q[3]));
}

// As mf_quat_normalize, lane by lane: x, y, z, w. Lanes within its bounds keep the direct
// normalisation; the others (padding lanes of zeros among them) take the division by the largest
// component, as the scalar path's test sends them (a NaN lane included).
static inline void mf_quat_normalizew(mf_floatw q[4])
{
    mf_floatw squared = mf_quat_squaredw(q);
    mf_floatw scale = mf_divw(mf_splatw(1.0f), mf_sqrtw(squared));
    mf_maskw within =
        mf_andw(mf_gtw(squared, mf_splatw(MF_QUAT_SQUARED_LOW)), mf_ltw(squared, mf_splatw(MF_QUAT_SQUARED_HIGH)));
    if (mf_allw(within)) {
        for (int i = 0; i < 4; ++i) q[i] = mf_mulw(q[i], scale);
        return;
    }
    mf_floatw largest = mf_maxw(mf_maxw(mf_absw(q[0]), mf_absw(q[1])), mf_maxw(mf_absw(q[2]), mf_absw(q[3])));
    mf_floatw divided[4];
    for (int i = 0; i < 4; ++i) divided[i] = mf_divw(q[i], largest);
    mf_floatw divided_scale = mf_divw(mf_splatw(1.0f), mf_sqrtw(mf_quat_squaredw(divided)));
    for (int i = 0; i < 4; ++i) q[i] = mf_selectw(within, mf_mulw(q[i], scale), mf_mulw(divided[i], divided_scale));
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

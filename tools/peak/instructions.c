// Latency and throughput, in core cycles, of the AVX2 and AVX-512 instructions the wide kernels
// lean on, on the machine this runs on: the numbers uops.info tabulates per microarchitecture, measured where
// no table covers the machine (a guest whose model the tables name only roughly) and without
// hardware counters.
//
// Each instruction runs in blocks of eight: once as one chain (each instruction takes the one
// before as input: latency) and once over eight registers (independent: the reciprocal
// throughput, where eight in flight cover the latency). Seconds become cycles by a chain of integer
// adds (clock.c's method), timed before every round. A busy host only ever slows a round down, the
// clock's as well as a test's, so each test takes its fastest round and the clock the fastest of
// all of its own: the fastest test round over a slowed clock would read too few cycles.
// The AVX-512 forms (zmm, 16 floats) run where the CPU has AVX-512F: their costs are what differ
// most between vendors (the divider's and the permutes' width, the mask moves), and the kernels'
// AVX-512 build is the one chosen there.
//
//   tools/peak/instructions [ROUNDS]     (x86-64 with AVX2)
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BLOCKS = 2000000, PER_BLOCK = 8 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Cycles per second: one integer add retires per cycle on a dependent chain.
static double cycles_per_second(void)
{
    uint64_t x = 0;
    double start = now();
    for (uint64_t i = 0; i < 100000000u; i += 10)
        __asm__ volatile("add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n"
                         "add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n"
                         : "+r"(x));
    return (double)x / (now() - start);
}

// The operands every test starts from: finite, positive, away from denormals (a denormal would
// take the slow path and measure that instead), and a mask with every other lane set.
// The ymm tests read the first 8 of each row, the zmm tests all 16.
typedef struct operands {
    _Alignas(64) float ones[16];
    _Alignas(64) float mask[16];
    _Alignas(64) int32_t lanes[16]; // all 0, for the permutes and the gathers
    _Alignas(64) float table[64];   // what the gather reads (one cache line's worth and more)
    _Alignas(64) float scratch[16]; // the store-to-load forwarding tests' slot
    uint16_t mask_bits;             // every other lane, for the AVX-512 masks
} operands;

// One test: BLOCKS blocks of PER_BLOCK instructions, in asm so the compiler keeps every one.
// "chain" is the form with one register, "streams" the form with eight. The ymm registers are
// named, and clobbered, explicitly; ymm8 to ymm11 hold the operands.
#define LOAD_OPERANDS                                                                                                  \
    "vmovaps (%[ones]), %%ymm8\n vmovaps (%[mask]), %%ymm9\n vmovdqa (%[lanes]), %%ymm10\n"                            \
    "vmovaps %%ymm8, %%ymm0\n vmovaps %%ymm8, %%ymm1\n vmovaps %%ymm8, %%ymm2\n vmovaps %%ymm8, %%ymm3\n"              \
    "vmovaps %%ymm8, %%ymm4\n vmovaps %%ymm8, %%ymm5\n vmovaps %%ymm8, %%ymm6\n vmovaps %%ymm8, %%ymm7\n"
#define CLOBBERS                                                                                                       \
    "eax", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "memory"
// Every run ends with a vzeroupper: the SSE code after it pays no transition.
#define RUN_WITH(load, body)                                                                                           \
    __asm__ volatile(load "1:\n" body "dec %[n]\n jnz 1b\n vzeroupper\n"                                               \
                     : [n] "+r"(n)                                                                                     \
                     : [ones] "r"(o->ones), [mask] "r"(o->mask), [lanes] "r"(o->lanes), [table] "r"(o->table),         \
                       [scratch] "r"(o->scratch), [mask_bits] "m"(o->mask_bits)                                        \
                     : CLOBBERS)
#define RUN(body) RUN_WITH(LOAD_OPERANDS, body)
// The zmm forms: zmm8 to zmm11 hold the operands as above, k1 every other lane. The asm names the
// mask registers, which the clobbers cannot without AVX-512 enabled for this file; only the tests
// change k1 and k2, and nothing else here uses them.
#define LOAD_OPERANDS_512                                                                                              \
    "vmovaps (%[ones]), %%zmm8\n vmovaps (%[mask]), %%zmm9\n vmovdqa32 (%[lanes]), %%zmm10\n"                          \
    "kmovw %[mask_bits], %%k1\n"                                                                                       \
    "vmovaps %%zmm8, %%zmm0\n vmovaps %%zmm8, %%zmm1\n vmovaps %%zmm8, %%zmm2\n vmovaps %%zmm8, %%zmm3\n"              \
    "vmovaps %%zmm8, %%zmm4\n vmovaps %%zmm8, %%zmm5\n vmovaps %%zmm8, %%zmm6\n vmovaps %%zmm8, %%zmm7\n"
#define RUN_512(body) RUN_WITH(LOAD_OPERANDS_512, body)
#define EIGHT(i) i(0) i(0) i(0) i(0) i(0) i(0) i(0) i(0)
#define SPREAD(i) i(0) i(1) i(2) i(3) i(4) i(5) i(6) i(7)

#define ADD(r) "vaddps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define MUL(r) "vmulps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define DIV(r) "vdivps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define SQRT(r) "vsqrtps %%ymm" #r ", %%ymm" #r "\n"
#define MIN(r) "vminps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define BLENDV(r) "vblendvps %%ymm9, %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define AND(r) "vandps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
#define PERMPS(r) "vpermps %%ymm" #r ", %%ymm10, %%ymm" #r "\n"
#define PERM2F128(r) "vperm2f128 $1, %%ymm" #r ", %%ymm" #r ", %%ymm" #r "\n"
#define SHUFPS(r) "vshufps $0x4e, %%ymm" #r ", %%ymm" #r ", %%ymm" #r "\n"
#define UNPCK(r) "vunpcklps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
// A compare feeds the next compare as its input: ones (all bits set) compare as NaN, so the lanes
// settle to a fixed pattern, but the dependency stays.
#define CMP(r) "vcmpltps %%ymm8, %%ymm" #r ", %%ymm" #r "\n"
// Gathers read lanes 0..7 of the table; the chain's next indices are the result's bits ANDed
// with the index register (all zero: the same lanes), which adds an integer AND to each link.
#define GATHER(r) "vpcmpeqd %%ymm11, %%ymm11, %%ymm11\n vgatherdps %%ymm11, (%[table], %%ymm10, 4), %%ymm" #r "\n"
#define GATHER_CHAIN(r)                                                                                                \
    "vpand %%ymm0, %%ymm10, %%ymm10\n vpcmpeqd %%ymm11, %%ymm11, %%ymm11\n"                                            \
    "vgatherdps %%ymm11, (%[table], %%ymm10, 4), %%ymm0\n"
#define MOVMSK(r) "vmovmskps %%ymm" #r ", %%eax\n"
// A 32-byte store read back as one float from its sixth lane (what the box pass's write_results
// does with each row): the chain runs through the store, the load and a broadcast back.
#define STORE_FORWARD(r) "vmovaps %%ymm0, (%[scratch])\n vbroadcastss 20(%[scratch]), %%ymm0\n"
#define STORE_FORWARD_WHOLE(r) "vmovaps %%ymm0, (%[scratch])\n vmovaps (%[scratch]), %%ymm0\n"

#define ADD_512(r) "vaddps %%zmm8, %%zmm" #r ", %%zmm" #r "\n"
#define MUL_512(r) "vmulps %%zmm8, %%zmm" #r ", %%zmm" #r "\n"
#define DIV_512(r) "vdivps %%zmm8, %%zmm" #r ", %%zmm" #r "\n"
#define SQRT_512(r) "vsqrtps %%zmm" #r ", %%zmm" #r "\n"
#define MIN_512(r) "vminps %%zmm8, %%zmm" #r ", %%zmm" #r "\n"
// A blend under a mask register (what a select compiles to on AVX-512).
#define BLENDM_512(r) "vblendmps %%zmm8, %%zmm" #r ", %%zmm" #r "%{%%k1%}\n"
#define PERMPS_512(r) "vpermps %%zmm" #r ", %%zmm10, %%zmm" #r "\n"
// The register form of the compress, the lanes of k1 packed to the bottom (the memory form is
// what box_pass.c avoids on AMD).
#define COMPRESS_512(r) "vcompressps %%zmm" #r ", %%zmm" #r "%{%%k1%}\n"
// A compare into a mask register, and the mask's move to a general register (a lane loop's start).
#define CMP_512(r) "vcmpltps %%zmm8, %%zmm" #r ", %%k2\n"
#define KMOV_512(r) "vcmpltps %%zmm8, %%zmm" #r ", %%k2\n kmovw %%k2, %%eax\n"
#define GATHER_512(r) "kxnorw %%k2, %%k2, %%k2\n vgatherdps (%[table], %%zmm10, 4), %%zmm" #r "%{%%k2%}\n"
#define GATHER_CHAIN_512(r)                                                                                            \
    "vpandd %%zmm0, %%zmm10, %%zmm10\n kxnorw %%k2, %%k2, %%k2\n"                                                      \
    "vgatherdps (%[table], %%zmm10, 4), %%zmm0%{%%k2%}\n"
#define STORE_FORWARD_512(r) "vmovaps %%zmm0, (%[scratch])\n vbroadcastss 20(%[scratch]), %%zmm0\n"
#define STORE_FORWARD_WHOLE_512(r) "vmovaps %%zmm0, (%[scratch])\n vmovaps (%[scratch]), %%zmm0\n"

typedef struct test {
    const char *name;
    void (*chain)(const operands *o, uint64_t n);
    void (*streams)(const operands *o, uint64_t n);
    int avx512; // runs only where the CPU has AVX-512F
} test;

// A test's chain or streams function, run by `run`: RUN for the ymm forms, RUN_512 for the zmm ones.
#define FORM(run, name, way, body)                                                                                     \
    static void name##_##way(const operands *o, uint64_t n) { run(body); }
#define CHAIN(name, body) FORM(RUN, name, chain, body)
#define STREAMS(name, body) FORM(RUN, name, streams, body)
#define CHAIN_512(name, body) FORM(RUN_512, name, chain, body)
#define STREAMS_512(name, body) FORM(RUN_512, name, streams, body)
// Most instructions run both ways: eight times on one register, once on each of eight.
#define TEST(name, op) CHAIN(name, EIGHT(op)) STREAMS(name, SPREAD(op))
#define TEST_512(name, op) CHAIN_512(name, EIGHT(op)) STREAMS_512(name, SPREAD(op))

TEST(add, ADD)
TEST(mul, MUL)
TEST(div, DIV)
TEST(sqrt, SQRT)
TEST(min, MIN)
TEST(cmp, CMP)
TEST(blendv, BLENDV)
TEST(and, AND)
TEST(permps, PERMPS)
TEST(perm2f128, PERM2F128)
TEST(shufps, SHUFPS)
TEST(unpcklps, UNPCK)
CHAIN(gather, EIGHT(GATHER_CHAIN))
STREAMS(gather, SPREAD(GATHER))
STREAMS(movmskps, EIGHT(MOVMSK))
CHAIN(store_forward_lane, EIGHT(STORE_FORWARD))
CHAIN(store_forward_whole, EIGHT(STORE_FORWARD_WHOLE))
TEST_512(add_512, ADD_512)
TEST_512(mul_512, MUL_512)
TEST_512(div_512, DIV_512)
TEST_512(sqrt_512, SQRT_512)
TEST_512(min_512, MIN_512)
TEST_512(blendm_512, BLENDM_512)
TEST_512(permps_512, PERMPS_512)
TEST_512(compress_512, COMPRESS_512)
STREAMS_512(cmp_512, EIGHT(CMP_512))
STREAMS_512(kmov_512, EIGHT(KMOV_512))
CHAIN_512(gather_512, EIGHT(GATHER_CHAIN_512))
STREAMS_512(gather_512, SPREAD(GATHER_512))
CHAIN_512(store_forward_lane_512, EIGHT(STORE_FORWARD_512))
CHAIN_512(store_forward_whole_512, EIGHT(STORE_FORWARD_WHOLE_512))

static const test tests[] = {
    {"vaddps", add_chain, add_streams, 0},
    {"vmulps", mul_chain, mul_streams, 0},
    {"vdivps", div_chain, div_streams, 0},
    {"vsqrtps", sqrt_chain, sqrt_streams, 0},
    {"vminps", min_chain, min_streams, 0},
    {"vcmpltps", cmp_chain, cmp_streams, 0},
    {"vblendvps", blendv_chain, blendv_streams, 0},
    {"vandps", and_chain, and_streams, 0},
    {"vpermps", permps_chain, permps_streams, 0},
    {"vperm2f128", perm2f128_chain, perm2f128_streams, 0},
    {"vshufps", shufps_chain, shufps_streams, 0},
    {"vunpcklps", unpcklps_chain, unpcklps_streams, 0},
    {"vgatherdps (+vpand, vpcmpeqd)", gather_chain, gather_streams, 0},
    {"vmovmskps ymm", NULL, movmskps_streams, 0},
    {"store 32 B, vbroadcastss lane 5", store_forward_lane_chain, NULL, 0},
    {"store 32 B, load 32 B", store_forward_whole_chain, NULL, 0},
    {"vaddps zmm", add_512_chain, add_512_streams, 1},
    {"vmulps zmm", mul_512_chain, mul_512_streams, 1},
    {"vdivps zmm", div_512_chain, div_512_streams, 1},
    {"vsqrtps zmm", sqrt_512_chain, sqrt_512_streams, 1},
    {"vminps zmm", min_512_chain, min_512_streams, 1},
    {"vblendmps zmm (k)", blendm_512_chain, blendm_512_streams, 1},
    {"vpermps zmm", permps_512_chain, permps_512_streams, 1},
    {"vcompressps zmm, zmm (k)", compress_512_chain, compress_512_streams, 1},
    {"vcmpltps zmm into k", NULL, cmp_512_streams, 1},
    {"vcmpltps into k, kmovw", NULL, kmov_512_streams, 1},
    {"vgatherdps zmm (+vpandd, kxnorw)", gather_512_chain, gather_512_streams, 1},
    {"store 64 B, vbroadcastss lane 5", store_forward_lane_512_chain, NULL, 1},
    {"store 64 B, load 64 B", store_forward_whole_512_chain, NULL, 1},
};

// Seconds per instruction of one form, the best of `rounds`; each round first times the clock,
// raising *fastest_hz where it ran faster.
static double seconds_per_instruction(void (*form)(const operands *, uint64_t), const operands *o, int rounds,
                                      double *fastest_hz)
{
    double best = 1e30;
    for (int round = 0; round < rounds; ++round) {
        double hz = cycles_per_second();
        if (hz > *fastest_hz) *fastest_hz = hz;
        double start = now();
        form(o, BLOCKS);
        double seconds = (now() - start) / ((double)BLOCKS * PER_BLOCK);
        if (seconds < best) best = seconds;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) {
        fprintf(stderr, "usage: instructions [ROUNDS] (ROUNDS at least 1)\n");
        return 2;
    }
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) {
        fprintf(stderr, "instructions: this CPU has no AVX2\n");
        return 1;
    }
    int avx512 = __builtin_cpu_supports("avx512f");
    static operands o;
    o.mask_bits = 0x5555;
    for (int i = 0; i < 16; ++i) {
        o.ones[i] = 1.0f;
        o.lanes[i] = 0;
        o.scratch[i] = 0.0f;
        uint32_t bits = i % 2 ? 0xffffffffu : 0u;
        __builtin_memcpy(&o.mask[i], &bits, sizeof bits);
    }
    for (int i = 0; i < 64; ++i) o.table[i] = 1.0f;
    enum { TESTS = sizeof tests / sizeof tests[0] };
    double latency[TESTS], throughput[TESTS], hz = 0.0;
    int clocks = 0;
    for (size_t t = 0; t < TESTS; ++t) {
        latency[t] = throughput[t] = 0.0;
        if (tests[t].avx512 && !avx512) continue;
        clocks += ((tests[t].chain != NULL) + (tests[t].streams != NULL)) * rounds;
        latency[t] = tests[t].chain ? seconds_per_instruction(tests[t].chain, &o, rounds, &hz) : 0.0;
        throughput[t] = tests[t].streams ? seconds_per_instruction(tests[t].streams, &o, rounds, &hz) : 0.0;
    }
    printf("%.2f GHz (integer add chain, fastest of %d), best of %d rounds, ymm (8 floats) unless named%s\n\n",
           hz / 1e9, clocks, rounds, avx512 ? "" : "; no AVX-512F: the zmm forms left out");
    printf("| instruction | latency (cycles) | reciprocal throughput (cycles) |\n|---|---|---|\n");
    for (size_t t = 0; t < TESTS; ++t) {
        if (tests[t].avx512 && !avx512) continue;
        char chain[32] = "", streams[32] = "";
        if (tests[t].chain) snprintf(chain, sizeof chain, "%.2f", latency[t] * hz);
        if (tests[t].streams) snprintf(streams, sizeof streams, "%.2f", throughput[t] * hz);
        printf("| %s | %s | %s |\n", tests[t].name, chain, streams);
    }
    return 0;
}

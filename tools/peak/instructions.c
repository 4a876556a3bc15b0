// Latency and throughput, in core cycles, of the AVX2 instructions the wide kernels lean on, on
// the machine this runs on: the numbers uops.info tabulates per microarchitecture, measured where
// no table covers the machine (a guest whose model the tables name only roughly) and without
// hardware counters.
//
// Each instruction runs in blocks of eight: once as one chain (each instruction takes the one
// before as input: latency) and once over eight registers (independent: the reciprocal
// throughput, where eight in flight cover the latency). Seconds become cycles by a chain of integer
// adds (clock.c's method), timed before every round. A busy host only ever slows a round down, the
// clock's as well as a test's, so each test takes its fastest round and the clock the fastest of
// all of its own: the fastest test round over a slowed clock would read too few cycles.
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
typedef struct operands {
    _Alignas(32) float ones[8];
    _Alignas(32) float mask[8];
    _Alignas(32) int32_t lanes[8]; // 0..7, for the permute and the gather
    _Alignas(32) float table[64];  // what the gather reads (one cache line's worth and more)
    _Alignas(32) float scratch[8]; // the store-to-load forwarding tests' slot
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
#define RUN(body)                                                                                                      \
    __asm__ volatile(LOAD_OPERANDS "1:\n" body "dec %[n]\n jnz 1b\n"                                                   \
                     : [n] "+r"(n)                                                                                     \
                     : [ones] "r"(o->ones), [mask] "r"(o->mask), [lanes] "r"(o->lanes), [table] "r"(o->table),         \
                       [scratch] "r"(o->scratch)                                                                       \
                     : CLOBBERS)
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

typedef struct test {
    const char *name;
    void (*chain)(const operands *o, uint64_t n);
    void (*streams)(const operands *o, uint64_t n);
} test;

#define CHAIN(name, body)                                                                                              \
    static void name##_chain(const operands *o, uint64_t n) { RUN(body); }
#define STREAMS(name, body)                                                                                            \
    static void name##_streams(const operands *o, uint64_t n) { RUN(body); }
// Most instructions run both ways: eight times on one register, once on each of eight.
#define TEST(name, op) CHAIN(name, EIGHT(op)) STREAMS(name, SPREAD(op))

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

static const test tests[] = {
    {"vaddps", add_chain, add_streams},
    {"vmulps", mul_chain, mul_streams},
    {"vdivps", div_chain, div_streams},
    {"vsqrtps", sqrt_chain, sqrt_streams},
    {"vminps", min_chain, min_streams},
    {"vcmpltps", cmp_chain, cmp_streams},
    {"vblendvps", blendv_chain, blendv_streams},
    {"vandps", and_chain, and_streams},
    {"vpermps", permps_chain, permps_streams},
    {"vperm2f128", perm2f128_chain, perm2f128_streams},
    {"vshufps", shufps_chain, shufps_streams},
    {"vunpcklps", unpcklps_chain, unpcklps_streams},
    {"vgatherdps (+vpand, vpcmpeqd)", gather_chain, gather_streams},
    {"vmovmskps ymm", NULL, movmskps_streams},
    {"store 32 B, vbroadcastss lane 5", store_forward_lane_chain, NULL},
    {"store 32 B, load 32 B", store_forward_whole_chain, NULL},
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
    static operands o;
    for (int i = 0; i < 8; ++i) {
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
        clocks += ((tests[t].chain != NULL) + (tests[t].streams != NULL)) * rounds;
        latency[t] = tests[t].chain ? seconds_per_instruction(tests[t].chain, &o, rounds, &hz) : 0.0;
        throughput[t] = tests[t].streams ? seconds_per_instruction(tests[t].streams, &o, rounds, &hz) : 0.0;
    }
    printf("%.2f GHz (integer add chain, fastest of %d), best of %d rounds, ymm (8 floats)\n\n", hz / 1e9, clocks,
           rounds);
    printf("| instruction | latency (cycles) | reciprocal throughput (cycles) |\n|---|---|---|\n");
    for (size_t t = 0; t < TESTS; ++t) {
        char chain[32] = "", streams[32] = "";
        if (tests[t].chain) snprintf(chain, sizeof chain, "%.2f", latency[t] * hz);
        if (tests[t].streams) snprintf(streams, sizeof streams, "%.2f", throughput[t] * hz);
        printf("| %s | %s | %s |\n", tests[t].name, chain, streams);
    }
    return 0;
}

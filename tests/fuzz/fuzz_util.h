// What the fuzz harnesses share: reading fuzzer bytes as numbers, a check that aborts (libFuzzer
// turns an abort into a saved crash input), and the rules every output stream obeys.
#pragma once

#include "manyfold.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libFuzzer entry point every harness defines; replay_main.c calls it without libFuzzer.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_fail(const char *file, int line, const char *expression, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5), noreturn, unused))
#endif
    ;

static void fuzz_fail(const char *file, int line, const char *expression, const char *format, ...)
{
    fprintf(stderr, "%s:%d: invariant violated: %s", file, line, expression);
    if (format != NULL && format[0] != '\0') {
        va_list args;
        va_start(args, format);
        fputs(": ", stderr);
        vfprintf(stderr, format, args);
        va_end(args);
    }
    fputc('\n', stderr);
    abort();
}

// FUZZ_REQUIRE(condition, "format", ...): abort with the details when the condition is false.
#define FUZZ_REQUIRE(condition, ...)                                                                                   \
    do {                                                                                                               \
        if (!(condition)) fuzz_fail(__FILE__, __LINE__, #condition, __VA_ARGS__);                                      \
    } while (0)

// The fuzzer's bytes as a stream of numbers; past the end every read gives zeros.
typedef struct fuzz_bytes {
    const uint8_t *data;
    size_t size, at;
} fuzz_bytes;

static inline size_t fuzz_left(const fuzz_bytes *in) { return in->size - in->at; }

static inline uint8_t fuzz_u8(fuzz_bytes *in) { return in->at < in->size ? in->data[in->at++] : 0; }

static inline int8_t fuzz_i8(fuzz_bytes *in) { return (int8_t)fuzz_u8(in); }

static inline uint16_t fuzz_u16(fuzz_bytes *in)
{
    uint16_t low = fuzz_u8(in);
    return (uint16_t)(low | (uint16_t)fuzz_u8(in) << 8);
}

static inline uint32_t fuzz_u32(fuzz_bytes *in)
{
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= (uint32_t)fuzz_u8(in) << (8 * i);
    return value;
}

// Any float bit pattern: NaN, Inf, denormals, 3e38 included.
static inline float fuzz_raw_float(fuzz_bytes *in)
{
    uint32_t bits = fuzz_u32(in);
    float value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static inline int fuzz_is_status(mf_status status) { return (unsigned)status <= (unsigned)MF_ERR_UNSUPPORTED_ISA; }

static inline int fuzz_finite3(mf_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

// The rules of the output stream after mf_collide returned `status` for `pair_count` pairs:
// - MF_OK: every pair done; manifolds in strictly increasing pair order, contacts contiguous (each
//   manifold's first is the running sum), 1..max_contacts contacts each with distinct ids, unit
//   finite normals, finite contacts;
// - MF_ERR_CAPACITY: the same for the pairs before pairs_done < pair_count, nothing after;
// - any other error: an empty stream.
static inline void fuzz_check_stream(const mf_stream *stream, mf_status status, uint32_t pair_count,
                                     uint32_t max_contacts)
{
    FUZZ_REQUIRE(fuzz_is_status(status), "status %d", (int)status);
    if (status != MF_OK && status != MF_ERR_CAPACITY) {
        FUZZ_REQUIRE(stream->manifold_count == 0 && stream->contact_count == 0 && stream->pairs_done == 0,
                     "status %d (%s) left %u manifolds, %u contacts, pairs_done %u", (int)status,
                     mf_status_string(status), stream->manifold_count, stream->contact_count, stream->pairs_done);
        return;
    }
    uint32_t done = stream->pairs_done;
    if (status == MF_OK) FUZZ_REQUIRE(done == pair_count, "MF_OK with pairs_done %u of %u", done, pair_count);
    else FUZZ_REQUIRE(done < pair_count, "MF_ERR_CAPACITY with pairs_done %u of %u", done, pair_count);
    FUZZ_REQUIRE(stream->manifold_count <= stream->manifold_capacity && stream->manifold_count <= done,
                 "%u manifolds, capacity %u, %u pairs done", stream->manifold_count, stream->manifold_capacity, done);
    FUZZ_REQUIRE(stream->contact_count <= stream->contact_capacity, "%u contacts, capacity %u", stream->contact_count,
                 stream->contact_capacity);
    uint32_t running = 0;
    for (uint32_t m = 0; m < stream->manifold_count; ++m) {
        const mf_manifold *manifold = &stream->manifolds[m];
        FUZZ_REQUIRE(manifold->pair < done, "manifold %u names pair %u, pairs done %u", m, manifold->pair, done);
        FUZZ_REQUIRE(m == 0 || manifold->pair > stream->manifolds[m - 1].pair, "manifold %u: pair %u after pair %u", m,
                     manifold->pair, stream->manifolds[m - 1].pair);
        FUZZ_REQUIRE(manifold->first == running, "manifold %u starts at %u, expected %u", m, manifold->first, running);
        FUZZ_REQUIRE(manifold->count >= 1 && manifold->count <= max_contacts, "manifold %u has %u contacts (max %u)", m,
                     manifold->count, max_contacts);
        FUZZ_REQUIRE(manifold->count <= stream->contact_count - running, "manifold %u runs past the %u contacts", m,
                     stream->contact_count);
        mf_vec3 n = manifold->normal;
        FUZZ_REQUIRE(fuzz_finite3(n), "manifold %u (pair %u): normal {%g, %g, %g}", m, manifold->pair, (double)n.x,
                     (double)n.y, (double)n.z);
        double length = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
        FUZZ_REQUIRE(fabs(length - 1.0) < 1e-3, "manifold %u (pair %u): normal {%g, %g, %g} has length %.9g", m,
                     manifold->pair, (double)n.x, (double)n.y, (double)n.z, length);
        for (uint32_t k = 0; k < manifold->count; ++k) {
            const mf_contact *c = &stream->contacts[running + k];
            FUZZ_REQUIRE(fuzz_finite3(c->point) && isfinite(c->separation),
                         "manifold %u (pair %u) contact %u: point {%g, %g, %g} separation %g", m, manifold->pair, k,
                         (double)c->point.x, (double)c->point.y, (double)c->point.z, (double)c->separation);
            for (uint32_t j = 0; j < k; ++j)
                FUZZ_REQUIRE(stream->contacts[running + j].id != c->id,
                             "manifold %u (pair %u): contacts %u and %u share id %08x", m, manifold->pair, j, k, c->id);
        }
        running += manifold->count;
    }
    FUZZ_REQUIRE(running == stream->contact_count, "manifolds hold %u contacts, the stream %u", running,
                 stream->contact_count);
}

static inline int fuzz_same_manifold(const mf_manifold *x, const mf_manifold *y)
{
    return x->pair == y->pair && x->count == y->count && x->normal.x == y->normal.x && x->normal.y == y->normal.y &&
           x->normal.z == y->normal.z;
}

static inline int fuzz_same_contact(const mf_contact *x, const mf_contact *y)
{
    return x->id == y->id && x->separation == y->separation && x->point.x == y->point.x && x->point.y == y->point.y &&
           x->point.z == y->point.z;
}

// Requires that `part` (from a call on pairs [offset, ...)) equals `whole`'s manifolds for pairs
// [offset, offset + part->pairs_done), starting at `whole`'s manifold *cursor, which it advances.
static inline void fuzz_check_part(const mf_stream *whole, uint32_t *cursor, const mf_stream *part, uint32_t offset)
{
    uint32_t m = *cursor;
    for (uint32_t i = 0; i < part->manifold_count; ++i, ++m) {
        mf_manifold expected = whole->manifolds[m < whole->manifold_count ? m : 0];
        FUZZ_REQUIRE(m < whole->manifold_count && expected.pair < offset + part->pairs_done,
                     "part at pair %u: manifold %u (pair %u) is not in the complete output", offset, i,
                     part->manifolds[i].pair + offset);
        mf_manifold got = part->manifolds[i];
        got.pair += offset;
        FUZZ_REQUIRE(fuzz_same_manifold(&got, &expected),
                     "part at pair %u: manifold %u (pair %u, %u contacts) differs from the complete output's "
                     "(pair %u, %u contacts)",
                     offset, i, got.pair, got.count, expected.pair, expected.count);
        for (uint32_t k = 0; k < got.count; ++k)
            FUZZ_REQUIRE(fuzz_same_contact(&part->contacts[got.first + k], &whole->contacts[expected.first + k]),
                         "part at pair %u: pair %u contact %u differs from the complete output", offset, got.pair, k);
    }
    FUZZ_REQUIRE(m == whole->manifold_count || whole->manifolds[m].pair >= offset + part->pairs_done,
                 "part at pair %u (%u pairs done) misses the manifold of pair %u", offset, part->pairs_done,
                 whole->manifolds[m].pair);
    *cursor = m;
}

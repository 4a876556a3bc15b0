// Fuzz harness: mf_collide on arbitrary configurations, transforms, pair lists and stream
// capacities over a small bank of boxes and hulls.
//
// Input layout (every read past the end gives zeros, so any byte string is an input):
//   config     margin, linear_slop, max_contacts, isa, threads, a world offset   (6 bytes)
//   body count, then per body: shape, position mode + 3 coordinates, rotation mode + components
//   pair count, then per pair: kind, a, b
//   capacity   bound (half the byte values) or a fuzzed manifold and contact capacity
//   scales     half the byte values: none (mf_bodies.scales NULL); else one byte per body, mostly a
//              valid scale, a few zero, negative, NaN, infinite, or beyond the shape's range
// Most byte values give valid input (exact grids, so resting and exactly touching boxes are
// common); a few give raw floats (NaN, Inf, 3e38), zero or huge quaternions, a pair naming one
// body twice, out-of-range ids, bad configs.
//
// Checked: the status is the one the contract calls for where the input decides it; the stream
// obeys fuzz_check_stream; a call with a stream too small holds exactly the prefix of a
// big-enough call, and resuming with pairs + pairs_done rebuilds the whole output; the same call
// again, and on a fresh context with another thread count, gives the same output; a wide ISA agrees
// with the scalar path (check_isa_agreement).
#include "fuzz_util.h"

enum { MAX_BODIES = 16, MAX_PAIRS = 64 };

static mf_bank *bank;
static uint32_t shape_count;

static void add_box(float x, float y, float z)
{
    uint32_t shape;
    FUZZ_REQUIRE(mf_bank_add_box(bank, (mf_vec3){x, y, z}, &shape) == MF_OK, "box %g %g %g", (double)x, (double)y,
                 (double)z);
}

static void add_hull(const mf_vec3 *points, uint32_t count, const char *what)
{
    uint32_t shape;
    mf_status status = mf_bank_add_hull(bank, points, count, &shape);
    FUZZ_REQUIRE(status == MF_OK, "the %s hull: %s", what, mf_status_string(status));
}

// Boxes (a cube, a plank, a needle, the ground, a millimetre cube) and hulls (a tetrahedron, an
// octagonal prism, a sphere, a rock, a 1000:1 sliver).
static void make_bank(void)
{
    FUZZ_REQUIRE(mf_bank_create(&bank) == MF_OK, "bank");
    add_box(0.5f, 0.5f, 0.5f);
    add_box(2.0f, 0.05f, 1.0f);
    add_box(0.02f, 0.02f, 1.0f);
    add_box(10.0f, 0.5f, 10.0f);
    add_box(1e-3f, 1e-3f, 1e-3f);

    const mf_vec3 tetrahedron[4] = {
        {-0.25f, -0.25f, -0.25f}, {0.75f, -0.25f, -0.25f}, {-0.25f, 0.75f, -0.25f}, {-0.25f, -0.25f, 0.75f}};
    add_hull(tetrahedron, 4, "tetrahedron");

    mf_vec3 points[32];
    for (int i = 0; i < 16; ++i) {
        double angle = 2.0 * 3.14159265358979323846 * (i % 8) / 8.0;
        points[i] = (mf_vec3){(float)(0.5 * cos(angle)), i < 8 ? 0.2f : -0.2f, (float)(0.5 * sin(angle))};
    }
    add_hull(points, 16, "octagonal prism");

    for (int i = 0; i < 32; ++i) {
        double z = 1.0 - (2.0 * i + 1.0) / 32.0, r = sqrt(1.0 - z * z), phi = 2.39996322972865332 * i;
        points[i] = (mf_vec3){(float)(0.5 * r * cos(phi)), (float)(0.5 * r * sin(phi)), (float)(0.5 * z)};
    }
    add_hull(points, 32, "sphere");

    uint32_t state = 12345u; // a fixed lumpy rock: the same on every run
    for (int i = 0; i < 24; ++i) {
        float c[3];
        for (int k = 0; k < 3; ++k) {
            state = state * 1664525u + 1013904223u;
            c[k] = (float)(state >> 8) / (float)(1u << 24) - 0.5f;
        }
        points[i] = (mf_vec3){c[0], 0.4f * c[1], 0.8f * c[2]};
    }
    add_hull(points, 24, "rock");

    for (int i = 0; i < 8; ++i)
        points[i] = (mf_vec3){i & 1 ? 0.5f : -0.5f, i & 2 ? 5e-4f : -5e-4f, i & 4 ? 0.25f : -0.25f};
    add_hull(points, 8, "sliver");
    shape_count = mf_bank_shape_count(bank);
}

#define HALF_SQRT2 0.70710678f
static const mf_quat nice_rotations[] = {
    {0, 0, 0, 1},
    {HALF_SQRT2, 0, 0, HALF_SQRT2}, // 90 degrees about x, y, z
    {0, HALF_SQRT2, 0, HALF_SQRT2},
    {0, 0, HALF_SQRT2, HALF_SQRT2},
    {1, 0, 0, 0}, // 180 degrees about x, y, z
    {0, 1, 0, 0},
    {0, 0, 1, 0},
    {0.38268343f, 0, 0, 0.92387953f}, // 45 degrees about x, y, z
    {0, 0.38268343f, 0, 0.92387953f},
    {0, 0, 0.38268343f, 0.92387953f},
    {0.5f, 0.5f, 0.5f, 0.5f}, // 120 degrees about (1, 1, 1)
    {5e-4f, 0, 0, 1},         // a hair's tilt
    {0, 0, 5e-4f, 1},
    {0.27059805f, 0.65328148f, 0.27059805f, 0.65328148f}, // an edge of a cube pointing up
};
#define NICE_ROTATIONS (sizeof(nice_rotations) / sizeof(nice_rotations[0]))

static float pick(fuzz_bytes *in, const float *table, int count, float raw_step)
{
    uint8_t mode = fuzz_u8(in);
    if (mode < 200) return table[mode % count];
    if (mode < 250) return (float)fuzz_i8(in) * raw_step;
    return fuzz_raw_float(in);
}

static mf_vec3 read_position(fuzz_bytes *in)
{
    static const float steps[] = {1.0f / 64, 1.0f / 8, 0.5f, 1.0f / 1024, 1.0f / 4};
    uint8_t mode = fuzz_u8(in) % 8;
    float c[3];
    for (int k = 0; k < 3; ++k) {
        if (mode < 5) c[k] = (float)fuzz_i8(in) * steps[mode];
        else if (mode == 5) c[k] = (float)fuzz_i8(in) / 64.0f + (float)fuzz_i8(in) * 0x1p-20f;
        else if (mode == 6) c[k] = (float)(int16_t)fuzz_u16(in) * 0x1p-8f;
        else c[k] = fuzz_raw_float(in);
    }
    return (mf_vec3){c[0], c[1], c[2]};
}

static mf_quat read_rotation(fuzz_bytes *in)
{
    static const float scales[] = {1, 1, 1, 1, 0.5f, 3, 1e-3f, 1e3f};
    uint8_t mode = fuzz_u8(in);
    if (mode < 200) {
        mf_quat q = nice_rotations[mode % NICE_ROTATIONS];
        float s = scales[(mode / NICE_ROTATIONS) % 8];
        if (mode & 1) q = (mf_quat){-q.x, -q.y, -q.z, -q.w}; // the same rotation
        return (mf_quat){q.x * s, q.y * s, q.z * s, q.w * s};
    }
    if (mode < 240) {
        float c[4];
        for (int k = 0; k < 4; ++k) c[k] = (float)fuzz_i8(in) / 64.0f; // not unit; zero at times
        return (mf_quat){c[0], c[1], c[2], c[3]};
    }
    float c[4];
    for (int k = 0; k < 4; ++k) c[k] = fuzz_raw_float(in);
    return (mf_quat){c[0], c[1], c[2], c[3]};
}

typedef struct scene {
    mf_config config;
    uint32_t body_count, pair_count;
    uint32_t shape[MAX_BODIES];
    mf_transform transform[MAX_BODIES];
    mf_pair pairs[MAX_PAIRS];
    uint32_t manifold_capacity, contact_capacity;
    int scaled; // scales holds each body's scale; else the call passes none
    float scales[MAX_BODIES];
} scene;

static void read_scene(fuzz_bytes *in, scene *s)
{
    static const float margins[] = {0, 1e-3f, 0.005f, 0.02f, 0.02f, 0.1f, 0.5f, 2};
    static const float slops[] = {0, 1e-4f, 0.005f, 0.005f, 0.01f, 0.05f, 0.2f, 1};
    static const float offsets[] = {0, 0, 0, 0, 1e3f, 1e4f, -3e4f, 1e6f};
    *s = (scene){0};
    s->config = mf_config_default();
    s->config.margin = pick(in, margins, 8, 1.0f / 256);
    s->config.linear_slop = pick(in, slops, 8, 1.0f / 1024);
    uint8_t contacts = fuzz_u8(in);
    s->config.max_contacts = contacts < 240 ? 1u + contacts % MF_MAX_CONTACTS : contacts % 12u;
    uint8_t isa = fuzz_u8(in);
    if (isa < 240) {
        mf_isa supported[8];
        int count = 0;
        for (int i = MF_ISA_AUTO; i <= MF_ISA_NEON; ++i)
            if (mf_isa_supported((mf_isa)i)) supported[count++] = (mf_isa)i;
        FUZZ_REQUIRE(count >= 2, "only %d ISAs supported (auto and scalar are always)", count);
        s->config.isa = supported[isa % count];
    } else {
        s->config.isa = (mf_isa)(isa % 8); // unsupported here, or no ISA at all
    }
    // Mostly one thread: a context with workers costs thread starts on every input.
    uint8_t threads = fuzz_u8(in);
    s->config.threads = threads < 192 ? 1 : threads < 240 ? 2 : threads < 250 ? 0 : 8;
    float offset = offsets[fuzz_u8(in) % 8];

    s->body_count = 2 + fuzz_u8(in) % (MAX_BODIES - 1);
    for (uint32_t i = 0; i < s->body_count; ++i) {
        uint8_t shape = fuzz_u8(in);
        s->shape[i] = shape == 255 ? shape_count : shape % shape_count;
        mf_vec3 p = read_position(in);
        s->transform[i].p = (mf_vec3){p.x + offset, p.y + offset, p.z + offset};
        s->transform[i].q = read_rotation(in);
    }
    s->pair_count = fuzz_u8(in) % (MAX_PAIRS + 1);
    for (uint32_t i = 0; i < s->pair_count; ++i) {
        uint8_t kind = fuzz_u8(in);
        uint32_t a = fuzz_u8(in) % s->body_count, b = (a + 1 + fuzz_u8(in) % (s->body_count - 1)) % s->body_count;
        if (kind >= 248 && kind < 252) b = a;
        if (kind >= 252) b = kind == 255 ? UINT32_MAX : s->body_count + (kind & 1u);
        s->pairs[i] = (mf_pair){a, b};
    }
    uint32_t bound_manifolds, bound_contacts;
    mf_stream_bound(s->pair_count, s->config.max_contacts, &bound_manifolds, &bound_contacts);
    s->manifold_capacity = bound_manifolds;
    s->contact_capacity = bound_contacts;
    if (fuzz_u8(in) >= 128) {
        s->manifold_capacity = fuzz_u8(in) % (bound_manifolds + 1);
        s->contact_capacity = fuzz_u8(in) % (bound_contacts + 1);
    }
    // Inputs that end before here (the corpus before scales) take none.
    static const float scales[] = {1, 0.5f, 2, 0.25f, 3.7f, 0.01f, 100, 1e-3f};
    s->scaled = fuzz_u8(in) >= 128;
    for (uint32_t i = 0; s->scaled && i < s->body_count; ++i) {
        uint8_t k = fuzz_u8(in);
        s->scales[i] = k < 240   ? scales[k % 8]
                       : k < 248 ? fuzz_raw_float(in)
                       : k < 252 ? 0.0f
                       : k < 254 ? 1e30f
                                 : -1.0f;
    }
}

// What mf_context_create must return: -1 where the contract does not decide.
static int expected_config_status(const mf_config *c)
{
    if (!isfinite(c->margin) || !isfinite(c->linear_slop)) return MF_ERR_NONFINITE;
    if (c->margin < 0.0f || c->linear_slop < 0.0f || c->margin > MF_MAX_LENGTH || c->linear_slop > MF_MAX_LENGTH ||
        c->max_contacts < 1 || c->max_contacts > MF_MAX_CONTACTS || (unsigned)c->isa > MF_ISA_NEON)
        return MF_ERR_INVALID_ARGUMENT;
    if (!mf_isa_supported(c->isa)) return MF_ERR_UNSUPPORTED_ISA;
    return MF_OK;
}

// The status one body of a pair calls for.
static int expected_body_status(const scene *s, uint32_t body)
{
    if (body >= s->body_count || s->shape[body] >= shape_count) return MF_ERR_INVALID_ARGUMENT;
    if (s->scaled) { // finite, > 0 and within the shape's range (mf_shape_info)
        float scale = s->scales[body];
        mf_shape_info info;
        FUZZ_REQUIRE(mf_bank_shape_info(bank, s->shape[body], &info) == MF_OK, "shape %u info", s->shape[body]);
        if (!isfinite(scale)) return MF_ERR_NONFINITE;
        if (!(scale >= info.min_scale && scale <= info.max_scale)) return MF_ERR_INVALID_ARGUMENT;
    }
    const mf_transform *t = &s->transform[body];
    if (!fuzz_finite3(t->p) || !isfinite(t->q.x) || !isfinite(t->q.y) || !isfinite(t->q.z) || !isfinite(t->q.w))
        return MF_ERR_NONFINITE;
    if (t->q.x == 0.0f && t->q.y == 0.0f && t->q.z == 0.0f && t->q.w == 0.0f) return MF_ERR_INVALID_ARGUMENT;
    return MF_OK; // any other finite quaternion is normalised, however long or short
}

// The first bad pair decides the status: the pair itself (a == b), then body a, then body b.
static int expected_collide_status(const scene *s)
{
    for (uint32_t i = 0; i < s->pair_count; ++i) {
        if (s->pairs[i].a == s->pairs[i].b) return MF_ERR_INVALID_ARGUMENT;
        int status = expected_body_status(s, s->pairs[i].a);
        if (status == MF_OK) status = expected_body_status(s, s->pairs[i].b);
        if (status != MF_OK) return status;
    }
    return MF_OK;
}

static mf_manifold manifolds[3][MAX_PAIRS];
static mf_contact contacts[3][MAX_PAIRS * MF_MAX_CONTACTS];

static mf_stream stream_of(int which, uint32_t manifold_capacity, uint32_t contact_capacity)
{
    // Poison the arrays: nothing the kernel leaves unwritten may pass for output.
    memset(manifolds[which], 0xa5, sizeof(manifolds[which]));
    memset(contacts[which], 0xa5, sizeof(contacts[which]));
    return (mf_stream){
        manifolds[which], manifold_capacity, 12345, contacts[which], contact_capacity, 678, 9, NULL, 0, 0};
}

// docs/testing.md, Correctness: every ISA gives the scalar path's bytes.
// MF_FUZZ_ISA_AGREEMENT=0 in the environment turns this check off.
static void check_isa_agreement(const scene *s, mf_isa isa, const mf_bodies *bodies, const mf_stream *wide)
{
    const char *enabled = getenv("MF_FUZZ_ISA_AGREEMENT");
    if ((enabled != NULL && enabled[0] == '0') || isa == MF_ISA_SCALAR) return;
    mf_config config = s->config;
    config.isa = MF_ISA_SCALAR;
    config.threads = 1;
    mf_context *context;
    FUZZ_REQUIRE(mf_context_create(&config, &context) == MF_OK, "scalar context");
    uint32_t bound_manifolds, bound_contacts;
    mf_stream_bound(s->pair_count, config.max_contacts, &bound_manifolds, &bound_contacts);
    mf_stream scalar = stream_of(2, bound_manifolds, bound_contacts);
    FUZZ_REQUIRE(mf_collide(context, bank, bodies, s->pairs, s->pair_count, &scalar) == MF_OK, "scalar collide");
    FUZZ_REQUIRE(scalar.manifold_count == wide->manifold_count, "scalar: %u manifolds, %s: %u", scalar.manifold_count,
                 mf_isa_name(isa), wide->manifold_count);
    FUZZ_REQUIRE(scalar.contact_count == wide->contact_count, "scalar: %u contacts, %s: %u", scalar.contact_count,
                 mf_isa_name(isa), wide->contact_count);
    for (uint32_t m = 0; m < scalar.manifold_count; ++m) {
        const mf_manifold *x = &scalar.manifolds[m], *y = &wide->manifolds[m];
        FUZZ_REQUIRE(
            memcmp(x, y, sizeof(*x)) == 0,
            "manifold %u: scalar pair %u (%u contacts, normal %.9g %.9g %.9g), %s pair %u (%u, %.9g %.9g %.9g)", m,
            x->pair, x->count, x->normal.x, x->normal.y, x->normal.z, mf_isa_name(isa), y->pair, y->count, y->normal.x,
            y->normal.y, y->normal.z);
        for (uint32_t k = 0; k < x->count; ++k) {
            const mf_contact *c = &scalar.contacts[x->first + k], *d = &wide->contacts[y->first + k];
            FUZZ_REQUIRE(memcmp(c, d, sizeof(*c)) == 0,
                         "pair %u contact %u: scalar %08x (%.9g %.9g %.9g | %.9g), %s %08x (%.9g %.9g %.9g | %.9g)",
                         x->pair, k, c->id, c->point.x, c->point.y, c->point.z, c->separation, mf_isa_name(isa), d->id,
                         d->point.x, d->point.y, d->point.z, d->separation);
        }
    }
    mf_context_destroy(context);
}

static void check_message(const mf_context *context, mf_status status)
{
    const char *message = mf_context_message(context);
    FUZZ_REQUIRE(message != NULL, "NULL message");
    if (status == MF_OK) FUZZ_REQUIRE(message[0] == '\0', "MF_OK but the message says \"%s\"", message);
    else FUZZ_REQUIRE(message[0] != '\0', "%s without a message", mf_status_string(status));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (bank == NULL) make_bank();
    fuzz_bytes in = {data, size, 0};
    scene s;
    read_scene(&in, &s);

    mf_context *context = NULL;
    mf_status status = mf_context_create(&s.config, &context);
    FUZZ_REQUIRE(fuzz_is_status(status), "mf_context_create: status %d", (int)status);
    int expected = expected_config_status(&s.config);
    FUZZ_REQUIRE((int)status == expected, "mf_context_create: %s, expected %s (margin %g slop %g max %u isa %d)",
                 mf_status_string(status), mf_status_string((mf_status)expected), (double)s.config.margin,
                 (double)s.config.linear_slop, s.config.max_contacts, (int)s.config.isa);
    if (status != MF_OK) {
        FUZZ_REQUIRE(context == NULL, "a failed mf_context_create left a context");
        return 0;
    }
    FUZZ_REQUIRE(context != NULL && mf_context_isa(context) != MF_ISA_AUTO, "context");
    const mf_isa isa = mf_context_isa(context);

    mf_bodies bodies = {
        .shape = s.shape, .transform = s.transform, .count = s.body_count, .scales = s.scaled ? s.scales : NULL};
    const uint32_t max_contacts = s.config.max_contacts;
    uint32_t bound_manifolds, bound_contacts;
    mf_stream_bound(s.pair_count, max_contacts, &bound_manifolds, &bound_contacts);

    // The first call, with the fuzzed capacity.
    mf_stream first = stream_of(0, s.manifold_capacity, s.contact_capacity);
    status = mf_collide(context, bank, &bodies, s.pairs, s.pair_count, &first);
    fuzz_check_stream(&first, status, s.pair_count, max_contacts);
    check_message(context, status);
    expected = expected_collide_status(&s);
    if (expected == MF_OK)
        FUZZ_REQUIRE(status == MF_OK || status == MF_ERR_CAPACITY, "valid input refused: %s (%s)",
                     mf_status_string(status), mf_context_message(context));
    else if (expected > 0)
        FUZZ_REQUIRE((int)status == expected, "%s (%s), expected %s", mf_status_string(status),
                     mf_context_message(context), mf_status_string((mf_status)expected));
    if (status == MF_ERR_CAPACITY)
        FUZZ_REQUIRE(s.manifold_capacity < bound_manifolds || s.contact_capacity < bound_contacts,
                     "MF_ERR_CAPACITY from a stream as large as mf_stream_bound");

    // The whole output, from a stream that cannot fill (the context now has a history).
    mf_stream whole = stream_of(1, bound_manifolds, bound_contacts);
    mf_status whole_status = mf_collide(context, bank, &bodies, s.pairs, s.pair_count, &whole);
    fuzz_check_stream(&whole, whole_status, s.pair_count, max_contacts);
    if (status != MF_OK && status != MF_ERR_CAPACITY) {
        FUZZ_REQUIRE(whole_status == status, "the same bad input gave %s, then %s", mf_status_string(status),
                     mf_status_string(whole_status));
        mf_context_destroy(context);
        return 0;
    }
    FUZZ_REQUIRE(whole_status == MF_OK, "a bound-sized stream gave %s (%s)", mf_status_string(whole_status),
                 mf_context_message(context));

    // The first call's output is the prefix of the whole; resuming at pairs_done rebuilds the rest.
    uint32_t cursor = 0, offset = 0;
    mf_stream part = first;
    mf_status part_status = status;
    for (;;) {
        fuzz_check_part(&whole, &cursor, &part, offset);
        if (part_status == MF_OK) {
            FUZZ_REQUIRE(cursor == whole.manifold_count, "the parts hold %u of %u manifolds", cursor,
                         whole.manifold_count);
            break;
        }
        // The stream filled: the next pair's manifold is larger than the room left.
        uint32_t next = offset + part.pairs_done;
        FUZZ_REQUIRE(cursor < whole.manifold_count && whole.manifolds[cursor].pair == next,
                     "MF_ERR_CAPACITY at pair %u, which has no manifold", next);
        FUZZ_REQUIRE(part.manifold_count == part.manifold_capacity ||
                         whole.manifolds[cursor].count > part.contact_capacity - part.contact_count,
                     "pair %u (%u contacts) fits the room left: %u of %u manifolds, %u of %u contacts used", next,
                     whole.manifolds[cursor].count, part.manifold_count, part.manifold_capacity, part.contact_count,
                     part.contact_capacity);
        if (part.pairs_done == 0) break; // it never fits: resuming would not progress
        offset += part.pairs_done;
        part = stream_of(2, s.manifold_capacity, s.contact_capacity);
        part_status = mf_collide(context, bank, &bodies, s.pairs + offset, s.pair_count - offset, &part);
        fuzz_check_stream(&part, part_status, s.pair_count - offset, max_contacts);
        FUZZ_REQUIRE(part_status == MF_OK || part_status == MF_ERR_CAPACITY, "resuming at pair %u: %s", offset,
                     mf_status_string(part_status));
    }

    // No history and another thread count: a fresh context gives the same output.
    mf_context_destroy(context);
    mf_config other = s.config;
    other.threads = s.config.threads == 1 ? 2 : 1;
    FUZZ_REQUIRE(mf_context_create(&other, &context) == MF_OK, "second context");
    mf_stream again = stream_of(2, bound_manifolds, bound_contacts);
    status = mf_collide(context, bank, &bodies, s.pairs, s.pair_count, &again);
    fuzz_check_stream(&again, status, s.pair_count, max_contacts);
    FUZZ_REQUIRE(status == MF_OK, "a fresh context: %s", mf_status_string(status));
    cursor = 0;
    fuzz_check_part(&whole, &cursor, &again, 0);
    FUZZ_REQUIRE(again.manifold_count == whole.manifold_count && again.contact_count == whole.contact_count,
                 "a fresh context on %u threads gave %u manifolds, the used one on %u threads %u",
                 mf_context_threads(context), again.manifold_count, s.config.threads, whole.manifold_count);
    mf_context_destroy(context);
    check_isa_agreement(&s, isa, &bodies, &whole);
    return 0;
}

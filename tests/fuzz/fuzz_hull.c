// Fuzz harness: mf_bank_add_hull on arbitrary point sets, then the hull it built in a few
// collisions.
//
// Input layout: a mode byte, a scale byte, then points until the bytes run out:
//   mode 0  raw floats, 12 bytes a point: NaN, Inf, 3e38, denormals, anything
//   mode 1  a grid: 3 signed bytes a point times the scale (duplicates, coplanar and collinear sets)
//   mode 2  the grid plus a jitter of a millionth of the scale (near-duplicates, near-coplanar)
//   mode 3  16-bit coordinates times the scale
//   mode 4  a plane: x and z on the grid, y a byte times the scale times 2^-(next byte % 48)
// The scale is a power of two from 2^-40 to 2^30, so tiny and huge hulls both come up.
//
// Checked: the status is the one the input calls for where it decides (a non-finite or too-large
// coordinate, fewer than four points); a failed add leaves the bank unchanged; a built hull is a
// closed convex polyhedron (Euler, unit normals, planar faces, every vertex and every input point
// under every face plane) within the documented limits; colliding it with a box and with itself
// gives a well-formed stream (fuzz_check_stream).
#include "fuzz_util.h"

enum { MAX_POINTS = 8192 };

static mf_vec3 points[MAX_POINTS];

static uint32_t read_points(fuzz_bytes *in)
{
    uint8_t mode = fuzz_u8(in) % 5;
    float scale = ldexpf(1.0f, (int)(fuzz_u8(in) % 71) - 40);
    uint32_t count = 0;
    while (fuzz_left(in) > 0 && count < MAX_POINTS) {
        float c[3];
        if (mode == 0) {
            for (int k = 0; k < 3; ++k) c[k] = fuzz_raw_float(in);
        } else if (mode == 1) {
            for (int k = 0; k < 3; ++k) c[k] = (float)fuzz_i8(in) * scale;
        } else if (mode == 2) {
            for (int k = 0; k < 3; ++k) c[k] = (float)fuzz_i8(in) * scale;
            for (int k = 0; k < 3; ++k) c[k] += (float)fuzz_i8(in) * scale * 1e-6f;
        } else if (mode == 3) {
            for (int k = 0; k < 3; ++k) c[k] = (float)(int16_t)fuzz_u16(in) * scale;
        } else {
            c[0] = (float)fuzz_i8(in) * scale;
            c[2] = (float)fuzz_i8(in) * scale;
            int8_t height = fuzz_i8(in);
            c[1] = ldexpf((float)height * scale, -(int)(fuzz_u8(in) % 48));
        }
        points[count++] = (mf_vec3){c[0], c[1], c[2]};
    }
    return count;
}

// The status the contract calls for, or -1 where the input does not decide it (the builder's
// own judgement of degenerate input).
static int expected_status(uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) {
        mf_vec3 p = points[i];
        if (!fuzz_finite3(p)) return MF_ERR_NONFINITE;
        if (fabsf(p.x) > 1e7f || fabsf(p.y) > 1e7f || fabsf(p.z) > 1e7f) return MF_ERR_HULL_TOO_LARGE;
    }
    if (count < 4) return MF_ERR_DEGENERATE_HULL;
    return -1;
}

static double dot(mf_vec3 a, mf_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }

static mf_vec3 vertices[MF_MAX_HULL_VERTICES];
static mf_vec3 normals[MF_MAX_HULL_FACES];
static float offsets[MF_MAX_HULL_FACES];

// A closed convex polyhedron within the limits, holding every input point.
static void check_hull(const mf_bank *bank, uint32_t shape, uint32_t count)
{
    mf_shape_info info;
    FUZZ_REQUIRE(mf_bank_shape_info(bank, shape, &info) == MF_OK, "shape info");
    uint32_t v_count = info.vertex_count, f_count = info.face_count, e_count = info.edge_count;
    FUZZ_REQUIRE(v_count >= 4 && v_count <= MF_MAX_HULL_VERTICES && f_count >= 4 && f_count <= MF_MAX_HULL_FACES,
                 "%u vertices, %u faces", v_count, f_count);
    FUZZ_REQUIRE(v_count + f_count == e_count + 2, "Euler: %u vertices - %u edges + %u faces != 2", v_count, e_count,
                 f_count);
    FUZZ_REQUIRE(info.input_points == count, "input_points %u, given %u", info.input_points, count);
    FUZZ_REQUIRE(info.welded_points < count && v_count <= count - info.welded_points, "%u welded of %u, %u vertices",
                 info.welded_points, count, v_count);
    FUZZ_REQUIRE(isfinite(info.volume) && info.volume > 0.0f && isfinite(info.radius) && info.radius > 0.0f &&
                     fuzz_finite3(info.centroid),
                 "volume %g radius %g", (double)info.volume, (double)info.radius);
    FUZZ_REQUIRE(mf_bank_shape_vertices(bank, shape, vertices, MF_MAX_HULL_VERTICES) == MF_OK, "vertices");

    // Tolerances relative to the hull's size: welding and facet merging work at 1e-5 of the radius,
    // the bank accepts faces planar to 1e-3 of it, and the float coordinates are only so exact.
    double size = 0.0;
    for (uint32_t i = 0; i < v_count; ++i) {
        FUZZ_REQUIRE(fuzz_finite3(vertices[i]), "vertex %u", i);
        size = fmax(size, sqrt(dot(vertices[i], vertices[i])));
    }
    FUZZ_REQUIRE(fabs(size - info.radius) <= 1e-5 * size, "radius %.9g, farthest vertex %.9g", (double)info.radius,
                 size);
    double tolerance = 2e-3 * size;

    uint32_t loop[MF_MAX_FACE_VERTICES], corners = 0;
    for (uint32_t f = 0; f < f_count; ++f) {
        uint32_t n = 0;
        FUZZ_REQUIRE(mf_bank_shape_face(bank, shape, f, &normals[f], &offsets[f], loop, MF_MAX_FACE_VERTICES, &n) ==
                         MF_OK,
                     "face %u", f);
        FUZZ_REQUIRE(n >= 3 && n <= MF_MAX_FACE_VERTICES, "face %u has %u vertices", f, n);
        corners += n;
        double length = sqrt(dot(normals[f], normals[f]));
        FUZZ_REQUIRE(fuzz_finite3(normals[f]) && fabs(length - 1.0) < 1e-3 && isfinite(offsets[f]),
                     "face %u: normal length %.9g, offset %g", f, length, (double)offsets[f]);
        for (uint32_t k = 0; k < n; ++k) {
            FUZZ_REQUIRE(loop[k] < v_count, "face %u names vertex %u of %u", f, loop[k], v_count);
            double off = dot(normals[f], vertices[loop[k]]) - offsets[f];
            FUZZ_REQUIRE(fabs(off) <= tolerance, "face %u: its vertex %u lies %.3g off its plane (size %.3g)", f,
                         loop[k], off, size);
        }
        for (uint32_t i = 0; i < v_count; ++i) {
            double above = dot(normals[f], vertices[i]) - offsets[f];
            FUZZ_REQUIRE(above <= tolerance, "vertex %u lies %.3g above face %u (size %.3g)", i, above, f, size);
        }
    }
    FUZZ_REQUIRE(corners == 2 * e_count, "face loops have %u corners for %u edges", corners, e_count);
    for (uint32_t e = 0; e < e_count; ++e) {
        mf_edge_info edge;
        FUZZ_REQUIRE(mf_bank_shape_edge(bank, shape, e, &edge) == MF_OK, "edge %u", e);
        FUZZ_REQUIRE(edge.vertex0 < v_count && edge.vertex1 < v_count && edge.vertex0 != edge.vertex1 &&
                         edge.face0 < f_count && edge.face1 < f_count && edge.face0 != edge.face1,
                     "edge %u: vertices %u %u faces %u %u", e, edge.vertex0, edge.vertex1, edge.face0, edge.face1);
    }
    // Every input point is inside (the hull is of the points, in their own frame).
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t f = 0; f < f_count; ++f) {
            double above = dot(normals[f], points[i]) - offsets[f];
            FUZZ_REQUIRE(above <= tolerance, "input point %u (%g %g %g) lies %.3g above face %u (size %.3g)", i,
                         (double)points[i].x, (double)points[i].y, (double)points[i].z, above, f, size);
        }
}

// The hull against a box sized to it and against itself, touching, overlapping and apart.
static void collide_hull(mf_bank *bank, uint32_t hull)
{
    mf_shape_info info;
    FUZZ_REQUIRE(mf_bank_shape_info(bank, hull, &info) == MF_OK, "shape info");
    float r = info.radius;
    uint32_t box;
    float half = fminf(r, MF_MAX_LENGTH); // a hull's radius may reach sqrt(3) MF_MAX_LENGTH, a box's not
    FUZZ_REQUIRE(mf_bank_add_box(bank, (mf_vec3){half, 0.5f * half, half}, &box) == MF_OK, "box of size %g",
                 (double)half);
    mf_vec3 c = info.centroid;
    enum { BODIES = 5, PAIRS = 8 };
    uint32_t shapes[BODIES] = {hull, box, hull, box, hull};
    mf_transform transforms[BODIES] = {
        {{0, 0, 0}, {0, 0, 0, 1}},
        {{c.x, c.y + 1.2f * r, c.z}, {0, 0, 0, 1}},
        {{c.x + 0.5f * r, c.y + 0.25f * r, c.z}, {0.2f, 0.3f, -0.1f, 0.9f}},
        {{c.x, c.y - 1.3f * r, c.z + 0.1f * r}, {0.38268343f, 0, 0, 0.92387953f}},
        {{0, 0, 0}, {0, 0, 0, 1}}, // the hull on itself
    };
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = BODIES};
    mf_pair pairs[PAIRS] = {{0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 3}, {3, 2}, {0, 4}, {4, 1}};
    mf_config config = mf_config_default();
    config.margin = 0.05f * r;
    config.max_contacts = MF_MAX_CONTACTS;
    mf_context *context;
    FUZZ_REQUIRE(mf_context_create(&config, &context) == MF_OK, "context");
    static mf_manifold manifolds[PAIRS];
    static mf_contact contacts[PAIRS * MF_MAX_CONTACTS];
    mf_stream stream = {manifolds, PAIRS, 0, contacts, PAIRS * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    mf_status status = mf_collide(context, bank, &bodies, pairs, PAIRS, &stream);
    FUZZ_REQUIRE(status == MF_OK, "collide: %s (%s)", mf_status_string(status), mf_context_message(context));
    fuzz_check_stream(&stream, status, PAIRS, MF_MAX_CONTACTS);
    // The hull on itself at the same place overlaps by its whole width: it has a manifold.
    int self = 0;
    for (uint32_t m = 0; m < stream.manifold_count; ++m) self |= manifolds[m].pair == 6;
    FUZZ_REQUIRE(self, "the hull on itself got no manifold");
    mf_context_destroy(context);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_bytes in = {data, size, 0};
    uint32_t count = read_points(&in);
    mf_bank *bank;
    FUZZ_REQUIRE(mf_bank_create(&bank) == MF_OK, "bank");
    uint32_t shape = UINT32_MAX;
    mf_status status = mf_bank_add_hull(bank, points, count, &shape);
    FUZZ_REQUIRE(fuzz_is_status(status), "status %d", (int)status);
    int expected = expected_status(count);
    if (expected >= 0)
        FUZZ_REQUIRE((int)status == expected, "%s for %u points, expected %s", mf_status_string(status), count,
                     mf_status_string((mf_status)expected));
    else
        FUZZ_REQUIRE(status == MF_OK || status == MF_ERR_DEGENERATE_HULL || status == MF_ERR_HULL_TOO_LARGE,
                     "%s for %u finite points", mf_status_string(status), count);
    if (status != MF_OK) {
        FUZZ_REQUIRE(mf_bank_shape_count(bank) == 0, "a failed add left %u shapes", mf_bank_shape_count(bank));
    } else {
        FUZZ_REQUIRE(shape == 0 && mf_bank_shape_count(bank) == 1, "shape id %u, %u shapes", shape,
                     mf_bank_shape_count(bank));
        check_hull(bank, shape, count);
        // The same points again: the same hull, the next id.
        uint32_t again;
        FUZZ_REQUIRE(mf_bank_add_hull(bank, points, count, &again) == MF_OK && again == 1, "the same points again");
        mf_shape_info first, second;
        mf_bank_shape_info(bank, shape, &first);
        mf_bank_shape_info(bank, again, &second);
        FUZZ_REQUIRE(memcmp(&first, &second, sizeof(first)) == 0, "the same points gave a different hull");
        collide_hull(bank, shape);
    }
    mf_bank_destroy(bank);
    return 0;
}

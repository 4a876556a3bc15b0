// Bad input: every refused argument with the status the header promises, and on every mf_collide
// error but MF_ERR_CAPACITY an empty stream. One behaviour per test.
#include "check.h"
#include "harness.h"
#include "pool.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const mf_vec3 cube_points[8] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                       {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};

// Two boxes and a hull; bodies 0..3 touch in pairs (0, 1) and (2, 3).
typedef struct fixture {
    mf_bank *bank;
    mf_context *context;
    uint32_t shapes[4];
    mf_transform transforms[4];
    mf_bodies bodies;
    mf_pair pairs[2];
    mf_manifold manifolds[2];
    mf_contact contacts[2 * MF_MAX_CONTACTS];
    mf_stream stream;
} fixture;

static void fixture_make(fixture *f)
{
    memset(f, 0, sizeof(*f));
    CHECK_EQ(mf_bank_create(&f->bank), MF_OK);
    uint32_t box, hull;
    CHECK_EQ(mf_bank_add_box(f->bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &box), MF_OK);
    CHECK_EQ(mf_bank_add_hull(f->bank, cube_points, 8, &hull), MF_OK);
    CHECK_EQ(mf_context_create(NULL, &f->context), MF_OK);
    uint32_t shapes[4] = {box, box, hull, box};
    memcpy(f->shapes, shapes, sizeof(shapes));
    f->transforms[0] = test_pose(0, 0, 0, TEST_IDENTITY);
    f->transforms[1] = test_pose(0, 0.99, 0, TEST_IDENTITY);
    f->transforms[2] = test_pose(5, 0, 0, TEST_IDENTITY);
    f->transforms[3] = test_pose(5, 1.49, 0, TEST_IDENTITY);
    f->bodies = (mf_bodies){.shape = f->shapes, .transform = f->transforms, .count = 4};
    f->pairs[0] = (mf_pair){0, 1};
    f->pairs[1] = (mf_pair){2, 3};
    f->stream = (mf_stream){f->manifolds, 2, 0, f->contacts, 2 * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
}

static void fixture_free(fixture *f)
{
    mf_context_destroy(f->context);
    mf_bank_destroy(f->bank);
}

// Runs mf_collide on the fixture (as modified by the caller) with a stream holding stale counts,
// and checks the status and that the stream was left empty.
static void expect_collide(fixture *f, mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                           const mf_pair *pairs, uint32_t pair_count, mf_stream *stream, mf_status expected,
                           const char *what)
{
    if (stream != NULL) {
        stream->manifold_count = 77;
        stream->contact_count = 77;
        stream->pairs_done = 77;
    }
    mf_status status = mf_collide(context, bank, bodies, pairs, pair_count, stream);
    CHECKF(status == expected, "%s: got %d (%s), expected %d", what, status, mf_status_string(status), expected);
    if (stream != NULL) {
        CHECKF(stream->manifold_count == 0 && stream->contact_count == 0 && stream->pairs_done == 0,
               "%s: the stream holds %u manifolds, %u contacts, pairs_done %u after an error", what,
               stream->manifold_count, stream->contact_count, stream->pairs_done);
    }
    if (context != NULL && status != MF_OK)
        CHECKF(strlen(mf_context_message(context)) > 0, "%s: no message for the failure", what);
    (void)f;
}

static void fixture_is_valid(void)
{
    // The fixture itself collides fine: the failures below come from the one thing each changes.
    fixture f;
    fixture_make(&f);
    CHECK_EQ(mf_collide(f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream), MF_OK);
    CHECK_EQ(f.stream.manifold_count, 2);
    fixture_free(&f);
}

static void bank_refuses_null_pointers(void)
{
    CHECK_EQ(mf_bank_create(NULL), MF_ERR_INVALID_ARGUMENT);
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shape;
    CHECK_EQ(mf_bank_add_box(NULL, (mf_vec3){1, 1, 1}, &shape), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_add_hull(NULL, cube_points, 8, &shape), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_add_hull(bank, NULL, 8, &shape), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_add_hull(bank, cube_points, 8, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_count(bank), 0);
    CHECK_EQ(mf_bank_shape_count(NULL), 0);

    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &shape), MF_OK);
    mf_shape_info info;
    mf_vec3 vertices[8], normal;
    uint32_t loop[8], count;
    float offset;
    mf_edge_info edge;
    CHECK_EQ(mf_bank_shape_info(NULL, shape, &info), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_info(bank, shape, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_vertices(NULL, shape, vertices, 8), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_vertices(bank, shape, NULL, 8), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_face(NULL, shape, 0, &normal, &offset, loop, 8, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_face(bank, shape, 0, &normal, &offset, NULL, 8, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_edge(NULL, shape, 0, &edge), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_edge(bank, shape, 0, NULL), MF_ERR_INVALID_ARGUMENT);
    mf_shape_geometry geometry = {0};
    CHECK_EQ(mf_bank_shape_geometry(NULL, shape, &geometry), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_geometry(bank, shape, NULL), MF_ERR_INVALID_ARGUMENT);
    mf_mass mass;
    CHECK_EQ(mf_bank_shape_mass(NULL, shape, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_mass(bank, shape, 1.0f, NULL), MF_ERR_INVALID_ARGUMENT);
    mf_bank_destroy(bank);
    mf_bank_destroy(NULL);
}

static void shape_queries_refuse_out_of_range_indices(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shape;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &shape), MF_OK);
    mf_shape_info info;
    mf_vec3 vertices[8], normal;
    uint32_t loop[8], count;
    float offset;
    mf_edge_info edge;
    CHECK_EQ(mf_bank_shape_info(bank, shape + 1, &info), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_info(bank, UINT32_MAX, &info), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_vertices(bank, shape + 1, vertices, 8), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_face(bank, shape + 1, 0, &normal, &offset, loop, 8, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_face(bank, shape, 6, &normal, &offset, loop, 8, &count), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_edge(bank, shape + 1, 0, &edge), MF_ERR_INVALID_ARGUMENT);
    CHECK_EQ(mf_bank_shape_edge(bank, shape, 12, &edge), MF_ERR_INVALID_ARGUMENT);
    mf_shape_geometry geometry = {0};
    CHECK_EQ(mf_bank_shape_geometry(bank, shape + 1, &geometry), MF_ERR_INVALID_ARGUMENT);
    mf_mass mass;
    CHECK_EQ(mf_bank_shape_mass(bank, shape + 1, 1.0f, &mass), MF_ERR_INVALID_ARGUMENT);
    mf_bank_destroy(bank);
}

static void nonfinite_points_and_half_extents_are_refused(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    uint32_t shape;
    for (int b = 0; b < 3; ++b) {
        for (int axis = 0; axis < 3; ++axis) {
            mf_vec3 points[8];
            memcpy(points, cube_points, sizeof(points));
            float *coordinate = axis == 0 ? &points[5].x : axis == 1 ? &points[5].y : &points[5].z;
            *coordinate = bad[b];
            CHECKF(mf_bank_add_hull(bank, points, 8, &shape) == MF_ERR_NONFINITE, "point coordinate %d = %g", axis,
                   (double)bad[b]);
            mf_vec3 half = {1, 1, 1};
            coordinate = axis == 0 ? &half.x : axis == 1 ? &half.y : &half.z;
            *coordinate = bad[b];
            CHECKF(mf_bank_add_box(bank, half, &shape) == MF_ERR_NONFINITE, "half extent %d = %g", axis,
                   (double)bad[b]);
        }
    }
    CHECK_EQ(mf_bank_shape_count(bank), 0);
    mf_bank_destroy(bank);
}

static void degenerate_hulls_are_refused(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shape;
    mf_vec3 points[64];
    for (uint32_t n = 0; n < 4; ++n)
        CHECKF(mf_bank_add_hull(bank, n ? cube_points : NULL, n, &shape) == MF_ERR_DEGENERATE_HULL, "%u points", n);
    // Coplanar: a tilted 8 x 8 grid.
    for (int i = 0; i < 64; ++i) {
        float u = (float)(i % 8), v = (float)(i / 8);
        points[i] = (mf_vec3){u + 0.5f * v, 2.0f * u - v, 0.25f * u + 0.75f * v + 1.0f};
    }
    CHECK_EQ(mf_bank_add_hull(bank, points, 64, &shape), MF_ERR_DEGENERATE_HULL);
    // Collinear, with coordinates that floats hold exactly.
    for (int i = 0; i < 64; ++i) points[i] = (mf_vec3){0.125f * i + 1.0f, -0.25f * i, 0.375f * i};
    CHECK_EQ(mf_bank_add_hull(bank, points, 64, &shape), MF_ERR_DEGENERATE_HULL);
    // Coincident.
    for (int i = 0; i < 64; ++i) points[i] = (mf_vec3){1.5f, -2.0f, 3.0f};
    CHECK_EQ(mf_bank_add_hull(bank, points, 64, &shape), MF_ERR_DEGENERATE_HULL);
    // Four corners of a square, each given twice: coincident pairs, still flat.
    for (int i = 0; i < 8; ++i) points[i] = (mf_vec3){(float)(i & 1), (float)((i >> 1) & 1), 2.0f};
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_ERR_DEGENERATE_HULL);
    // Zero and negative half extents.
    const float bad[3] = {0.0f, -0.0f, -1.0f};
    for (int b = 0; b < 3; ++b) {
        for (int axis = 0; axis < 3; ++axis) {
            mf_vec3 half = {1, 1, 1};
            float *coordinate = axis == 0 ? &half.x : axis == 1 ? &half.y : &half.z;
            *coordinate = bad[b];
            CHECKF(mf_bank_add_box(bank, half, &shape) == MF_ERR_DEGENERATE_HULL, "half extent %d = %g", axis,
                   (double)bad[b]);
        }
    }
    CHECK_EQ(mf_bank_shape_count(bank), 0);
    mf_bank_destroy(bank);
}

static void too_large_hulls_are_refused(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t shape;
    enum { MANY = 5000 };
    mf_vec3 *points = malloc(MANY * sizeof(mf_vec3));
    // 5000 points on a sphere are all hull vertices: more than MF_MAX_HULL_VERTICES.
    test_sphere_lattice(MANY, 1.0, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, MANY, &shape), MF_ERR_HULL_TOO_LARGE);
    // 1000 of them fit.
    test_sphere_lattice(1000, 1.0, points);
    CHECK_EQ(mf_bank_add_hull(bank, points, 1000, &shape), MF_OK);
    // A cylinder whose caps have 200 vertices: more than MF_MAX_FACE_VERTICES on one face.
    for (int i = 0; i < 400; ++i) {
        double angle = 2.0 * TEST_PI * (i % 200) / 200.0;
        points[i] = (mf_vec3){(float)cos(angle), i < 200 ? 0.5f : -0.5f, (float)sin(angle)};
    }
    CHECK_EQ(mf_bank_add_hull(bank, points, 400, &shape), MF_ERR_HULL_TOO_LARGE);
    // Lengths beyond MF_MAX_LENGTH, whose products could overflow float: a box and a hull point.
    const float beyond = nextafterf(MF_MAX_LENGTH, INFINITY);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, beyond, 1}, &shape), MF_ERR_HULL_TOO_LARGE);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1e30f, 1e30f, 1e30f}, &shape), MF_ERR_HULL_TOO_LARGE);
    mf_vec3 far_tetrahedron[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, -beyond}};
    CHECK_EQ(mf_bank_add_hull(bank, far_tetrahedron, 4, &shape), MF_ERR_HULL_TOO_LARGE);
    CHECK_EQ(mf_bank_shape_count(bank), 1);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){MF_MAX_LENGTH, 1, MF_MAX_LENGTH}, &shape), MF_OK);
    CHECK_EQ(mf_bank_shape_count(bank), 2);
    free(points);
    mf_bank_destroy(bank);
}

static void failed_adds_leave_the_bank_unchanged(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t first, second, bad = 12345;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 2, 3}, &first), MF_OK);
    mf_vec3 flat[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    CHECK(mf_bank_add_hull(bank, flat, 4, &bad) != MF_OK);
    CHECK(mf_bank_add_box(bank, (mf_vec3){0, 1, 1}, &bad) != MF_OK);
    CHECK_EQ(bad, 12345);
    CHECK_EQ(mf_bank_shape_count(bank), 1);
    CHECK_EQ(mf_bank_add_hull(bank, cube_points, 8, &second), MF_OK);
    CHECK(second != first);
    CHECK_EQ(mf_bank_shape_count(bank), 2);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(bank, first, &info), MF_OK);
    CHECK_NEAR(info.volume, 48.0, 1e-4);
    CHECK_EQ(mf_bank_shape_info(bank, second, &info), MF_OK);
    CHECK_NEAR(info.volume, 8.0, 1e-4);
    mf_bank_destroy(bank);
}

static void invalid_configs_are_refused(void)
{
    struct {
        const char *what;
        mf_config config;
        int nonfinite; // a NaN or infinity: MF_ERR_NONFINITE is as good an answer as INVALID_ARGUMENT
    } cases[16];
    int n = 0;
    mf_config c = mf_config_default();
#define BAD_CONFIG(description, field, value, is_nonfinite)                                                            \
    do {                                                                                                               \
        c = mf_config_default();                                                                                       \
        c.field = value;                                                                                               \
        cases[n].what = description;                                                                                   \
        cases[n].config = c;                                                                                           \
        cases[n++].nonfinite = is_nonfinite;                                                                           \
    } while (0)
    BAD_CONFIG("max_contacts 0", max_contacts, 0, 0);
    BAD_CONFIG("max_contacts 9", max_contacts, MF_MAX_CONTACTS + 1, 0);
    BAD_CONFIG("max_contacts huge", max_contacts, UINT32_MAX, 0);
    BAD_CONFIG("negative margin", margin, -0.01f, 0);
    BAD_CONFIG("NaN margin", margin, NAN, 1);
    BAD_CONFIG("infinite margin", margin, INFINITY, 1);
    BAD_CONFIG("negative linear_slop", linear_slop, -0.001f, 0);
    BAD_CONFIG("NaN linear_slop", linear_slop, NAN, 1);
    BAD_CONFIG("margin beyond MF_MAX_LENGTH", margin, nextafterf(MF_MAX_LENGTH, INFINITY), 0);
    BAD_CONFIG("margin 3e38", margin, 3e38f, 0);
    BAD_CONFIG("linear_slop beyond MF_MAX_LENGTH", linear_slop, nextafterf(MF_MAX_LENGTH, INFINITY), 0);
    BAD_CONFIG("isa past the last", isa, (mf_isa)(MF_ISA_NEON + 1), 0);
    BAD_CONFIG("isa far out", isa, (mf_isa)1000, 0);
#undef BAD_CONFIG
    for (int i = 0; i < n; ++i) {
        mf_context *context = (mf_context *)&c; // must be overwritten with NULL
        mf_status status = mf_context_create(&cases[i].config, &context);
        int accepted = status == MF_ERR_INVALID_ARGUMENT || (cases[i].nonfinite && status == MF_ERR_NONFINITE);
        CHECKF(accepted, "%s: status %d (%s)", cases[i].what, status, mf_status_string(status));
        CHECKF(context == NULL, "%s: the context out-parameter was not cleared", cases[i].what);
        if (status == MF_OK) mf_context_destroy(context);
    }
    CHECK_EQ(mf_context_create(&c, NULL), MF_ERR_INVALID_ARGUMENT);
    mf_context_destroy(NULL);
    // The edges of the valid range are accepted.
    for (uint32_t k = 1; k <= MF_MAX_CONTACTS; ++k) {
        c = mf_config_default();
        c.max_contacts = k;
        c.margin = k == 1 ? 0.0f : 1.0f;
        c.linear_slop = k == 1 ? 0.0f : 0.1f;
        mf_context *context = NULL;
        CHECKF(mf_context_create(&c, &context) == MF_OK, "max_contacts %u", k);
        mf_context_destroy(context);
    }
    c = mf_config_default();
    c.margin = c.linear_slop = MF_MAX_LENGTH;
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(&c, &context), MF_OK);
    mf_context_destroy(context);
}

static void no_finish(void *user_task, void *user_context) { (void)user_task, (void)user_context; }

// mf_config_check: the status mf_context_create gives, and a detail naming the field and value.
static void config_check_names_the_field_and_value(void)
{
    typedef struct config_case {
        const char *field;
        mf_config config;
        mf_status status;
        const char *detail;
    } config_case;
    config_case cases[12];
    int n = 0;
    mf_config c;
#define CHECKED_CONFIG(field_name, change, expected_status, expected_detail)                                           \
    do {                                                                                                               \
        c = mf_config_default();                                                                                       \
        change;                                                                                                        \
        cases[n++] = (config_case){field_name, c, expected_status, expected_detail};                                   \
    } while (0)
    CHECKED_CONFIG("margin", c.margin = NAN, MF_ERR_NONFINITE,
                   "margin is nan: it must be finite, >= 0 and <= MF_MAX_LENGTH (1e+07)");
    CHECKED_CONFIG("margin", c.margin = -0.5f, MF_ERR_INVALID_ARGUMENT,
                   "margin is -0.5: it must be >= 0 and <= MF_MAX_LENGTH (1e+07)");
    CHECKED_CONFIG("linear_slop", c.linear_slop = INFINITY, MF_ERR_NONFINITE,
                   "linear_slop is inf: it must be finite, >= 0 and <= MF_MAX_LENGTH (1e+07)");
    CHECKED_CONFIG("linear_slop", c.linear_slop = 2e7f, MF_ERR_INVALID_ARGUMENT,
                   "linear_slop is 2e+07: it must be >= 0 and <= MF_MAX_LENGTH (1e+07)");
    CHECKED_CONFIG("max_contacts", c.max_contacts = 9, MF_ERR_INVALID_ARGUMENT,
                   "max_contacts is 9: it must be 1..MF_MAX_CONTACTS (8)");
    CHECKED_CONFIG("isa", c.isa = (mf_isa)1000, MF_ERR_INVALID_ARGUMENT,
                   "isa is 1000: it must be a value of mf_isa (MF_ISA_AUTO..MF_ISA_NEON)");
    CHECKED_CONFIG("on_fault", c.on_fault = (mf_fault_mode)7, MF_ERR_INVALID_ARGUMENT,
                   "on_fault is 7: it must be MF_FAULT_STOP or MF_FAULT_SKIP");
    CHECKED_CONFIG("finish_task", c.finish_task = no_finish, MF_ERR_INVALID_ARGUMENT,
                   "finish_task is set but enqueue_task is NULL: give both or neither");
#undef CHECKED_CONFIG
    for (int i = 0; i < n; ++i) {
        char detail[160];
        memset(detail, 'x', sizeof(detail));
        CHECKF(mf_config_check(&cases[i].config, detail, sizeof(detail)) == cases[i].status, "%s", cases[i].field);
        CHECKF(strcmp(detail, cases[i].detail) == 0, "%s: detail \"%s\", expected \"%s\"", cases[i].field, detail,
               cases[i].detail);
        // mf_context_create gives the same status, with no context to ask.
        mf_context *context = NULL;
        CHECK_EQ(mf_context_create(&cases[i].config, &context), cases[i].status);
        // A short buffer gets the detail's start, terminated; none at all is fine.
        char short_detail[8];
        CHECK_EQ(mf_config_check(&cases[i].config, short_detail, sizeof(short_detail)), cases[i].status);
        CHECK(strlen(short_detail) == 7 && strncmp(short_detail, cases[i].detail, 7) == 0);
        CHECK_EQ(mf_config_check(&cases[i].config, NULL, 0), cases[i].status);
    }
    char detail[64] = "stale";
    c = mf_config_default();
    CHECK_EQ(mf_config_check(&c, detail, sizeof(detail)), MF_OK);
    CHECK_EQ(strlen(detail), 0);
    CHECK_EQ(mf_config_check(NULL, detail, sizeof(detail)), MF_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(detail, "config is NULL") == 0);
    for (int isa = MF_ISA_SCALAR; isa <= MF_ISA_NEON; ++isa) {
        if (mf_isa_supported((mf_isa)isa)) continue;
        c.isa = (mf_isa)isa;
        CHECK_EQ(mf_config_check(&c, detail, sizeof(detail)), MF_ERR_UNSUPPORTED_ISA);
        CHECKF(strstr(detail, mf_isa_name((mf_isa)isa)) != NULL, "detail \"%s\"", detail);
    }
}

// mf_bank_message: the detail of the last add if it failed, naming the value at fault.
static void bank_message_names_the_value_at_fault(void)
{
    mf_bank *bank = NULL;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    CHECK_EQ(strlen(mf_bank_message(bank)), 0);
    uint32_t shape = 77;
    struct {
        mf_vec3 half;
        mf_status status;
        const char *detail;
    } boxes[] = {
        {{0, 1, 1},
         MF_ERR_DEGENERATE_HULL,
         "half_extents.x is 0: every half extent must be > 0 and <= MF_MAX_LENGTH (1e+07)"},
        {{1, -2, 1},
         MF_ERR_DEGENERATE_HULL,
         "half_extents.y is -2: every half extent must be > 0 and <= MF_MAX_LENGTH (1e+07)"},
        {{1, 1, 2e7f},
         MF_ERR_HULL_TOO_LARGE,
         "half_extents.z is 2e+07: every half extent must be > 0 and <= MF_MAX_LENGTH (1e+07)"},
        {{0, NAN, 1},
         MF_ERR_NONFINITE,
         "half_extents.y is nan: every half extent must be > 0 and <= MF_MAX_LENGTH (1e+07)"},
    };
    for (size_t i = 0; i < sizeof(boxes) / sizeof(boxes[0]); ++i) {
        CHECK_EQ(mf_bank_add_box(bank, boxes[i].half, &shape), boxes[i].status);
        CHECKF(strcmp(mf_bank_message(bank), boxes[i].detail) == 0, "box %zu: \"%s\"", i, mf_bank_message(bank));
    }
    // A successful add clears it.
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, &shape), MF_OK);
    CHECK_EQ(strlen(mf_bank_message(bank)), 0);
    mf_vec3 points[8];
    memcpy(points, cube_points, sizeof(points));
    CHECK_EQ(mf_bank_add_hull(bank, points, 3, &shape), MF_ERR_DEGENERATE_HULL);
    CHECK(strcmp(mf_bank_message(bank), "point_count is 3: a hull needs at least 4 points") == 0);
    points[5].z = INFINITY;
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_ERR_NONFINITE);
    CHECK(strcmp(mf_bank_message(bank), "points[5].z is inf: every coordinate must be finite") == 0);
    points[5].z = -3e7f;
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_ERR_HULL_TOO_LARGE);
    CHECK(strcmp(mf_bank_message(bank), "points[5].z is -3e+07: every coordinate must be within MF_MAX_LENGTH (1e+07) "
                                        "of 0") == 0);
    for (int i = 0; i < 8; ++i) points[i].z = 0.0f; // a square, twice over
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_ERR_DEGENERATE_HULL);
    CHECKF(strstr(mf_bank_message(bank), "span no volume") != NULL, "\"%s\"", mf_bank_message(bank));
    for (int i = 0; i < 8; ++i) points[i] = (mf_vec3){1, 2, 3};
    CHECK_EQ(mf_bank_add_hull(bank, points, 8, &shape), MF_ERR_DEGENERATE_HULL);
    CHECKF(strcmp(mf_bank_message(bank), "all 8 points are the same point: they span no volume") == 0, "\"%s\"",
           mf_bank_message(bank));
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){1, 1, 1}, NULL), MF_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(mf_bank_message(bank), "shape is NULL") == 0);
    CHECK_EQ(mf_bank_add_hull(bank, cube_points, 8, &shape), MF_OK);
    CHECK_EQ(strlen(mf_bank_message(bank)), 0);
    CHECK(strcmp(mf_bank_message(NULL), "no bank") == 0);
    mf_bank_destroy(bank);
}

static void unsupported_isa_is_refused(void)
{
    for (int isa = MF_ISA_SCALAR; isa <= MF_ISA_NEON; ++isa) {
        mf_config config = mf_config_default();
        config.isa = (mf_isa)isa;
        mf_context *context = NULL;
        mf_status status = mf_context_create(&config, &context);
        if (mf_isa_supported((mf_isa)isa)) {
            CHECKF(status == MF_OK, "%s is supported but refused: %d", mf_isa_name((mf_isa)isa), status);
            if (status == MF_OK) CHECK_EQ(mf_context_isa(context), isa);
        } else {
            CHECKF(status == MF_ERR_UNSUPPORTED_ISA, "%s is unsupported but got %d", mf_isa_name((mf_isa)isa), status);
            CHECK(context == NULL);
        }
        mf_context_destroy(context);
    }
    CHECK(mf_isa_supported(MF_ISA_SCALAR));
    CHECK(mf_isa_supported(mf_isa_best()));
    CHECK(mf_isa_best() != MF_ISA_AUTO);
    CHECK(strlen(mf_isa_best_reason()) > 0);
    mf_context *context = NULL;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    CHECK_EQ(mf_context_isa(context), mf_isa_best());
    mf_context_destroy(context);
}

static void collide_refuses_null_pointers(void)
{
    fixture f;
    fixture_make(&f);
    expect_collide(&f, NULL, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "NULL context");
    expect_collide(&f, f.context, NULL, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "NULL bank");
    expect_collide(&f, f.context, f.bank, NULL, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "NULL bodies");
    expect_collide(&f, f.context, f.bank, &f.bodies, NULL, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "NULL pairs");
    expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, NULL, MF_ERR_INVALID_ARGUMENT, "NULL stream");

    mf_bodies bodies = f.bodies;
    bodies.shape = NULL;
    expect_collide(&f, f.context, f.bank, &bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "NULL bodies.shape");
    bodies = f.bodies;
    bodies.transform = NULL;
    expect_collide(&f, f.context, f.bank, &bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT,
                   "NULL bodies.transform");

    mf_stream stream = f.stream;
    stream.manifolds = NULL;
    expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &stream, MF_ERR_INVALID_ARGUMENT,
                   "NULL manifolds with capacity");
    stream = f.stream;
    stream.contacts = NULL;
    expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &stream, MF_ERR_INVALID_ARGUMENT,
                   "NULL contacts with capacity");
    // NULL arrays with zero capacity are fine while nothing touches.
    stream = (mf_stream){NULL, 0, 0, NULL, 0, 0, 0, NULL, 0, 0};
    mf_transform far = f.transforms[1];
    f.transforms[1].p.y = 100.0f;
    CHECK_EQ(mf_collide(f.context, f.bank, &f.bodies, f.pairs, 1, &stream), MF_OK);
    f.transforms[1] = far;
    fixture_free(&f);
}

static void nonfinite_transforms_are_refused(void)
{
    fixture f;
    fixture_make(&f);
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int body = 0; body < 4; ++body) {
        for (int component = 0; component < 7; ++component) {
            for (int b = 0; b < 3; ++b) {
                mf_transform saved = f.transforms[body];
                float *fields[7] = {&f.transforms[body].p.x, &f.transforms[body].p.y, &f.transforms[body].p.z,
                                    &f.transforms[body].q.x, &f.transforms[body].q.y, &f.transforms[body].q.z,
                                    &f.transforms[body].q.w};
                *fields[component] = bad[b];
                char what[96];
                snprintf(what, sizeof(what), "body %d transform component %d = %g", body, component, (double)bad[b]);
                expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_NONFINITE, what);
                f.transforms[body] = saved;
            }
        }
    }
    fixture_free(&f);
}

static void zero_quaternion_is_refused(void)
{
    fixture f;
    fixture_make(&f);
    for (int body = 0; body < 4; ++body) {
        mf_transform saved = f.transforms[body];
        f.transforms[body].q = (mf_quat){0, 0, 0, 0};
        expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT,
                       "zero quaternion");
        f.transforms[body].q = (mf_quat){-0.0f, 0, -0.0f, 0};
        expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT,
                       "negative zero quaternion");
        f.transforms[body] = saved;
    }
    fixture_free(&f);
}

static void finite_quaternions_of_any_length_are_normalised(void)
{
    // Only zero and non-finite quaternions are refused: long and short ones are normalised.
    fixture f;
    fixture_make(&f);
    const float lengths[4] = {1e-3f, 0.5f, 1e3f, 1e20f};
    for (int i = 0; i < 4; ++i) {
        for (int body = 0; body < 4; ++body) f.transforms[body].q = (mf_quat){0, 0, 0, lengths[i]};
        mf_status status = mf_collide(f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream);
        CHECKF(status == MF_OK, "quaternion of length %g: %s (%s)", (double)lengths[i], mf_status_string(status),
               mf_context_message(f.context));
        CHECKF(status != MF_OK || (f.stream.manifold_count == 2 && fabsf(f.manifolds[0].normal.y - 1.0f) < 1e-5f),
               "quaternion of length %g", (double)lengths[i]);
    }
    fixture_free(&f);
}

// Bodies parked far away (up to FLT_MAX, where their distance overflows float) touch nothing, on
// every ISA and through the cache; bodies far out but near each other still collide.
static void parked_bodies_touch_nothing(void)
{
    mf_bank *bank;
    CHECK_EQ(mf_bank_create(&bank), MF_OK);
    uint32_t box, hull, thin, huge;
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){0.5f, 0.5f, 0.5f}, &box), MF_OK);
    mf_vec3 sphere[32];
    test_sphere_lattice(32, 0.5, sphere);
    CHECK_EQ(mf_bank_add_hull(bank, sphere, 32, &hull), MF_OK);
    mf_vec3 sliver[8];
    for (int i = 0; i < 8; ++i)
        sliver[i] = (mf_vec3){i & 1 ? 0.5f : -0.5f, i & 2 ? 5e-4f : -5e-4f, i & 4 ? 0.25f : -0.25f};
    CHECK_EQ(mf_bank_add_hull(bank, sliver, 8, &thin), MF_OK);
    CHECK_EQ(mf_bank_add_box(bank, (mf_vec3){MF_MAX_LENGTH, MF_MAX_LENGTH, MF_MAX_LENGTH}, &huge), MF_OK);
    const float far = FLT_MAX;
    // 0-1: a hull parked near FLT_MAX and a tilted sliver (their distance overflows: fuzz_collide
    // found contacts at NaN with separation -inf for it on the scalar path); 2-3: boxes
    // parked at -FLT_MAX and FLT_MAX; 4-5: two boxes far out, overlapping each other; 6-7: the
    // largest boxes, overlapping 2e7 apart, and 8: a box MF_PARKED_DISTANCE above body 1.
    uint32_t shapes[9] = {hull, thin, box, box, box, box, huge, huge, box};
    const mf_quat quarter_turn = {-0.70710677f, 0, 0, -0.70710677f}, edge_up = {0.27f, 0.65f, 0.27f, 0.65f};
    mf_transform transforms[9] = {test_pose(3.39615136e38, 3.39615136e38, 3.39615136e38, quarter_turn),
                                  test_pose(1.83, 0.5, 1.55, edge_up),
                                  test_pose(-far, 0, 0, TEST_IDENTITY),
                                  test_pose(far, 0, 0, TEST_IDENTITY),
                                  test_pose(3e38, 0, 0, TEST_IDENTITY),
                                  test_pose(3e38, 0.9, 0, TEST_IDENTITY),
                                  test_pose(0, 0, 0, TEST_IDENTITY),
                                  test_pose(0, 0, 1.99999e7, TEST_IDENTITY),
                                  test_pose(1, 0.5 + MF_PARKED_DISTANCE, 1.5, TEST_IDENTITY)};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 9};
    const mf_pair pairs[6] = {{0, 1}, {1, 0}, {2, 3}, {4, 5}, {6, 7}, {8, 1}};
    const uint32_t touching[6] = {0, 0, 0, 1, 1, 0};
    for (int isa = MF_ISA_SCALAR; isa <= MF_ISA_NEON; ++isa) {
        if (!mf_isa_supported((mf_isa)isa)) continue;
        mf_config config = mf_config_default();
        config.isa = (mf_isa)isa;
        config.threads = 1;
        mf_context *context;
        CHECK_EQ(mf_context_create(&config, &context), MF_OK);
        mf_pair_cache cache[6] = {{0}};
        for (int cached = 0; cached < 3; ++cached) { // no cache, then an empty and a filled one
            mf_manifold manifolds[6];
            mf_contact contacts[6 * MF_MAX_CONTACTS];
            mf_stream stream = {manifolds, 6, 0, contacts, 6 * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
            mf_status status = cached ? mf_collide_cached(context, bank, &bodies, pairs, 6, cache, &stream)
                                      : mf_collide(context, bank, &bodies, pairs, 6, &stream);
            CHECKF(status == MF_OK, "%s, cached %d: %s", mf_isa_name((mf_isa)isa), cached, mf_status_string(status));
            uint32_t m = 0;
            for (uint32_t p = 0; p < 6; ++p) {
                int found = m < stream.manifold_count && manifolds[m].pair == p;
                CHECKF(found == (int)touching[p], "%s, cached %d: pair %u %s", mf_isa_name((mf_isa)isa), cached, p,
                       found ? "has a manifold" : "has none");
                if (!found) continue;
                for (uint32_t k = 0; k < manifolds[m].count; ++k) {
                    const mf_contact *c = &contacts[manifolds[m].first + k];
                    CHECKF(isfinite(c->point.x) && isfinite(c->point.y) && isfinite(c->point.z) &&
                               isfinite(c->separation),
                           "%s: pair %u contact %u not finite", mf_isa_name((mf_isa)isa), p, k);
                }
                ++m;
            }
        }
        mf_context_destroy(context);
    }
    mf_bank_destroy(bank);
}

static void out_of_range_indices_are_refused(void)
{
    fixture f;
    fixture_make(&f);
    mf_pair pairs[2] = {f.pairs[0], f.pairs[1]};
    pairs[1].b = 4;
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "body b = count");
    pairs[1] = (mf_pair){UINT32_MAX, 0};
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "body a huge");
    pairs[1] = (mf_pair){2, 2};
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "pair (2, 2)");
    f.shapes[3] = mf_bank_shape_count(f.bank);
    expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT,
                   "shape id = shape count");
    f.shapes[3] = UINT32_MAX;
    expect_collide(&f, f.context, f.bank, &f.bodies, f.pairs, 2, &f.stream, MF_ERR_INVALID_ARGUMENT, "shape id huge");
    fixture_free(&f);
}

static void late_bad_input_leaves_the_stream_empty(void)
{
    // All input is validated before anything is written: 1000 good touching pairs then one bad pair.
    fixture f;
    fixture_make(&f);
    enum { PAIRS = 1001 };
    mf_pair *pairs = malloc(PAIRS * sizeof(mf_pair));
    for (int i = 0; i < PAIRS; ++i) pairs[i] = f.pairs[i % 2];
    mf_stream stream = {malloc(PAIRS * sizeof(mf_manifold)),
                        PAIRS,
                        0,
                        malloc(PAIRS * MF_MAX_CONTACTS * sizeof(mf_contact)),
                        PAIRS * MF_MAX_CONTACTS,
                        0,
                        0,
                        NULL,
                        0,
                        0};
    CHECK_EQ(mf_collide(f.context, f.bank, &f.bodies, pairs, PAIRS, &stream), MF_OK);
    CHECK_EQ(stream.manifold_count, PAIRS);
    pairs[PAIRS - 1] = (mf_pair){1, 1};
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, PAIRS, &stream, MF_ERR_INVALID_ARGUMENT,
                   "last pair (1, 1)");
    pairs[PAIRS - 1] = f.pairs[1];
    f.transforms[3].p.z = NAN;
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, PAIRS, &stream, MF_ERR_NONFINITE, "last body NaN");
    f.transforms[3].p.z = 0.0f;
    f.transforms[3].q = (mf_quat){0, 0, 0, 0};
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, PAIRS, &stream, MF_ERR_INVALID_ARGUMENT,
                   "last body zero quaternion");
    // The stream is not only empty by its counts: nothing was written into it either.
    memset(stream.manifolds, 0xab, PAIRS * sizeof(mf_manifold));
    expect_collide(&f, f.context, f.bank, &f.bodies, pairs, PAIRS, &stream, MF_ERR_INVALID_ARGUMENT, "again");
    unsigned char *bytes = (unsigned char *)stream.manifolds;
    int untouched = 1;
    for (size_t i = 0; i < PAIRS * sizeof(mf_manifold); ++i) untouched &= bytes[i] == 0xab;
    CHECK(untouched);
    free(stream.manifolds);
    free(stream.contacts);
    free(pairs);
    fixture_free(&f);
}

static void every_status_has_a_sentence(void)
{
    for (int s = MF_OK; s <= MF_ERR_UNSUPPORTED_ISA + 1; ++s) {
        const char *text = mf_status_string((mf_status)s);
        CHECKF(text != NULL && strlen(text) > 0, "status %d", s);
        for (int t = MF_OK; t < s && text != NULL && s <= MF_ERR_UNSUPPORTED_ISA; ++t)
            CHECKF(strcmp(text, mf_status_string((mf_status)t)) != 0, "statuses %d and %d read the same", s, t);
    }
    CHECK(mf_status_string((mf_status)-1) != NULL && strlen(mf_status_string((mf_status)-1)) > 0);
    for (int isa = MF_ISA_AUTO; isa <= MF_ISA_NEON; ++isa) CHECK(strlen(mf_isa_name((mf_isa)isa)) > 0);
    CHECK(mf_version() != NULL && strlen(mf_version()) > 0);
    mf_context *context;
    CHECK_EQ(mf_context_create(NULL, &context), MF_OK);
    CHECK(mf_context_message(context) != NULL && strcmp(mf_context_message(context), "") == 0);
    mf_context_destroy(context);
}

static const test_case tests[] = {
    TEST_CASE(fixture_is_valid),
    TEST_CASE(bank_refuses_null_pointers),
    TEST_CASE(shape_queries_refuse_out_of_range_indices),
    TEST_CASE(nonfinite_points_and_half_extents_are_refused),
    TEST_CASE(degenerate_hulls_are_refused),
    TEST_CASE(too_large_hulls_are_refused),
    TEST_CASE(failed_adds_leave_the_bank_unchanged),
    TEST_CASE(invalid_configs_are_refused),
    TEST_CASE(config_check_names_the_field_and_value),
    TEST_CASE(bank_message_names_the_value_at_fault),
    TEST_CASE(unsupported_isa_is_refused),
    TEST_CASE(collide_refuses_null_pointers),
    TEST_CASE(nonfinite_transforms_are_refused),
    TEST_CASE(zero_quaternion_is_refused),
    TEST_CASE(finite_quaternions_of_any_length_are_normalised),
    TEST_CASE(parked_bodies_touch_nothing),
    TEST_CASE(out_of_range_indices_are_refused),
    TEST_CASE(late_bad_input_leaves_the_stream_empty),
    TEST_CASE(every_status_has_a_sentence),
};

int main(int argc, char **argv) { return test_main(tests, (int)(sizeof(tests) / sizeof(tests[0])), argc, argv); }

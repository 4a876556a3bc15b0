// Shared by the robustness tests (see robust.h).
#include "robust.h"

#include "quatd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PRINTED_FAILURES = 3 };

// Setting up the shapes cannot fail in a way a test could go on from.
static void setup_failed(const char *what, const char *name, mf_status status)
{
    fprintf(stderr, "setup: %s %s: %s\n", what, name, mf_status_string(status));
    abort();
}

void robust_bank_make(robust_bank *bank)
{
    *bank = (robust_bank){0};
    mf_status status = mf_bank_create(&bank->bank);
    if (status != MF_OK) setup_failed("bank", "", status);
}

void robust_bank_free(robust_bank *bank)
{
    for (uint32_t s = 0; s < bank->count; ++s) ref_hull_free(&bank->reference[s]);
    mf_bank_destroy(bank->bank);
    *bank = (robust_bank){0};
}

static uint32_t loaded(robust_bank *bank, const char *name, mf_status status, uint32_t shape)
{
    if (status != MF_OK) setup_failed("shape", name, status);
    if (shape != bank->count || bank->count == ROBUST_MAX_SHAPES) setup_failed("shape id of", name, MF_OK);
    bank->name[shape] = name;
    status = ref_hull_load(bank->bank, shape, &bank->reference[shape]);
    if (status != MF_OK) setup_failed("reference of", name, status);
    ++bank->count;
    return shape;
}

uint32_t robust_add_box(robust_bank *bank, const char *name, double x, double y, double z)
{
    uint32_t shape = UINT32_MAX;
    mf_status status = mf_bank_add_box(bank->bank, (mf_vec3){(float)x, (float)y, (float)z}, &shape);
    return loaded(bank, name, status, shape);
}

uint32_t robust_add_hull(robust_bank *bank, const char *name, const mf_vec3 *points, uint32_t count)
{
    uint32_t shape = UINT32_MAX;
    mf_status status = mf_bank_add_hull(bank->bank, points, count, &shape);
    return loaded(bank, name, status, shape);
}

// ---- random pairs ----

mf_quat robust_quat_axis_angle(double x, double y, double z, double angle)
{
    double length = sqrt(x * x + y * y + z * z), axis[3] = {x / length, y / length, z / length};
    quatd q = quat_axis_angle(axis, angle);
    return (mf_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w};
}

// Extent of a hull along a world direction, relative to the body's origin.
static void rotated_extent(const ref_hull *hull, mf_quat q, const double direction[3], double *low, double *high)
{
    ref_pose pose = ref_pose_make((mf_transform){{0, 0, 0}, q});
    *low = INFINITY;
    *high = -INFINITY;
    for (uint32_t i = 0; i < hull->vertex_count; ++i) {
        double w[3];
        ref_pose_apply(&pose, hull->vertices + 3 * i, w);
        double d = w[0] * direction[0] + w[1] * direction[1] + w[2] * direction[2];
        *low = fmin(*low, d);
        *high = fmax(*high, d);
    }
}

void robust_make_pair(test_random *random, const robust_bank *bank, uint32_t shape_a, uint32_t shape_b, double margin,
                      double spread, mf_transform transform[2])
{
    const ref_hull *a = &bank->reference[shape_a], *b = &bank->reference[shape_b];
    mf_quat qa = test_random_rotation(random);
    quatd qb;
    double direction[3];
    if (test_random_unit(random) < 0.5) {
        mf_quat r = test_random_rotation(random);
        qb = (quatd){r.x, r.y, r.z, r.w};
        test_random_direction(random, direction);
    } else {
        // A face of b against a face of a, turned about the normal, at times tilted by a hair.
        uint32_t face_a = test_random_int(random, 0, a->face_count - 1);
        uint32_t face_b = test_random_int(random, 0, b->face_count - 1);
        ref_pose pose_a = ref_pose_make((mf_transform){{0, 0, 0}, qa});
        const double *na = a->normals + 3 * face_a;
        for (int i = 0; i < 3; ++i)
            direction[i] =
                pose_a.rotation[i][0] * na[0] + pose_a.rotation[i][1] * na[1] + pose_a.rotation[i][2] * na[2];
        double target[3] = {-direction[0], -direction[1], -direction[2]};
        qb = quat_multiply(quat_axis_angle(target, test_random_range(random, 0.0, 2.0 * TEST_PI)),
                           quat_between(b->normals + 3 * face_b, target));
        if (test_random_unit(random) < 0.3) {
            double axis[3];
            test_random_direction(random, axis);
            qb = quat_multiply(quat_axis_angle(axis, test_random_range(random, -2e-3, 2e-3)), qb);
        }
    }
    transform[0].q = qa;
    transform[1].q = quat_to(qb);

    double small = fmin(a->radius, b->radius), u = test_random_unit(random), gap;
    if (u < 0.5) gap = -test_random_range(random, 0.0, 0.25 * small);
    else if (u < 0.7) gap = test_random_range(random, -0.01 * small, margin);
    else gap = margin + test_random_range(random, 0.0, 0.2 * small);

    double lateral[3];
    test_random_direction(random, lateral);
    double along = lateral[0] * direction[0] + lateral[1] * direction[1] + lateral[2] * direction[2];
    double lateral_size = test_random_range(random, 0.0, 0.7 * small);
    for (int i = 0; i < 3; ++i) lateral[i] = (lateral[i] - along * direction[i]) * lateral_size;

    double low_a, high_a, low_b, high_b;
    rotated_extent(a, transform[0].q, direction, &low_a, &high_a);
    rotated_extent(b, transform[1].q, direction, &low_b, &high_b);
    double distance = gap + high_a - low_b;
    double pa[3];
    for (int i = 0; i < 3; ++i) pa[i] = test_random_range(random, -spread, spread);
    transform[0].p = (mf_vec3){(float)pa[0], (float)pa[1], (float)pa[2]};
    transform[1].p = (mf_vec3){(float)(pa[0] + lateral[0] + distance * direction[0]),
                               (float)(pa[1] + lateral[1] + distance * direction[1]),
                               (float)(pa[2] + lateral[2] + distance * direction[2])};
}

// ---- colliding and checking ----

uint32_t robust_collide(const mf_bank *bank, const mf_config *config, uint32_t count, const uint32_t *shapes,
                        const mf_transform *transforms, robust_result *results)
{
    mf_context *context = NULL;
    mf_status status = mf_context_create(config, &context);
    if (status != MF_OK) {
        fprintf(stderr, "mf_context_create: %s\n", mf_status_string(status));
        return 1;
    }
    uint32_t manifold_capacity, contact_capacity;
    mf_stream_bound(count, config != NULL ? config->max_contacts : 4, &manifold_capacity, &contact_capacity);
    mf_pair *pairs = malloc((count ? count : 1) * sizeof(mf_pair));
    mf_manifold *manifolds = malloc((manifold_capacity ? manifold_capacity : 1) * sizeof(mf_manifold));
    mf_contact *contacts = malloc((contact_capacity ? contact_capacity : 1) * sizeof(mf_contact));
    if (context == NULL || pairs == NULL || manifolds == NULL || contacts == NULL) abort();
    for (uint32_t i = 0; i < count; ++i) pairs[i] = (mf_pair){2 * i, 2 * i + 1};
    mf_bodies bodies = {.shape = shapes, .transform = transforms, .count = 2 * count};
    mf_stream stream = {manifolds, manifold_capacity, 0, contacts, contact_capacity, 0, 0, NULL, 0, 0};
    status = mf_collide(context, bank, &bodies, pairs, count, &stream);
    uint32_t errors = 0;
    if (status != MF_OK) {
        fprintf(stderr, "mf_collide: %s (%s)\n", mf_status_string(status), mf_context_message(context));
        ++errors;
    }
    memset(results, 0, count * sizeof(robust_result));
    uint32_t expected_first = 0;
    for (uint32_t m = 0; m < stream.manifold_count && status == MF_OK; ++m) {
        const mf_manifold *manifold = &manifolds[m];
        if (manifold->pair >= count || (m > 0 && manifold->pair <= manifolds[m - 1].pair) ||
            manifold->first != expected_first || manifold->count > MF_MAX_CONTACTS ||
            manifold->first + manifold->count > stream.contact_count) {
            fprintf(stderr, "malformed stream: manifold %u names pair %u, first %u count %u of %u contacts\n", m,
                    manifold->pair, manifold->first, manifold->count, stream.contact_count);
            ++errors;
            break;
        }
        robust_result *result = &results[manifold->pair];
        result->touching = 1;
        result->manifold = *manifold;
        result->manifold.first = 0;
        memcpy(result->contacts, contacts + manifold->first, manifold->count * sizeof(mf_contact));
        expected_first += manifold->count;
    }
    if (status == MF_OK && expected_first != stream.contact_count) {
        fprintf(stderr, "malformed stream: manifolds hold %u of %u contacts\n", expected_first, stream.contact_count);
        ++errors;
    }
    free(pairs);
    free(manifolds);
    free(contacts);
    mf_context_destroy(context);
    return errors;
}

int robust_check_sane(const robust_result *result, uint32_t max_contacts, char *why, size_t why_size)
{
    if (!result->touching) return 0;
    const mf_manifold *m = &result->manifold;
    mf_vec3 n = m->normal;
    double length = sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    if (!isfinite(length) || fabs(length - 1.0) > 1e-5) {
        snprintf(why, why_size, "normal {%g, %g, %g} of length %.9g", (double)n.x, (double)n.y, (double)n.z, length);
        return 1;
    }
    if (m->count < 1 || m->count > max_contacts) {
        snprintf(why, why_size, "%u contacts, max_contacts %u", m->count, max_contacts);
        return 1;
    }
    for (uint32_t k = 0; k < m->count; ++k) {
        const mf_contact *c = &result->contacts[k];
        if (!isfinite(c->point.x) || !isfinite(c->point.y) || !isfinite(c->point.z) || !isfinite(c->separation)) {
            snprintf(why, why_size, "contact %u is not finite", k);
            return 1;
        }
        for (uint32_t j = 0; j < k; ++j) {
            if (result->contacts[j].id == c->id) {
                snprintf(why, why_size, "contacts %u and %u share id %08x", j, k, c->id);
                return 1;
            }
        }
    }
    return 0;
}

static void print_failure(const char *test, uint64_t seed, const robust_bank *bank, uint32_t index,
                          const uint32_t shape[2], const mf_transform transform[2], const robust_result *result,
                          const char *why)
{
    fprintf(stderr, "%s: seed %llu pair %u (%s on %s): %s\n", test, (unsigned long long)seed, index,
            bank->name[shape[0]], bank->name[shape[1]], why);
    for (int h = 0; h < 2; ++h) {
        const mf_transform *t = &transform[h];
        fprintf(stderr, "  body %c: p {%.9g, %.9g, %.9g}, q {%.9g, %.9g, %.9g, %.9g}\n", h == 0 ? 'a' : 'b',
                (double)t->p.x, (double)t->p.y, (double)t->p.z, (double)t->q.x, (double)t->q.y, (double)t->q.z,
                (double)t->q.w);
    }
    if (result->touching) {
        const mf_manifold *m = &result->manifold;
        fprintf(stderr, "  manifold: normal {%.9g, %.9g, %.9g}, %u contacts:", (double)m->normal.x, (double)m->normal.y,
                (double)m->normal.z, m->count);
        for (uint32_t k = 0; k < m->count && k < MF_MAX_CONTACTS; ++k) {
            const mf_contact *c = &result->contacts[k];
            fprintf(stderr, " {%.7g %.7g %.7g | %.6g | %08x}", (double)c->point.x, (double)c->point.y,
                    (double)c->point.z, (double)c->separation, c->id);
        }
        fputc('\n', stderr);
    } else {
        fprintf(stderr, "  no manifold\n");
    }
}

uint32_t robust_check_pairs(const char *test, uint64_t seed, const robust_bank *bank, const mf_config *config,
                            uint32_t count, const uint32_t *shapes, const mf_transform *transforms, int reference)
{
    mf_config c = config != NULL ? *config : mf_config_default();
    robust_result *results = malloc((count ? count : 1) * sizeof(robust_result));
    ref_pair *pair = ref_pair_create();
    if (results == NULL || pair == NULL) abort();
    uint32_t failed = robust_collide(bank->bank, &c, count, shapes, transforms, results);
    ref_stats stats = {0};
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t *shape = shapes + 2 * i;
        const mf_transform *transform = transforms + 2 * i;
        char why[512] = "";
        int violations = robust_check_sane(&results[i], c.max_contacts, why, sizeof(why));
        if (violations == 0 && reference) {
            ref_pair_set(pair, &bank->reference[shape[0]], transform[0], &bank->reference[shape[1]], transform[1]);
            violations = ref_check_pair(pair, &c, results[i].touching ? &results[i].manifold : NULL,
                                        results[i].contacts, &stats, why, sizeof(why));
        }
        if (violations != 0) {
            if (failed < PRINTED_FAILURES) print_failure(test, seed, bank, i, shape, transform, &results[i], why);
            ++failed;
        }
    }
    if (failed != 0)
        fprintf(stderr, "%s: seed %llu: %u of %u pairs failed\n", test, (unsigned long long)seed, failed, count);
    ref_pair_destroy(pair);
    free(results);
    return failed;
}

uint32_t robust_check_random_pairs(const char *test, uint64_t seed, const robust_bank *bank, const mf_config *config,
                                   const uint32_t *choices, uint32_t choice_count, uint32_t pairs, double spread,
                                   int reference)
{
    mf_config c = config != NULL ? *config : mf_config_default();
    uint32_t *shapes = malloc(2 * (size_t)pairs * sizeof(uint32_t));
    mf_transform *transforms = malloc(2 * (size_t)pairs * sizeof(mf_transform));
    if (shapes == NULL || transforms == NULL) abort();
    for (uint32_t i = 0; i < pairs; ++i) {
        test_random random = test_random_seed(seed, i); // any pair can be rebuilt on its own
        shapes[2 * i] = choices[test_random_int(&random, 0, choice_count - 1)];
        shapes[2 * i + 1] = choices[test_random_int(&random, 0, choice_count - 1)];
        robust_make_pair(&random, bank, shapes[2 * i], shapes[2 * i + 1], c.margin, spread, transforms + 2 * i);
    }
    uint32_t failed = robust_check_pairs(test, seed, bank, &c, pairs, shapes, transforms, reference);
    free(shapes);
    free(transforms);
    return failed;
}

int robust_same_manifold(const robust_result *a, const robust_result *b, const double *shift, double tolerance,
                         double *worst)
{
    *worst = 0.0;
    if (a->touching != b->touching) return 0;
    if (!a->touching) return 1;
    if (a->manifold.count != b->manifold.count) return 0;
    const double zero[3] = {0, 0, 0};
    const double *d = shift != NULL ? shift : zero;
    mf_vec3 na = a->manifold.normal, nb = b->manifold.normal;
    *worst = fmax(fabs(na.x - nb.x), fmax(fabs(na.y - nb.y), fabs(na.z - nb.z)));
    for (uint32_t k = 0; k < a->manifold.count && k < MF_MAX_CONTACTS; ++k) {
        const mf_contact *x = &a->contacts[k], *y = NULL;
        for (uint32_t j = 0; j < b->manifold.count && j < MF_MAX_CONTACTS && y == NULL; ++j)
            if (b->contacts[j].id == x->id) y = &b->contacts[j];
        if (y == NULL) return 0;
        *worst = fmax(*worst, fabs((double)x->separation - y->separation));
        *worst = fmax(*worst, fabs(x->point.x - (y->point.x - d[0])));
        *worst = fmax(*worst, fabs(x->point.y - (y->point.y - d[1])));
        *worst = fmax(*worst, fabs(x->point.z - (y->point.z - d[2])));
    }
    return *worst <= tolerance;
}

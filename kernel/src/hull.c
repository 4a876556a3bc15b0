// Hull builder: convex hull of a point cloud with qhull_r, welded, with coplanar facets merged.
#include "bank.h"
#include "tolerances.h"

#include "vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Inputs beyond these (and MF_MAX_LENGTH) are refused rather than risking float overflow or
// unbounded qhull time.
#define MF_MAX_HULL_INPUT_POINTS (1u << 22)

#if MF_HAVE_QHULL

#include <libqhull_r/qhull_ra.h>

typedef struct sort_key {
    float x;
    uint32_t index;
} sort_key;

static int compare_keys(const void *a, const void *b)
{
    float x = ((const sort_key *)a)->x, y = ((const sort_key *)b)->x;
    return x < y ? -1 : (x > y);
}

// Merges points closer than `tolerance` into the first of them (a sweep along x). Returns the
// number of points kept; kept points are compacted to the front of `points`.
static uint32_t weld_points(double *points, uint32_t count, double tolerance, sort_key *keys, uint8_t *removed)
{
    for (uint32_t i = 0; i < count; ++i) keys[i] = (sort_key){(float)points[3 * i], i};
    qsort(keys, count, sizeof(sort_key), compare_keys);
    double tolerance2 = tolerance * tolerance;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t a = keys[i].index;
        if (removed[a]) continue;
        for (uint32_t j = i + 1; j < count && (double)keys[j].x - keys[i].x <= tolerance; ++j) {
            uint32_t b = keys[j].index;
            double dx = points[3 * a] - points[3 * b], dy = points[3 * a + 1] - points[3 * b + 1];
            double dz = points[3 * a + 2] - points[3 * b + 2];
            if (!removed[b] && dx * dx + dy * dy + dz * dz <= tolerance2) removed[b] = 1;
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (removed[i]) continue;
        for (int c = 0; c < 3; ++c) points[3 * kept + c] = points[3 * i + c];
        ++kept;
    }
    return kept;
}

// The points in coordinates of the plane with unit normal `normal`, so that counter-clockwise about
// the normal stays counter-clockwise in the plane.
static void plane_coordinates(const double *normal, double (*points)[3], uint32_t n, double (*xy)[2])
{
    // u: any unit vector across the normal; v = normal x u.
    double u[3] = {0, 0, 0};
    u[fabs(normal[0]) < 0.57 ? 0 : fabs(normal[1]) < 0.57 ? 1 : 2] = 1.0;
    double along = u[0] * normal[0] + u[1] * normal[1] + u[2] * normal[2];
    for (int c = 0; c < 3; ++c) u[c] -= along * normal[c];
    double length = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int c = 0; c < 3; ++c) u[c] /= length;
    const double v[3] = {normal[1] * u[2] - normal[2] * u[1], normal[2] * u[0] - normal[0] * u[2],
                         normal[0] * u[1] - normal[1] * u[0]};
    for (uint32_t k = 0; k < n; ++k) {
        xy[k][0] = points[k][0] * u[0] + points[k][1] * u[1] + points[k][2] * u[2];
        xy[k][1] = points[k][0] * v[0] + points[k][1] * v[1] + points[k][2] * v[2];
    }
}

// The sine of the turn from pq to qr: positive where the path turns counter-clockwise.
static double turn_sine(const double *p, const double *q, const double *r)
{
    double ux = q[0] - p[0], uy = q[1] - p[1], vx = r[0] - q[0], vy = r[1] - q[1];
    double lengths = sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy));
    return lengths > 0.0 ? (ux * vy - uy * vx) / lengths : 0.0;
}

// Whether `p` lies strictly inside the counter-clockwise triangle abc.
static int inside_triangle(const double *a, const double *b, const double *c, const double *p)
{
    double ab = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    double bc = (c[0] - b[0]) * (p[1] - b[1]) - (c[1] - b[1]) * (p[0] - b[0]);
    double ca = (a[0] - c[0]) * (p[1] - c[1]) - (a[1] - c[1]) * (p[0] - c[0]);
    return ab > 0.0 && bc > 0.0 && ca > 0.0;
}

// Ear clipping for a face loop that turns inward somewhere. qhull's merged facets are convex in 3D,
// but a facet bent by up to the merge tolerance can have a vertex loop that is slightly reflex in
// the facet's plane (seen on hulls 1000 times thinner than wide), and clipping needs convex faces.
// `xy` holds the loop's points in the plane, counter-clockwise; writes the triangles' loops to
// `out` and returns how many, 1 (the loop itself, untouched) when it is convex.
static uint32_t split_reflex_loop(double (*xy)[2], const uint16_t *loop, uint32_t n, uint16_t *out)
{
    uint32_t order[MF_MAX_FACE_VERTICES], m = n, reflex = 0;
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    for (uint32_t i = 0; i < n; ++i) reflex += turn_sine(xy[(i + n - 1) % n], xy[i], xy[(i + 1) % n]) < -MF_REFLEX_SINE;
    if (reflex == 0) return 1;
    uint32_t triangles = 0;
    while (m > 3) {
        uint32_t ear = 0;
        double ear_turn = -INFINITY;
        int ear_is_clean = 0;
        for (uint32_t i = 0; i < m; ++i) {
            uint32_t prev = (i + m - 1) % m, next = (i + 1) % m;
            double turn = turn_sine(xy[order[prev]], xy[order[i]], xy[order[next]]);
            if (!(turn > 0.0)) continue;
            int clean = 1; // no other corner inside the ear
            for (uint32_t j = 0; j < m && clean; ++j)
                if (j != prev && j != i && j != next &&
                    inside_triangle(xy[order[prev]], xy[order[i]], xy[order[next]], xy[order[j]]))
                    clean = 0;
            if (clean > ear_is_clean || (clean == ear_is_clean && turn > ear_turn)) {
                ear = i;
                ear_turn = turn;
                ear_is_clean = clean;
            }
        }
        uint32_t prev = (ear + m - 1) % m, next = (ear + 1) % m;
        out[3 * triangles] = loop[order[prev]];
        out[3 * triangles + 1] = loop[order[ear]];
        out[3 * triangles + 2] = loop[order[next]];
        ++triangles;
        for (uint32_t j = ear; j + 1 < m; ++j) order[j] = order[j + 1];
        --m;
    }
    for (uint32_t k = 0; k < 3; ++k) out[3 * triangles + k] = loop[order[k]];
    return triangles + 1;
}

// Whether every point lies at most `slack` above the plane of a face with Newell normal `newell`
// through its vertices `loop`. qhull can lose a vertex of a nearly flat hull while it merges
// facets (seen on a triangle 5e-5 of its width thick): its facets then leave an input point out.
static int face_holds_points(const double *newell, double (*loop)[3], uint32_t n, const double *points, uint32_t count,
                             double slack)
{
    double length = sqrt(newell[0] * newell[0] + newell[1] * newell[1] + newell[2] * newell[2]);
    if (!(length > 0.0)) return 1; // no plane to test: the bank judges the face
    const double normal[3] = {newell[0] / length, newell[1] / length, newell[2] / length};
    double offset = -INFINITY;
    for (uint32_t k = 0; k < n; ++k)
        offset = fmax(offset, normal[0] * loop[k][0] + normal[1] * loop[k][1] + normal[2] * loop[k][2]);
    for (uint32_t i = 0; i < count; ++i) {
        const double *p = points + 3 * i;
        if (normal[0] * p[0] + normal[1] * p[1] + normal[2] * p[2] - offset > slack) return 0;
    }
    return 1;
}

// Reads qhull's facets into a polyhedron, shifted back by `center` to the input frame, and hands
// it to the bank. Sets `*lost_point` and adds nothing where a facet leaves one of the `count`
// `points` (qhull's input) more than `slack` outside.
static mf_status add_qhull_result(qhT *qh, mf_bank *bank, const double *center, const double *points, uint32_t count,
                                  double slack, mf_polyhedron *poly, uint32_t *shape, int *lost_point)
{
    static const uint32_t unmapped = UINT32_MAX;
    uint32_t vertex_count = (uint32_t)qh->num_vertices, face_count = (uint32_t)qh->num_facets;
    if (vertex_count > MF_MAX_HULL_VERTICES || face_count > MF_MAX_HULL_FACES)
        return mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE,
                            "the hull of the points has %u vertices and %u faces: at most MF_MAX_HULL_VERTICES (%u) "
                            "and MF_MAX_HULL_FACES (%u); simplify the point cloud",
                            vertex_count, face_count, (unsigned)MF_MAX_HULL_VERTICES, (unsigned)MF_MAX_HULL_FACES);

    uint32_t id_limit = (uint32_t)qh->vertex_id;
    // A facet of n vertices may become n - 2 triangles (split_reflex_loop).
    // (qhull's FORALL macros spelled out: the lists end with a sentinel.)
    size_t corners = 0;
    for (facetT *facet = qh->facet_list; facet != NULL && facet->next != NULL; facet = facet->next)
        corners += (size_t)qh_setsize(qh, facet->vertices);
    uint32_t *map = malloc(id_limit * sizeof(uint32_t));
    mf_vec3 *vertices = malloc(vertex_count * sizeof(mf_vec3));
    uint16_t *loop_counts = malloc(corners * sizeof(uint16_t));
    uint16_t *loops = malloc(3 * corners * sizeof(uint16_t));
    mf_status status = MF_OK;
    if (map == NULL || vertices == NULL || loop_counts == NULL || loops == NULL) status = MF_ERR_OUT_OF_MEMORY;

    uint32_t mapped = 0, faces = 0, loop_at = 0, merged = 0;
    for (vertexT *vertex = qh->vertex_list; status == MF_OK && vertex != NULL && vertex->next != NULL;
         vertex = vertex->next)
        map[vertex->id] = unmapped;
    for (facetT *facet = qh->facet_list; facet != NULL && facet->next != NULL; facet = facet->next) {
        if (status != MF_OK) break;
        setT *ordered = qh_facet3vertex(qh, facet);
        uint32_t n = (uint32_t)qh_setsize(qh, ordered);
        if (n > MF_MAX_FACE_VERTICES)
            status = mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE,
                                  "a face of the hull has %u vertices: at most MF_MAX_FACE_VERTICES (%u) on one face",
                                  n, (unsigned)MF_MAX_FACE_VERTICES);
        if (n < 3) status = mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL, "qhull gave a face of %u vertices", n);
        // Newell's normal in double relative to the first vertex: tiny facets cancel in float.
        double newell[3] = {0, 0, 0}, first[3] = {0, 0, 0}, previous[3] = {0, 0, 0};
        double loop_points[MF_MAX_FACE_VERTICES][3];
        for (uint32_t k = 0; k < n && status == MF_OK; ++k) {
            const vertexT *vertex = ordered->e[k].p;
            if (map[vertex->id] == unmapped) {
                map[vertex->id] = mapped;
                vertices[mapped++] =
                    (mf_vec3){(float)(vertex->point[0] + center[0]), (float)(vertex->point[1] + center[1]),
                              (float)(vertex->point[2] + center[2])};
            }
            loops[loop_at + k] = (uint16_t)map[vertex->id];
            double p[3] = {vertex->point[0], vertex->point[1], vertex->point[2]};
            for (int c = 0; c < 3; ++c) loop_points[k][c] = p[c];
            if (k == 0) {
                for (int c = 0; c < 3; ++c) first[c] = p[c];
            }
            for (int c = 0; c < 3; ++c) p[c] -= first[c];
            newell[0] += previous[1] * p[2] - previous[2] * p[1];
            newell[1] += previous[2] * p[0] - previous[0] * p[2];
            newell[2] += previous[0] * p[1] - previous[1] * p[0];
            for (int c = 0; c < 3; ++c) previous[c] = p[c];
        }
        qh_settempfree(qh, &ordered);
        if (status != MF_OK) break;
        // (the closing term, previous x first, vanishes: first is the origin here)
        // qhull's order can be either orientation: make it counter-clockwise about the outward normal.
        double along = newell[0] * facet->normal[0] + newell[1] * facet->normal[1] + newell[2] * facet->normal[2];
        if (along < 0.0) {
            for (int c = 0; c < 3; ++c) newell[c] = -newell[c];
            for (uint32_t a = 0, b = n - 1; a < b; ++a, --b) {
                uint16_t t = loops[loop_at + a];
                loops[loop_at + a] = loops[loop_at + b];
                loops[loop_at + b] = t;
                for (int c = 0; c < 3; ++c) {
                    double x = loop_points[a][c];
                    loop_points[a][c] = loop_points[b][c];
                    loop_points[b][c] = x;
                }
            }
        }
        if (!face_holds_points(newell, loop_points, n, points, count, slack)) {
            *lost_point = 1;
            status = MF_ERR_DEGENERATE_HULL;
            break;
        }
        uint16_t triangles[3 * MF_MAX_FACE_VERTICES];
        uint32_t pieces = 1;
        if (n > 3) {
            double xy[MF_MAX_FACE_VERTICES][2];
            plane_coordinates(facet->normal, loop_points, n, xy);
            pieces = split_reflex_loop(xy, loops + loop_at, n, triangles);
        }
        if (pieces == 1) {
            loop_counts[faces++] = (uint16_t)n;
            loop_at += n;
            if (n > 3) merged += n - 2;
        } else {
            for (uint32_t t = 0; t < pieces; ++t) loop_counts[faces++] = 3;
            memcpy(loops + loop_at, triangles, 3 * pieces * sizeof(uint16_t));
            loop_at += 3 * pieces;
        }
    }
    if (status == MF_OK) {
        poly->vertices = vertices;
        poly->vertex_count = mapped;
        poly->loops = loops;
        poly->loop_counts = loop_counts;
        poly->face_count = faces;
        poly->merged_facets = merged;
        status = mf_bank_add_polyhedron(bank, poly, shape);
    }
    free(map);
    free(vertices);
    free(loop_counts);
    free(loops);
    return status;
}

static mf_status build_hull(mf_bank *bank, double *points, uint32_t count, mf_polyhedron *poly, uint32_t *shape)
{
    // Work relative to the centroid: qhull and the float bank both keep more digits near zero.
    double center[3] = {0, 0, 0}, radius = 0.0;
    for (uint32_t i = 0; i < count; ++i)
        for (int c = 0; c < 3; ++c) center[c] += points[3 * i + c] / count;
    for (uint32_t i = 0; i < count; ++i) {
        double r2 = 0.0;
        for (int c = 0; c < 3; ++c) {
            points[3 * i + c] -= center[c];
            r2 += points[3 * i + c] * points[3 * i + c];
        }
        radius = fmax(radius, sqrt(r2));
    }
    if (!(radius > 0.0))
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL, "all %u points are the same point: they span no volume",
                            count);

    sort_key *keys = malloc(count * sizeof(sort_key));
    uint8_t *removed = calloc(count, 1);
    if (keys == NULL || removed == NULL) {
        free(keys);
        free(removed);
        return MF_ERR_OUT_OF_MEMORY;
    }
    uint32_t kept = weld_points(points, count, MF_WELD_DISTANCE * radius, keys, removed);
    free(keys);
    free(removed);
    poly->welded_points = count - kept;
    if (kept < 4)
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                            "%u distinct points remain of %u once points nearer than %g (%g of the cloud's "
                            "radius) are welded: a hull needs 4 that span a volume",
                            kept, count, MF_WELD_DISTANCE * radius, MF_WELD_DISTANCE);

    // C-n merges facets whose centrums lie within n of a neighbour's plane: nearly coplanar
    // triangles become one polygonal face. Where that merge loses an input point, qhull's own
    // merging of facets coplanar to roundoff comes second. Pp keeps qhull quiet about precision.
    char merge_coplanar[64];
    snprintf(merge_coplanar, sizeof(merge_coplanar), "qhull Pp C-%g", MF_WELD_DISTANCE * radius);
    const char *commands[] = {merge_coplanar, "qhull Pp"};
    mf_status status = MF_ERR_DEGENERATE_HULL; // qhull fails on flat or collinear input
    FILE *quiet = fopen("/dev/null", "w");
    int lost_point = 1;
    for (int attempt = 0; attempt < 2 && lost_point; ++attempt) {
        lost_point = 0;
        qhT qh_storage, *qh = &qh_storage;
        qh_zero(qh, quiet);
        int exit_code = qh_new_qhull(qh, 3, (int)kept, points, False, (char *)commands[attempt], NULL, quiet);
        if (exit_code == 0)
            status = add_qhull_result(qh, bank, center, points, kept, 1e-4 * radius, poly, shape, &lost_point);
        qh_freeqhull(qh, !qh_ALL);
        int current_long, total_long;
        qh_memfreeshort(qh, &current_long, &total_long);
    }
    if (quiet != NULL) fclose(quiet);
    if (status == MF_ERR_DEGENERATE_HULL && lost_point)
        return mf_bank_fail(bank, status,
                            "the points are nearly flat: every hull qhull built of them leaves an input point "
                            "outside");
    if (status == MF_ERR_DEGENERATE_HULL)
        return mf_bank_fail(bank, status,
                            "the %u points span no volume: qhull finds them coplanar or collinear (a flat or thin "
                            "cloud)",
                            kept);
    return status;
}

#endif

mf_status mf_bank_add_hull(mf_bank *bank, const mf_vec3 *points, uint32_t point_count, mf_shape_id *shape)
{
    if (bank == NULL) return MF_ERR_INVALID_ARGUMENT;
    mf_bank_clear_message(bank);
    if (shape == NULL) return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "shape is NULL");
    if (points == NULL && point_count > 0)
        return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "points is NULL but point_count is %u", point_count);
    if (point_count > MF_MAX_HULL_INPUT_POINTS)
        return mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE, "point_count is %u: at most %u input points", point_count,
                            MF_MAX_HULL_INPUT_POINTS);
    for (uint32_t i = 0; i < point_count; ++i) {
        const float p[3] = {points[i].x, points[i].y, points[i].z};
        for (int k = 0; k < 3; ++k) {
            if (!isfinite(p[k]))
                return mf_bank_fail(bank, MF_ERR_NONFINITE, "points[%u].%c is %g: every coordinate must be finite", i,
                                    "xyz"[k], (double)p[k]);
        }
        for (int k = 0; k < 3; ++k) {
            if (fabsf(p[k]) > MF_MAX_LENGTH)
                return mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE,
                                    "points[%u].%c is %g: every coordinate must be within MF_MAX_LENGTH (%g) of 0", i,
                                    "xyz"[k], (double)p[k], (double)MF_MAX_LENGTH);
        }
    }
    if (point_count < 4)
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL, "point_count is %u: a hull needs at least 4 points",
                            point_count);
#if MF_HAVE_QHULL
    double *coordinates = malloc((size_t)point_count * 3 * sizeof(double));
    if (coordinates == NULL) return mf_bank_fail(bank, MF_ERR_OUT_OF_MEMORY, "no memory for %u points", point_count);
    for (uint32_t i = 0; i < point_count; ++i) {
        coordinates[3 * i] = points[i].x;
        coordinates[3 * i + 1] = points[i].y;
        coordinates[3 * i + 2] = points[i].z;
    }
    mf_polyhedron poly = {.input_points = point_count};
    mf_status status = build_hull(bank, coordinates, point_count, &poly, shape);
    free(coordinates);
    if (status != MF_OK) mf_bank_fail(bank, status, "%s", mf_status_string(status)); // where no detail was given
    else mf_bank_clear_message(bank);
    return status;
#else
    return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "built without qhull: only boxes can be added");
#endif
}

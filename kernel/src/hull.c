// Hull builder: convex hull of a point cloud with qhull_r, welded, with coplanar facets merged.
#include "bank.h"

#include "vec.h"

#include <stdio.h>
#include <stdlib.h>

// Inputs beyond these are refused rather than risking float overflow or unbounded qhull time.
#define MF_MAX_HULL_INPUT_POINTS (1u << 22)
#define MF_MAX_HULL_COORDINATE 1e7f

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

// Reads qhull's facets into a polyhedron, shifted back by `center` to the input frame, and hands
// it to the bank.
static mf_status add_qhull_result(qhT *qh, mf_bank *bank, const double *center, mf_polyhedron *poly,
                                  uint32_t *shape)
{
    static const uint32_t unmapped = UINT32_MAX;
    uint32_t vertex_count = (uint32_t)qh->num_vertices, face_count = (uint32_t)qh->num_facets;
    if (vertex_count > MF_MAX_HULL_VERTICES || face_count > MF_MAX_HULL_FACES) return MF_ERR_HULL_TOO_LARGE;

    uint32_t id_limit = (uint32_t)qh->vertex_id;
    uint32_t *map = malloc(id_limit * sizeof(uint32_t));
    mf_vec3 *vertices = malloc(vertex_count * sizeof(mf_vec3));
    uint16_t *loop_counts = malloc(face_count * sizeof(uint16_t));
    uint16_t *loops = malloc((size_t)face_count * MF_MAX_FACE_VERTICES * sizeof(uint16_t));
    mf_status status = MF_OK;
    if (map == NULL || vertices == NULL || loop_counts == NULL || loops == NULL) status = MF_ERR_OUT_OF_MEMORY;

    uint32_t mapped = 0, faces = 0, loop_at = 0, merged = 0;
    vertexT *vertex;
    FORALLvertices
    {
        if (status != MF_OK) break;
        map[vertex->id] = unmapped;
    }
    facetT *facet;
    FORALLfacets
    {
        if (status != MF_OK) break;
        setT *ordered = qh_facet3vertex(qh, facet);
        uint32_t n = (uint32_t)qh_setsize(qh, ordered);
        if (n > MF_MAX_FACE_VERTICES) status = MF_ERR_HULL_TOO_LARGE;
        if (n < 3) status = MF_ERR_DEGENERATE_HULL;
        // Newell's normal in double relative to the first vertex: tiny facets cancel in float.
        double newell[3] = {0, 0, 0}, first[3] = {0, 0, 0}, previous[3] = {0, 0, 0};
        uint32_t k = 0;
        vertexT **vertexp;
        FOREACHvertex_(ordered)
        {
            if (status != MF_OK) break;
            if (map[vertex->id] == unmapped) {
                map[vertex->id] = mapped;
                vertices[mapped++] = (mf_vec3){(float)(vertex->point[0] + center[0]),
                                               (float)(vertex->point[1] + center[1]),
                                               (float)(vertex->point[2] + center[2])};
            }
            loops[loop_at + k] = (uint16_t)map[vertex->id];
            double p[3] = {vertex->point[0], vertex->point[1], vertex->point[2]};
            if (k == 0) {
                for (int c = 0; c < 3; ++c) first[c] = p[c];
            }
            for (int c = 0; c < 3; ++c) p[c] -= first[c];
            newell[0] += previous[1] * p[2] - previous[2] * p[1];
            newell[1] += previous[2] * p[0] - previous[0] * p[2];
            newell[2] += previous[0] * p[1] - previous[1] * p[0];
            for (int c = 0; c < 3; ++c) previous[c] = p[c];
            ++k;
        }
        qh_settempfree(qh, &ordered);
        if (status != MF_OK) break;
        // (the closing term, previous x first, vanishes: first is the origin here)
        // qhull's order can be either orientation: make it counter-clockwise about the outward normal.
        double along = newell[0] * facet->normal[0] + newell[1] * facet->normal[1] + newell[2] * facet->normal[2];
        if (along < 0.0) {
            for (uint32_t a = 0, b = n - 1; a < b; ++a, --b) {
                uint16_t t = loops[loop_at + a];
                loops[loop_at + a] = loops[loop_at + b];
                loops[loop_at + b] = t;
            }
        }
        loop_counts[faces++] = (uint16_t)n;
        loop_at += n;
        if (n > 3) merged += n - 2;
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
    if (!(radius > 0.0)) return MF_ERR_DEGENERATE_HULL;

    sort_key *keys = malloc(count * sizeof(sort_key));
    uint8_t *removed = calloc(count, 1);
    if (keys == NULL || removed == NULL) {
        free(keys);
        free(removed);
        return MF_ERR_OUT_OF_MEMORY;
    }
    uint32_t kept = weld_points(points, count, 1e-5 * radius, keys, removed);
    free(keys);
    free(removed);
    poly->welded_points = count - kept;
    if (kept < 4) return MF_ERR_DEGENERATE_HULL;

    // C-n merges facets whose centrums lie within n of a neighbour's plane: nearly coplanar
    // triangles become one polygonal face. Pp keeps qhull quiet about precision.
    char command[64];
    snprintf(command, sizeof(command), "qhull Pp C-%g", 1e-5 * radius);
    FILE *quiet = fopen("/dev/null", "w");
    qhT qh_storage, *qh = &qh_storage;
    qh_zero(qh, quiet);
    int exit_code = qh_new_qhull(qh, 3, (int)kept, points, False, command, NULL, quiet);
    mf_status status = MF_ERR_DEGENERATE_HULL; // qhull fails on flat or collinear input
    if (exit_code == 0) status = add_qhull_result(qh, bank, center, poly, shape);
    qh_freeqhull(qh, !qh_ALL);
    int current_long, total_long;
    qh_memfreeshort(qh, &current_long, &total_long);
    if (quiet != NULL) fclose(quiet);
    return status;
}

#endif

mf_status mf_bank_add_hull(mf_bank *bank, const mf_vec3 *points, uint32_t point_count, uint32_t *shape)
{
    if (bank == NULL || shape == NULL || (points == NULL && point_count > 0)) return MF_ERR_INVALID_ARGUMENT;
    if (point_count > MF_MAX_HULL_INPUT_POINTS) return MF_ERR_HULL_TOO_LARGE;
    for (uint32_t i = 0; i < point_count; ++i) {
        if (!mf_is_finite3(points[i])) return MF_ERR_NONFINITE;
        if (fabsf(points[i].x) > MF_MAX_HULL_COORDINATE || fabsf(points[i].y) > MF_MAX_HULL_COORDINATE ||
            fabsf(points[i].z) > MF_MAX_HULL_COORDINATE)
            return MF_ERR_HULL_TOO_LARGE;
    }
    if (point_count < 4) return MF_ERR_DEGENERATE_HULL;
#if MF_HAVE_QHULL
    double *coordinates = malloc((size_t)point_count * 3 * sizeof(double));
    if (coordinates == NULL) return MF_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < point_count; ++i) {
        coordinates[3 * i] = points[i].x;
        coordinates[3 * i + 1] = points[i].y;
        coordinates[3 * i + 2] = points[i].z;
    }
    mf_polyhedron poly = {.input_points = point_count};
    mf_status status = build_hull(bank, coordinates, point_count, &poly, shape);
    free(coordinates);
    return status;
#else
    return MF_ERR_INVALID_ARGUMENT; // built without qhull: only boxes can be added
#endif
}

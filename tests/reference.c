// Double-precision brute-force separating-axis test and the per-pair checker (see reference.h).
#include "reference.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

mf_status ref_hull_load(const mf_bank *bank, uint32_t shape, ref_hull *hull)
{
    *hull = (ref_hull){0};
    mf_shape_geometry sizes = {0};
    mf_status status = mf_bank_shape_geometry(bank, shape, &sizes);
    if (status != MF_OK) return status;
    uint32_t vertex_count = sizes.vertex_count, face_count = sizes.face_count, edge_count = sizes.edge_count;
    hull->vertex_count = vertex_count;
    hull->face_count = face_count;
    hull->edge_count = edge_count;
    mf_shape_geometry g = {
        .vertices = malloc(vertex_count * sizeof(mf_vec3)),
        .vertex_capacity = vertex_count,
        .face_first = malloc(face_count * sizeof(uint32_t)),
        .face_size = malloc(face_count * sizeof(uint32_t)),
        .face_capacity = face_count,
        .loop_vertices = malloc(sizes.loop_count * sizeof(uint32_t)),
        .loop_capacity = sizes.loop_count,
        .edges = malloc(edge_count * sizeof(mf_edge_info)),
        .edge_capacity = edge_count,
    };
    hull->vertices = malloc(vertex_count * 3 * sizeof(double));
    hull->normals = malloc(face_count * 3 * sizeof(double));
    hull->offsets = malloc(face_count * sizeof(double));
    hull->edges = malloc(edge_count * 2 * sizeof(uint32_t));
    hull->edge_faces = malloc(edge_count * 2 * sizeof(uint32_t));
    if (g.vertices == NULL || g.face_first == NULL || g.face_size == NULL || g.loop_vertices == NULL ||
        g.edges == NULL || hull->vertices == NULL || hull->normals == NULL || hull->offsets == NULL ||
        hull->edges == NULL || hull->edge_faces == NULL)
        status = MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK) status = mf_bank_shape_geometry(bank, shape, &g);
    for (uint32_t i = 0; i < vertex_count && status == MF_OK; ++i) {
        double *v = hull->vertices + 3 * i;
        v[0] = g.vertices[i].x;
        v[1] = g.vertices[i].y;
        v[2] = g.vertices[i].z;
        hull->radius = fmax(hull->radius, sqrt(dot3(v, v)));
        for (int c = 0; c < 3; ++c) hull->center[c] += v[c] / vertex_count;
    }

    // Newell's normal of each loop, about the loop's first vertex; offset = support over all vertices.
    hull->inradius = INFINITY;
    for (uint32_t f = 0; f < face_count && status == MF_OK; ++f) {
        const uint32_t *loop = g.loop_vertices + g.face_first[f];
        uint32_t count = g.face_size[f];
        double n[3] = {0, 0, 0};
        const double *origin = hull->vertices + 3 * loop[0];
        for (uint32_t k = 0; k < count; ++k) {
            const double *p = hull->vertices + 3 * loop[k], *q = hull->vertices + 3 * loop[(k + 1) % count];
            double dp[3] = {p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]};
            double dq[3] = {q[0] - origin[0], q[1] - origin[1], q[2] - origin[2]}, c[3];
            cross3(dp, dq, c);
            for (int i = 0; i < 3; ++i) n[i] += c[i];
        }
        double length = sqrt(dot3(n, n));
        double *normal = hull->normals + 3 * f;
        for (int i = 0; i < 3; ++i) normal[i] = length > 0.0 ? n[i] / length : 0.0;
        double offset = -INFINITY;
        for (uint32_t i = 0; i < vertex_count; ++i) offset = fmax(offset, dot3(normal, hull->vertices + 3 * i));
        hull->offsets[f] = offset;
        hull->inradius = fmin(hull->inradius, offset - dot3(normal, hull->center));
    }
    // A hair smaller than measured: the ball bound only ever prunes axes, it must stay conservative.
    hull->inradius = fmax(0.0, hull->inradius * (1.0 - 1e-9) - 1e-12 * hull->radius);
    for (uint32_t e = 0; e < edge_count && status == MF_OK; ++e) {
        hull->edges[2 * e] = g.edges[e].vertex0;
        hull->edges[2 * e + 1] = g.edges[e].vertex1;
        hull->edge_faces[2 * e] = g.edges[e].face0;
        hull->edge_faces[2 * e + 1] = g.edges[e].face1;
    }
    free(g.vertices);
    free(g.face_first);
    free(g.face_size);
    free(g.loop_vertices);
    free(g.edges);
    if (status != MF_OK) ref_hull_free(hull);
    return status;
}

void ref_hull_free(ref_hull *hull)
{
    free(hull->vertices);
    free(hull->normals);
    free(hull->offsets);
    free(hull->edges);
    free(hull->edge_faces);
    *hull = (ref_hull){0};
}

mf_status ref_hull_scaled(const ref_hull *hull, double scale, ref_hull *scaled)
{
    *scaled = *hull;
    scaled->vertices = malloc(hull->vertex_count * 3 * sizeof(double));
    scaled->normals = malloc(hull->face_count * 3 * sizeof(double));
    scaled->offsets = malloc(hull->face_count * sizeof(double));
    scaled->edges = malloc(hull->edge_count * 2 * sizeof(uint32_t));
    scaled->edge_faces = malloc(hull->edge_count * 2 * sizeof(uint32_t));
    if (scaled->vertices == NULL || scaled->normals == NULL || scaled->offsets == NULL || scaled->edges == NULL ||
        scaled->edge_faces == NULL) {
        ref_hull_free(scaled);
        return MF_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < 3 * hull->vertex_count; ++i) scaled->vertices[i] = hull->vertices[i] * scale;
    memcpy(scaled->normals, hull->normals, hull->face_count * 3 * sizeof(double));
    for (uint32_t f = 0; f < hull->face_count; ++f) scaled->offsets[f] = hull->offsets[f] * scale;
    memcpy(scaled->edges, hull->edges, hull->edge_count * 2 * sizeof(uint32_t));
    memcpy(scaled->edge_faces, hull->edge_faces, hull->edge_count * 2 * sizeof(uint32_t));
    scaled->radius = hull->radius * scale;
    scaled->inradius = hull->inradius * scale;
    for (int c = 0; c < 3; ++c) scaled->center[c] = hull->center[c] * scale;
    return MF_OK;
}

ref_pose ref_pose_make(mf_transform t)
{
    double x = t.q.x, y = t.q.y, z = t.q.z, w = t.q.w;
    double length = sqrt(x * x + y * y + z * z + w * w);
    x /= length, y /= length, z /= length, w /= length;
    ref_pose pose = {.rotation = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                                  {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                                  {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}},
                     .position = {t.p.x, t.p.y, t.p.z}};
    return pose;
}

void ref_pose_apply(const ref_pose *pose, const double local[3], double world[3])
{
    for (int i = 0; i < 3; ++i) world[i] = dot3(pose->rotation[i], local) + pose->position[i];
}

static void rotate(const ref_pose *pose, const double local[3], double world[3])
{
    for (int i = 0; i < 3; ++i) world[i] = dot3(pose->rotation[i], local);
}

ref_pair *ref_pair_create(void)
{
    ref_pair *pair = calloc(1, sizeof(ref_pair));
    if (pair == NULL) return NULL;
    pair->capacity_vertices = MF_MAX_HULL_VERTICES;
    pair->capacity_faces = MF_MAX_HULL_FACES;
    pair->capacity_edges = MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES; // Euler: E = V + F - 2
    int ok = 1;
    for (int h = 0; h < 2; ++h) {
        pair->x[h] = malloc(pair->capacity_vertices * sizeof(double));
        pair->y[h] = malloc(pair->capacity_vertices * sizeof(double));
        pair->z[h] = malloc(pair->capacity_vertices * sizeof(double));
        pair->normal[h] = malloc(pair->capacity_faces * 3 * sizeof(double));
        pair->edge[h] = malloc(pair->capacity_edges * 3 * sizeof(double));
        ok &= pair->x[h] != NULL && pair->y[h] != NULL && pair->z[h] != NULL && pair->normal[h] != NULL &&
              pair->edge[h] != NULL;
    }
    if (!ok) {
        ref_pair_destroy(pair);
        return NULL;
    }
    return pair;
}

void ref_pair_destroy(ref_pair *pair)
{
    if (pair == NULL) return;
    for (int h = 0; h < 2; ++h) {
        free(pair->x[h]);
        free(pair->y[h]);
        free(pair->z[h]);
        free(pair->normal[h]);
        free(pair->edge[h]);
    }
    free(pair);
}

void ref_pair_set(ref_pair *pair, const ref_hull *a, mf_transform transform_a, const ref_hull *b,
                  mf_transform transform_b)
{
    const ref_hull *hulls[2] = {a, b};
    mf_transform transforms[2] = {transform_a, transform_b};
    for (int h = 0; h < 2; ++h) {
        const ref_hull *hull = hulls[h];
        pair->hull[h] = hull;
        pair->pose[h] = ref_pose_make(transforms[h]);
        ref_pose_apply(&pair->pose[h], hull->center, pair->center[h]);
        for (uint32_t i = 0; i < hull->vertex_count; ++i) {
            double w[3];
            ref_pose_apply(&pair->pose[h], hull->vertices + 3 * i, w);
            pair->x[h][i] = w[0];
            pair->y[h][i] = w[1];
            pair->z[h][i] = w[2];
        }
        for (uint32_t f = 0; f < hull->face_count; ++f)
            rotate(&pair->pose[h], hull->normals + 3 * f, pair->normal[h] + 3 * f);
        for (uint32_t e = 0; e < hull->edge_count; ++e) {
            uint32_t v0 = hull->edges[2 * e], v1 = hull->edges[2 * e + 1];
            double d[3] = {pair->x[h][v1] - pair->x[h][v0], pair->y[h][v1] - pair->y[h][v0],
                           pair->z[h][v1] - pair->z[h][v0]};
            double length = sqrt(dot3(d, d));
            for (int c = 0; c < 3; ++c) pair->edge[h][3 * e + c] = d[c] / length;
        }
    }
}

// [min, max] of dot(u, v) over one hull's world vertices; the ternaries let the compiler vectorise.
static void extent(const ref_pair *pair, int h, const double u[3], double *low, double *high)
{
    const double *x = pair->x[h], *y = pair->y[h], *z = pair->z[h];
    double ux = u[0], uy = u[1], uz = u[2], lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < pair->hull[h]->vertex_count; ++i) {
        double d = ux * x[i] + uy * y[i] + uz * z[i];
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    *low = lo;
    *high = hi;
}

double ref_separation_along(const ref_pair *pair, const double n[3])
{
    double low_a, high_a, low_b, high_b;
    extent(pair, 0, n, &low_a, &high_a);
    extent(pair, 1, n, &low_b, &high_b);
    return low_b - high_a;
}

// Separation along the better orientation of unit axis u, *flip set when -u is the better one.
// Returns -INFINITY when the axis provably cannot exceed `floor`: each hull holds a ball of its
// inradius around its center, so its extent along u reaches at least that far either way.
static double axis_separation(const ref_pair *pair, const double u[3], double floor, int *flip)
{
    double center_a = dot3(u, pair->center[0]), center_b = dot3(u, pair->center[1]);
    double radius_a = pair->hull[0]->inradius, radius_b = pair->hull[1]->inradius;
    if (fabs(center_b - center_a) - radius_a - radius_b <= floor) return -INFINITY;
    double low_a, high_a, low_b, high_b;
    extent(pair, 0, u, &low_a, &high_a);
    if (center_b - radius_b - high_a <= floor && low_a - (center_b + radius_b) <= floor) return -INFINITY;
    extent(pair, 1, u, &low_b, &high_b);
    double forward = low_b - high_a, backward = low_a - high_b;
    *flip = backward > forward;
    return *flip ? backward : forward;
}

// Whether edge i of a and edge j of b build a face of the Minkowski difference a - b: the arc
// between the normals of a's edge faces crosses the arc between the negated normals of b's.
static int is_minkowski_face(const ref_pair *pair, uint32_t i, uint32_t j)
{
    const uint32_t *faces_a = pair->hull[0]->edge_faces + 2 * i, *faces_b = pair->hull[1]->edge_faces + 2 * j;
    const double *a = pair->normal[0] + 3 * faces_a[0], *b = pair->normal[0] + 3 * faces_a[1];
    double c[3], d[3], b_x_a[3], d_x_c[3];
    for (int k = 0; k < 3; ++k) {
        c[k] = -pair->normal[1][3 * faces_b[0] + k];
        d[k] = -pair->normal[1][3 * faces_b[1] + k];
    }
    cross3(b, a, b_x_a);
    cross3(d, c, d_x_c);
    double cba = dot3(c, b_x_a), dba = dot3(d, b_x_a), adc = dot3(a, d_x_c), bdc = dot3(b, d_x_c);
    return cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
}

static ref_axis best_axis(const ref_pair *pair, int gauss_map);

ref_axis ref_best_axis(const ref_pair *pair) { return best_axis(pair, 0); }
ref_axis ref_best_axis_gauss_map(const ref_pair *pair) { return best_axis(pair, 1); }

// Separation along unit u oriented from a to b as given (no choice of orientation).
static double oriented_separation(const ref_pair *pair, const double u[3])
{
    double low_a, high_a, low_b, high_b;
    extent(pair, 0, u, &low_a, &high_a);
    extent(pair, 1, u, &low_b, &high_b);
    return low_b - high_a;
}

// Gregorius' candidates with their own orientations: a face of a along its outward normal, a face
// of b against its outward normal, and a Minkowski-face edge pair along the normal that points out
// of a at its edge (between the normals of a's two edge faces).
static ref_axis best_axis_gauss_map(const ref_pair *pair)
{
    ref_axis best = {.separation = -INFINITY};
    for (int h = 0; h < 2; ++h) {
        for (uint32_t f = 0; f < pair->hull[h]->face_count; ++f) {
            const double *m = pair->normal[h] + 3 * f;
            double n[3] = {h == 0 ? m[0] : -m[0], h == 0 ? m[1] : -m[1], h == 0 ? m[2] : -m[2]};
            double s = oriented_separation(pair, n);
            if (s > best.separation) {
                best = (ref_axis){.separation = s,
                                  .normal = {n[0], n[1], n[2]},
                                  .kind = h == 0 ? REF_AXIS_FACE_A : REF_AXIS_FACE_B,
                                  .feature_a = h == 0 ? f : 0,
                                  .feature_b = h == 1 ? f : 0};
            }
        }
    }
    for (uint32_t i = 0; i < pair->hull[0]->edge_count; ++i) {
        const uint32_t *faces = pair->hull[0]->edge_faces + 2 * i;
        double outward[3];
        for (int c = 0; c < 3; ++c) outward[c] = pair->normal[0][3 * faces[0] + c] + pair->normal[0][3 * faces[1] + c];
        for (uint32_t j = 0; j < pair->hull[1]->edge_count; ++j) {
            double u[3];
            cross3(pair->edge[0] + 3 * i, pair->edge[1] + 3 * j, u);
            double length = sqrt(dot3(u, u));
            if (length < REF_PARALLEL_SINE || !is_minkowski_face(pair, i, j)) continue;
            double sign = dot3(u, outward) < 0.0 ? -1.0 : 1.0;
            for (int c = 0; c < 3; ++c) u[c] *= sign / length;
            double s = oriented_separation(pair, u);
            if (s > best.separation) {
                best = (ref_axis){.separation = s,
                                  .normal = {u[0], u[1], u[2]},
                                  .kind = REF_AXIS_EDGES,
                                  .feature_a = i,
                                  .feature_b = j};
            }
        }
    }
    return best;
}

static ref_axis best_axis(const ref_pair *pair, int gauss_map)
{
    if (gauss_map) return best_axis_gauss_map(pair);
    ref_axis best = {.separation = -INFINITY};
    for (int h = 0; h < 2; ++h) {
        for (uint32_t f = 0; f < pair->hull[h]->face_count; ++f) {
            const double *n = pair->normal[h] + 3 * f;
            int flip = 0;
            double s = axis_separation(pair, n, best.separation, &flip);
            if (s > best.separation) {
                best = (ref_axis){.separation = s,
                                  .kind = h == 0 ? REF_AXIS_FACE_A : REF_AXIS_FACE_B,
                                  .feature_a = h == 0 ? f : 0,
                                  .feature_b = h == 1 ? f : 0};
                for (int c = 0; c < 3; ++c) best.normal[c] = flip ? -n[c] : n[c];
            }
        }
    }
    for (uint32_t i = 0; i < pair->hull[0]->edge_count; ++i) {
        const double *edge_a = pair->edge[0] + 3 * i;
        for (uint32_t j = 0; j < pair->hull[1]->edge_count; ++j) {
            double u[3];
            cross3(edge_a, pair->edge[1] + 3 * j, u);
            double length = sqrt(dot3(u, u));
            if (length < REF_PARALLEL_SINE) continue;
            for (int c = 0; c < 3; ++c) u[c] /= length;
            int flip = 0;
            double s = axis_separation(pair, u, best.separation, &flip);
            if (s > best.separation) {
                best = (ref_axis){.separation = s, .kind = REF_AXIS_EDGES, .feature_a = i, .feature_b = j};
                for (int c = 0; c < 3; ++c) best.normal[c] = flip ? -u[c] : u[c];
            }
        }
    }
    return best;
}

static void world_vertex(const ref_pair *pair, int h, uint32_t v, double out[3])
{
    out[0] = pair->x[h][v];
    out[1] = pair->y[h][v];
    out[2] = pair->z[h][v];
}

// Distance between segments p1 q1 and p2 q2 (Ericson, Real-Time Collision Detection 5.1.9, in
// double): the lines' closest points clamped to the segments, each end recomputed.
static double segment_distance(const double p1[3], const double q1[3], const double p2[3], const double q2[3])
{
    double d1[3], d2[3], r[3];
    for (int k = 0; k < 3; ++k) d1[k] = q1[k] - p1[k], d2[k] = q2[k] - p2[k], r[k] = p1[k] - p2[k];
    double a = dot3(d1, d1), e = dot3(d2, d2), b = dot3(d1, d2), c = dot3(d1, r), f = dot3(d2, r);
    double denominator = a * e - b * b, s = 0.0, t;
    if (denominator > 1e-18 * a * e) s = fmin(fmax((b * f - c * e) / denominator, 0.0), 1.0);
    t = e > 0.0 ? (b * s + f) / e : 0.0;
    if (t < 0.0 || t > 1.0) {
        t = fmin(fmax(t, 0.0), 1.0);
        s = a > 0.0 ? fmin(fmax((b * t - c) / a, 0.0), 1.0) : 0.0;
    }
    double gap[3];
    for (int k = 0; k < 3; ++k) gap[k] = p1[k] + s * d1[k] - p2[k] - t * d2[k];
    return sqrt(dot3(gap, gap));
}

// Distance from a vertex to face f of hull h, if its foot on the face's plane lies inside the face
// (on the inner side of every edge of the face, as the face's vertex average is); else INFINITY.
static double face_distance(const ref_pair *pair, int h, uint32_t f, const double point[3])
{
    const ref_hull *hull = pair->hull[h];
    const double *n = pair->normal[h] + 3 * f;
    double center[3] = {0, 0, 0}, any[3] = {0, 0, 0};
    uint32_t corners = 0;
    for (uint32_t e = 0; e < hull->edge_count; ++e) {
        if (hull->edge_faces[2 * e] != f && hull->edge_faces[2 * e + 1] != f) continue;
        for (int end = 0; end < 2; ++end) { // each corner twice: the vertex average, strictly inside
            world_vertex(pair, h, hull->edges[2 * e + end], any);
            for (int k = 0; k < 3; ++k) center[k] += any[k];
            ++corners;
        }
    }
    for (int k = 0; k < 3; ++k) center[k] /= corners;
    double height = n[0] * (point[0] - any[0]) + n[1] * (point[1] - any[1]) + n[2] * (point[2] - any[2]);
    double foot[3] = {point[0] - height * n[0], point[1] - height * n[1], point[2] - height * n[2]};
    for (uint32_t e = 0; e < hull->edge_count; ++e) {
        if (hull->edge_faces[2 * e] != f && hull->edge_faces[2 * e + 1] != f) continue;
        double p[3], q[3], along[3], to_foot[3], to_center[3], side_foot[3], side_center[3];
        world_vertex(pair, h, hull->edges[2 * e], p);
        world_vertex(pair, h, hull->edges[2 * e + 1], q);
        for (int k = 0; k < 3; ++k)
            along[k] = q[k] - p[k], to_foot[k] = foot[k] - p[k], to_center[k] = center[k] - p[k];
        cross3(along, to_foot, side_foot);
        cross3(along, to_center, side_center);
        if (dot3(side_foot, n) * dot3(side_center, n) < 0.0) return INFINITY;
    }
    return fabs(height);
}

double ref_distance(const ref_pair *pair)
{
    double best = INFINITY, p[3], q[3], r[3], t[3];
    for (int h = 0; h < 2; ++h)
        for (uint32_t v = 0; v < pair->hull[h]->vertex_count; ++v) {
            world_vertex(pair, h, v, p);
            for (uint32_t f = 0; f < pair->hull[1 - h]->face_count; ++f)
                best = fmin(best, face_distance(pair, 1 - h, f, p));
        }
    const ref_hull *a = pair->hull[0], *b = pair->hull[1];
    for (uint32_t i = 0; i < a->edge_count; ++i) {
        world_vertex(pair, 0, a->edges[2 * i], p);
        world_vertex(pair, 0, a->edges[2 * i + 1], q);
        for (uint32_t j = 0; j < b->edge_count; ++j) {
            world_vertex(pair, 1, b->edges[2 * j], r);
            world_vertex(pair, 1, b->edges[2 * j + 1], t);
            best = fmin(best, segment_distance(p, q, r, t));
        }
    }
    return best;
}

double ref_signed_distance(const ref_hull *hull, const ref_pose *pose, const double world[3])
{
    double d[3] = {world[0] - pose->position[0], world[1] - pose->position[1], world[2] - pose->position[2]};
    double local[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c) local[c] += pose->rotation[i][c] * d[i]; // R^T d
    double distance = -INFINITY;
    for (uint32_t f = 0; f < hull->face_count; ++f)
        distance = fmax(distance, dot3(hull->normals + 3 * f, local) - hull->offsets[f]);
    return distance;
}

// Distance from a world point to the feature named by one half of a contact id (a vertex, an edge
// segment or a face plane of the hull); INFINITY when the half names no feature of the hull.
static double feature_distance(const ref_hull *hull, const ref_pose *pose, uint32_t feature, const double world[3])
{
    uint32_t kind = MF_FEATURE_KIND(feature), index = MF_FEATURE_INDEX(feature);
    double d[3] = {world[0] - pose->position[0], world[1] - pose->position[1], world[2] - pose->position[2]};
    double local[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c) local[c] += pose->rotation[i][c] * d[i];
    if (kind == MF_FEATURE_VERTEX && index < hull->vertex_count) {
        const double *v = hull->vertices + 3 * index;
        double e[3] = {local[0] - v[0], local[1] - v[1], local[2] - v[2]};
        return sqrt(dot3(e, e));
    }
    if (kind == MF_FEATURE_EDGE && index < hull->edge_count) {
        const double *p = hull->vertices + 3 * hull->edges[2 * index],
                     *q = hull->vertices + 3 * hull->edges[2 * index + 1];
        double pq[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]},
               px[3] = {local[0] - p[0], local[1] - p[1], local[2] - p[2]};
        double t = fmin(1.0, fmax(0.0, dot3(px, pq) / dot3(pq, pq)));
        double e[3] = {px[0] - t * pq[0], px[1] - t * pq[1], px[2] - t * pq[2]};
        return sqrt(dot3(e, e));
    }
    if (kind == MF_FEATURE_FACE && index < hull->face_count)
        return fabs(dot3(hull->normals + 3 * index, local) - hull->offsets[index]);
    return INFINITY;
}

// Records one violated rule; the first one is kept in `why`.
static void violation(int *violations, char *why, size_t why_size, const char *format, ...)
{
    if (*violations == 0 && why_size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(why, why_size, format, args);
        va_end(args);
    }
    ++*violations;
}

// The rules, per pair:
// - presence: a manifold iff the brute-force separation < margin (not judged within the band, nor
//   for separated pairs whose Gauss-map-only answer is below the margin while the unpruned one is not;
//   a speculative pair, separation >= 0, has none only if the hulls are not nearer than the margin);
// - the normal is unit and within linear_slop (+ tolerance) of the best axis' separation (the
//   Gauss-map-only best for separated pairs);
// - 1 <= count <= max_contacts, ids distinct;
// - each contact is finite, separation < margin and not deeper than the separation along the normal
//   allows, and point -/+ separation/2 * normal lies on a's / b's surface, on the features its id names.
int ref_check_pair(const ref_pair *pair, const mf_config *config, const mf_manifold *manifold,
                   const mf_contact *contacts, ref_stats *stats, char *why, size_t why_size)
{
    int violations = 0;
    if (why_size > 0) why[0] = '\0';
    const ref_hull *a = pair->hull[0], *b = pair->hull[1];
    ref_axis best = ref_best_axis(pair);
    double margin = config->margin, size = a->radius + b->radius;
    double separation_tolerance = REF_SEPARATION_TOLERANCE * size;
    double surface_size = fmax(a->radius, b->radius);
    ++stats->pairs;
    stats->ambiguity_band = REF_AMBIGUITY_BAND;

    // Separated hulls: the SAT of the literature (Gregorius) only tries Minkowski-face edge pairs,
    // and other edge pairs can separate more. Where the two answers straddle the margin either
    // presence is right; the normal is held to the Gauss-map answer.
    ref_axis sat = best;
    if (best.separation > 0.0) {
        sat = ref_best_axis_gauss_map(pair);
        stats->gauss_map_smaller += best.separation - sat.separation > REF_AMBIGUITY_BAND;
    }
    int straddles = sat.separation < margin - REF_AMBIGUITY_BAND && best.separation >= margin;
    stats->candidate_ambiguous += straddles;
    // A speculative pair (separation >= 0) whose hulls are not nearer than the margin gets no
    // manifold: the true distance decides, measured here exactly when the kernel gave none.
    int speculative_exception = 0;
    if (manifold == NULL && sat.separation >= -REF_AMBIGUITY_BAND && sat.separation < margin - REF_AMBIGUITY_BAND) {
        double distance = ref_distance(pair);
        speculative_exception = distance >= margin - REF_AMBIGUITY_BAND;
        stats->speculative_without_manifold += speculative_exception;
        if (!speculative_exception)
            violation(&violations, why, why_size,
                      "presence: the hulls are %.9g apart (separation %.9g), nearer than the margin %g, but the "
                      "kernel gave no manifold",
                      distance, sat.separation, margin);
    }
    if (fabs(best.separation - margin) < REF_AMBIGUITY_BAND || fabs(sat.separation - margin) < REF_AMBIGUITY_BAND) {
        ++stats->ambiguous;
    } else if (straddles || speculative_exception) {
        // either answer is a correct SAT; or a speculative pair that is farther apart than the axes say
    } else if ((best.separation < margin) != (manifold != NULL)) {
        violation(&violations, why, why_size,
                  "presence: brute-force separation %.9g (Gauss-map only %.9g; axis %s %u/%u, normal %.6f %.6f %.6f) "
                  "vs margin %g, but the kernel gave %s",
                  best.separation, sat.separation,
                  best.kind == REF_AXIS_EDGES    ? "edges"
                  : best.kind == REF_AXIS_FACE_A ? "face a"
                                                 : "face b",
                  best.feature_a, best.feature_b, best.normal[0], best.normal[1], best.normal[2], margin,
                  manifold != NULL ? "a manifold" : "none");
    }
    if (manifold == NULL) {
        stats->failed_pairs += violations != 0;
        return violations;
    }

    ++stats->touching;
    stats->contacts += manifold->count;
    stats->edge_axes += best.kind == REF_AXIS_EDGES;
    double n[3] = {manifold->normal.x, manifold->normal.y, manifold->normal.z};
    double length = sqrt(dot3(n, n));
    stats->max_normal_length_error = fmax(stats->max_normal_length_error, fabs(length - 1.0));
    if (!(fabs(length - 1.0) <= 1e-5)) {
        violation(&violations, why, why_size, "normal (%.9g %.9g %.9g) has length %.9g", n[0], n[1], n[2], length);
    }
    if (length > 0.0)
        for (int c = 0; c < 3; ++c) n[c] /= length;
    double along = ref_separation_along(pair, n);
    double deficit = sat.separation - along;
    stats->max_normal_deficit = fmax(stats->max_normal_deficit, deficit);
    if (!(deficit <= config->linear_slop + separation_tolerance)) {
        violation(&violations, why, why_size,
                  "normal (%.6f %.6f %.6f) separates by %.9g but the best axis (%.6f %.6f %.6f) by %.9g: "
                  "deficit %.3g > slop %g",
                  n[0], n[1], n[2], along, sat.normal[0], sat.normal[1], sat.normal[2], sat.separation, deficit,
                  (double)config->linear_slop);
    }
    if (manifold->count < 1 || manifold->count > config->max_contacts) {
        violation(&violations, why, why_size, "manifold has %u contacts, max_contacts is %u", manifold->count,
                  config->max_contacts);
    }

    for (uint32_t k = 0; k < manifold->count && k < MF_MAX_CONTACTS; ++k) {
        const mf_contact *c = &contacts[k];
        double s = c->separation;
        double p[3] = {c->point.x, c->point.y, c->point.z};
        if (!isfinite(s) || !isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            violation(&violations, why, why_size, "contact %u is not finite", k);
            continue;
        }
        if (!(s < margin))
            violation(&violations, why, why_size, "contact %u separation %.9g >= margin %g", k, s, margin);
        double excess = along - s;
        stats->max_depth_excess = fmax(stats->max_depth_excess, excess);
        if (!(excess <= separation_tolerance)) {
            violation(&violations, why, why_size,
                      "contact %u separation %.9g is deeper than the separation along the normal, %.9g", k, s, along);
        }
        double on_a[3], on_b[3];
        for (int i = 0; i < 3; ++i) {
            on_a[i] = p[i] - 0.5 * s * n[i];
            on_b[i] = p[i] + 0.5 * s * n[i];
        }
        double distance_a = ref_signed_distance(a, &pair->pose[0], on_a);
        double distance_b = ref_signed_distance(b, &pair->pose[1], on_b);
        double error = fmax(fabs(distance_a), fabs(distance_b)) / surface_size;
        stats->max_surface_error = fmax(stats->max_surface_error, error);
        if (!(error <= REF_SURFACE_TOLERANCE)) {
            violation(&violations, why, why_size,
                      "contact %u (%.7g %.7g %.7g, separation %.7g, id %08x) is %.3g off a's surface and %.3g off "
                      "b's once pushed apart",
                      k, p[0], p[1], p[2], s, c->id, distance_a, distance_b);
        }
        // Each half of the id names a feature of its hull that holds the pushed-apart point.
        double feature_a = feature_distance(a, &pair->pose[0], MF_ID_FEATURE_A(c->id), on_a);
        double feature_b = feature_distance(b, &pair->pose[1], MF_ID_FEATURE_B(c->id), on_b);
        double feature_error = fmax(feature_a, feature_b) / surface_size;
        stats->max_feature_error = fmax(stats->max_feature_error, feature_error);
        if (!(feature_error <= REF_SURFACE_TOLERANCE)) {
            violation(&violations, why, why_size,
                      "contact %u (%.7g %.7g %.7g) id %08x: a's feature (kind %u index %u) is %.3g from the point on "
                      "a, b's feature (kind %u index %u) %.3g from the point on b",
                      k, p[0], p[1], p[2], c->id, MF_FEATURE_KIND(MF_ID_FEATURE_A(c->id)),
                      MF_FEATURE_INDEX(MF_ID_FEATURE_A(c->id)), feature_a, MF_FEATURE_KIND(MF_ID_FEATURE_B(c->id)),
                      MF_FEATURE_INDEX(MF_ID_FEATURE_B(c->id)), feature_b);
        }
        for (uint32_t j = 0; j < k; ++j)
            if (contacts[j].id == c->id)
                violation(&violations, why, why_size, "contacts %u and %u share id %08x", j, k, c->id);
    }
    stats->failed_pairs += violations != 0;
    return violations;
}

void ref_stats_print(const char *label, const ref_stats *stats)
{
    printf("%s: pairs %llu, ambiguous %llu (within %g of the margin), touching %llu, contacts %llu, edge axes %llu, "
           "separated with a smaller Gauss-map answer %llu (straddling the margin %llu), speculative without a "
           "manifold %llu, failed %llu; worst surface error %.3g (x hull radius), worst normal deficit %.3g, worst "
           "depth excess "
           "%.3g, worst normal length error %.3g, worst feature distance %.3g (x hull radius)\n",
           label, (unsigned long long)stats->pairs, (unsigned long long)stats->ambiguous, stats->ambiguity_band,
           (unsigned long long)stats->touching, (unsigned long long)stats->contacts,
           (unsigned long long)stats->edge_axes, (unsigned long long)stats->gauss_map_smaller,
           (unsigned long long)stats->candidate_ambiguous, (unsigned long long)stats->speculative_without_manifold,
           (unsigned long long)stats->failed_pairs, stats->max_surface_error, stats->max_normal_deficit,
           stats->max_depth_excess, stats->max_normal_length_error, stats->max_feature_error);
}

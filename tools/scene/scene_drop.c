// Settling by exact first contact. Lowering convex `above` onto convex `below`, the bodies first
// touch where a vertex meets a face or an edge crosses an edge (degenerate contacts contain such a
// point too). Every such event at height t means they share a point at t, and the heights where
// they share a point form one interval, so the first contact is the largest event height:
//   - a vertex of `above` over the top surface of `below` (a vertical line's span in `below`),
//   - a vertex of `below` under the bottom surface of `above`,
//   - an upper edge of `below` crossing a lower edge of `above` seen from above.
// Only + - * / are used, in double: the same scene on every machine.
#include "scene_drop.h"

#include <math.h>
#include <stdlib.h>

#define VERTICAL 1e-9 // a face normal with |y| below this is vertical: it bounds x and z only
#define TOUCH 1e-7    // metres: points this close to a shadow's boundary still count as inside

mf_status scene_drop_body_create(scene_drop_body *body, uint32_t vertex_capacity, uint32_t face_capacity)
{
    *body = (scene_drop_body){.vertex_capacity = vertex_capacity, .face_capacity = face_capacity};
    body->vertices = malloc((vertex_capacity + 1) * sizeof(*body->vertices));
    body->planes = malloc((face_capacity + 1) * sizeof(*body->planes));
    if (body->vertices == NULL || body->planes == NULL) {
        scene_drop_body_free(body);
        return MF_ERR_OUT_OF_MEMORY;
    }
    return MF_OK;
}

void scene_drop_body_free(scene_drop_body *body)
{
    free(body->vertices);
    free(body->planes);
    *body = (scene_drop_body){0};
}

// q v q* for a unit q, as v + 2w (u x v) + 2 u x (u x v) with u the vector part.
static void rotate(const double q[4], const double v[3], double out[3])
{
    double t[3] = {2.0 * (q[1] * v[2] - q[2] * v[1]), 2.0 * (q[2] * v[0] - q[0] * v[2]),
                   2.0 * (q[0] * v[1] - q[1] * v[0])};
    out[0] = v[0] + q[3] * t[0] + (q[1] * t[2] - q[2] * t[1]);
    out[1] = v[1] + q[3] * t[1] + (q[2] * t[0] - q[0] * t[2]);
    out[2] = v[2] + q[3] * t[2] + (q[0] * t[1] - q[1] * t[0]);
}

void scene_drop_pose(scene_drop_body *body, const scene_geometry *shape, mf_transform transform)
{
    const mf_quat r = transform.q;
    double length = sqrt((double)r.x * r.x + (double)r.y * r.y + (double)r.z * r.z + (double)r.w * r.w);
    const double q[4] = {r.x / length, r.y / length, r.z / length, r.w / length};
    const double p[3] = {transform.p.x, transform.p.y, transform.p.z};
    body->shape = shape;
    for (int k = 0; k < 3; ++k) body->low[k] = INFINITY, body->high[k] = -INFINITY;
    for (uint32_t i = 0; i < shape->vertex_count; ++i) {
        const double local[3] = {shape->vertices[i].x, shape->vertices[i].y, shape->vertices[i].z};
        double *world = body->vertices[i];
        rotate(q, local, world);
        for (int k = 0; k < 3; ++k) {
            world[k] += p[k];
            body->low[k] = world[k] < body->low[k] ? world[k] : body->low[k];
            body->high[k] = world[k] > body->high[k] ? world[k] : body->high[k];
        }
    }
    for (uint32_t f = 0; f < shape->face_count; ++f) {
        const double local[3] = {shape->normals[f].x, shape->normals[f].y, shape->normals[f].z};
        double *plane = body->planes[f];
        rotate(q, local, plane);
        plane[3] = shape->offsets[f] + plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2];
    }
}

// The vertical line through (x, z) meets the body in [*bottom, *top]; 0 when it misses.
static int vertical_span(const scene_drop_body *body, double x, double z, double *bottom, double *top)
{
    double low = -INFINITY, high = INFINITY;
    for (uint32_t f = 0; f < body->shape->face_count; ++f) {
        const double *plane = body->planes[f];
        double rest = plane[3] - plane[0] * x - plane[2] * z; // the face's half-space: y * ny <= rest
        if (plane[1] > VERTICAL) {
            double y = rest / plane[1];
            high = y < high ? y : high;
        } else if (plane[1] < -VERTICAL) {
            double y = rest / plane[1];
            low = y > low ? y : low;
        } else if (rest < -TOUCH) {
            return 0;
        }
    }
    if (!(low <= high + TOUCH)) return 0;
    *bottom = low;
    *top = high;
    return 1;
}

static int in_shadow_box(const scene_drop_body *body, const double *point)
{
    return point[0] >= body->low[0] - TOUCH && point[0] <= body->high[0] + TOUCH && point[2] >= body->low[2] - TOUCH &&
           point[2] <= body->high[2] + TOUCH;
}

// Whether the edge borders a face turned up (sign +1) or down (-1): only those can touch first.
static int edge_faces(const scene_drop_body *body, const mf_edge_info *edge, double sign)
{
    return sign * body->planes[edge->face0][1] > -VERTICAL || sign * body->planes[edge->face1][1] > -VERTICAL;
}

static int boxes_overlap_seen_from_above(const double *a0, const double *a1, const double *b0, const double *b1)
{
    double a_low_x = a0[0] < a1[0] ? a0[0] : a1[0], a_high_x = a0[0] < a1[0] ? a1[0] : a0[0];
    double a_low_z = a0[2] < a1[2] ? a0[2] : a1[2], a_high_z = a0[2] < a1[2] ? a1[2] : a0[2];
    double b_low_x = b0[0] < b1[0] ? b0[0] : b1[0], b_high_x = b0[0] < b1[0] ? b1[0] : b0[0];
    double b_low_z = b0[2] < b1[2] ? b0[2] : b1[2], b_high_z = b0[2] < b1[2] ? b1[2] : b0[2];
    return a_low_x <= b_high_x && b_low_x <= a_high_x && a_low_z <= b_high_z && b_low_z <= a_high_z;
}

// Where segment p0-p1 of `below` crosses segment q0-q1 of `above` seen from above: the height of
// the p point over the q point, or -INFINITY when they do not cross (or run parallel, which the
// vertex events cover).
static double crossing_height(const double *p0, const double *p1, const double *q0, const double *q1)
{
    double d1x = p1[0] - p0[0], d1z = p1[2] - p0[2], d2x = q1[0] - q0[0], d2z = q1[2] - q0[2];
    double wx = q0[0] - p0[0], wz = q0[2] - p0[2];
    double denominator = d1x * d2z - d1z * d2x;
    double scale = (fabs(d1x) + fabs(d1z)) * (fabs(d2x) + fabs(d2z));
    if (!(fabs(denominator) > 1e-12 * scale)) return -INFINITY;
    double s = (wx * d2z - wz * d2x) / denominator;
    double u = (wx * d1z - wz * d1x) / denominator;
    if (s < 0.0 || s > 1.0 || u < 0.0 || u > 1.0) return -INFINITY;
    return (p0[1] + s * (p1[1] - p0[1])) - (q0[1] + u * (q1[1] - q0[1]));
}

double scene_drop_height(const scene_drop_body *below, const scene_drop_body *above)
{
    if (below->high[0] < above->low[0] || above->high[0] < below->low[0] || below->high[2] < above->low[2] ||
        above->high[2] < below->low[2])
        return -INFINITY;
    double best = -INFINITY, bottom, top;
    for (uint32_t i = 0; i < above->shape->vertex_count; ++i) {
        const double *v = above->vertices[i];
        if (in_shadow_box(below, v) && vertical_span(below, v[0], v[2], &bottom, &top))
            best = top - v[1] > best ? top - v[1] : best;
    }
    for (uint32_t i = 0; i < below->shape->vertex_count; ++i) {
        const double *v = below->vertices[i];
        if (in_shadow_box(above, v) && vertical_span(above, v[0], v[2], &bottom, &top))
            best = v[1] - bottom > best ? v[1] - bottom : best;
    }
    const double shared_low[3] = {below->low[0] > above->low[0] ? below->low[0] : above->low[0], 0.0,
                                  below->low[2] > above->low[2] ? below->low[2] : above->low[2]};
    const double shared_high[3] = {below->high[0] < above->high[0] ? below->high[0] : above->high[0], 0.0,
                                   below->high[2] < above->high[2] ? below->high[2] : above->high[2]};
    for (uint32_t i = 0; i < below->shape->edge_count; ++i) {
        const mf_edge_info *e = &below->shape->edges[i];
        const double *p0 = below->vertices[e->vertex0], *p1 = below->vertices[e->vertex1];
        if (!edge_faces(below, e, 1.0) || !boxes_overlap_seen_from_above(p0, p1, shared_low, shared_high)) continue;
        for (uint32_t k = 0; k < above->shape->edge_count; ++k) {
            const mf_edge_info *f = &above->shape->edges[k];
            const double *q0 = above->vertices[f->vertex0], *q1 = above->vertices[f->vertex1];
            if (!edge_faces(above, f, -1.0) || !boxes_overlap_seen_from_above(p0, p1, q0, q1)) continue;
            double height = crossing_height(p0, p1, q0, q1);
            best = height > best ? height : best;
        }
    }
    return best;
}

// The hull bank's storage: its arrays, adding a polyhedron in stages (validate, planes, twins, mass
// properties, commit), removing a shape, and the views. The rows and fans a shape keeps for the
// lanes are written in bank_rows.c; what the API reads back of a shape in bank_info.c.
#include "bank.h"
#include "tolerances.h"

#include "bank_rows.h"
#include "core.h"
#include "mass.h"
#include "rows.h"
#include "scale.h"
#include "vec.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mf_status mf_bank_create(mf_bank **bank)
{
    if (bank == NULL) return MF_ERR_INVALID_ARGUMENT;
    *bank = calloc(1, sizeof(mf_bank));
    return *bank != NULL ? MF_OK : MF_ERR_OUT_OF_MEMORY;
}

void mf_bank_destroy(mf_bank *bank)
{
    if (bank == NULL) return;
    void *arrays[] = {bank->shapes,
                      bank->vertex_x,
                      bank->vertex_y,
                      bank->vertex_z,
                      bank->vertex_fan_first,
                      bank->vertex_fan_count,
                      bank->fan_edge,
                      bank->fan_other,
                      bank->fan_twin,
                      bank->fan_face,
                      bank->normal_x,
                      bank->normal_y,
                      bank->normal_z,
                      bank->offset,
                      bank->face_loop_first,
                      bank->face_loop_count,
                      bank->loop_vertex,
                      bank->loop_edge,
                      bank->edge_vertex0,
                      bank->edge_vertex1,
                      bank->edge_face0,
                      bank->edge_face1,
                      bank->edge_x,
                      bank->edge_y,
                      bank->edge_z,
                      bank->rows,
                      bank->views};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); ++i) free(arrays[i]);
    free(bank);
}

uint32_t mf_bank_shape_count(const mf_bank *bank) { return bank != NULL ? bank->shape_count : 0; }

const char *mf_bank_message(const mf_bank *bank) { return bank != NULL ? bank->message : "no bank"; }

mf_status mf_bank_fail(mf_bank *bank, mf_status status, const char *format, ...)
{
    if (bank->message[0] != '\0') return status;
    va_list args;
    va_start(args, format);
    vsnprintf(bank->message, sizeof(bank->message), format, args);
    va_end(args);
    return status;
}

// Grows every array of one group to hold `needed` elements. On failure the arrays that did grow
// keep their new size, which is harmless: the group's capacity only changes when all succeeded.
// Every array has MF_BANK_PAD zeros past its capacity, and zeros in the capacity not yet used:
// a register loaded at a shape's last elements stays in the allocation and reads no garbage.
static int grow_group(void **arrays[], const size_t element_sizes[], int array_count, uint32_t *capacity,
                      uint32_t needed)
{
    if (needed <= *capacity) return 1;
    uint32_t new_capacity = *capacity < 64 ? 64 : *capacity;
    while (new_capacity < needed) new_capacity = new_capacity > UINT32_MAX / 2 ? needed : new_capacity * 2;
    for (int i = 0; i < array_count; ++i) {
        void *grown = realloc(*arrays[i], ((size_t)new_capacity + MF_BANK_PAD) * element_sizes[i]);
        if (grown == NULL) return 0;
        memset((char *)grown + (size_t)*capacity * element_sizes[i], 0,
               ((size_t)new_capacity + MF_BANK_PAD - *capacity) * element_sizes[i]);
        *arrays[i] = grown;
    }
    *capacity = new_capacity;
    return 1;
}

// The bank's arrays in groups that grow together, each group's arrays indexed alike: shapes,
// vertices, faces, loops (and fans), edges, rows.
enum { GROUPS = 6, GROUP_ARRAYS = 7 };

typedef struct array_group {
    void **arrays[GROUP_ARRAYS];
    size_t sizes[GROUP_ARRAYS];
    int count;
    uint32_t *used, *capacity;
} array_group;

static void bank_groups(mf_bank *b, array_group g[GROUPS])
{
    g[0] = (array_group){{(void **)&b->shapes, (void **)&b->views},
                         {sizeof(mf_shape), sizeof(mf_hull_view)},
                         2,
                         &b->shape_count,
                         &b->shape_capacity};
    g[1] = (array_group){{(void **)&b->vertex_x, (void **)&b->vertex_y, (void **)&b->vertex_z,
                          (void **)&b->vertex_fan_first, (void **)&b->vertex_fan_count},
                         {4, 4, 4, 4, 2},
                         5,
                         &b->vertex_count,
                         &b->vertex_capacity};
    g[2] = (array_group){{(void **)&b->normal_x, (void **)&b->normal_y, (void **)&b->normal_z, (void **)&b->offset,
                          (void **)&b->face_loop_first, (void **)&b->face_loop_count},
                         {4, 4, 4, 4, 4, 2},
                         6,
                         &b->face_count,
                         &b->face_capacity};
    g[3] = (array_group){{(void **)&b->loop_vertex, (void **)&b->loop_edge, (void **)&b->fan_edge,
                          (void **)&b->fan_other, (void **)&b->fan_twin, (void **)&b->fan_face},
                         {2, 2, 2, 2, 2, 2},
                         6,
                         &b->loop_count,
                         &b->loop_capacity};
    g[4] = (array_group){{(void **)&b->edge_vertex0, (void **)&b->edge_vertex1, (void **)&b->edge_face0,
                          (void **)&b->edge_face1, (void **)&b->edge_x, (void **)&b->edge_y, (void **)&b->edge_z},
                         {2, 2, 2, 2, 4, 4, 4},
                         7,
                         &b->edge_count,
                         &b->edge_capacity};
    g[5] = (array_group){{(void **)&b->rows}, {sizeof(float)}, 1, &b->row_count, &b->row_capacity};
}

// Every live shape's view, built again: after the arrays moved or shapes moved within them.
static void rebuild_views(mf_bank *b)
{
    for (uint32_t shape = 0; shape < b->shape_count; ++shape)
        b->views[shape] = b->shapes[shape].serial != 0 ? mf_bank_view(b, shape) : (mf_hull_view){0};
}

static int reserve(mf_bank *b, uint32_t vertices, uint32_t faces, uint32_t loops, uint32_t edges, uint32_t rows)
{
    array_group groups[GROUPS];
    bank_groups(b, groups);
    // A new shape takes a free id where there is one, else the next.
    const uint32_t needed[GROUPS] = {b->shape_count + (b->free_ids == 0),
                                     b->vertex_count + vertices,
                                     b->face_count + faces,
                                     b->loop_count + loops,
                                     b->edge_count + edges,
                                     b->row_count + rows};
    uint32_t before[GROUPS], after[GROUPS];
    int grown = 1;
    for (int k = 0; k < GROUPS; ++k) before[k] = *groups[k].capacity;
    for (int k = 0; k < GROUPS && grown; ++k)
        grown = grow_group(groups[k].arrays, groups[k].sizes, groups[k].count, groups[k].capacity, needed[k]);
    for (int k = 0; k < GROUPS; ++k) after[k] = *groups[k].capacity;
    // Arrays that grew may have moved, a failed group's first arrays too: the views follow them.
    if (!grown || memcmp(before, after, sizeof before) != 0) rebuild_views(b);
    return grown;
}

// A directed edge of a face loop, sorted by its undirected key to find twins.
typedef struct directed_edge {
    uint32_t key; // low vertex << 16 | high vertex
    uint16_t from, to, face, loop_index;
} directed_edge;

static int compare_directed(const void *a, const void *b)
{
    const directed_edge *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->from < y->from ? -1 : (x->from > y->from);
}

// Groups the edges of an 8-vertex, 12-edge hull by direction; a parallelepiped has three groups
// of four, and then every vertex lies on one edge of each group.
static void find_parallelepiped(mf_bank *bank, mf_shape *s)
{
    s->parallelepiped = 0;
    if (s->vertex_count != 8 || s->edge_count != 12) return;
    uint32_t group_size[3] = {0, 0, 0}, groups = 0;
    for (uint32_t e = 0; e < 12; ++e) {
        uint32_t g = s->edge_first + e;
        mf_vec3 direction = {bank->edge_x[g], bank->edge_y[g], bank->edge_z[g]};
        uint32_t k = 0;
        while (k < groups && mf_length(mf_cross(direction, s->directions[k])) > MF_SAME_DIRECTION_SINE) ++k;
        if (k == groups) {
            if (groups == 3) return;
            s->directions[groups++] = direction;
        }
        if (group_size[k] == 4) return;
        s->direction_edges[k][group_size[k]++] = (uint16_t)e;
    }
    s->parallelepiped = groups == 3;
}

// The unit direction of an edge as the Gauss-map test reads it (sat.h): normal0 x normal1, which
// runs vertex0 -> vertex1 on a convex edge, where the two faces meet at an angle; the vertices'
// direction where they are nearly parallel or nearly opposite (slivers, thin hulls), and the cross
// product has no direction left. The vertices alone will not do: merged faces are planar only to
// 1e-3 of the radius, so a tiny edge can point well out of its faces' planes.
static mf_vec3 edge_direction(const mf_bank *bank, uint32_t face0, uint32_t face1, mf_vec3 from, mf_vec3 to)
{
    const double n0[3] = {bank->normal_x[face0], bank->normal_y[face0], bank->normal_z[face0]};
    const double n1[3] = {bank->normal_x[face1], bank->normal_y[face1], bank->normal_z[face1]};
    const double c[3] = {n0[1] * n1[2] - n0[2] * n1[1], n0[2] * n1[0] - n0[0] * n1[2], n0[0] * n1[1] - n0[1] * n1[0]};
    double length = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (length < MF_EDGE_ARC_SINE) return mf_normalize(mf_sub(to, from));
    return (mf_vec3){(float)(c[0] / length), (float)(c[1] / length), (float)(c[2] / length)};
}

// Adding a polyhedron runs in stages (mf_bank_add_polyhedron, below): validate, planes, twins,
// mass properties, commit. Every stage before the commit writes only into the room reserve() made
// past the bank's counts, so an add that fails leaves the bank as it was.

// What validation learns of a polyhedron: the counts it implies and the reach of its vertices.
typedef struct polyhedron_measure {
    uint32_t loop_count, edge_count;
    float radius, extent; // the largest |vertex| and the largest |coordinate|
    mf_vec3 low, high;    // the box of the vertices
} polyhedron_measure;

// Stage 1, validate: the counts within the limits, every face a polygon, the faces able to close a
// solid (one twin per directed edge, Euler's formula), every vertex finite. Measures the vertices.
static mf_status validate_polyhedron(mf_bank *bank, const mf_polyhedron *poly, polyhedron_measure *measure)
{
    uint32_t vertex_count = poly->vertex_count, face_count = poly->face_count;
    if (vertex_count < 4 || face_count < 4)
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                            "the hull has %u vertices and %u faces: a solid has at least 4 of each", vertex_count,
                            face_count);
    if (vertex_count > MF_MAX_HULL_VERTICES || face_count > MF_MAX_HULL_FACES)
        return mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE,
                            "the hull has %u vertices and %u faces: at most MF_MAX_HULL_VERTICES (%u) and "
                            "MF_MAX_HULL_FACES (%u)",
                            vertex_count, face_count, (unsigned)MF_MAX_HULL_VERTICES, (unsigned)MF_MAX_HULL_FACES);

    uint32_t loop_count = 0;
    for (uint32_t f = 0; f < face_count; ++f) {
        if (poly->loop_counts[f] < 3)
            return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL, "face %u has %u vertices: a face needs at least 3", f,
                                (unsigned)poly->loop_counts[f]);
        if (poly->loop_counts[f] > MF_MAX_FACE_VERTICES)
            return mf_bank_fail(bank, MF_ERR_HULL_TOO_LARGE,
                                "face %u has %u vertices: at most MF_MAX_FACE_VERTICES (%u) on one face", f,
                                (unsigned)poly->loop_counts[f], (unsigned)MF_MAX_FACE_VERTICES);
        loop_count += poly->loop_counts[f];
    }
    uint32_t edge_count = loop_count / 2;
    // A closed convex polyhedron has one twin per directed edge and satisfies Euler's formula.
    if (loop_count % 2 != 0 || vertex_count + face_count != edge_count + 2)
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                            "the faces do not close a solid: %u vertices, %u faces and %u face corners break "
                            "Euler's formula",
                            vertex_count, face_count, loop_count);

    float radius = 0.0f, extent = 0.0f;
    mf_vec3 low = poly->vertices[0], high = poly->vertices[0];
    for (uint32_t i = 0; i < vertex_count; ++i) {
        if (!mf_is_finite3(poly->vertices[i]))
            return mf_bank_fail(bank, MF_ERR_NONFINITE, "vertex %u is not finite", i);
        radius = fmaxf(radius, mf_length(poly->vertices[i]));
        mf_vec3 v = poly->vertices[i];
        extent = fmaxf(extent, fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z))));
        low = (mf_vec3){fminf(low.x, v.x), fminf(low.y, v.y), fminf(low.z, v.z)};
        high = (mf_vec3){fmaxf(high.x, v.x), fmaxf(high.y, v.y), fmaxf(high.z, v.z)};
    }
    *measure = (polyhedron_measure){loop_count, edge_count, radius, extent, low, high};
    return MF_OK;
}

// The new shape's ranges: after everything the bank holds, in every array.
static mf_shape shape_at_end(const mf_bank *bank, const mf_polyhedron *poly, const polyhedron_measure *measure,
                             const mf_row_blocks *blocks)
{
    mf_shape s = {
        .vertex_first = bank->vertex_count,
        .face_first = bank->face_count,
        .edge_first = bank->edge_count,
        .loop_first = bank->loop_count,
        .vertex_count = poly->vertex_count,
        .face_count = poly->face_count,
        .edge_count = measure->edge_count,
        .loop_count = measure->loop_count,
        .radius = measure->radius,
        .bounds_center = mf_scale(mf_add(measure->low, measure->high), 0.5f),
        .bounds_half = mf_scale(mf_sub(measure->high, measure->low), 0.5f),
        .input_points = poly->input_points,
        .welded_points = poly->welded_points,
        .merged_facets = poly->merged_facets,
    };
    mf_place_row_blocks(&s, blocks, bank->row_count);
    return s;
}

// Newell's normal of a face loop, robust for polygons that are only nearly planar: in double and
// relative to the first vertex, as a tiny facet far from the origin would cancel to nothing in
// float and its normal's squared length would underflow. 0 where the loop names a vertex beyond
// the polyhedron's or has no area.
static int newell_normal(const mf_polyhedron *poly, const uint16_t *loop, uint32_t n, mf_vec3 *normal)
{
    for (uint32_t k = 0; k < n; ++k)
        if (loop[k] >= poly->vertex_count) return 0;
    double nx = 0.0, ny = 0.0, nz = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
        mf_vec3 origin = poly->vertices[loop[0]], p = poly->vertices[loop[k]], q = poly->vertices[loop[(k + 1) % n]];
        double px = (double)p.x - origin.x, py = (double)p.y - origin.y, pz = (double)p.z - origin.z;
        double qx = (double)q.x - origin.x, qy = (double)q.y - origin.y, qz = (double)q.z - origin.z;
        nx += py * qz - pz * qy;
        ny += pz * qx - px * qz;
        nz += px * qy - py * qx;
    }
    double length = sqrt(nx * nx + ny * ny + nz * nz);
    if (!(length > 0.0)) return 0;
    *normal = (mf_vec3){(float)(nx / length), (float)(ny / length), (float)(nz / length)};
    return 1;
}

// Stage 2, planes: each face's plane, its loop, and its directed edges for the twins. The offset
// is the support over all vertices, so every plane touches the hull and none cuts into it.
static mf_status derive_planes(mf_bank *bank, const mf_polyhedron *poly, const mf_shape *s, directed_edge *directed)
{
    MF_ASSERT(s->face_first + s->face_count <= bank->face_capacity);
    MF_ASSERT(s->loop_first + s->loop_count <= bank->loop_capacity);
    uint32_t loop_at = 0;
    for (uint32_t f = 0; f < s->face_count; ++f) {
        const uint16_t *loop = poly->loops + loop_at;
        uint32_t n = poly->loop_counts[f];
        mf_vec3 normal;
        if (!newell_normal(poly, loop, n, &normal))
            return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                                "face %u is degenerate: a vertex index beyond the %u vertices, or no area", f,
                                s->vertex_count);
        float offset = -INFINITY;
        for (uint32_t i = 0; i < s->vertex_count; ++i) offset = fmaxf(offset, mf_dot(normal, poly->vertices[i]));
        // The face's own vertices must lie on that plane: this catches loops given clockwise.
        for (uint32_t k = 0; k < n; ++k)
            if (offset - mf_dot(normal, poly->vertices[loop[k]]) > MF_FACE_FLATNESS * s->radius)
                return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                                    "face %u is not convex or not counter-clockwise from outside", f);
        uint32_t g = s->face_first + f;
        bank->normal_x[g] = normal.x;
        bank->normal_y[g] = normal.y;
        bank->normal_z[g] = normal.z;
        bank->offset[g] = offset;
        bank->face_loop_first[g] = loop_at;
        bank->face_loop_count[g] = (uint16_t)n;
        for (uint32_t k = 0; k < n; ++k) {
            uint16_t from = loop[k], to = loop[(k + 1) % n];
            uint32_t lower = from < to ? from : to, higher = from < to ? to : from;
            directed[loop_at + k] =
                (directed_edge){lower << 16 | higher, from, to, (uint16_t)f, (uint16_t)(loop_at + k)};
            bank->loop_vertex[s->loop_first + loop_at + k] = from;
        }
        loop_at += n;
    }
    return MF_OK;
}

// Stage 3, twins: after sorting, each undirected edge appears exactly twice, once in each
// direction. Each pair becomes an edge: its vertices, its faces, its direction, and the loop
// corners that run along it.
static mf_status link_twins(mf_bank *bank, const mf_polyhedron *poly, const mf_shape *s, directed_edge *directed)
{
    MF_ASSERT(s->loop_count == 2 * s->edge_count);
    MF_ASSERT(s->edge_first + s->edge_count <= bank->edge_capacity);
    qsort(directed, s->loop_count, sizeof(directed_edge), compare_directed);
    for (uint32_t e = 0; e < s->edge_count; ++e) {
        directed_edge first = directed[2 * e], second = directed[2 * e + 1];
        int closed = first.key == second.key && first.from == second.to && first.to == second.from &&
                     first.from != first.to && (e + 1 == s->edge_count || directed[2 * e + 2].key != first.key);
        if (!closed)
            return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                                "the edge between vertices %u and %u does not join exactly two faces in opposite "
                                "directions: the faces do not close a solid",
                                (unsigned)first.from, (unsigned)first.to);
        uint32_t g = s->edge_first + e;
        mf_vec3 direction = edge_direction(bank, s->face_first + first.face, s->face_first + second.face,
                                           poly->vertices[first.from], poly->vertices[first.to]);
        bank->edge_vertex0[g] = first.from;
        bank->edge_vertex1[g] = first.to;
        bank->edge_face0[g] = first.face;
        bank->edge_face1[g] = second.face;
        bank->edge_x[g] = direction.x;
        bank->edge_y[g] = direction.y;
        bank->edge_z[g] = direction.z;
        bank->loop_edge[s->loop_first + first.loop_index] = (uint16_t)e;
        bank->loop_edge[s->loop_first + second.loop_index] = (uint16_t)e;
    }
    return MF_OK;
}

// Stage 4, mass properties: volume and centroid from the solid's integrals (mass.c, which
// mf_bank_shape_mass takes again), the scales a body of the shape may have, and the balls about
// the centroid that fit inside the hull and that hold it. Reads the planes (stage 2).
static mf_status measure_mass_properties(mf_bank *bank, const mf_polyhedron *poly, mf_shape *s, float extent)
{
    MF_ASSERT(s->face_first + s->face_count <= bank->face_capacity);
    mf_solid solid = mf_solid_of(poly->vertices, s->vertex_count, poly->loops, poly->loop_counts, s->face_count);
    // Flat, or so small that the volume has no normal float (about 2e-13 m across).
    float radius = s->radius;
    if (!(solid.volume > MF_FLAT_VOLUME * (double)radius * radius * radius) || !((float)solid.volume >= FLT_MIN))
        return mf_bank_fail(bank, MF_ERR_DEGENERATE_HULL,
                            "the hull's volume %g is too small for its radius %g: it must exceed %g radius^3 "
                            "(the points are nearly flat) and FLT_MIN",
                            solid.volume, (double)radius, MF_FLAT_VOLUME);
    s->volume = (float)solid.volume;
    s->centroid = mf_solid_center(&solid);
    mf_scale_limits(extent, s->volume, &s->scale_low, &s->scale_high);
    s->inner_radius = INFINITY;
    for (uint32_t f = s->face_first; f < s->face_first + s->face_count; ++f) {
        mf_vec3 normal = {bank->normal_x[f], bank->normal_y[f], bank->normal_z[f]};
        s->inner_radius = fminf(s->inner_radius, bank->offset[f] - mf_dot(normal, s->centroid));
    }
    s->inner_radius = fmaxf(0.0f, s->inner_radius * (1.0f - MF_LENGTH_NOISE));
    s->outer_radius = 0.0f;
    for (uint32_t i = 0; i < s->vertex_count; ++i)
        s->outer_radius = fmaxf(s->outer_radius, mf_length(mf_sub(poly->vertices[i], s->centroid)));
    s->outer_radius *= 1.0f + MF_LENGTH_NOISE;
    s->centroid_slack = mf_length(s->centroid) - s->inner_radius;
    return MF_OK;
}

// Stage 5, commit: the vertices stored and the shape counted in, under the lowest free id, else
// the next; serials skip 0, which marks a free id. Then what is derived from the stored arrays:
// the edges grouped by direction, the fans and rows (bank_rows.c), the view.
static mf_shape_id commit_shape(mf_bank *bank, const mf_polyhedron *poly, mf_shape *s)
{
    MF_ASSERT(s->vertex_first == bank->vertex_count && s->face_first == bank->face_count &&
              s->loop_first == bank->loop_count && s->edge_first == bank->edge_count &&
              s->block_first == bank->row_count);
    MF_ASSERT(bank->vertex_count + s->vertex_count <= bank->vertex_capacity &&
              bank->row_count + s->block_rows <= bank->row_capacity);
    MF_ASSERT(s->volume >= FLT_MIN);
    for (uint32_t i = 0; i < s->vertex_count; ++i) {
        bank->vertex_x[s->vertex_first + i] = poly->vertices[i].x;
        bank->vertex_y[s->vertex_first + i] = poly->vertices[i].y;
        bank->vertex_z[s->vertex_first + i] = poly->vertices[i].z;
    }
    bank->vertex_count += s->vertex_count;
    bank->face_count += s->face_count;
    bank->loop_count += s->loop_count;
    bank->edge_count += s->edge_count;
    bank->row_count += s->block_rows;
    find_parallelepiped(bank, s);
    uint32_t id = bank->shape_count;
    for (uint32_t k = 0; bank->free_ids > 0 && k < bank->shape_count && id == bank->shape_count; ++k)
        if (bank->shapes[k].serial == 0) id = k;
    if (id < bank->shape_count) --bank->free_ids;
    else ++bank->shape_count;
    MF_ASSERT(id < bank->shape_capacity);
    s->serial = ++bank->next_serial;
    if (s->serial == 0) s->serial = ++bank->next_serial;
    bank->shapes[id] = *s;
    mf_bank_write_rows(bank, id);
    bank->views[id] = mf_bank_view(bank, id);
    return id;
}

mf_status mf_bank_add_polyhedron(mf_bank *bank, const mf_polyhedron *poly, mf_shape_id *shape)
{
    polyhedron_measure measure = {0};
    mf_status status = validate_polyhedron(bank, poly, &measure);
    if (status != MF_OK) return status;
    uint32_t vertex_count = poly->vertex_count, face_count = poly->face_count;
    mf_row_blocks blocks = mf_row_blocks_of(vertex_count, face_count, measure.edge_count, measure.loop_count);
    directed_edge *directed = malloc(measure.loop_count * sizeof(directed_edge));
    if (directed == NULL ||
        !reserve(bank, vertex_count, face_count, measure.loop_count, measure.edge_count, blocks.total)) {
        free(directed);
        return mf_bank_fail(bank, MF_ERR_OUT_OF_MEMORY, "no memory for a hull of %u vertices and %u faces",
                            vertex_count, face_count);
    }
    mf_shape s = shape_at_end(bank, poly, &measure, &blocks);
    status = derive_planes(bank, poly, &s, directed);
    if (status == MF_OK) status = link_twins(bank, poly, &s, directed);
    free(directed);
    if (status == MF_OK) status = measure_mass_properties(bank, poly, &s, measure.extent);
    if (status != MF_OK) return status; // nothing was counted in: the bank is unchanged
    *shape = commit_shape(bank, poly, &s);
    return MF_OK;
}

// Closes the gap [first, first + count) of one group's arrays: what follows moves down, and the
// elements freed at the end are zeroed (grow_group's promise: zeros in the capacity not in use).
static void close_gap(const array_group *group, uint32_t first, uint32_t count)
{
    uint32_t used = *group->used;
    for (int i = 0; i < group->count; ++i) {
        char *array = *group->arrays[i];
        size_t size = group->sizes[i];
        memmove(array + first * size, array + ((size_t)first + count) * size, ((size_t)used - first - count) * size);
        memset(array + ((size_t)used - count) * size, 0, count * size);
    }
    *group->used = used - count;
}

// An offset into a group's arrays after the gap [first, first + count) closed: the ranges after it
// move down; UINT32_MAX (none) stays.
static uint32_t moved_down(uint32_t offset, uint32_t first, uint32_t count)
{
    return offset != UINT32_MAX && offset > first ? offset - count : offset;
}

mf_status mf_bank_remove_shape(mf_bank *bank, mf_shape_id shape)
{
    if (bank == NULL) return MF_ERR_INVALID_ARGUMENT;
    mf_bank_clear_message(bank);
    if (shape >= bank->shape_count)
        return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "shape %u is not in the bank: its ids run below %u", shape,
                            bank->shape_count);
    if (bank->shapes[shape].serial == 0)
        return mf_bank_fail(bank, MF_ERR_INVALID_ARGUMENT, "shape %u was removed already", shape);
    const mf_shape gone = bank->shapes[shape];
    array_group groups[GROUPS];
    bank_groups(bank, groups);
    // Every group but the shapes' own: vertices, faces, loops, edges, rows.
    const uint32_t first[GROUPS] = {
        0, gone.vertex_first, gone.face_first, gone.loop_first, gone.edge_first, gone.block_first};
    const uint32_t count[GROUPS] = {
        0, gone.vertex_count, gone.face_count, gone.loop_count, gone.edge_count, gone.block_rows};
    for (int k = 1; k < GROUPS; ++k) close_gap(&groups[k], first[k], count[k]);
    bank->shapes[shape] = (mf_shape){0};
    for (uint32_t id = 0; id < bank->shape_count; ++id) {
        mf_shape *s = &bank->shapes[id];
        if (s->serial == 0) continue;
        s->vertex_first = moved_down(s->vertex_first, first[1], count[1]);
        s->face_first = moved_down(s->face_first, first[2], count[2]);
        s->loop_first = moved_down(s->loop_first, first[3], count[3]);
        s->edge_first = moved_down(s->edge_first, first[4], count[4]);
        s->block_first = moved_down(s->block_first, first[5], count[5]);
        s->rows_first = moved_down(s->rows_first, first[5], count[5]);
        s->edge_rows_first = moved_down(s->edge_rows_first, first[5], count[5]);
        s->fan_rows_first = moved_down(s->fan_rows_first, first[5], count[5]);
        s->image_first = moved_down(s->image_first, first[5], count[5]);
        s->support_map_first = moved_down(s->support_map_first, first[5], count[5]);
    }
    // The highest ids, where free, leave the range; a free id below stays for the next add.
    ++bank->free_ids;
    while (bank->shape_count > 0 && bank->shapes[bank->shape_count - 1].serial == 0) {
        --bank->shape_count;
        --bank->free_ids;
    }
    rebuild_views(bank);
    return MF_OK;
}

mf_hull_view mf_bank_view(const mf_bank *bank, uint32_t shape)
{
    const mf_shape *s = &bank->shapes[shape];
    return (mf_hull_view){
        .vertex_x = bank->vertex_x + s->vertex_first,
        .vertex_y = bank->vertex_y + s->vertex_first,
        .vertex_z = bank->vertex_z + s->vertex_first,
        .vertex_fan_first = bank->vertex_fan_first + s->vertex_first,
        .vertex_fan_count = bank->vertex_fan_count + s->vertex_first,
        .fan_edge = bank->fan_edge + s->loop_first,
        .fan_other = bank->fan_other + s->loop_first,
        .fan_twin = bank->fan_twin + s->loop_first,
        .fan_face = bank->fan_face + s->loop_first,
        .fan_rows = bank->rows + s->fan_rows_first,
        .fan_stride = mf_fan_stride(s->loop_count),
        .normal_x = bank->normal_x + s->face_first,
        .normal_y = bank->normal_y + s->face_first,
        .normal_z = bank->normal_z + s->face_first,
        .offset = bank->offset + s->face_first,
        .face_loop_first = bank->face_loop_first + s->face_first,
        .face_loop_count = bank->face_loop_count + s->face_first,
        .loop_vertex = bank->loop_vertex + s->loop_first,
        .loop_edge = bank->loop_edge + s->loop_first,
        .edge_vertex0 = bank->edge_vertex0 + s->edge_first,
        .edge_vertex1 = bank->edge_vertex1 + s->edge_first,
        .edge_face0 = bank->edge_face0 + s->edge_first,
        .edge_face1 = bank->edge_face1 + s->edge_first,
        .edge_x = bank->edge_x + s->edge_first,
        .edge_y = bank->edge_y + s->edge_first,
        .edge_z = bank->edge_z + s->edge_first,
        .edge_rows = bank->rows + s->edge_rows_first,
        .edge_records = bank->rows + s->edge_rows_first + MF_EDGE_ROWS * mf_edge_rows_padded(s->edge_count),
        .support_map = s->support_map_first != UINT32_MAX ? bank->rows + s->support_map_first : NULL,
        .vertex_count = s->vertex_count,
        .face_count = s->face_count,
        .edge_count = s->edge_count,
        .centroid = s->centroid,
        .shape = s,
    };
}

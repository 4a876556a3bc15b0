// The hull bank: every shape's vertices, face planes, face loops and edges, structure-of-arrays.
#pragma once

#include "manyfold.h"

// One shape's ranges in the bank's arrays. Indices stored inside a shape (loops, edges) are local
// to it, so a shape's data reads the same wherever it sits.
typedef struct mf_shape {
    uint32_t vertex_first, face_first, edge_first, loop_first;
    uint32_t vertex_count, face_count, edge_count, loop_count;
    mf_vec3 centroid;
    float volume;
    float radius;
    float inner_radius;   // the centroid's distance to the nearest face plane: a ball that fits inside
    float outer_radius;   // the centroid's distance to the farthest vertex: a ball that holds the hull
    float centroid_slack; // |centroid| - inner_radius: the inner ball reaches that far past the origin
    // The box of the vertices in the shape's frame, as centre and half extents: the broad phase's.
    mf_vec3 bounds_center, bounds_half;
    uint32_t input_points, welded_points, merged_facets;
    uint32_t rows_first;      // into the bank's rows; UINT32_MAX when the hull is too large for the wide pass
    uint32_t edge_rows_first; // its edge rows (rows.h), after the bundle rows, then its edge records: every shape
    uint32_t fan_rows_first;  // its fan rows (rows.h), for every shape
    uint32_t image_first;     // its bundle image (rows.h); UINT32_MAX when it is not bundled
    // Its support map (support_map.h) in the rows; UINT32_MAX within the wide limits.
    uint32_t support_map_first;
    // A parallelepiped (8 vertices, 12 edges in 3 directions, every vertex on an edge of each) has
    // so few edge axes that projecting onto all of them beats the Gauss-map test.
    uint32_t parallelepiped;
    mf_vec3 directions[3];
    uint16_t direction_edges[3][4];
    // A box (mf_bank_add_box): its half extents, and the topology the closed-form box pair path
    // names features with: vertex v has the sign of axis k in bit k, mf_box_edge(v, k) is the edge
    // along axis k through vertex v, box_direction[k] the direction group of axis k.
    uint32_t box;
    mf_vec3 half_extents;
    uint8_t box_direction[3];
    // Which of the bank's adds made the shape (from 1); 0 for a removed shape's id, free for reuse.
    // Cache entries keep it: an id reused for a new shape does not pass for the removed one.
    uint32_t serial;
    // The scales a body of this shape may have (scale.h): the scaled shape stays within what the bank
    // accepts, its coordinates within MF_MAX_LENGTH and its volume at least FLT_MIN.
    float scale_low, scale_high;
    // Its rows in the bank's rows, all of them (wide rows, fan rows, image): what a removal gives back.
    uint32_t block_first, block_rows;
} mf_shape;

// The index of a box's edge along axis k through vertex v. The bank numbers a hull's edges in the
// order of their (lower, higher) vertex pairs, and every box has the same loops (box.c), so this
// is one function of v and k: the edges whose lower vertex is below v's lower vertex L (bit k
// cleared) come first, 3 L - (popcounts of 0 .. L - 1) of them, written in L's bits c0, c1, c2;
// then L's edges by axis. The box pass looks its edge codes up in tables made with it (box_features.h).
static inline uint32_t mf_box_edge(uint32_t v, uint32_t k)
{
    uint32_t low = v & ~(1u << k), c0 = low & 1u, c1 = low >> 1 & 1u, c2 = low >> 2;
    uint32_t before = c0 * (3 - c1 - c2) + c1 * (5 - 2 * c2) + 8 * c2;
    uint32_t below = k == 0 ? 0 : k == 1 ? 1 - c0 : 2 - c0 - c1; // L's edges along lower axes
    return before + below;
}

// Elements every bank array keeps past its end (bank.c), a register's worth.
#define MF_BANK_PAD 16

// Shapes sit in the arrays below in the order they were added, each a contiguous range of each
// array, with no gaps: a removal (mf_bank_remove_shape) moves the shapes after the removed one down
// over its ranges and fixes their offsets, so the arrays hold only live shapes and the next add
// appends where the removed data ended. A removed shape keeps its slot in `shapes`, zeroed (serial
// 0), until an add reuses the id, the lowest free one first.
struct mf_bank {
    mf_shape *shapes;
    uint32_t shape_count, shape_capacity; // ids [0, shape_count): the highest in use is shape_count - 1
    uint32_t free_ids;                    // removed ids below shape_count
    uint32_t next_serial;                 // the last serial given

    float *vertex_x, *vertex_y, *vertex_z;
    uint32_t *vertex_fan_first; // a vertex's edges: fan entries [first, first + count), shape-local
    uint16_t *vertex_fan_count;
    uint32_t vertex_count, vertex_capacity;

    float *normal_x, *normal_y, *normal_z, *offset; // face planes: dot(normal, x) = offset
    uint32_t *face_loop_first;                      // relative to the shape's loop_first
    uint16_t *face_loop_count;
    uint32_t face_count, face_capacity;

    uint16_t *loop_vertex; // face vertex loops, counter-clockwise seen from outside
    uint16_t *loop_edge;   // the edge from loop_vertex[k] to the next vertex of the loop
    // Each edge meets two vertices, so the vertices' fans have as many entries as the loops: they
    // share the loops' range. Per entry: the edge, the vertex at its other end, and where the same
    // edge sits in that vertex's fan, and the face whose loop leaves the vertex along the edge (the
    // faces around a vertex, each once). The floats the walk tests are in the fan rows (rows.h).
    uint16_t *fan_edge, *fan_other, *fan_twin, *fan_face;
    uint32_t loop_count, loop_capacity;

    uint16_t *edge_vertex0, *edge_vertex1, *edge_face0, *edge_face1; // face0 runs vertex0 -> vertex1
    float *edge_x, *edge_y, *edge_z; // unit direction vertex0 -> vertex1 (see MF_EDGE_ARC_SINE)
    uint32_t edge_count, edge_capacity;

    float *rows; // per shape the layout of rows.h, for the wide pass
    uint32_t row_count, row_capacity;

    // Per shape its view (mf_bank_hull), so that a pair's setup points at it instead of building
    // one. Views point into the arrays above: all are built again when an array moves.
    struct mf_hull_view *views;

    char message[256]; // mf_bank_message: the detail of the last add or removal, if it failed
};

// Whether `shape` names a shape of the bank: in range and not removed.
static inline int mf_bank_has_shape(const mf_bank *bank, uint32_t shape)
{
    return shape < bank->shape_count && bank->shapes[shape].serial != 0;
}

// Records the detail of a failed add for mf_bank_message and returns the status. The first detail
// of an add stands: the add's outer layers (box.c, hull.c) keep what an inner one (the polyhedron
// check) found.
mf_status mf_bank_fail(mf_bank *bank, mf_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// An add's start: its detail is "" until something fails.
static inline void mf_bank_clear_message(mf_bank *bank) { bank->message[0] = '\0'; }

// A closed hull has vertices + faces - 2 edges (Euler).
#define MF_MAX_HULL_EDGES (MF_MAX_HULL_VERTICES + MF_MAX_HULL_FACES - 2)

// A polyhedron as the builders produce it, before it enters the bank.
typedef struct mf_polyhedron {
    const mf_vec3 *vertices;
    uint32_t vertex_count;
    const uint16_t *loops;       // all face loops back to back, counter-clockwise from outside
    const uint16_t *loop_counts; // vertex count of each face
    uint32_t face_count;
    uint32_t input_points, welded_points, merged_facets;
} mf_polyhedron;

// Validates the polyhedron (closed, convex, non-degenerate, within limits), derives planes, edges,
// volume and centroid, and appends it as a new shape.
mf_status mf_bank_add_polyhedron(mf_bank *bank, const mf_polyhedron *polyhedron, mf_shape_id *shape);

// A shape's arrays with its offsets applied, for the collision code to read directly.
typedef struct mf_hull_view {
    const float *vertex_x, *vertex_y, *vertex_z;
    const uint32_t *vertex_fan_first;
    const uint16_t *vertex_fan_count, *fan_edge, *fan_other, *fan_twin, *fan_face;
    const float *fan_rows; // MF_FAN_ROWS rows of fan_stride floats
    uint32_t fan_stride;
    const float *normal_x, *normal_y, *normal_z, *offset;
    const uint32_t *face_loop_first;
    const uint16_t *face_loop_count;
    const uint16_t *loop_vertex, *loop_edge;
    const uint16_t *edge_vertex0, *edge_vertex1, *edge_face0, *edge_face1;
    const float *edge_x, *edge_y, *edge_z;
    const float *edge_rows; // the cull's rows and the edge query's records (rows.h), for every hull
    const float *edge_records;
    const float *support_map; // support_map.h; NULL for hulls within the wide limits
    uint32_t vertex_count, face_count, edge_count;
    mf_vec3 centroid;
    const mf_shape *shape;
} mf_hull_view;

mf_hull_view mf_bank_view(const mf_bank *bank, uint32_t shape);

// The shape's view as the bank keeps it: valid until the next shape is added or removed.
static inline const mf_hull_view *mf_bank_hull(const mf_bank *bank, uint32_t shape) { return &bank->views[shape]; }

// Both shapes are parallelepipeds: the pair's edge query projects onto their 9 edge axes.
static inline int mf_uses_projection(const mf_hull_view *a, const mf_hull_view *b)
{
    return a->shape->parallelepiped && b->shape->parallelepiped;
}

static inline mf_vec3 mf_view_vertex(const mf_hull_view *hull, uint32_t i)
{
    return (mf_vec3){hull->vertex_x[i], hull->vertex_y[i], hull->vertex_z[i]};
}

static inline mf_vec3 mf_view_normal(const mf_hull_view *hull, uint32_t face)
{
    return (mf_vec3){hull->normal_x[face], hull->normal_y[face], hull->normal_z[face]};
}

/* manyfold: contact manifolds between convex polyhedra, many pairs at once.
 *
 * Conventions, in brief (docs/contract.md states the contract in full):
 * - A manifold's normal is a unit vector pointing from body a to body b. A contact's separation is
 *   the signed distance along it (negative = penetrating). The contact point lies midway between the
 *   surfaces: point - 0.5*separation*normal is on a's surface, point + 0.5*separation*normal on b's.
 *   (Last resort, docs/contract.md: a deep overlap whose faces miss each other gets one contact at
 *   the incident hull's deepest vertex, on the reference face's plane rather than inside the face.)
 * - A pair gets a manifold iff its bodies overlap or are nearer than config.margin: the true
 *   distance decides for separated pairs (docs/contract.md). Manifolds come in increasing pair
 *   order, their contacts contiguous.
 * - Feature ids are distinct within a manifold and do not change when the reference face switches
 *   between a and b.
 * - Pair (b, a) gets exactly the mirror of pair (a, b)'s manifold: the normal negated, the same
 *   points and separations, each id's halves exchanged. (Every pair is collided with the lower
 *   body index as a, so the order a broad phase emits pairs in does not change the answer.)
 * - Quaternions are normalised on use; a zero or non-finite quaternion is refused (or, under
 *   MF_FAULT_SKIP, its pairs are skipped: mf_config.on_fault).
 * - Lengths stay within MF_MAX_LENGTH (hull coordinates, box half extents, margin, linear_slop),
 *   so that no product the kernel forms overflows float. Bodies whose origins are MF_PARKED_DISTANCE
 *   or more apart along an axis are apart without a query: a body parked far away, even at FLT_MAX,
 *   touches nothing.
 * - The bank may be read by many threads at once; adding or removing shapes while any thread reads
 *   it (mf_collide, mf_collide_cached, mf_find_pairs, the shape readers) is a race: the caller orders
 *   them. A context is used by one thread at a time; use one context per thread.
 * - A body's world point is R (s x) + p for a point x of its shape, s its scale (mf_bodies.scales):
 *   the shape is scaled about its origin, then turned and moved. Margins, slop and every output are
 *   in world units; feature ids do not depend on the scale. */
#ifndef MANYFOLD_H
#define MANYFOLD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MF_VERSION_MAJOR 0
#define MF_VERSION_MINOR 1
#define MF_VERSION_PATCH 0
#define MF_VERSION_STRING "0.1.0"

/* Hull size limits. A hull beyond them is refused with MF_ERR_HULL_TOO_LARGE. */
#define MF_MAX_HULL_VERTICES 1024
#define MF_MAX_HULL_FACES 2048
#define MF_MAX_FACE_VERTICES 128
#define MF_MAX_CONTACTS 8
/* The largest hull coordinate, box half extent, margin and linear_slop; beyond it a shape is
 * refused with MF_ERR_HULL_TOO_LARGE and a config with MF_ERR_INVALID_ARGUMENT. */
#define MF_MAX_LENGTH 1e7f
/* 2^30: no two shapes within MF_MAX_LENGTH reach each other's margin from this far apart. */
#define MF_PARKED_DISTANCE 1073741824.0f

#if defined(_WIN32) && defined(MF_BUILDING_SHARED)
#define MF_API __declspec(dllexport)
#elif defined(__GNUC__)
#define MF_API __attribute__((visibility("default")))
#else
#define MF_API
#endif

typedef enum mf_status {
    MF_OK = 0,
    MF_ERR_INVALID_ARGUMENT,
    MF_ERR_NONFINITE,
    MF_ERR_DEGENERATE_HULL,
    MF_ERR_HULL_TOO_LARGE,
    MF_ERR_CAPACITY,
    MF_ERR_OUT_OF_MEMORY,
    MF_ERR_UNSUPPORTED_ISA
} mf_status;

/* A sentence a person can act on; never NULL. */
MF_API const char *mf_status_string(mf_status status);

/* "0.1.0": the version of the library linked, which may differ from MF_VERSION_STRING. */
MF_API const char *mf_version(void);

typedef struct mf_vec3 {
    float x, y, z;
} mf_vec3;

typedef struct mf_quat {
    float x, y, z, w;
} mf_quat; /* unit quaternion */

typedef struct mf_transform {
    mf_vec3 p;
    mf_quat q;
} mf_transform;

/* ---- hull bank: every shape, registered once, referenced by id ---- */

typedef struct mf_bank mf_bank;

/* A shape's id in its bank, given by the add that made it. A distinct name from body indices and
 * pair indices (plain uint32_t), which index the caller's arrays. */
typedef uint32_t mf_shape_id;

MF_API mf_status mf_bank_create(mf_bank **bank);
MF_API void mf_bank_destroy(mf_bank *bank);

/* A box centred on its local origin. Every half extent is > 0 and <= MF_MAX_LENGTH. */
MF_API mf_status mf_bank_add_box(mf_bank *bank, mf_vec3 half_extents, mf_shape_id *shape);

/* The convex hull of the points, in the points' own frame: interior points are dropped,
 * near-duplicates welded and coplanar facets merged into polygonal faces. */
MF_API mf_status mf_bank_add_hull(mf_bank *bank, const mf_vec3 *points, uint32_t point_count,
                                  mf_shape_id *shape);

/* Removes a shape. Its id is then refused everywhere (MF_ERR_INVALID_ARGUMENT from the shape
 * readers and mf_bank_shape_mass; a body naming it is an invalid body to mf_collide,
 * mf_collide_cached and mf_find_pairs) until a later add reuses it: an add takes the lowest free
 * id, and the other shapes keep theirs. The shape's storage is given back at once (the bank's
 * arrays close the gap), so the next add reuses it instead of growing the bank. Cache entries
 * (mf_pair_cache) of pairs that named the removed shape are treated as empty, even once its id
 * names a new shape. An id out of range or already removed is refused with MF_ERR_INVALID_ARGUMENT
 * and mf_bank_message says why. Like an add, a removal must not run while any thread reads the
 * bank. */
MF_API mf_status mf_bank_remove_shape(mf_bank *bank, mf_shape_id shape);

/* Details of the bank's last add (mf_bank_add_box, mf_bank_add_hull) or removal
 * (mf_bank_remove_shape) if it failed: the value at fault and the rule it broke, e.g.
 * "half_extents.x is 0: every half extent must be > 0 and <= MF_MAX_LENGTH (1e7)"; "" after one
 * that succeeded, or before any. The bank keeps it, as it keeps its shapes: adds and removals are
 * made by one thread at a time (see the conventions above), so the thread that made one reads its
 * own detail. Never NULL ("no bank" for a NULL bank). */
MF_API const char *mf_bank_message(const mf_bank *bank);

/* One past the highest shape id in use: ids run from 0 to this less 1, removed ones
 * (mf_bank_remove_shape) among them. */
MF_API uint32_t mf_bank_shape_count(const mf_bank *bank);

typedef struct mf_shape_info {
    uint32_t vertex_count;
    uint32_t face_count;
    uint32_t edge_count;
    uint32_t input_points;  /* points given to the builder (8 for a box) */
    uint32_t welded_points; /* input points merged into a near-duplicate */
    uint32_t merged_facets; /* triangles the builder merged into larger coplanar faces */
    float volume;
    mf_vec3 centroid; /* centre of mass of the solid */
    float radius;     /* largest vertex distance from the local origin */
    /* The scales a body of this shape may have (mf_bodies.scales): 1 always, and those that keep
     * its coordinates within MF_MAX_LENGTH and its volume at least FLT_MIN. */
    float min_scale, max_scale;
} mf_shape_info;

MF_API mf_status mf_bank_shape_info(const mf_bank *bank, mf_shape_id shape, mf_shape_info *info);

/* Too-small arrays, for every reader below: what fits is copied, the sizes needed are reported
 * and the result is MF_ERR_CAPACITY. A NULL array with capacity 0 is skipped (MF_OK): that asks
 * for the sizes alone. */

/* Copies up to capacity vertices; info.vertex_count says how many there are. */
MF_API mf_status mf_bank_shape_vertices(const mf_bank *bank, mf_shape_id shape, mf_vec3 *vertices,
                                        uint32_t capacity);

/* One face: outward unit normal, offset (dot(normal, x) = offset on the face) and its vertex
 * indices, counter-clockwise seen from outside. Up to capacity indices are copied; *count gets
 * the face's vertex count. */
MF_API mf_status mf_bank_shape_face(const mf_bank *bank, mf_shape_id shape, uint32_t face,
                                    mf_vec3 *normal, float *offset, uint32_t *vertices,
                                    uint32_t capacity, uint32_t *count);

/* One edge: its vertices and its two faces (face0 sees it as vertex0 -> vertex1). */
typedef struct mf_edge_info {
    uint32_t vertex0, vertex1, face0, face1;
} mf_edge_info;

MF_API mf_status mf_bank_shape_edge(const mf_bank *bank, mf_shape_id shape, uint32_t edge,
                                    mf_edge_info *info);

/* A whole shape in one call, into the caller's arrays; any array may be NULL to skip it. Face f's
 * vertices are loop_vertices[face_first[f]] .. [face_first[f] + face_size[f] - 1]. The counts
 * are always set; a capacity below its count gives MF_ERR_CAPACITY (see above). loop_count is
 * twice edge_count: every edge borders two faces. */
typedef struct mf_shape_geometry {
    mf_vec3 *vertices; /* [vertex_capacity] */
    uint32_t vertex_capacity;
    mf_vec3 *face_normals; /* [face_capacity] each: outward unit normals, */
    float *face_offsets;   /* dot(normal, x) = offset on the face, */
    uint32_t *face_first;  /* where the face's loop starts in loop_vertices, */
    uint32_t *face_size;   /* and its vertex count */
    uint32_t face_capacity;
    uint32_t *loop_vertices; /* [loop_capacity]: the faces' loops, counter-clockwise */
    uint32_t loop_capacity;
    mf_edge_info *edges; /* [edge_capacity] */
    uint32_t edge_capacity;
    uint32_t vertex_count, face_count, loop_count, edge_count; /* out */
} mf_shape_geometry;

MF_API mf_status mf_bank_shape_geometry(const mf_bank *bank, mf_shape_id shape,
                                        mf_shape_geometry *geometry);

/* A shape's mass properties as a solid of uniform density (mass per unit volume, volume in the
 * shape's length units cubed), exact for the polyhedron up to rounding: its volume integrals are
 * summed in double over the face triangles (divergence theorem) and each result is rounded once
 * to float. Boxes are hulls in the bank and are measured the same way.
 * - mass: density times the volume (mf_shape_info.volume up to rounding).
 * - center: the centre of mass in the shape's frame; bit for bit mf_shape_info.centroid.
 * - inertia: the inertia tensor about center along the shape's axes, row-major and symmetric:
 *   inertia[3 * i + j] = density * integral of (|r|^2 delta_ij - r_i r_j) over the solid, where
 *   r = x - center.
 * - principal: the principal moments (the tensor's eigenvalues), ascending:
 *   principal.x <= principal.y <= principal.z.
 * - principal_rotation: the unit quaternion q (w >= 0) whose rotation matrix R, the one
 *   mf_transform uses (R v = q v q*), turns the principal frame into the shape's frame: R's
 *   columns are the axes of principal.x, .y and .z in the shape's frame, det R = +1, and
 *   inertia = R diag(principal) R^T. So a body of this shape at pose (p, q_body) has its principal
 *   frame at (p + R_body center, q_body * q). Where moments tie (a cube, a square rod) every axis
 *   of the tied plane (or space) is principal; the axes given are one choice, and reproduce inertia.
 *   q does not depend on density.
 * Errors, with *mass unchanged: a NULL bank or mass or a shape out of range or removed,
 * MF_ERR_INVALID_ARGUMENT; a NaN or infinite density, MF_ERR_NONFINITE; a density of zero or less,
 * MF_ERR_INVALID_ARGUMENT; a mass or moment beyond float (density * volume * length^2 past
 * FLT_MAX), MF_ERR_NONFINITE. */
typedef struct mf_mass {
    float mass;
    mf_vec3 center;
    float inertia[9];           /* row-major, about center, in the shape's frame */
    mf_vec3 principal;          /* ascending */
    mf_quat principal_rotation; /* principal frame -> shape frame */
} mf_mass;

MF_API mf_status mf_bank_shape_mass(const mf_bank *bank, mf_shape_id shape, float density,
                                    mf_mass *mass);

/* ---- context: configuration, ISA, scratch ---- */

typedef enum mf_isa {
    MF_ISA_AUTO = 0,
    MF_ISA_SCALAR,
    MF_ISA_SSE,
    MF_ISA_AVX2,
    MF_ISA_AVX512,
    MF_ISA_NEON
} mf_isa;

/* "scalar", "sse", "avx2", "avx512", "neon" or "auto". */
MF_API const char *mf_isa_name(mf_isa isa);

/* The ISA MF_ISA_AUTO resolves to on this CPU with this build: AVX-512 where the core runs it at
 * full clock (it has AVX-512 VBMI2: Ice Lake, Zen 4 or later), else AVX2, NEON, SSE4.1, scalar.
 * Every ISA returns bit-identical output, so the choice changes only the speed. */
MF_API mf_isa mf_isa_best(void);

/* Why mf_isa_best chose its ISA, in one line (a static string); on Intel CPUs it also says that
 * AVX-512's hull stages run from their build tuned for Intel's cores (the same bytes). */
MF_API const char *mf_isa_best_reason(void);

/* Whether this build and CPU can run the ISA. */
MF_API int mf_isa_supported(mf_isa isa);

/* ---- the caller's job system (Box2D v3's enqueueTask / finishTask) ---- */

/* An engine with its own job system runs manyfold's work on it instead of manyfold's threads: set
 * mf_config.enqueue_task, finish_task, task_context and worker_count. manyfold then creates no
 * threads. A call of more than one chunk (1024 pairs) hands each of its batches to enqueue_task
 * and waits for it in finish_task before going on: one or two batches a call where the stream
 * holds every pair's largest manifold (mf_stream_bound), one per round of chunks otherwise.
 * Smaller calls, and every call with worker_count 1, run on the calling thread alone.
 * - mf_task_fn: run items [begin, end) as worker `worker`. task_context is manyfold's.
 * - enqueue_task: run task over items [0, item_count), split into ranges of at least min_range
 *   items (or all at once), on any threads, in any order, each range once, with worker indices
 *   below worker_count and no two ranges running at once with the same index (the index picks
 *   manyfold's scratch memory for that worker, allocated with the context). The calling thread may
 *   run ranges too, under an index of its own. Return a handle for finish_task, or NULL after
 *   running every range before returning (then finish_task is not called). user_context is
 *   config.task_context.
 * - finish_task: return once every range of the task enqueue_task returned has run (their writes
 *   visible to the caller).
 * manyfold never makes one range wait for another (a range may run before, after or alongside any
 * other), so a job system that runs them serially, or in any order, is fine. The output is
 * byte-identical to one thread's and to manyfold's own threads'. */
typedef void mf_task_fn(uint32_t begin, uint32_t end, uint32_t worker, void *task_context);
typedef void *mf_enqueue_task_fn(mf_task_fn *task, uint32_t item_count, uint32_t min_range,
                                 void *task_context, void *user_context);
typedef void mf_finish_task_fn(void *user_task, void *user_context);

/* The most workers a job system may declare (config.worker_count). */
#define MF_MAX_WORKERS 256

/* What mf_collide and mf_collide_cached do with a pair that names an invalid body: a body index
 * out of range, a body paired with itself, a shape out of range or removed, a scale out of range
 * (mf_bodies.scales), a non-finite transform or a zero quaternion.
 * - MF_FAULT_STOP (0, the default): the call fails with MF_ERR_INVALID_ARGUMENT or
 *   MF_ERR_NONFINITE, its stream empty and mf_context_message naming the first such pair. Nothing
 *   is collided; an input error is never silent.
 * - MF_FAULT_SKIP: the pair is skipped, and the call goes on: a skipped pair gets no manifold and
 *   is listed in mf_stream.faults with the status STOP would have returned for it. Every other
 *   pair's manifold is byte for byte what the call gives it without the skipped pairs (only the
 *   pair indices count from the full list), for every ISA, thread count and job system. So one
 *   exploding body in a world of 20,000 costs its own pairs, not the step. The call returns MF_OK
 *   (or MF_ERR_CAPACITY) and mf_context_message describes the first skipped pair.
 * STOP is the default so that a caller who never looks at mf_stream.faults still hears of bad
 * input, and so that a zero-initialised mf_config keeps the behaviour manyfold always had. An
 * engine that steps many bodies and reads the faults (the ODE and Bullet adapters do) sets SKIP. */
typedef enum mf_fault_mode { MF_FAULT_STOP = 0, MF_FAULT_SKIP } mf_fault_mode;

typedef struct mf_config {
    float margin;          /* speculative distance: pairs closer than this get a manifold */
    float linear_slop;     /* tolerance that keeps the axis choice stable */
    uint32_t max_contacts; /* 1..MF_MAX_CONTACTS per manifold */
    mf_isa isa;
    /* Threads mf_collide runs on, the calling thread included. 0: one per core the process may run
     * on (its CPU affinity when the context is made: taskset, an MPI launcher's binding; without
     * hwloc, one per logical CPU in it). 1: no worker threads. See mf_context_threads. */
    uint32_t threads;
    /* The caller's job system (above): both functions or neither (NULL: manyfold's own threads).
     * With them, worker_count is 1..MF_MAX_WORKERS and threads is 0 or worker_count; anything
     * else is refused with MF_ERR_INVALID_ARGUMENT. Without them, task_context and worker_count
     * are not read. */
    mf_enqueue_task_fn *enqueue_task;
    mf_finish_task_fn *finish_task;
    void *task_context; /* the user context, passed to both */
    uint32_t worker_count;
    mf_fault_mode on_fault; /* a pair naming an invalid body: fail the call (0) or skip the pair */
} mf_config;

/* margin 0.02, linear_slop 0.005, max_contacts 4, MF_ISA_AUTO, threads 0, no job system,
 * MF_FAULT_STOP. */
MF_API mf_config mf_config_default(void);

/* Checks a config as mf_context_create does, without creating anything, and says what is wrong:
 * the status mf_context_create would return for it (MF_OK, MF_ERR_INVALID_ARGUMENT,
 * MF_ERR_NONFINITE or MF_ERR_UNSUPPORTED_ISA), and in `detail` the field at fault, its value and
 * the rule, e.g. "max_contacts is 9: it must be 1..MF_MAX_CONTACTS (8)"; "" for MF_OK. detail
 * gets at most detail_capacity bytes, its terminating NUL included (a longer detail is cut); it
 * may be NULL with detail_capacity 0. A NULL config is refused (MF_ERR_INVALID_ARGUMENT). A config
 * mf_context_create refuses gives no context to ask, so this is where its details are. */
MF_API mf_status mf_config_check(const mf_config *config, char *detail, uint32_t detail_capacity);

typedef struct mf_context mf_context;

MF_API mf_status mf_context_create(const mf_config *config, mf_context **context);
MF_API void mf_context_destroy(mf_context *context);

/* The ISA the context runs (never MF_ISA_AUTO). */
MF_API mf_isa mf_context_isa(const mf_context *context);

/* Threads mf_collide runs on with this context (config.threads, or one per core the process may run
 * on for 0; with a job system, config.worker_count), the calling thread included. The workers are
 * created with the context; with hwloc they are pinned one per core, and never to the core the
 * calling thread is on: each call looks where the caller runs (it is never moved or re-pinned) and
 * the workers take the other cores, moving only when the caller has changed core since the call
 * before. Each new context starts its workers one core further on, so contexts with fewer threads
 * than cores spread out; contexts of threads = 0 each use every core, so several of them called at
 * once share the cores (give each config.threads = cores / contexts). One context per MPI rank:
 * threads = 1, or 0 with the rank bound to its cores. Without hwloc the workers are not pinned. */
MF_API uint32_t mf_context_threads(const mf_context *context);

/* Details of the context's last failed mf_collide (which pair or body, which value), or under
 * MF_FAULT_SKIP of the last call's first skipped pair; "" if none. */
MF_API const char *mf_context_message(const mf_context *context);

/* ---- collision ---- */

typedef struct mf_pair {
    uint32_t a, b;
} mf_pair; /* body indices */

/* The bodies a call's pairs name: body i has shape shape[i], pose transform[i] and, where scales
 * is not NULL, the uniform scale scales[i] (NULL: every body's scale is 1). A scale lets bodies of
 * different sizes share one shape (polydisperse particles): the body is its shape scaled by
 * scales[i] about the shape's origin, then turned and moved (world = R (s x) + p). Each scale is
 * finite, > 0 and keeps the scaled shape within what the bank accepts: its coordinates within
 * MF_MAX_LENGTH and its volume at least FLT_MIN. Any other makes the body invalid (mf_config.on_fault:
 * MF_ERR_NONFINITE for NaN or infinity, MF_ERR_INVALID_ARGUMENT for the rest). A scale of exactly 1
 * gives the bytes an unscaled body gives. scales comes last so that initialisers written before it
 * leave it NULL. */
typedef struct mf_bodies {
    const mf_shape_id *shape;
    const mf_transform *transform;
    uint32_t count;
    const float *scales; /* [count] or NULL for all 1 */
} mf_bodies;

typedef struct mf_contact {
    mf_vec3 point;
    float separation;
    uint32_t id;
} mf_contact;

typedef struct mf_manifold {
    uint32_t pair;
    uint32_t first;
    uint32_t count;
    mf_vec3 normal;
} mf_manifold;

/* A pair skipped under MF_FAULT_SKIP: its index in the call's pairs, and why (the status
 * MF_FAULT_STOP would have failed the call with). */
typedef struct mf_fault {
    uint32_t pair;
    mf_status status;
} mf_fault;

/* The output. mf_collide overwrites it from the start: the counts are set, not appended to, and
 * the arrays past the counts, within the capacities, may be written too (scratch to the call).
 * faults: the pairs skipped under MF_FAULT_SKIP, in increasing pair order, the first
 * fault_capacity of them written to faults (NULL with capacity 0 asks for the count alone);
 * fault_count is exact even past the capacity, which is not an error. On MF_ERR_CAPACITY they are
 * those of pairs [0, pairs_done). Under MF_FAULT_STOP, and on any other error, fault_count is 0. */
typedef struct mf_stream {
    mf_manifold *manifolds;
    uint32_t manifold_capacity;
    uint32_t manifold_count;
    mf_contact *contacts;
    uint32_t contact_capacity;
    uint32_t contact_count;
    uint32_t pairs_done;
    mf_fault *faults;
    uint32_t fault_capacity;
    uint32_t fault_count;
} mf_stream;

/* Worst-case stream sizes for pair_count pairs: a stream this large never returns
 * MF_ERR_CAPACITY. */
MF_API void mf_stream_bound(uint32_t pair_count, uint32_t max_contacts, uint32_t *manifold_capacity,
                            uint32_t *contact_capacity);

/* Collides every pair. On MF_ERR_CAPACITY the stream holds the complete, correct output for
 * pairs [0, pairs_done) and nothing else; resume with pairs + pairs_done. On any other error the
 * stream is left empty (counts and pairs_done 0): a stream that holds every pair's largest
 * manifold (mf_stream_bound) has its pairs checked chunk by chunk as they are collided, so its
 * arrays may have been written to; a smaller one is checked before anything is written. A pair
 * naming an invalid body is such an error under MF_FAULT_STOP (the default), and is skipped and
 * listed in stream->faults under MF_FAULT_SKIP (mf_config.on_fault). */
MF_API mf_status mf_collide(mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                            const mf_pair *pairs, uint32_t pair_count, mf_stream *stream);

/* ---- broad phase ---- */

/* Every pair of bodies whose world bounding boxes, grown by margin on every side, overlap (a
 * touching box counts): the candidates mf_collide needs for that margin. A body's box is its
 * shape's local box (of the vertices) turned by |R|, a bound slightly larger than the tight box
 * for turned bodies.
 * - Each pair once, with a < b, sorted by a then b: the same output for every thread count.
 * - pairs[0, min(count, pair_capacity)) gets the first pairs of that order and *pair_count the
 *   exact count; MF_ERR_CAPACITY when pair_capacity is short (call again with room for
 *   *pair_count; pairs may be NULL with capacity 0 to ask for the count alone).
 * - Runs on the context's threads (or its job system), sort-and-sweep in the cells of a coarse grid
 *   (kernel/src/broadphase.c); the margin is this call's, not config.margin.
 * - Working memory: the context keeps it, made on the first call and grown to the largest call so
 *   far (about 64 bytes a body and 24 a pair found), so calls of that size allocate nothing; it
 *   is freed with the context.
 * - A scaled body's box is its shape's box times its scale (mf_bodies.scales).
 * Errors, with *pair_count 0 and the message in mf_context_message: a NULL bank, bodies or
 * pair_count, or NULL pairs with a capacity, a body whose shape the bank lacks (or removed), whose
 * scale is out of range or whose quaternion is zero, a negative margin or one above MF_MAX_LENGTH,
 * MF_ERR_INVALID_ARGUMENT; a non-finite margin, scale or transform, MF_ERR_NONFINITE; memory,
 * MF_ERR_OUT_OF_MEMORY. */
MF_API mf_status mf_find_pairs(mf_context *context, const mf_bank *bank, const mf_bodies *bodies,
                               float margin, mf_pair *pairs, uint32_t pair_capacity,
                               uint32_t *pair_count);

/* ---- temporal coherence ---- */

/* A contact kept for reuse: its points on the two surfaces (the contact point less and plus half
 * its separation along the normal), each fixed in its own body's frame. */
typedef struct mf_cached_contact {
    mf_vec3 on_a; /* in a's frame */
    mf_vec3 on_b; /* in b's frame */
    uint32_t id;
} mf_cached_contact;

/* Contacts an entry keeps: manifolds with more (max_contacts above it) are clipped every step. */
#define MF_CACHE_CONTACTS 4
/* Steps a kept manifold is reused for at most before it is clipped again. */
#define MF_CACHE_REUSE_STEPS 60

/* How mf_collide_cached answered a pair (mf_pair_cache.route): the full search; settled apart by
 * the cached axis; the cached axis' contacts clipped afresh; the kept contacts reused. */
#define MF_ROUTE_SEARCHED 1u
#define MF_ROUTE_APART 2u
#define MF_ROUTE_CLIPPED 3u
#define MF_ROUTE_REUSED 4u

/* What mf_collide_cached remembers of one pair between steps: the contact axis and manifold of the
 * step it was written, and b's pose in a's frame then, from which it bounds how far the bodies
 * have moved since. Zero-initialise (an empty entry); keep entry i with pairs[i] from step to
 * step. An entry whose shapes or scales differ from the pair's is treated as empty, so reordered
 * pair lists stay correct, only slower; so is one whose shape was removed from the bank since
 * (mf_bank_remove_shape), even where its id now names a new shape. A body whose scale changes
 * thus has its pairs searched afresh. 192 bytes. */
typedef struct mf_pair_cache {
    mf_shape_id shape_a, shape_b;
    uint32_t axis;             /* 0: empty; else kind + 1 in the low 2 bits, features above */
    float separation;          /* along the cached axis, when written */
    float best;                /* an upper bound of the pair's signed distance (minus the
                                * penetration depth where they overlap), when written; infinity
                                * where none is known */
    mf_quat relative_rotation; /* b's rotation in a's frame, when written */
    mf_vec3 relative_position; /* b's origin in a's frame, when written */
    mf_vec3 normal;            /* the kept manifold's normal, in a's frame */
    uint8_t contact_count;     /* kept contacts, 0 if none */
    uint8_t age;               /* steps the kept contacts have been reused for */
    uint8_t route;             /* MF_ROUTE_*: how the last step answered the pair */
    uint8_t reserved;          /* 0 */
    mf_cached_contact contacts[MF_CACHE_CONTACTS];
    float scale_a, scale_b;      /* the bodies' scales when written */
    uint32_t serial_a, serial_b; /* which of the bank's adds made each shape (ids are reused) */
} mf_pair_cache;

/* mf_collide with a per-pair cache (cache[i] belongs to pairs[i]). Per pair, the first of these
 * that applies:
 * - Reuse (a persistent contact manifold): while b has moved by at most δ in a's frame since the
 *   kept manifold was clipped, small enough that the kept normal is still within linear_slop of
 *   the best axis, and for under MF_CACHE_REUSE_STEPS steps, the kept contacts are carried with
 *   the bodies and measured again along the kept normal. Their ids are the clipped contacts'.
 * - The cached axis: one that still separates by the margin settles the pair; one provably still
 *   within linear_slop of the best skips the search, and its faces are clipped.
 * - The full search, as mf_collide, trying the kept axis first while it stays within linear_slop
 *   of the best (hysteresis).
 * Where a manifold is clipped again, new contacts near kept ones take their ids, and kept contacts
 * the clip left out may stay, so that contacts do not come and go from step to step.
 * Bounds: results match mf_collide's up to these. The same pairs have manifolds; the normal is
 * within linear_slop of the best axis; δ <= linear_slop / 2 (linear_slop for two boxes); the
 * deepest contact lies between the best separation less linear_slop and the best plus twice
 * linear_slop (within linear_slop for two boxes); a reused point is within δ of where the clip put
 * it; contacts may lie up to linear_slop past the margin. Entries are updated for pairs
 * [0, pairs_done) only; a pair skipped under MF_FAULT_SKIP has its entry emptied.
 * The conditions in full, the continuity rules and what the tests hold: docs/contract.md, "The
 * cached call". */
MF_API mf_status mf_collide_cached(mf_context *context, const mf_bank *bank,
                                   const mf_bodies *bodies, const mf_pair *pairs,
                                   uint32_t pair_count, mf_pair_cache *cache, mf_stream *stream);

/* Feature ids: 16 bits per body, a's in the high half. Each half is a feature kind in its top two
 * bits and the feature's index in the shape in the low 14. */
#define MF_FEATURE_VERTEX 0u
#define MF_FEATURE_EDGE 1u
#define MF_FEATURE_FACE 2u
#define MF_ID_FEATURE_A(id) ((uint32_t)(id) >> 16)
#define MF_ID_FEATURE_B(id) ((uint32_t)(id)&0xffffu)
#define MF_FEATURE_KIND(feature) ((uint32_t)(feature) >> 14)
#define MF_FEATURE_INDEX(feature) ((uint32_t)(feature)&0x3fffu)

#ifdef __cplusplus
}
#endif

#endif

// A kept manifold is reused while b has moved so little in a's frame since it was clipped (by at
// most `moved`) that the kept normal, fixed in a's frame, is provably still within the slop of the
// best axis: its separation fell by at most `moved` (for two boxes it is measured exactly) and the
// best rose by at most as much. Every kept point then moved at most `moved` against the other
// body, and mf_collide would give the pair a manifold (the best stays below the margin). Each
// point pair is carried with its bodies and its separation measured along the normal again; pairs
// past the margin by the slop are dropped. The entry stays as it was clipped, a step older.
#include "reuse_pass.h"
#include "core.h"
#include "tolerances.h"

#include "lanes4.h"
#include "wide.h"

#include <stddef.h>

#include <string.h>

enum { W = MF_WIDE_WIDTH };

// What the lanes read, a row per quantity, laid out as the wide gather loads them: the entry's
// separation and best, pose and normal (12 floats in a row), the bodies' poses (each position with
// the next float, then the quaternion), b's radius, the kept count, and per kept contact its point
// on a and b's x, then b's point and id (8 rows, 6 read); for two boxes, their half extents.
enum {
    IN_SEPARATION = 0,
    IN_BEST = 1,
    IN_KEPT_Q = 2, // x, y, z, w
    IN_KEPT_P = 6,
    IN_NORMAL = 9,
    IN_PA = 12,
    IN_QA = 16,
    IN_PB = 20,
    IN_QB = 24,
    IN_RADIUS_B = 28,
    IN_COUNT = 29,
    IN_BOXES = 30, // 1 where both hulls are boxes
    IN_HALF_A = 32,
    IN_HALF_B = 35,
    IN_CONTACTS = 40, // on_a at +0, on_b at +4
    IN_CONTACT_ROWS = 8,
    IN_ROWS = IN_CONTACTS + IN_CONTACT_ROWS * MF_CACHE_CONTACTS
};

// What they write: whether the lane is reused, the world normal, and per contact its point,
// separation and whether it is kept.
enum {
    OUT_REUSED = 0,
    OUT_NORMAL = 1,
    OUT_CONTACTS = 4, // point x, y, z, separation, kept per contact
    OUT_ROWS = OUT_CONTACTS + 5 * MF_CACHE_CONTACTS
};

typedef struct reuse_rows {
    _Alignas(64) float in[IN_ROWS][W];
    _Alignas(64) float out[OUT_ROWS][W];
} reuse_rows;

// Lane l's scalars: b's radius, the kept count, and whether both hulls are boxes, with their half
// extents. Lengths are times the bodies' scales, the entry's (it fits the pair only at its scales).
static void gather_shapes(const mf_reuse_job *job, const mf_pair_cache *entry, uint32_t l, reuse_rows *rows)
{
    const mf_shape *a = &job->bank->shapes[entry->shape_a], *b = &job->bank->shapes[entry->shape_b];
    float(*in)[W] = rows->in;
    float scale_a = entry->scale_a, scale_b = entry->scale_b;
    in[IN_RADIUS_B][l] = b->radius * scale_b;
    in[IN_COUNT][l] = (float)entry->contact_count;
    int boxes = a->box && b->box;
    in[IN_BOXES][l] = boxes ? 1.0f : 0.0f;
    const mf_vec3 none = {0, 0, 0}, *ha = boxes ? &a->half_extents : &none, *hb = boxes ? &b->half_extents : &none;
    in[IN_HALF_A][l] = ha->x * scale_a, in[IN_HALF_A + 1][l] = ha->y * scale_a, in[IN_HALF_A + 2][l] = ha->z * scale_a;
    in[IN_HALF_B][l] = hb->x * scale_b, in[IN_HALF_B + 1][l] = hb->y * scale_b, in[IN_HALF_B + 2][l] = hb->z * scale_b;
}

#if MF_WIDE_WIDTH == 1
// Lane 0's inputs from pair p.
static void gather(const mf_reuse_job *job, uint32_t first, uint32_t lanes, reuse_rows *rows)
{
    (void)lanes;
    uint32_t p = job->list[first];
    mf_pair pair = job->pairs[p];
    const mf_transform *ta = &job->bodies->transform[pair.a], *tb = &job->bodies->transform[pair.b];
    const mf_pair_cache *entry = &job->cache[p];
    float(*in)[W] = rows->in;
    const mf_quat *kq = &entry->relative_rotation;
    const mf_vec3 *kp = &entry->relative_position, *n = &entry->normal;
    const float kept[12] = {
        entry->separation, entry->best, kq->x, kq->y, kq->z, kq->w, kp->x, kp->y, kp->z, n->x, n->y, n->z};
    for (int k = 0; k < 12; ++k) in[IN_SEPARATION + k][0] = kept[k];
    const float poses[16] = {ta->p.x, ta->p.y, ta->p.z, 0, ta->q.x, ta->q.y, ta->q.z, ta->q.w,
                             tb->p.x, tb->p.y, tb->p.z, 0, tb->q.x, tb->q.y, tb->q.z, tb->q.w};
    for (int k = 0; k < 16; ++k) in[IN_PA + k][0] = poses[k];
    gather_shapes(job, entry, 0, rows);
    for (uint32_t k = 0; k < entry->contact_count; ++k) {
        const mf_cached_contact *c = &entry->contacts[k];
        const float points[8] = {c->on_a.x, c->on_a.y, c->on_a.z, 0, c->on_b.x, c->on_b.y, c->on_b.z, 0};
        for (int i = 0; i < 8; ++i) in[IN_CONTACTS + IN_CONTACT_ROWS * k + i][0] = points[i];
    }
}
#else
// The entry's floats from byte `offset` on, four at a time: the gather reads them as vectors.
_Static_assert(offsetof(mf_pair_cache, best) == offsetof(mf_pair_cache, separation) + 4 &&
                   offsetof(mf_pair_cache, relative_rotation) == offsetof(mf_pair_cache, best) + 4 &&
                   offsetof(mf_pair_cache, relative_position) == offsetof(mf_pair_cache, relative_rotation) + 16 &&
                   offsetof(mf_pair_cache, normal) == offsetof(mf_pair_cache, relative_position) + 12,
               "separation, best, pose and normal are 12 floats in a row");
_Static_assert(sizeof(mf_cached_contact) == 28 && offsetof(mf_cached_contact, id) == 24, "contacts are 7 floats");

static simde__m128 load_at(const mf_pair_cache *entry, size_t offset)
{
    return simde_mm_loadu_ps((const float *)(const void *)((const char *)entry + offset));
}

// Four lanes at a time: each lane's quantities loaded as vectors of four floats, each 4x4 block
// transposed so that four rows of the four lanes store at once (as box_pass.c's gather). Lanes past
// `lanes` repeat the first pair. Contact slots past the kept count hold whatever the entry holds
// there: their lanes are never read out.
static void gather(const mf_reuse_job *job, uint32_t first, uint32_t lanes, reuse_rows *rows)
{
    enum { BLOCKS = 3 + 4 + 2 * MF_CACHE_CONTACTS }; // the entry's 12 floats, two poses, the contacts
    const size_t kept_at = offsetof(mf_pair_cache, separation);
    for (uint32_t l0 = 0; l0 < W; l0 += 4) {
        simde__m128 v[BLOCKS][4];
        for (uint32_t k = 0; k < 4; ++k) {
            uint32_t l = l0 + k, p = job->list[first + (l < lanes ? l : 0)];
            mf_pair pair = job->pairs[p];
            const mf_pair_cache *entry = &job->cache[p];
            for (int b = 0; b < 3; ++b) v[b][k] = load_at(entry, kept_at + 16 * (size_t)b);
            mf_transform_load4(&job->bodies->transform[pair.a], &v[3][k], &v[4][k]);
            mf_transform_load4(&job->bodies->transform[pair.b], &v[5][k], &v[6][k]);
            for (int c = 0; c < MF_CACHE_CONTACTS; ++c) {
                size_t at = offsetof(mf_pair_cache, contacts) + sizeof(mf_cached_contact) * (size_t)c;
                v[7 + 2 * c][k] = load_at(entry, at);
                v[8 + 2 * c][k] = load_at(entry, at + offsetof(mf_cached_contact, on_b));
            }
            gather_shapes(job, entry, l, rows);
        }
        for (int b = 0; b < BLOCKS; ++b) {
            SIMDE_MM_TRANSPOSE4_PS(v[b][0], v[b][1], v[b][2], v[b][3]);
            int row = b < 3 ? 4 * b : b < 7 ? IN_PA + 4 * (b - 3) : IN_CONTACTS + 4 * (b - 7);
            for (int i = 0; i < 4; ++i) simde_mm_store_ps(&rows->in[row + i][l0], v[b][i]);
        }
    }
}
#endif

static mf_quatw load_quat(const reuse_rows *rows, int row)
{
    return (mf_quatw){mf_loadw(rows->in[row]), mf_loadw(rows->in[row + 1]), mf_loadw(rows->in[row + 2]),
                      mf_loadw(rows->in[row + 3])};
}

// As mf_quat_normalizew, on a quaternion held whole.
static mf_quatw normalize(mf_quatw q)
{
    mf_floatw v[4] = {q.x, q.y, q.z, q.w};
    mf_quat_normalizew(v);
    return (mf_quatw){v[0], v[1], v[2], v[3]};
}

static mf_vec3w load3(const reuse_rows *rows, int row)
{
    return mf_load3w(rows->in[row], rows->in[row + 1], rows->in[row + 2]);
}

static void store3(reuse_rows *rows, int row, mf_vec3w v)
{
    mf_storew(rows->out[row], v.x);
    mf_storew(rows->out[row + 1], v.y);
    mf_storew(rows->out[row + 2], v.z);
}

// The lanes: relative pose and how far b moved since the entry's, the bounds, the kept contacts
// carried along.
static void reuse_lanes(const mf_config *config, reuse_rows *rows)
{
    mf_quatw qa = normalize(load_quat(rows, IN_QA)), qb = normalize(load_quat(rows, IN_QB));
    mf_mat3w rotation_a = mf_mat3_from_quatw(qa.x, qa.y, qa.z, qa.w);
    mf_vec3w position_a = load3(rows, IN_PA);
    mf_quatw relative = mf_quat_mulw(mf_quat_conjugatew(qa), qb);
    mf_vec3w position = mf_mat3_mul_transposedw(&rotation_a, mf_sub3w(load3(rows, IN_PB), position_a));
    // The chord of the turn since: 2 sin(θ/2), twice the vector part of the change.
    mf_quatw change = mf_quat_mulw(relative, mf_quat_conjugatew(load_quat(rows, IN_KEPT_Q)));
    mf_floatw chord = mf_mulw(mf_splatw(2.0f), mf_lengthw((mf_vec3w){change.x, change.y, change.z}));
    mf_floatw radius_b = mf_loadw(rows->in[IN_RADIUS_B]);
    mf_floatw moved = mf_addw(mf_lengthw(mf_sub3w(position, load3(rows, IN_KEPT_P))), mf_mulw(chord, radius_b));
    // A hair more for the rounding of the relative poses, now and when kept (a few float epsilons
    // of b's origin and radius each).
    moved = mf_addw(moved, mf_mulw(mf_splatw(MF_REUSE_POSE_NOISE), mf_addw(radius_b, mf_lengthw(position))));
    mf_mat3w turn = mf_mat3_from_quatw(relative.x, relative.y, relative.z, relative.w);
    mf_vec3w normal = load3(rows, IN_NORMAL);
    // The kept normal's separation now: at least the kept one less `moved`; for two boxes, exactly
    // their supports' gap along it (b's lowest, its origin less each axis' reach, above a's highest).
    mf_floatw slop = mf_splatw(config->linear_slop);
    mf_floatw separation = mf_subw(mf_loadw(rows->in[IN_SEPARATION]), moved), best = mf_loadw(rows->in[IN_BEST]);
    mf_maskw boxes = mf_gtw(mf_loadw(rows->in[IN_BOXES]), mf_splatw(0.0f));
    mf_vec3w on_b_axes = mf_mat3_mul_transposedw(&turn, normal), ha = load3(rows, IN_HALF_A),
             hb = load3(rows, IN_HALF_B);
    mf_floatw reach_b = mf_dotw((mf_vec3w){mf_absw(on_b_axes.x), mf_absw(on_b_axes.y), mf_absw(on_b_axes.z)}, hb);
    mf_floatw reach_a = mf_dotw((mf_vec3w){mf_absw(normal.x), mf_absw(normal.y), mf_absw(normal.z)}, ha);
    mf_floatw exact = mf_subw(mf_subw(mf_dotw(normal, position), reach_b), reach_a);
    separation = mf_selectw(boxes, exact, separation);
    // Within the slop of the best, which rose by at most `moved`; and mf_collide has a manifold.
    mf_maskw reused = mf_andw(mf_gew(separation, mf_subw(mf_addw(best, moved), slop)),
                              mf_ltw(mf_addw(best, moved), mf_splatw(config->margin)));
    // Hysteresis: a kept contact stays until it leaves the margin by the slop (the clip adds contacts
    // within the margin), so that one at the margin does not come and go with every jitter.
    mf_floatw count = mf_loadw(rows->in[IN_COUNT]), half = mf_splatw(0.5f);
    mf_floatw margin = mf_splatw(config->margin + config->linear_slop);
    mf_maskw any = mf_ltw(count, mf_splatw(0.0f)); // none
    mf_floatw deepest = mf_splatw(INFINITY);
    for (int k = 0; k < MF_CACHE_CONTACTS; ++k) {
        int row = IN_CONTACTS + IN_CONTACT_ROWS * k, out = OUT_CONTACTS + 5 * k;
        mf_vec3w on_a = load3(rows, row);
        mf_vec3w between = mf_sub3w(mf_add3w(mf_mat3_mulw(&turn, load3(rows, row + 4)), position), on_a);
        mf_floatw contact_separation = mf_dotw(between, normal);
        mf_maskw kept = mf_andw(mf_ltw(mf_splatw((float)k), count), mf_ltw(contact_separation, margin));
        mf_vec3w point = mf_add3w(mf_mat3_mulw(&rotation_a, mf_add3w(on_a, mf_scale3w(between, half))), position_a);
        store3(rows, out, point);
        mf_storew(rows->out[out + 3], contact_separation);
        mf_storew(rows->out[out + 4], mf_selectw(kept, mf_splatw(1.0f), mf_splatw(0.0f)));
        any = mf_orw(any, kept);
        deepest = mf_minw(deepest, mf_selectw(kept, contact_separation, mf_splatw(INFINITY)));
    }
    // Two boxes: the deepest contact attains the kept normal's exact separation, at most the best,
    // within the slop, as a fresh clip's does.
    reused =
        mf_andw(reused, mf_orw(mf_andnotw(boxes, mf_eqw(count, count)), mf_lew(deepest, mf_addw(separation, slop))));
    store3(rows, OUT_NORMAL, mf_mat3_mulw(&rotation_a, normal));
    mf_storew(rows->out[OUT_REUSED], mf_selectw(mf_andw(reused, any), mf_splatw(1.0f), mf_splatw(0.0f)));
}

// Lane by lane: results of the reused pairs; the others are listed as missed.
static void write_out(mf_reuse_job *job, uint32_t first, uint32_t lanes, const reuse_rows *rows)
{
    for (uint32_t l = 0; l < lanes; ++l) {
        uint32_t p = job->list[first + l];
        if (rows->out[OUT_REUSED][l] == 0.0f) {
            job->missed[job->missed_count++] = p;
            continue;
        }
        const mf_pair_cache *entry = &job->cache[p];
        mf_pair_result *result = &job->results[p];
        uint32_t count = 0;
        for (uint32_t k = 0; k < entry->contact_count; ++k) {
            const float(*c)[W] = rows->out + OUT_CONTACTS + 5 * k;
            if (c[4][l] == 0.0f) continue;
            result->contacts[count++] = (mf_contact){{c[0][l], c[1][l], c[2][l]}, c[3][l], entry->contacts[k].id};
        }
        result->count = count;
        result->normal =
            (mf_vec3){rows->out[OUT_NORMAL][l], rows->out[OUT_NORMAL + 1][l], rows->out[OUT_NORMAL + 2][l]};
    }
}

void MF_NAMED(mf_reuse, MF_WIDE_NAME)(mf_reuse_job *job)
{
    MF_ASSERT(job->count == 0 || (job->list != NULL && job->cache != NULL && job->missed != NULL));
    reuse_rows rows;
    job->missed_count = 0;
    for (uint32_t first = 0; first < job->count; first += W) {
        uint32_t lanes = job->count - first < W ? job->count - first : W;
        gather(job, first, lanes, &rows);
        reuse_lanes(job->config, &rows);
        write_out(job, first, lanes, &rows);
    }
}

// A kept manifold is reused while b has moved so little in a's frame since it was clipped (by at
// most `moved`) that the kept normal, fixed in a's frame, is provably still within the slop of the
// best axis: its separation fell by at most `moved` and the best rose by at most as much. Every
// kept point then moved at most `moved` against the other body, and mf_collide would give the pair
// a manifold (the best stays below the margin). Each point pair is carried with its bodies and its
// separation measured along the normal again; pairs that left the margin are dropped, as the clip
// drops them. The entry stays as it was clipped, a step older.
#include "reuse_pass.h"

#include "wide.h"

#include <string.h>

#define MF_GLUE(a, b) a##_##b
#define MF_NAMED(a, b) MF_GLUE(a, b)

enum { W = MF_WIDE_WIDTH };

// What the lanes read, a row per quantity: the bodies' poses, the entry's pose, bounds and kept
// manifold, b's radius.
enum {
    IN_QA = 0, // x, y, z, w
    IN_PA = 4,
    IN_QB = 7,
    IN_PB = 11,
    IN_KEPT_Q = 14,
    IN_KEPT_P = 18,
    IN_SEPARATION = 21,
    IN_BEST = 22,
    IN_RADIUS_B = 23,
    IN_NORMAL = 24,
    IN_COUNT = 27,
    IN_CONTACTS = 28, // on_a x, y, z, on_b x, y, z per kept contact
    IN_ROWS = IN_CONTACTS + 6 * MF_CACHE_CONTACTS
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

// Lane l of `count` rows from `values`.
static void put(float (*rows)[W], uint32_t l, const float *values, uint32_t count)
{
    for (uint32_t k = 0; k < count; ++k) rows[k][l] = values[k];
}

// Lane l's inputs from pair p.
static void gather(const mf_reuse_job *job, uint32_t l, uint32_t p, reuse_rows *rows)
{
    mf_pair pair = job->pairs[p];
    const mf_transform *ta = &job->bodies->transform[pair.a], *tb = &job->bodies->transform[pair.b];
    const mf_pair_cache *entry = &job->cache[p];
    float (*in)[W] = rows->in;
    const mf_quat *kq = &entry->relative_rotation;
    const mf_vec3 *kp = &entry->relative_position, *n = &entry->normal;
    const float pose[IN_SEPARATION] = {ta->q.x, ta->q.y, ta->q.z, ta->q.w, ta->p.x, ta->p.y, ta->p.z,
                                       tb->q.x, tb->q.y, tb->q.z, tb->q.w, tb->p.x, tb->p.y, tb->p.z,
                                       kq->x,   kq->y,   kq->z,   kq->w,   kp->x,   kp->y,   kp->z};
    put(in, l, pose, IN_SEPARATION);
    const float kept[IN_CONTACTS - IN_SEPARATION] = {
        entry->separation, entry->best, job->bank->shapes[entry->shape_b].radius, n->x, n->y, n->z,
        (float)entry->contact_count};
    put(in + IN_SEPARATION, l, kept, IN_CONTACTS - IN_SEPARATION);
    for (uint32_t k = 0; k < MF_CACHE_CONTACTS; ++k) {
        // Slots past the kept contacts repeat the first: finite, and never written out.
        const mf_cached_contact *c = &entry->contacts[k < entry->contact_count ? k : 0];
        const float points[6] = {c->on_a.x, c->on_a.y, c->on_a.z, c->on_b.x, c->on_b.y, c->on_b.z};
        put(in + IN_CONTACTS + 6 * k, l, points, 6);
    }
}

typedef struct quatw {
    mf_floatw x, y, z, w;
} quatw;

static quatw load_quat(const reuse_rows *rows, int row)
{
    return (quatw){mf_loadw(rows->in[row]), mf_loadw(rows->in[row + 1]), mf_loadw(rows->in[row + 2]),
                   mf_loadw(rows->in[row + 3])};
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

static quatw normalize(quatw q)
{
    mf_floatw v[4] = {q.x, q.y, q.z, q.w};
    mf_quat_normalizew(v);
    return (quatw){v[0], v[1], v[2], v[3]};
}

// a b, with cache.c's order of operations.
static quatw multiply(quatw a, quatw b)
{
    return (quatw){
        mf_subw(mf_addw(mf_addw(mf_mulw(a.w, b.x), mf_mulw(a.x, b.w)), mf_mulw(a.y, b.z)), mf_mulw(a.z, b.y)),
        mf_addw(mf_addw(mf_subw(mf_mulw(a.w, b.y), mf_mulw(a.x, b.z)), mf_mulw(a.y, b.w)), mf_mulw(a.z, b.x)),
        mf_addw(mf_subw(mf_addw(mf_mulw(a.w, b.z), mf_mulw(a.x, b.y)), mf_mulw(a.y, b.x)), mf_mulw(a.z, b.w)),
        mf_subw(mf_subw(mf_subw(mf_mulw(a.w, b.w), mf_mulw(a.x, b.x)), mf_mulw(a.y, b.y)), mf_mulw(a.z, b.z))};
}

static quatw conjugate(quatw q) { return (quatw){mf_negw(q.x), mf_negw(q.y), mf_negw(q.z), q.w}; }

static mf_floatw length(mf_vec3w v) { return mf_sqrtw(mf_dotw(v, v)); }

// The lanes: relative pose and how far b moved since the entry's, the bounds, the kept contacts
// carried along.
static void reuse_lanes(const mf_config *config, reuse_rows *rows)
{
    quatw qa = normalize(load_quat(rows, IN_QA)), qb = normalize(load_quat(rows, IN_QB));
    mf_mat3w rotation_a = mf_mat3_from_quatw(qa.x, qa.y, qa.z, qa.w);
    mf_vec3w position_a = load3(rows, IN_PA);
    quatw relative = multiply(conjugate(qa), qb);
    mf_vec3w position = mf_mat3_mul_transposedw(&rotation_a, mf_sub3w(load3(rows, IN_PB), position_a));
    // The chord of the turn since: 2 sin(θ/2), twice the vector part of the change.
    quatw change = multiply(relative, conjugate(load_quat(rows, IN_KEPT_Q)));
    mf_floatw chord = mf_mulw(mf_splatw(2.0f), length((mf_vec3w){change.x, change.y, change.z}));
    mf_floatw radius_b = mf_loadw(rows->in[IN_RADIUS_B]);
    mf_floatw moved = mf_addw(length(mf_sub3w(position, load3(rows, IN_KEPT_P))), mf_mulw(chord, radius_b));
    // A hair more for the rounding of the relative poses, now and when kept (a few float epsilons
    // of b's origin and radius each).
    moved = mf_addw(moved, mf_mulw(mf_splatw(2e-6f), mf_addw(radius_b, length(position))));
    mf_floatw separation = mf_loadw(rows->in[IN_SEPARATION]), best = mf_loadw(rows->in[IN_BEST]);
    mf_maskw reused = mf_andw(
        mf_gew(mf_subw(separation, moved), mf_subw(mf_addw(best, moved), mf_splatw(config->linear_slop))),
        mf_ltw(mf_addw(best, moved), mf_splatw(config->margin)));

    mf_mat3w turn = mf_mat3_from_quatw(relative.x, relative.y, relative.z, relative.w);
    mf_vec3w normal = load3(rows, IN_NORMAL);
    mf_floatw count = mf_loadw(rows->in[IN_COUNT]), margin = mf_splatw(config->margin), half = mf_splatw(0.5f);
    mf_maskw any = mf_ltw(count, mf_splatw(0.0f)); // none
    for (int k = 0; k < MF_CACHE_CONTACTS; ++k) {
        int row = IN_CONTACTS + 6 * k, out = OUT_CONTACTS + 5 * k;
        mf_vec3w on_a = load3(rows, row);
        mf_vec3w between = mf_sub3w(mf_add3w(mf_mat3_mulw(&turn, load3(rows, row + 3)), position), on_a);
        mf_floatw contact_separation = mf_dotw(between, normal);
        mf_maskw kept = mf_andw(mf_ltw(mf_splatw((float)k), count), mf_ltw(contact_separation, margin));
        mf_vec3w point = mf_add3w(mf_mat3_mulw(&rotation_a, mf_add3w(on_a, mf_scale3w(between, half))), position_a);
        store3(rows, out, point);
        mf_storew(rows->out[out + 3], contact_separation);
        mf_storew(rows->out[out + 4], mf_selectw(kept, mf_splatw(1.0f), mf_splatw(0.0f)));
        any = mf_orw(any, kept);
    }
    store3(rows, OUT_NORMAL, mf_mat3_mulw(&rotation_a, normal));
    mf_storew(rows->out[OUT_REUSED], mf_selectw(mf_andw(reused, any), mf_splatw(1.0f), mf_splatw(0.0f)));
}

// Lane by lane: results and entries of the reused pairs; the others are listed as missed.
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
        result->normal = (mf_vec3){rows->out[OUT_NORMAL][l], rows->out[OUT_NORMAL + 1][l], rows->out[OUT_NORMAL + 2][l]};
        // In place, only the step count and the route change.
        uint8_t age = (uint8_t)(entry->age + 1u);
        if (result->cache != entry) *result->cache = *entry;
        result->cache->age = age;
        result->cache->route = MF_ROUTE_REUSED;
    }
}

void MF_NAMED(mf_reuse, MF_WIDE_NAME)(mf_reuse_job *job)
{
    reuse_rows rows;
    job->missed_count = 0;
    for (uint32_t first = 0; first < job->count; first += W) {
        uint32_t lanes = job->count - first < W ? job->count - first : W;
        // Lanes past the last repeat the first pair, so that every lane computes finite values.
        for (uint32_t l = 0; l < W; ++l) gather(job, l, job->list[first + (l < lanes ? l : 0)], &rows);
        reuse_lanes(job->config, &rows);
        write_out(job, first, lanes, &rows);
    }
}

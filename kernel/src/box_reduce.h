// The box pass's reduction of the clip's slots to max_contacts (its step 5), by masked arg-max
// passes over the slots: deepest, farthest, largest triangle, largest area outside it, then
// farthest from all chosen (Catto; Box3D).
// Included by box_pass.c alone: the whole pass stays one translation unit per ISA, so that these
// per-lane helpers inline into it.
#pragma once

#include "box_clip.h"
#include "tolerances.h"
#include "wide.h"

static inline mf_floatw cross2(mf_floatw ax, mf_floatw ay, mf_floatw bx, mf_floatw by)
{
    return mf_subw(mf_mulw(ax, by), mf_mulw(ay, bx));
}

// The slots some lane keeps, in order, and how many: the passes look at no other (a resting box
// keeps only its corners).
static int list_live_slots(const clip_slots *s, int live[SLOTS])
{
    int count = 0;
    for (int k = 0; k < SLOTS; ++k) {
        live[count] = k;
        count += mf_anyw(s->slot[k].keep);
    }
    return count;
}

static inline mf_floatw distance2(const clip_slots *s, int k, const vec3w *p)
{
    const clip_slot *c = &s->slot[k];
    mf_floatw dx = mf_subw(c->x, p->c[0]), dy = mf_subw(c->y, p->c[1]), dz = mf_subw(c->z, p->c[2]);
    return mf_addw(mf_addw(mf_mulw(dx, dx), mf_mulw(dy, dy)), mf_mulw(dz, dz));
}

// A contact the reduction chose, per lane: its slot and point, and the side of the reference face
// an edge crossing crosses (with the slot's corner, slot_corner, what its feature ids are made of).
typedef struct slot_choice {
    mf_floatw slot, side;
    vec3w point;
} slot_choice;

// One pass's arg-max: the best score so far and the contact of the slot that holds it. The slot
// comes along as the pass goes, so no second look over the slots is needed to fetch it.
typedef struct slot_pass {
    mf_floatw best;
    slot_choice choice;
} slot_pass;

// Where `better`, `score` becomes the pass's best and `from` its contact.
static inline void take_where(slot_pass *pass, mf_maskw better, mf_floatw score, const slot_choice *from)
{
    slot_choice *c = &pass->choice;
    pass->best = mf_selectw(better, score, pass->best);
    c->slot = mf_selectw(better, from->slot, c->slot);
    c->side = mf_selectw(better, from->side, c->side);
    for (int i = 0; i < 3; ++i) c->point.c[i] = mf_selectw(better, from->point.c[i], c->point.c[i]);
}

// The passes of step 5. Those after the first need not mask the slots already chosen: such a slot
// scores exactly 0 there (its distance to itself, a cross product of a vector with itself), or
// NaN, and a slot wins only above the degenerate amount. The outside area alone can be positive at
// a corner of the triangle (one of its cross products is the triangle's area, rounded another
// way), so that pass masks them by slot.
enum { PASS_DEEPEST, PASS_FARTHEST, PASS_WIDEST_TRIANGLE, PASS_OUTSIDE_TRIANGLE, PASS_FARTHEST_FROM_ALL };

// What a pass scores against: the contacts chosen before it, the triangle's corners (b and c
// swapped where it runs clockwise) and sides, and each slot's distance to the nearest chosen.
typedef struct pass_geometry {
    const slot_choice *chosen;
    const mf_floatw *nearest;
    mf_floatw ax, ay, bx, by, cx, cy;
    mf_floatw ab_x, ab_y, bc_x, bc_y, ca_x, ca_y;
} pass_geometry;

static pass_geometry geometry_of(int kind, const slot_choice *chosen, const mf_floatw *nearest)
{
    pass_geometry g = {.chosen = chosen, .nearest = nearest};
    if (kind != PASS_WIDEST_TRIANGLE && kind != PASS_OUTSIDE_TRIANGLE) return g;
    const vec3w *a = &chosen[0].point, *b = &chosen[1].point, *c = &chosen[2].point;
    g.ax = a->c[0], g.ay = a->c[1], g.bx = b->c[0], g.by = b->c[1];
    if (kind == PASS_OUTSIDE_TRIANGLE) {
        mf_maskw ccw = mf_gtw(cross2(mf_subw(b->c[0], a->c[0]), mf_subw(b->c[1], a->c[1]), mf_subw(c->c[0], a->c[0]),
                                     mf_subw(c->c[1], a->c[1])),
                              mf_splatw(0.0f));
        g.bx = mf_selectw(ccw, b->c[0], c->c[0]), g.by = mf_selectw(ccw, b->c[1], c->c[1]);
        g.cx = mf_selectw(ccw, c->c[0], b->c[0]), g.cy = mf_selectw(ccw, c->c[1], b->c[1]);
        g.bc_x = mf_subw(g.cx, g.bx), g.bc_y = mf_subw(g.cy, g.by);
        g.ca_x = mf_subw(g.ax, g.cx), g.ca_y = mf_subw(g.ay, g.cy);
    }
    g.ab_x = mf_subw(g.bx, g.ax), g.ab_y = mf_subw(g.by, g.ay);
    return g;
}

// Slot k's score in the pass and whether it may win (a deepest slot wins by the lowest score).
static inline mf_floatw score_of(int kind, const pass_geometry *g, const clip_slots *s, int k, mf_maskw *open)
{
    const clip_slot *c = &s->slot[k];
    *open = c->keep;
    switch (kind) {
    case PASS_DEEPEST:
        return c->separation;
    case PASS_FARTHEST:
        return distance2(s, k, &g->chosen[0].point);
    case PASS_WIDEST_TRIANGLE:
        return mf_absw(cross2(g->ab_x, g->ab_y, mf_subw(c->x, g->ax), mf_subw(c->y, g->ay)));
    case PASS_OUTSIDE_TRIANGLE: {
        // The area the slot adds outside triangle 0, 1, 2 taken counter-clockwise.
        mf_floatw slot = mf_splatw(slot_number[k]);
        mf_maskw taken = mf_orw(mf_orw(mf_eqw(g->chosen[0].slot, slot), mf_eqw(g->chosen[1].slot, slot)),
                                mf_eqw(g->chosen[2].slot, slot));
        *open = mf_andnotw(taken, *open);
        mf_floatw ab = cross2(g->ab_x, g->ab_y, mf_subw(c->x, g->ax), mf_subw(c->y, g->ay));
        mf_floatw bc = cross2(g->bc_x, g->bc_y, mf_subw(c->x, g->bx), mf_subw(c->y, g->by));
        mf_floatw ca = cross2(g->ca_x, g->ca_y, mf_subw(c->x, g->cx), mf_subw(c->y, g->cy));
        return mf_negw(mf_minw(mf_minw(ab, bc), ca));
    }
    default:
        return g->nearest[k];
    }
}

static inline void offer_slot(int kind, const pass_geometry *g, const clip_slots *s, int k, slot_pass *pass)
{
    mf_maskw open;
    mf_floatw score = score_of(kind, g, s, k, &open);
    // AVX-512 ANDs masks through the general registers and back: there closed lanes score what
    // never wins instead, so no AND follows the compare on the chain each slot waits on. Vector
    // masks AND in one instruction.
    if (MF_WIDE_WIDTH == 16) score = mf_selectw(open, score, mf_splatw(kind == PASS_DEEPEST ? INFINITY : -INFINITY));
    mf_maskw better = kind == PASS_DEEPEST ? mf_ltw(score, pass->best) : mf_gtw(score, pass->best);
    const clip_slot *c = &s->slot[k];
    slot_choice slot = {mf_splatw(slot_number[k]), c->side, {{c->x, c->y, c->z}}};
    take_where(pass, MF_WIDE_WIDTH == 16 ? better : mf_andw(open, better), score, &slot);
}

// Arg-max chains per pass: each slot's compare waits on the select before it, so with AVX-512's 32
// registers two chains run, over the first and the second half of the slots, each half as long.
// With 16 registers the second chain's values would spill, and its loads and stores cost more.
enum { CHAINS = MF_WIDE_WIDTH == 16 ? 2 : 1 };

// One pass's arg-max over the live slots, the first of equal scores winning: a second chain's best
// wins where it is strictly better.
static inline void run_pass(int kind, const pass_geometry *g, const clip_slots *s, const int *live, int live_count,
                            slot_pass *pass)
{
    if (CHAINS == 1) {
        if (live_count == 4 && live[3] == SLOT_INCIDENT + 3) {
            // Only the incident corners live (a box resting on a larger one): the same offers, with
            // each slot's number a constant, so that its rows' places and its numbers fold in
            // (4.6% fewer instructions on box_resting; time even).
            for (int k = SLOT_INCIDENT; k < SLOT_INCIDENT + 4; ++k) offer_slot(kind, g, s, k, pass);
            return;
        }
        for (int i = 0; i < live_count; ++i) offer_slot(kind, g, s, live[i], pass);
        return;
    }
    int half = (live_count + 1) / 2;
    slot_pass second = *pass;
    for (int i = 0; half + i < live_count; ++i) {
        offer_slot(kind, g, s, live[i], pass);
        offer_slot(kind, g, s, live[half + i], &second);
    }
    if (live_count & 1) offer_slot(kind, g, s, live[half - 1], pass);
    mf_maskw later = kind == PASS_DEEPEST ? mf_ltw(second.best, pass->best) : mf_gtw(second.best, pass->best);
    take_where(pass, later, second.best, &second.choice);
}

static void pass_of_kind(int kind, const clip_slots *s, const int *live, int live_count, const slot_choice *chosen,
                         const mf_floatw *nearest, slot_pass *pass)
{
    pass_geometry g = geometry_of(kind, chosen, nearest);
    // Each case hands run_pass its kind as a constant, so that the inlined slot loop is built once
    // per kind with score_of's switch resolved, not a switch per slot.
    switch (kind) {
    case PASS_DEEPEST:
        run_pass(PASS_DEEPEST, &g, s, live, live_count, pass);
        break;
    case PASS_FARTHEST:
        run_pass(PASS_FARTHEST, &g, s, live, live_count, pass);
        break;
    case PASS_WIDEST_TRIANGLE:
        run_pass(PASS_WIDEST_TRIANGLE, &g, s, live, live_count, pass);
        break;
    case PASS_OUTSIDE_TRIANGLE:
        run_pass(PASS_OUTSIDE_TRIANGLE, &g, s, live, live_count, pass);
        break;
    default:
        run_pass(PASS_FARTHEST_FROM_ALL, &g, s, live, live_count, pass);
        break;
    }
}

// Step 5: chosen[n] is contact n in the lanes that count more than n; the passes follow mf_reduce's
// rules (reduce.c) with the normal +z, and stop where no slot scores above a degenerate amount.
static mf_floatw reduce_slots(const clip_slots *s, uint32_t max_contacts, slot_choice chosen[MF_MAX_CONTACTS])
{
    mf_floatw zero = mf_splatw(0.0f), one = mf_splatw(1.0f), tiny = mf_splatw(MF_DEGENERATE_SCORE);
    int live[SLOTS], live_count = list_live_slots(s, live);
    mf_floatw nearest[SLOTS];
    mf_maskw found = mf_ltw(one, zero);
    mf_floatw count = zero;
    for (uint32_t n = 0; n < max_contacts; ++n) {
        // The pass starts from no choice, as chosen[n] is (collide_faces zeroes it): built from
        // constants, not copied from memory.
        slot_pass pass = {n == 0 ? mf_splatw(INFINITY) : tiny, {zero, zero, {{zero, zero, zero}}}};
        int kind = n < PASS_FARTHEST_FROM_ALL ? (int)n : PASS_FARTHEST_FROM_ALL;
        pass_of_kind(kind, s, live, live_count, chosen, nearest, &pass);
        found = n == 0 ? mf_ltw(pass.best, mf_splatw(INFINITY)) : mf_andw(found, mf_gtw(pass.best, tiny));
        if (!mf_anyw(found)) break;
        chosen[n] = pass.choice;
        count = mf_selectw(found, mf_addw(count, one), count);
        if (max_contacts > 4 && n >= 3) {
            // Beyond four, each next point is the farthest from all chosen so far.
            for (int i = 0; i < live_count; ++i) {
                int k = live[i];
                mf_floatw distance = distance2(s, k, &chosen[n].point);
                for (uint32_t c = 0; n == 3 && c < 3; ++c)
                    distance = mf_minw(distance, distance2(s, k, &chosen[c].point));
                nearest[k] = n == 3 ? distance : mf_minw(nearest[k], distance);
            }
        }
    }
    return count;
}

// The peers' benchmark body: the same pairs and transforms as manyfold, shapes built before the
// timed loop, and agreement with manyfold's reference reported as counters.
#include "collide.h"

#include "machine.h"

#if BENCH_HAVE_BULLET
#include "peer_bullet.h"
#endif
#if BENCH_HAVE_ODE
#include "peer_ode.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Peers keep every body in their own terms (ODE: a geom per body); only one case holds them at a
// time, so the crowd scene's copies do not pile up.
static peer_case *built_case = NULL;

static int build_peer(peer_case *c, char *message, size_t message_size)
{
    const scene *s = &c->scene->scene;
    size_t outcomes_size = ((size_t)s->pair_count + 1) * sizeof(bench_outcome);
    c->outcomes = calloc(1, outcomes_size);
    if (c->outcomes == NULL) return 0;
    bench_touch_pages(c->outcomes, outcomes_size); // no page faults in the timed loop
    snprintf(message, message_size, "peer setup failed");
    switch (c->kind) {
#if BENCH_HAVE_BULLET
    case PEER_BULLET_HULL:
    case PEER_BULLET_BOXBOX:
        c->peer = peer_bullet_create(s, c->kind == PEER_BULLET_BOXBOX, mf_config_default().margin);
        break;
#endif
#if BENCH_HAVE_ODE
    case PEER_ODE:
        c->peer = peer_ode_create(s, message, message_size);
        break;
#endif
    default:
        snprintf(message, message_size, "peer not in this build");
        break;
    }
    return c->peer != NULL;
}

static void collide(peer_case *c)
{
    switch (c->kind) {
#if BENCH_HAVE_BULLET
    case PEER_BULLET_HULL:
    case PEER_BULLET_BOXBOX:
        peer_bullet_collide(c->peer, c->outcomes);
        break;
#endif
#if BENCH_HAVE_ODE
    case PEER_ODE:
        peer_ode_collide(c->peer, c->outcomes);
        break;
#endif
    default:
        break;
    }
}

void bench_peer_release(peer_case *c)
{
    if (c->peer != NULL) {
        switch (c->kind) {
#if BENCH_HAVE_BULLET
        case PEER_BULLET_HULL:
        case PEER_BULLET_BOXBOX:
            peer_bullet_destroy(c->peer);
            break;
#endif
#if BENCH_HAVE_ODE
        case PEER_ODE:
            peer_ode_destroy(c->peer);
            break;
#endif
        default:
            break;
        }
    }
    free(c->outcomes);
    c->peer = NULL;
    c->outcomes = NULL;
    if (built_case == c) built_case = NULL;
}

// MANYFOLD_BENCH_EXPLAIN=n prints up to n disagreeing pairs per peer and scene to stderr.
static void explain(const peer_case *c, const bench_outcome *reference, const char *label)
{
    const char *text = getenv("MANYFOLD_BENCH_EXPLAIN");
    uint32_t limit = text != NULL ? (uint32_t)strtoul(text, NULL, 10) : 0;
    if (limit > 0) bench_explain_disagreements(label, reference, c->outcomes, c->scene->scene.pair_count, limit);
}

void bench_collide_peer(bench_state *state, void *context)
{
    peer_case *c = context;
    char message[512] = "";
    const bench_outcome *reference = bench_scene_reference(c->scene, message, sizeof(message));
    if (reference == NULL) {
        bench_fail(state, message);
        return;
    }
    if (built_case != c) {
        if (built_case != NULL) bench_peer_release(built_case);
        if (!build_peer(c, message, sizeof(message))) {
            bench_peer_release(c);
            bench_fail(state, message);
            return;
        }
        built_case = c;
    }

    while (bench_keep_running(state)) collide(c);

    if (!c->explained) {
        static const char *const labels[] = {"bullet_hull", "bullet_boxbox", "ode"};
        char label[128];
        snprintf(label, sizeof(label), "%s/%s", c->scene->scene.name, labels[c->kind]);
        explain(c, reference, label);
        c->explained = 1;
    }

    uint32_t pairs = c->scene->scene.pair_count;
    double manifolds, contacts;
    bench_outcome_totals(c->outcomes, pairs, &manifolds, &contacts);
    bench_agreement agreement = bench_agree(reference, c->outcomes, pairs);
    bench_counter(state, "manifolds", manifolds);
    bench_counter(state, "contacts", contacts);
    bench_counter(state, "both_touching", agreement.both_touching);
    bench_counter(state, "normal_agree", agreement.normal_agree);
    bench_counter(state, "depth_agree", agreement.depth_agree);
    bench_counter(state, "only_manyfold", agreement.only_reference);
    bench_counter(state, "only_peer", agreement.only_peer);
}

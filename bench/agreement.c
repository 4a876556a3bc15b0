// Agreement between manyfold's outcomes and a peer's on the same pairs.
#include "outcome.h"

#include <math.h>
#include <stdio.h>

#define NORMAL_AGREEMENT 0.99f // cosine: about 8 degrees
#define DEPTH_ABSOLUTE 0.001f  // 1 mm
#define DEPTH_RELATIVE 0.02f   // plus 2% of manyfold's depth

static int normals_agree(const bench_outcome *a, const bench_outcome *b)
{
    return a->normal.x * b->normal.x + a->normal.y * b->normal.y + a->normal.z * b->normal.z > NORMAL_AGREEMENT;
}

static int depths_agree(const bench_outcome *reference, const bench_outcome *peer)
{
    return fabsf(peer->depth - reference->depth) <= DEPTH_ABSOLUTE + DEPTH_RELATIVE * fabsf(reference->depth);
}

bench_agreement bench_agree(const bench_outcome *reference, const bench_outcome *peer, uint32_t pair_count)
{
    uint32_t both = 0, normals = 0, depths = 0, only_reference = 0, only_peer = 0;
    for (uint32_t i = 0; i < pair_count; ++i) {
        int r = bench_outcome_touching(&reference[i]), p = bench_outcome_touching(&peer[i]);
        only_reference += r && !p;
        only_peer += p && !r;
        if (!(r && p)) continue;
        ++both;
        normals += normals_agree(&reference[i], &peer[i]);
        depths += depths_agree(&reference[i], &peer[i]);
    }
    double pairs = pair_count > 0 ? pair_count : 1, touching = both > 0 ? both : 1;
    return (bench_agreement){.both_touching = both / pairs,
                             .normal_agree = normals / touching,
                             .depth_agree = depths / touching,
                             .only_reference = only_reference / pairs,
                             .only_peer = only_peer / pairs};
}

void bench_explain_disagreements(const char *label, const bench_outcome *reference, const bench_outcome *peer,
                                 uint32_t pair_count, uint32_t limit)
{
    uint32_t shown = 0;
    for (uint32_t i = 0; i < pair_count && shown < limit; ++i) {
        const bench_outcome *r = &reference[i], *p = &peer[i];
        int rt = bench_outcome_touching(r), pt = bench_outcome_touching(p);
        if (rt == pt && (!rt || (normals_agree(r, p) && depths_agree(r, p)))) continue;
        fprintf(stderr,
                "%s pair %u: manyfold %u contacts depth %+.5f normal (%+.4f %+.4f %+.4f) | "
                "peer %u contacts depth %+.5f normal (%+.4f %+.4f %+.4f)\n",
                label, i, r->contacts, r->depth, r->normal.x, r->normal.y, r->normal.z, p->contacts, p->depth,
                p->normal.x, p->normal.y, p->normal.z);
        ++shown;
    }
}

void bench_outcome_totals(const bench_outcome *outcomes, uint32_t pair_count, double *manifolds_per_pair,
                          double *contacts_per_pair)
{
    uint64_t manifolds = 0, contacts = 0;
    for (uint32_t i = 0; i < pair_count; ++i) {
        manifolds += outcomes[i].contacts > 0;
        contacts += outcomes[i].contacts;
    }
    double pairs = pair_count > 0 ? pair_count : 1;
    *manifolds_per_pair = manifolds / pairs;
    *contacts_per_pair = contacts / pairs;
}

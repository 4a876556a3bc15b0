// ODE peer (see peer_ode.h). ODE's normal points into geom 1 (moving o1 along it separates the
// pair), so manyfold's a-to-b normal is its negation; ODE's depth is already a penetration.
#include "peer_ode.h"

#include <ode/ode.h>

#include <stdio.h>
#include <stdlib.h>

#define ODE_MAX_CONTACTS 8

// A shape in the arrays dCreateConvex reads (and keeps pointers to: they live as long as the peer).
typedef struct ode_convex_data {
    dReal *planes;          // a, b, c, d per face: a x + b y + c z = d
    dReal *points;          // x, y, z per vertex
    unsigned int *polygons; // per face: its vertex count, then its vertex indices
    unsigned int plane_count, point_count;
} ode_convex_data;

struct peer_ode {
    const scene *s;
    ode_convex_data *shapes; // per shape
    dGeomID *convex;         // per body
    dGeomID *box;            // per body; NULL unless the body is a box
    dContactGeom contacts[ODE_MAX_CONTACTS];
};

static int ode_ready(char *message, size_t message_size)
{
    static int initialised = 0;
    if (!initialised) {
        dInitODE2(0);
        dAllocateODEDataForThread(dAllocateMaskAll);
        initialised = 1;
    }
#ifdef dDOUBLE
    const int headers_double = 1;
#else
    const int headers_double = 0;
#endif
    if (dCheckConfiguration("ODE_double_precision") != headers_double) {
        snprintf(message, message_size, "ODE library and headers disagree on dReal precision");
        return 0;
    }
    return 1;
}

static int fill_convex_data(const mf_bank *bank, uint32_t shape, ode_convex_data *data)
{
    mf_shape_info info;
    if (mf_bank_shape_info(bank, shape, &info) != MF_OK) return 0;
    mf_vec3 *vertices = malloc(info.vertex_count * sizeof(mf_vec3));
    data->planes = malloc(4 * info.face_count * sizeof(dReal));
    data->points = malloc(3 * info.vertex_count * sizeof(dReal));
    data->polygons = malloc((info.face_count + 2 * info.edge_count) * sizeof(unsigned int));
    int ok = vertices != NULL && data->planes != NULL && data->points != NULL && data->polygons != NULL &&
             mf_bank_shape_vertices(bank, shape, vertices, info.vertex_count) == MF_OK;
    for (uint32_t i = 0; ok && i < info.vertex_count; ++i) {
        data->points[3 * i] = vertices[i].x;
        data->points[3 * i + 1] = vertices[i].y;
        data->points[3 * i + 2] = vertices[i].z;
    }
    // Every edge borders two faces, so the loops hold 2 * edges indices in all.
    uint32_t at = 0, loop[MF_MAX_FACE_VERTICES], count = 0;
    for (uint32_t face = 0; ok && face < info.face_count; ++face) {
        mf_vec3 normal;
        float offset;
        ok = mf_bank_shape_face(bank, shape, face, &normal, &offset, loop, MF_MAX_FACE_VERTICES, &count) == MF_OK;
        dReal *plane = &data->planes[4 * face];
        plane[0] = normal.x, plane[1] = normal.y, plane[2] = normal.z, plane[3] = offset;
        data->polygons[at++] = count;
        for (uint32_t k = 0; ok && k < count; ++k) data->polygons[at++] = loop[k];
    }
    data->plane_count = info.face_count;
    data->point_count = info.vertex_count;
    free(vertices);
    return ok;
}

static void pose(dGeomID geom, const mf_transform *t)
{
    dQuaternion q = {t->q.w, t->q.x, t->q.y, t->q.z}; // ODE stores w first
    dGeomSetPosition(geom, t->p.x, t->p.y, t->p.z);
    dGeomSetQuaternion(geom, q);
}

peer_ode *peer_ode_create(const scene *s, char *message, size_t message_size)
{
    if (!ode_ready(message, message_size)) return NULL;
    peer_ode *peer = calloc(1, sizeof(peer_ode));
    if (peer == NULL) return NULL;
    peer->s = s;
    peer->shapes = calloc(s->shape_count, sizeof(ode_convex_data));
    peer->convex = calloc(s->body_count, sizeof(dGeomID));
    peer->box = calloc(s->body_count, sizeof(dGeomID));
    int ok = peer->shapes != NULL && peer->convex != NULL && peer->box != NULL;
    for (uint32_t i = 0; ok && i < s->shape_count; ++i) ok = fill_convex_data(s->bank, i, &peer->shapes[i]);
    for (uint32_t i = 0; ok && i < s->body_count; ++i) {
        const ode_convex_data *data = &peer->shapes[s->body_shape[i]];
        peer->convex[i] =
            dCreateConvex(0, data->planes, data->plane_count, data->points, data->point_count, data->polygons);
        pose(peer->convex[i], &s->body_transform[i]);
        const scene_shape *shape = &s->shapes[s->body_shape[i]];
        if (shape->kind == SCENE_BOX) {
            mf_vec3 h = shape->half_extents;
            peer->box[i] = dCreateBox(0, 2 * h.x, 2 * h.y, 2 * h.z); // ODE takes full side lengths
            pose(peer->box[i], &s->body_transform[i]);
        }
    }
    if (!ok) {
        snprintf(message, message_size, "ODE peer: out of memory or unreadable shape");
        peer_ode_destroy(peer);
        return NULL;
    }
    return peer;
}

void peer_ode_collide(peer_ode *peer, bench_outcome *outcomes)
{
    const scene *s = peer->s;
    for (uint32_t i = 0; i < s->pair_count; ++i) {
        uint32_t a = s->pairs[i].a, b = s->pairs[i].b;
        int boxes = peer->box[a] != NULL && peer->box[b] != NULL;
        dGeomID ga = boxes ? peer->box[a] : peer->convex[a], gb = boxes ? peer->box[b] : peer->convex[b];
        int count = dCollide(ga, gb, ODE_MAX_CONTACTS, peer->contacts, sizeof(dContactGeom));
        bench_outcome outcome = {{0, 0, 0}, 0, 0};
        for (int k = 0; k < count; ++k) {
            const dContactGeom *c = &peer->contacts[k];
            if (k == 0 || c->depth > outcome.depth) {
                outcome.depth = (float)c->depth;
                outcome.normal = (mf_vec3){(float)-c->normal[0], (float)-c->normal[1], (float)-c->normal[2]};
            }
        }
        outcome.contacts = (uint32_t)(count > 0 ? count : 0);
        outcomes[i] = outcome;
    }
}

void peer_ode_destroy(peer_ode *peer)
{
    if (peer == NULL) return;
    for (uint32_t i = 0; peer->convex != NULL && i < peer->s->body_count; ++i) {
        if (peer->convex[i] != NULL) dGeomDestroy(peer->convex[i]);
        if (peer->box != NULL && peer->box[i] != NULL) dGeomDestroy(peer->box[i]);
    }
    for (uint32_t i = 0; peer->shapes != NULL && i < peer->s->shape_count; ++i) {
        free(peer->shapes[i].planes);
        free(peer->shapes[i].points);
        free(peer->shapes[i].polygons);
    }
    free(peer->shapes);
    free(peer->convex);
    free(peer->box);
    free(peer);
}

// sim_engine_ode: a settling scene stepped by ODE (dWorldQuickStep), its contacts from manyfold
// through the adapter (mf_ode.h, cached unless settings.uncached) or from ODE's own colliders (dBox, dConvex) in a sweep-and-prune
// space. Both narrow phases get the same world, bodies, friction and contact count.
#include "mf_ode.h"
#include "sim_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// The world's solver, the same for both narrow phases (measured on the tower and the pyramid with
// both): ODE's default CFM, 1e-5, makes each contact a spring that lets a 1 m box of 1000 kg sink
// 2 mm into the ground and the pyramid's bottom row 11 mm; 1e-7 is a hundred times stiffer.
// QuickStep's default 20 iterations topple the tower within 10 s at that stiffness, 50 let it sway
// by 25 mm, 100 by 9 mm.
#define ODE_ITERATIONS 100
#define ODE_ERP 0.2
#define ODE_CFM 1e-7

struct sim_world {
    sim_settings settings;
    uint32_t max_contacts;
    dWorldID world;
    dJointGroupID contacts;
    mf_bank *bank;   // manyfold's shapes, for the adapter
    mf_ode *adapter; // SIM_NARROWPHASE_MANYFOLD
    dSpaceID space;  // SIM_NARROWPHASE_ENGINE: the geoms, collided by ODE
    uint32_t step_contacts;
    mf_ode_hull *hulls; // per scene shape: dConvex's arrays (empty for boxes)
    uint32_t shape_count;
    dBodyID *bodies; // NULL for static bodies
    dGeomID *geoms;
    uint32_t body_count;
};

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// The solid box bounding the shape in its own frame: its inertia about the body's origin, which
// ODE takes as the centre of mass (sim_engine.h's rule, the same in every back end).
static void bounding_box_mass(const scene_shape *shape, double density, dMass *mass)
{
    double low[3], high[3];
    if (shape->kind == SCENE_BOX) {
        const float half[3] = {shape->half_extents.x, shape->half_extents.y, shape->half_extents.z};
        for (int k = 0; k < 3; ++k) low[k] = -half[k], high[k] = half[k];
    } else {
        for (int k = 0; k < 3; ++k) low[k] = INFINITY, high[k] = -INFINITY;
        for (uint32_t i = 0; i < shape->point_count; ++i) {
            const float p[3] = {shape->points[i].x, shape->points[i].y, shape->points[i].z};
            for (int k = 0; k < 3; ++k) low[k] = fmin(low[k], p[k]), high[k] = fmax(high[k], p[k]);
        }
    }
    dMassSetBox(mass, density, high[0] - low[0], high[1] - low[1], high[2] - low[2]);
    dMassTranslate(mass, 0.5 * (low[0] + high[0]), 0.5 * (low[1] + high[1]), 0.5 * (low[2] + high[2]));
    mass->c[0] = mass->c[1] = mass->c[2] = 0.0;
}

static void destroy_world(sim_world *w)
{
    if (w == NULL) return;
    mf_ode_destroy(w->adapter);
    if (w->contacts != NULL) dJointGroupDestroy(w->contacts);
    for (uint32_t i = 0; w->geoms != NULL && i < w->body_count; ++i)
        if (w->geoms[i] != NULL) dGeomDestroy(w->geoms[i]);
    if (w->space != NULL) dSpaceDestroy(w->space);
    if (w->world != NULL) dWorldDestroy(w->world); // its bodies with it
    for (uint32_t i = 0; w->hulls != NULL && i < w->shape_count; ++i) mf_ode_hull_free(&w->hulls[i]);
    mf_bank_destroy(w->bank);
    free(w->hulls);
    free(w->bodies);
    free(w->geoms);
    free(w);
    dCloseODE();
}

// The geom of a scene shape: a dBox, or a dConvex of the hull as manyfold built it.
static mf_status make_geom(sim_world *w, const scene *s, uint32_t shape, dGeomID *geom)
{
    const scene_shape *info = &s->shapes[shape];
    if (info->kind == SCENE_BOX) {
        mf_vec3 h = info->half_extents;
        *geom = dCreateBox(w->space, 2.0 * h.x, 2.0 * h.y, 2.0 * h.z);
        return MF_OK;
    }
    mf_ode_hull *hull = &w->hulls[shape];
    if (hull->points == NULL) {
        mf_status status = mf_ode_hull_make(s->bank, shape, hull);
        if (status != MF_OK) return status;
    }
    *geom = dCreateConvex(w->space, hull->planes, hull->plane_count, hull->points, hull->point_count, hull->polygons);
    return MF_OK;
}

// Registers body i's geom with the adapter; its hull shape goes into the adapter's bank once.
static mf_status register_geom(sim_world *w, const scene *s, uint32_t *bank_shapes, uint32_t i)
{
    uint32_t shape = s->body_shape[i];
    const scene_shape *info = &s->shapes[shape];
    if (info->kind == SCENE_BOX) return mf_ode_add_box(w->adapter, w->geoms[i]);
    if (bank_shapes[shape] == UINT32_MAX) {
        mf_status status = mf_bank_add_hull(w->bank, info->points, info->point_count, &bank_shapes[shape]);
        if (status != MF_OK) return status;
    }
    return mf_ode_add_hull(w->adapter, w->geoms[i], bank_shapes[shape]);
}

static mf_status build_bodies(sim_world *w, const scene *s, const uint8_t *is_static)
{
    uint32_t *bank_shapes = malloc((s->shape_count > 0 ? s->shape_count : 1) * sizeof(uint32_t));
    if (bank_shapes == NULL) return MF_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < s->shape_count; ++i) bank_shapes[i] = UINT32_MAX;
    mf_status status = MF_OK;
    for (uint32_t i = 0; status == MF_OK && i < s->body_count; ++i) {
        status = make_geom(w, s, s->body_shape[i], &w->geoms[i]);
        if (status != MF_OK) break; // no geom to place: the loop's test would come too late
        mf_transform t = s->body_transform[i];
        dQuaternion q = {t.q.w, t.q.x, t.q.y, t.q.z};
        if (is_static[i]) {
            dGeomSetPosition(w->geoms[i], t.p.x, t.p.y, t.p.z);
            dGeomSetQuaternion(w->geoms[i], q);
        } else {
            dBodyID body = dBodyCreate(w->world);
            dMass mass;
            bounding_box_mass(&s->shapes[s->body_shape[i]], w->settings.density, &mass);
            dBodySetMass(body, &mass);
            dBodySetPosition(body, t.p.x, t.p.y, t.p.z);
            dBodySetQuaternion(body, q);
            dGeomSetBody(w->geoms[i], body);
            w->bodies[i] = body;
        }
        if (w->adapter != NULL) status = register_geom(w, s, bank_shapes, i);
    }
    free(bank_shapes);
    return status;
}

static mf_status ode_create(const scene *s, const uint8_t *is_static, const sim_settings *settings, sim_world **out)
{
    *out = NULL;
    if (s == NULL || is_static == NULL || settings == NULL || !(settings->step > 0.0) || settings->max_contacts > 8)
        return MF_ERR_INVALID_ARGUMENT;
    dInitODE2(0); // counted: every world closes it once
    dAllocateODEDataForThread(dAllocateMaskAll);
    sim_world *w = calloc(1, sizeof(sim_world));
    if (w == NULL) {
        dCloseODE();
        return MF_ERR_OUT_OF_MEMORY;
    }
    w->settings = *settings;
    w->max_contacts = settings->max_contacts > 0 ? settings->max_contacts : s->config.max_contacts;
    // QuickStep shuffles its constraints with ODE's one global generator: reseeded, a run gives the
    // same figures whatever ran before it in the process.
    dRandSetSeed(0);
    w->world = dWorldCreate();
    dReal gravity[3] = {0.0, 0.0, 0.0};
    gravity[s->up] = -settings->gravity; // along the scene's -up
    dWorldSetGravity(w->world, gravity[0], gravity[1], gravity[2]);
    dWorldSetERP(w->world, ODE_ERP);
    dWorldSetCFM(w->world, ODE_CFM);
    dWorldSetQuickStepNumIterations(w->world, ODE_ITERATIONS);
    w->contacts = dJointGroupCreate(0);
    w->shape_count = s->shape_count;
    w->body_count = s->body_count;
    w->hulls = calloc(s->shape_count > 0 ? s->shape_count : 1, sizeof(mf_ode_hull));
    w->bodies = calloc(s->body_count > 0 ? s->body_count : 1, sizeof(dBodyID));
    w->geoms = calloc(s->body_count > 0 ? s->body_count : 1, sizeof(dGeomID));
    mf_status status = w->hulls != NULL && w->bodies != NULL && w->geoms != NULL ? MF_OK : MF_ERR_OUT_OF_MEMORY;
    if (status == MF_OK && settings->narrowphase == SIM_NARROWPHASE_MANYFOLD) {
        mf_ode_config config = mf_ode_config_default();
        config.collide = s->config;
        config.collide.max_contacts = w->max_contacts;
        config.collide.threads = 1; // as ODE's colliders: the ms per step compare
        config.surface.mu = settings->friction;
        config.step = settings->step;
        config.cached = !settings->uncached;
        status = mf_bank_create(&w->bank);
        if (status == MF_OK) status = mf_ode_create(w->world, w->bank, &config, &w->adapter);
    } else if (status == MF_OK) {
        w->space = dSweepAndPruneSpaceCreate(0, dSAP_AXES_XZY);
    }
    if (status == MF_OK) status = build_bodies(w, s, is_static);
    if (status != MF_OK) {
        fprintf(stderr, "ode: cannot build the scene: %s%s%s\n", mf_status_string(status),
                w->adapter != NULL && mf_ode_message(w->adapter)[0] != '\0' ? ": " : "",
                w->adapter != NULL ? mf_ode_message(w->adapter) : "");
        destroy_world(w);
        return status;
    }
    *out = w;
    return MF_OK;
}

// dSpaceCollide's callback for ODE's own colliders: up to max_contacts points per pair.
static void engine_pair(void *data, dGeomID g1, dGeomID g2)
{
    sim_world *w = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 == b2) return; // two static geoms
    dContactGeom found[MF_MAX_CONTACTS];
    int count = dCollide(g1, g2, (int)w->max_contacts, found, sizeof(dContactGeom));
    for (int k = 0; k < count; ++k) {
        dContact contact = {.geom = found[k]};
        contact.surface.mode = dContactApprox1;
        contact.surface.mu = w->settings.friction;
        dJointAttach(dJointCreateContact(w->world, w->contacts, &contact), b1, b2);
    }
    w->step_contacts += (uint32_t)count;
}

static mf_status ode_step(sim_world *w, sim_step_report *report)
{
    *report = (sim_step_report){0};
    dJointGroupEmpty(w->contacts);
    double start = seconds_now();
    if (w->adapter != NULL) {
        mf_ode_report collided;
        mf_status status = mf_ode_collide(w->adapter, w->contacts, &collided);
        if (status != MF_OK) {
            fprintf(stderr, "ode: %s\n", mf_ode_message(w->adapter));
            return status;
        }
        report->pair_count = collided.pair_count;
        report->contact_count = collided.contact_count;
    } else {
        w->step_contacts = 0;
        dSpaceCollide(w->space, w, engine_pair);
        report->contact_count = w->step_contacts;
        // ODE does not say how many pairs its space tested.
    }
    report->collide_seconds = seconds_now() - start;
    dWorldQuickStep(w->world, w->settings.step);
    return MF_OK;
}

static void ode_body_state(const sim_world *w, uint32_t i, mf_transform *pose, mf_vec3 *linear, mf_vec3 *angular)
{
    dBodyID body = w->bodies[i];
    const dReal *p = body != NULL ? dBodyGetPosition(body) : dGeomGetPosition(w->geoms[i]);
    dQuaternion q;
    if (body != NULL) {
        const dReal *bq = dBodyGetQuaternion(body);
        for (int k = 0; k < 4; ++k) q[k] = bq[k];
    } else {
        dGeomGetQuaternion(w->geoms[i], q);
    }
    if (pose != NULL)
        *pose = (mf_transform){{(float)p[0], (float)p[1], (float)p[2]},
                               {(float)q[1], (float)q[2], (float)q[3], (float)q[0]}};
    const dReal zero[3] = {0.0, 0.0, 0.0};
    const dReal *v = body != NULL ? dBodyGetLinearVel(body) : zero;
    const dReal *omega = body != NULL ? dBodyGetAngularVel(body) : zero;
    if (linear != NULL) *linear = (mf_vec3){(float)v[0], (float)v[1], (float)v[2]};
    if (angular != NULL) *angular = (mf_vec3){(float)omega[0], (float)omega[1], (float)omega[2]};
}

const sim_engine sim_engine_ode = {"ode", ode_create, ode_step, ode_body_state, destroy_world};

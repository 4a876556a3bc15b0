// sim_engine_bullet: a settling scene stepped by btDiscreteDynamicsWorld, its contacts from
// manyfold through the batched dispatcher (mf_bullet.h) or from Bullet's own algorithms
// (btBoxBoxDetector for box pairs, GJK-EPA with its persistent manifold for the rest). Both
// narrow phases get the same world, bodies, solver and friction.
#include "mf_bullet.h"
#include "mf_bullet_convert.h"
#include "sim_engine.h"

#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btConvexHullComputer.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <vector>

namespace {

// The solver, the same for both narrow phases. Bullet's 10 iterations topple the 10-box tower
// with either; 50 hold it. Solving the contacts in Bullet's fixed order walks the tower sideways
// by 5-20 cm in 10 s with either narrow phase (the order is a bias); its seeded random order
// (deterministic) leaves a few millimetres.
const int solverIterations = 50;
const int solverMode = SOLVER_USE_WARMSTARTING | SOLVER_SIMD | SOLVER_RANDMIZE_ORDER;

// Bullet's hulls are rounded by their margin outside the points. For its own colliders the points
// are pulled in by that margin (btConvexHullComputer's shrink, as Bullet advises), so the rounded
// hull is the rock's size; no more than a quarter of the rock's smallest extent.
const btScalar engineHullMargin = btScalar(0.01);

double secondsNow()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A dispatcher that times its narrow phase and counts the pairs it was handed.
template <class Base> struct TimedDispatcher : Base {
    using Base::Base;
    double seconds = 0;
    uint32_t pairs = 0;
    void dispatchAllCollisionPairs(btOverlappingPairCache *pairCache, const btDispatcherInfo &info,
                                   btDispatcher *dispatcher) override
    {
        double start = secondsNow();
        Base::dispatchAllCollisionPairs(pairCache, info, dispatcher);
        seconds = secondsNow() - start;
        pairs = uint32_t(pairCache->getNumOverlappingPairs());
    }
};

using ManyfoldDispatcher = TimedDispatcher<MfBulletDispatcher>;
using EngineDispatcher = TimedDispatcher<btCollisionDispatcher>;

struct BoundingBox {
    btVector3 low, high;
};

BoundingBox boundingBox(const scene_shape &shape)
{
    if (shape.kind == SCENE_BOX) {
        btVector3 half = mfBulletVector(shape.half_extents);
        return {-half, half};
    }
    BoundingBox box = {btVector3(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT),
                       btVector3(-BT_LARGE_FLOAT, -BT_LARGE_FLOAT, -BT_LARGE_FLOAT)};
    for (uint32_t i = 0; i < shape.point_count; ++i) {
        box.low.setMin(mfBulletVector(shape.points[i]));
        box.high.setMax(mfBulletVector(shape.points[i]));
    }
    return box;
}

// sim_engine.h's rule: the solid bounding box at the density, its inertia about the body's origin
// (Bullet's centre of mass). Bullet takes a diagonal inertia: the products of inertia of a box off
// the origin are left out (the ODE back end keeps them; the rocks' boxes are nearly centred).
void boundingBoxMass(const scene_shape &shape, double density, btScalar *mass, btVector3 *inertia)
{
    BoundingBox box = boundingBox(shape);
    double m = density, second[3];
    for (int k = 0; k < 3; ++k) {
        double low = box.low[k], high = box.high[k];
        m *= high - low;
        second[k] = (high * high + high * low + low * low) / 3.0; // mean of x^2 over [low, high]
    }
    *mass = btScalar(m);
    *inertia = btVector3(btScalar(m * (second[1] + second[2])), btScalar(m * (second[0] + second[2])),
                         btScalar(m * (second[0] + second[1])));
}

} // namespace

struct sim_world {
    sim_settings settings;
    std::unique_ptr<MfBulletCollider> collider; // SIM_NARROWPHASE_MANYFOLD
    std::unique_ptr<btDefaultCollisionConfiguration> configuration;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    ManyfoldDispatcher *manyfold = nullptr; // the dispatcher, as one of the two
    EngineDispatcher *engine = nullptr;
    std::unique_ptr<btBroadphaseInterface> broadphase;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver;
    std::unique_ptr<btDiscreteDynamicsWorld> world;
    std::vector<std::unique_ptr<btCollisionShape>> shapes; // per scene shape
    std::vector<std::unique_ptr<btRigidBody>> bodies;      // per scene body

    ~sim_world()
    {
        for (auto &body : bodies)
            if (body != nullptr && world != nullptr) world->removeRigidBody(body.get());
        bodies.clear();
        world.reset(); // before what it uses
    }
};

static btCollisionShape *makeShape(const scene_shape &shape, sim_narrowphase narrowphase)
{
    if (shape.kind == SCENE_BOX) return new btBoxShape(mfBulletVector(shape.half_extents));
    auto *hull = new btConvexHullShape();
    if (narrowphase == SIM_NARROWPHASE_MANYFOLD) {
        // manyfold reads the points as they are; the margin only pads the broad phase's boxes.
        for (uint32_t i = 0; i < shape.point_count; ++i) hull->addPoint(mfBulletVector(shape.points[i]), false);
    } else {
        std::vector<btScalar> coordinates;
        for (uint32_t i = 0; i < shape.point_count; ++i) {
            btVector3 p = mfBulletVector(shape.points[i]);
            coordinates.insert(coordinates.end(), {p.x(), p.y(), p.z()});
        }
        btConvexHullComputer computer;
        computer.compute(coordinates.data(), int(3 * sizeof(btScalar)), int(shape.point_count), engineHullMargin,
                         btScalar(0.25));
        for (int i = 0; i < computer.vertices.size(); ++i) hull->addPoint(computer.vertices[i], false);
        hull->setMargin(engineHullMargin);
    }
    hull->recalcLocalAabb();
    return hull;
}

static mf_status buildWorld(sim_world *w, const scene *s, const uint8_t *is_static)
{
    const sim_settings &settings = w->settings;
    w->configuration.reset(new btDefaultCollisionConfiguration());
    if (settings.narrowphase == SIM_NARROWPHASE_MANYFOLD) {
        MfBulletSettings mf;
        mf.config = s->config;
        if (settings.max_contacts > 0) mf.config.max_contacts = settings.max_contacts;
        mf.config.threads = 1; // as Bullet's own colliders: the ms per step compare
        MfBulletCollider *collider = nullptr;
        mf_status status = MfBulletCollider::create(mf, &collider);
        if (status != MF_OK) return status;
        w->collider.reset(collider);
        w->manyfold = new ManyfoldDispatcher(w->configuration.get(), collider);
        w->dispatcher.reset(w->manyfold);
    } else {
        w->engine = new EngineDispatcher(w->configuration.get());
        w->dispatcher.reset(w->engine);
    }
    w->broadphase.reset(new btDbvtBroadphase());
    w->solver.reset(new btSequentialImpulseConstraintSolver());
    w->world.reset(
        new btDiscreteDynamicsWorld(w->dispatcher.get(), w->broadphase.get(), w->solver.get(), w->configuration.get()));
    btVector3 gravity(0, 0, 0);
    gravity[s->up] = btScalar(-settings.gravity); // along the scene's -up
    w->world->setGravity(gravity);
    w->world->getSolverInfo().m_numIterations = solverIterations;
    w->world->getSolverInfo().m_solverMode = solverMode;

    for (uint32_t i = 0; i < s->shape_count; ++i) w->shapes.emplace_back(makeShape(s->shapes[i], settings.narrowphase));
    // Bullet multiplies the two bodies' frictions: each gets the square root of the contact's.
    btScalar friction = btScalar(std::sqrt(settings.friction));
    for (uint32_t i = 0; i < s->body_count; ++i) {
        const scene_shape &shape = s->shapes[s->body_shape[i]];
        btScalar mass = 0;
        btVector3 inertia(0, 0, 0);
        if (!is_static[i]) boundingBoxMass(shape, settings.density, &mass, &inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, w->shapes[s->body_shape[i]].get(), inertia);
        const mf_transform &t = s->body_transform[i];
        info.m_startWorldTransform =
            btTransform(btQuaternion(t.q.x, t.q.y, t.q.z, t.q.w).normalized(), mfBulletVector(t.p));
        info.m_friction = friction;
        w->bodies.emplace_back(new btRigidBody(info));
        // No sleeping: the figures are the narrow phase's and the solver's, not the island manager's.
        w->bodies.back()->setActivationState(DISABLE_DEACTIVATION);
        w->world->addRigidBody(w->bodies.back().get());
    }
    return MF_OK;
}

static mf_status bulletCreate(const scene *s, const uint8_t *is_static, const sim_settings *settings, sim_world **out)
{
    *out = nullptr;
    if (s == nullptr || is_static == nullptr || settings == nullptr || !(settings->step > 0.0) ||
        settings->max_contacts > 2 * MANIFOLD_CACHE_SIZE)
        return MF_ERR_INVALID_ARGUMENT;
    // Bullet's own persistent manifold keeps 4 points a pair, whatever is asked.
    if (settings->narrowphase == SIM_NARROWPHASE_ENGINE && settings->max_contacts > 0)
        std::fprintf(stderr, "bullet: max_contacts %u applies to manyfold only; Bullet's own colliders keep 4 a pair\n",
                     settings->max_contacts);
    sim_world *w = new (std::nothrow) sim_world();
    if (w == nullptr) return MF_ERR_OUT_OF_MEMORY;
    w->settings = *settings;
    mf_status status;
    try {
        status = buildWorld(w, s, is_static);
    } catch (const std::bad_alloc &) {
        status = MF_ERR_OUT_OF_MEMORY;
    }
    if (status != MF_OK) {
        std::fprintf(stderr, "bullet: cannot build the scene: %s\n", mf_status_string(status));
        delete w;
        return status;
    }
    *out = w;
    return MF_OK;
}

static mf_status bulletStep(sim_world *w, sim_step_report *report)
{
    *report = sim_step_report{};
    // One step of the settings' length: no substeps, no interpolation.
    w->world->stepSimulation(btScalar(w->settings.step), 0);
    if (w->manyfold != nullptr) {
        if (w->collider->lastError() != MF_OK) {
            std::fprintf(stderr, "bullet: %s: %s\n", mf_status_string(w->collider->lastError()),
                         w->collider->lastMessage());
            return w->collider->lastError();
        }
        report->collide_seconds = w->manyfold->seconds;
        report->pair_count = w->manyfold->pairs;
    } else {
        report->collide_seconds = w->engine->seconds;
        report->pair_count = w->engine->pairs;
    }
    for (int i = 0; i < w->dispatcher->getNumManifolds(); ++i)
        report->contact_count += uint32_t(w->dispatcher->getManifoldByIndexInternal(i)->getNumContacts());
    return MF_OK;
}

static void bulletBodyState(const sim_world *w, uint32_t body, mf_transform *pose, mf_vec3 *linear, mf_vec3 *angular)
{
    const btRigidBody &b = *w->bodies[body];
    if (pose != nullptr) *pose = mfBulletTransform(b.getWorldTransform());
    if (linear != nullptr) *linear = mfBulletVec3(b.getLinearVelocity());
    if (angular != nullptr) *angular = mfBulletVec3(b.getAngularVelocity());
}

static void bulletDestroy(sim_world *w) { delete w; }

extern "C" const sim_engine sim_engine_bullet = {"bullet", bulletCreate, bulletStep, bulletBodyState, bulletDestroy};

// The adapter writes Bullet's manifolds in Bullet's terms: the normal on B pointing to A, negative
// distances for penetration and positive ones for speculative contacts, manyfold's feature ids as
// point identities, and pairs it does not serve left to Bullet.
#include "check.h"
#include "mf_bullet.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <set>
#include <vector>

// While set, operator new fails: the adapter must turn that into MF_ERR_OUT_OF_MEMORY rather
// than let std::bad_alloc run through Bullet's callbacks.
static bool failAllocations = false;

void *operator new(std::size_t size)
{
    void *memory = failAllocations ? nullptr : std::malloc(size > 0 ? size : 1);
    if (memory == nullptr) throw std::bad_alloc();
    return memory;
}
// The nothrow forms too: each new must pair with this file's delete (AddressSanitizer checks).
void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    return failAllocations ? nullptr : std::malloc(size > 0 ? size : 1);
}
void operator delete(void *memory, const std::nothrow_t &) noexcept { std::free(memory); }
void operator delete(void *memory) noexcept { std::free(memory); }
void operator delete(void *memory, std::size_t) noexcept { std::free(memory); }

namespace {

const btScalar groundHalf = 5, boxHalf = 0.5f;

MfBulletSettings oneThread(uint32_t maxContacts = 4)
{
    MfBulletSettings settings;
    settings.config.threads = 1;
    settings.config.max_contacts = maxContacts;
    return settings;
}

// A collider of these settings, checked made.
std::unique_ptr<MfBulletCollider> makeCollider(const MfBulletSettings &settings = oneThread())
{
    MfBulletCollider *made = nullptr;
    CHECK_EQ(MfBulletCollider::create(settings, &made), MF_OK);
    return std::unique_ptr<MfBulletCollider>(made);
}

// A dynamics world with a static ground slab (top face y = 0) and bodies added by the test. Its
// narrow phase is the batched dispatcher, or Bullet's own dispatcher with the create functions.
struct World {
    std::unique_ptr<MfBulletCollider> collider;
    btDefaultCollisionConfiguration configuration;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    std::unique_ptr<MfBulletCreateFuncs> createFuncs;
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    std::unique_ptr<btDiscreteDynamicsWorld> world;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;

    explicit World(bool batched, const MfBulletSettings &settings = oneThread())
    {
        collider = makeCollider(settings);
        if (batched) {
            dispatcher.reset(new MfBulletDispatcher(&configuration, collider.get()));
        } else {
            dispatcher.reset(new btCollisionDispatcher(&configuration));
            createFuncs.reset(new MfBulletCreateFuncs(collider.get(), &configuration));
            createFuncs->registerWith(dispatcher.get());
        }
        world.reset(new btDiscreteDynamicsWorld(dispatcher.get(), &broadphase, &solver, &configuration));
        world->setGravity(btVector3(0, btScalar(-9.81), 0));
        add(new btBoxShape(btVector3(groundHalf, groundHalf, groundHalf)), btVector3(0, -groundHalf, 0), 0);
    }
    ~World()
    {
        for (auto &body : bodies) world->removeRigidBody(body.get());
    }

    btRigidBody *add(btCollisionShape *shape, const btVector3 &position, btScalar mass,
                     const btQuaternion &rotation = btQuaternion::getIdentity())
    {
        shapes.emplace_back(shape);
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
        info.m_startWorldTransform = btTransform(rotation, position);
        bodies.emplace_back(new btRigidBody(info));
        bodies.back()->setActivationState(DISABLE_DEACTIVATION);
        world->addRigidBody(bodies.back().get());
        return bodies.back().get();
    }

    // Collision detection alone, no solver: the manifolds for the poses as they are.
    void detect() { world->performDiscreteCollisionDetection(); }

    // The manifolds between the ground and `body`, with their points.
    std::vector<const btPersistentManifold *> manifolds(const btRigidBody *body) const
    {
        std::vector<const btPersistentManifold *> found;
        for (int i = 0; i < dispatcher->getNumManifolds(); ++i) {
            const btPersistentManifold *m = dispatcher->getManifoldByIndexInternal(i);
            if ((m->getBody0() == body || m->getBody1() == body) && m->getNumContacts() > 0) found.push_back(m);
        }
        return found;
    }
};

// Each point of the manifold checked against Bullet's conventions for a body resting on the
// ground at height `gap` (negative: sunk in): normal on B towards A, distance = gap, A's point
// = B's point + normal * distance, and each point on its own body's surface.
void checkRestingPoints(const btPersistentManifold &m, const btRigidBody *ground, btScalar gap)
{
    bool groundIsB = m.getBody1() == ground;
    btVector3 up(0, 1, 0), towardsA = groundIsB ? up : -up;
    for (int i = 0; i < m.getNumContacts(); ++i) {
        const btManifoldPoint &p = m.getContactPoint(i);
        CHECKF(p.m_normalWorldOnB.dot(towardsA) > btScalar(0.9999), "point %d normal (%g %g %g)", i,
               double(p.m_normalWorldOnB.x()), double(p.m_normalWorldOnB.y()), double(p.m_normalWorldOnB.z()));
        CHECK_NEAR(p.getDistance(), gap, 1e-5);
        btVector3 implied = p.getPositionWorldOnB() + p.m_normalWorldOnB * p.getDistance();
        CHECK_NEAR(implied.distance(p.getPositionWorldOnA()), 0, 1e-5);
        const btVector3 &onGround = groundIsB ? p.getPositionWorldOnB() : p.getPositionWorldOnA();
        const btVector3 &onBox = groundIsB ? p.getPositionWorldOnA() : p.getPositionWorldOnB();
        CHECK_NEAR(onGround.y(), 0, 1e-5);
        CHECK_NEAR(onBox.y(), gap, 1e-5);
        CHECK(p.m_partId0 == -1 && p.m_partId1 == -1 && p.m_index0 >= 0 && p.m_index1 >= 0);
    }
}

void a_sunken_box_gets_four_points_with_bullets_signs()
{
    for (int batched = 0; batched < 2; ++batched) {
        World w(batched != 0);
        btRigidBody *box =
            w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf - btScalar(0.002), 0), 1);
        w.detect();
        auto found = w.manifolds(box);
        CHECK_EQ(found.size(), 1);
        if (found.size() != 1) continue;
        CHECK_EQ(found[0]->getNumContacts(), 4);
        checkRestingPoints(*found[0], w.bodies[0].get(), btScalar(-0.002));
    }
}

void speculative_contacts_have_positive_distance()
{
    for (int batched = 0; batched < 2; ++batched) {
        World w(batched != 0);
        btRigidBody *box =
            w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf + btScalar(0.005), 0), 1);
        // A second box beyond the margin (0.02) but within the broad phase's padding.
        btRigidBody *far =
            w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(3, boxHalf + btScalar(0.03), 0), 1);
        w.detect();
        auto found = w.manifolds(box);
        CHECK_EQ(found.size(), 1);
        if (found.size() == 1) {
            CHECK_EQ(found[0]->getNumContacts(), 4);
            checkRestingPoints(*found[0], w.bodies[0].get(), btScalar(0.005));
        }
        CHECK_EQ(w.manifolds(far).size(), 0);
    }
}

// Bullet's solver treats a positive distance as a gap to be closed within the step: a box let go
// 10 mm up falls onto the ground and stays there, neither hovering nor sinking.
void a_dropped_box_lands_and_rests()
{
    World w(true);
    btRigidBody *box =
        w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf + btScalar(0.01), 0), 1);
    btScalar lowest = BT_LARGE_FLOAT;
    for (int step = 0; step < 120; ++step) {
        w.world->stepSimulation(btScalar(1.0 / 60.0), 0);
        lowest = std::min(lowest, box->getWorldTransform().getOrigin().y() - boxHalf);
    }
    btScalar height = box->getWorldTransform().getOrigin().y() - boxHalf;
    printf("dropped box: %.3f mm above the ground after 2 s, lowest %.3f mm\n", double(height) * 1e3,
           double(lowest) * 1e3);
    CHECKF(std::fabs(height) < btScalar(0.0005), "height %g m", double(height));
    CHECKF(lowest > btScalar(-0.002), "lowest %g m", double(lowest));
}

// Ids name the same corners step after step, so Bullet keeps each point, its impulse and its age.
void ids_persist_and_lifetimes_grow()
{
    for (int batched = 0; batched < 2; ++batched) {
        World w(batched != 0);
        btRigidBody *box = w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf, 0), 1);
        std::set<std::pair<int, int>> first;
        const int steps = 60;
        for (int step = 1; step <= steps; ++step) {
            w.world->stepSimulation(btScalar(1.0 / 60.0), 0);
            auto found = w.manifolds(box);
            CHECK_EQ(found.size(), 1);
            if (found.size() != 1) break;
            std::set<std::pair<int, int>> ids;
            for (int i = 0; i < found[0]->getNumContacts(); ++i) {
                const btManifoldPoint &p = found[0]->getContactPoint(i);
                ids.insert({p.m_index0, p.m_index1});
                CHECKF(p.getLifeTime() == step, "step %d: point %d lived %d steps", step, i, p.getLifeTime());
                if (step > 1) CHECKF(p.getAppliedImpulse() > 0, "step %d: point %d has no impulse", step, i);
            }
            CHECK_EQ(ids.size(), 4);
            if (step == 1) first = ids;
            CHECKF(ids == first, "step %d: the ids changed", step);
        }
    }
}

// A compound's children go through Bullet's compound algorithm, which refreshes their manifolds
// (moving, ageing and maybe dropping points) before each child runs: the ids, lifetimes, impulses
// and order written are still the adapter's own, one step older each step.
void compound_children_keep_ids_lifetimes_and_impulses()
{
    for (int batched = 0; batched < 2; ++batched) {
        World w(batched != 0);
        auto *pair = new btCompoundShape();
        for (int side = -1; side <= 1; side += 2) {
            w.shapes.emplace_back(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)));
            pair->addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(side * 0.6f, 0, 0)),
                                w.shapes.back().get());
        }
        btRigidBody *body = w.add(pair, btVector3(0, boxHalf, 0), 2);
        std::vector<btManifoldPoint> before;
        const int steps = 60;
        for (int step = 1; step <= steps; ++step) {
            w.world->stepSimulation(btScalar(1.0 / 60.0), 0);
            auto found = w.manifolds(body);
            CHECKF(found.size() == 2, "batched %d, step %d: %zu manifolds", batched, step, found.size());
            if (found.size() != 2) break;
            std::vector<btManifoldPoint> now;
            for (const btPersistentManifold *m : found) {
                CHECK_EQ(m->getNumContacts(), 4);
                for (int i = 0; i < m->getNumContacts(); ++i) now.push_back(m->getContactPoint(i));
            }
            for (size_t i = 0; i < now.size(); ++i) {
                CHECKF(now[i].getLifeTime() == step, "batched %d, step %d: point %zu lived %d steps", batched, step, i,
                       now[i].getLifeTime());
                if (step == 1 || before.size() != now.size()) continue;
                CHECKF(now[i].m_index0 == before[i].m_index0 && now[i].m_index1 == before[i].m_index1,
                       "batched %d, step %d: point %zu changed id or place", batched, step, i);
                CHECKF(now[i].getAppliedImpulse() > 0, "batched %d, step %d: point %zu has no impulse", batched, step,
                       i);
            }
            before = now;
        }
    }
}

// A 45-degree turn of equal squares clips to an octagon: eight contacts over two manifolds.
void eight_contacts_fill_two_manifolds()
{
    World w(true, oneThread(8));
    btRigidBody *lower = w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf, 0), 1);
    btRigidBody *upper =
        w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, 3 * boxHalf - btScalar(0.001), 0), 1,
              btQuaternion(btVector3(0, 1, 0), btScalar(SIMD_PI / 4)));
    w.detect();
    int points = 0, manifolds = 0;
    for (const btPersistentManifold *m : w.manifolds(upper)) {
        if (m->getBody0() != lower && m->getBody1() != lower) continue;
        ++manifolds;
        points += m->getNumContacts();
        CHECK(m->getNumContacts() <= MANIFOLD_CACHE_SIZE);
    }
    CHECK_EQ(manifolds, 2);
    CHECK_EQ(points, 8);
}

// Spheres are not manyfold's: Bullet's own algorithm answers for them in the same step.
void other_shapes_are_left_to_bullet()
{
    World w(true);
    btRigidBody *ball = w.add(new btSphereShape(boxHalf), btVector3(-2, boxHalf - btScalar(0.001), 0), 1);
    btRigidBody *box = w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(2, boxHalf, 0), 1);
    w.detect();
    const MfBulletBatch &batch = static_cast<MfBulletDispatcher *>(w.dispatcher.get())->lastBatch();
    CHECK_EQ(batch.manyfoldPairs, 1);
    CHECK_EQ(batch.otherPairs, 1);
    CHECK_EQ(batch.contacts, 4);
    CHECK_EQ(w.manifolds(ball).size(), 1);
    CHECK_EQ(w.manifolds(box).size(), 1);
}

// A flat hull is refused by manyfold's bank: its pairs get Bullet's convex algorithm instead.
void refused_hulls_are_left_to_bullet()
{
    World w(true);
    auto *flat = new btConvexHullShape();
    for (int i = 0; i < 4; ++i) flat->addPoint(btVector3((i & 1) ? 0.5f : -0.5f, 0, (i & 2) ? 0.5f : -0.5f));
    w.add(flat, btVector3(0, 0.01f, 0), 1);
    w.detect();
    const MfBulletBatch &batch = static_cast<MfBulletDispatcher *>(w.dispatcher.get())->lastBatch();
    CHECK_EQ(batch.manyfoldPairs, 0);
    CHECK_EQ(batch.otherPairs, 1);
    uint32_t id;
    CHECK(w.collider->shapeId(flat, &id) != MF_OK);
    // Bullet's algorithm answered: the flat hull, within its rounding margin of the ground, touches it.
    auto found = w.manifolds(w.bodies[1].get());
    CHECK_EQ(found.size(), 1);
    CHECK_EQ(w.collider->lastError(), MF_OK);
}

// A failed pair is kept until it is cleared: the success of the next call does not hide it.
void errors_stick_until_cleared()
{
    std::unique_ptr<MfBulletCollider> collider = makeCollider();
    btBoxShape box(btVector3(boxHalf, boxHalf, boxHalf));
    uint32_t shapes[2];
    CHECK_EQ(collider->shapeId(&box, &shapes[0]), MF_OK);
    shapes[1] = shapes[0];
    mf_transform poses[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, NAN, 0}, {0, 0, 0, 1}}};
    const mf_stream *skipped = collider->collide(shapes, poses, 1, nullptr);
    CHECK(skipped != nullptr && skipped->manifold_count == 0);
    CHECK_EQ(collider->lastError(), MF_ERR_NONFINITE);
    CHECK(collider->lastMessage()[0] != '\0');
    poses[1].p.y = 2 * boxHalf;
    const mf_stream *stream = collider->collide(shapes, poses, 1, nullptr);
    CHECK(stream != nullptr && stream->manifold_count == 1);
    CHECK_EQ(collider->lastError(), MF_ERR_NONFINITE);
    collider->clearError();
    CHECK_EQ(collider->lastError(), MF_OK);
    CHECK(collider->lastMessage()[0] == '\0');
}

// A pair with a non-finite pose is left without contacts and recorded; the pairs beside it in the
// same call keep theirs (MF_FAULT_SKIP, the settings' default), cached or not.
void a_bad_pose_costs_only_its_own_pair()
{
    for (int cached = 0; cached < 2; ++cached) {
        MfBulletSettings settings = oneThread();
        settings.cached = cached != 0;
        std::unique_ptr<MfBulletCollider> collider = makeCollider(settings);
        btBoxShape box(btVector3(boxHalf, boxHalf, boxHalf));
        uint32_t shapes[6];
        CHECK_EQ(collider->shapeId(&box, &shapes[0]), MF_OK);
        for (int i = 1; i < 6; ++i) shapes[i] = shapes[0];
        // Three stacked pairs, far apart; the middle one's upper box has exploded.
        mf_transform poses[6];
        for (int i = 0; i < 3; ++i) {
            float x = 10.0f * float(i), gap = 2 * float(boxHalf) - 0.001f;
            poses[2 * i] = {{x, 0, 0}, {0, 0, 0, 1}};
            poses[2 * i + 1] = {{x, gap, 0}, {0, 0, 0, 1}};
        }
        poses[3].q = {NAN, 0, 0, 1};
        mf_pair_cache cache[3] = {};
        const mf_stream *stream = collider->collide(shapes, poses, 3, cached ? cache : nullptr);
        CHECK(stream != nullptr);
        if (stream == nullptr) continue;
        CHECK_EQ(stream->manifold_count, 2);
        CHECK(stream->manifolds[0].pair == 0 && stream->manifolds[1].pair == 2);
        CHECK_EQ(stream->manifolds[0].count, 4);
        CHECK_EQ(stream->fault_count, 1);
        CHECK_EQ(collider->lastError(), MF_ERR_NONFINITE);
        CHECK(std::strstr(collider->lastMessage(), "body 3 has a non-finite transform") != nullptr);
        if (cached) CHECK(cache[0].axis != 0 && cache[1].axis == 0 && cache[2].axis != 0);
    }
}

// A hull whose pair has begun and that then turns flat (scaled to nothing in y) loses its
// contacts, and the collider says why; the pair beside it keeps its own. The batched dispatcher
// clears the error at the start of each step; with the create functions alone it stays.
void a_shape_refused_after_its_pair_began_is_an_error()
{
    for (int batched = 0; batched < 2; ++batched) {
        World w(batched != 0);
        btRigidBody *box =
            w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(-2, boxHalf - btScalar(0.001), 0), 1);
        auto *cube = new btConvexHullShape();
        for (int i = 0; i < 8; ++i)
            cube->addPoint(
                btVector3((i & 1) ? boxHalf : -boxHalf, (i & 2) ? 2 * boxHalf : 0, (i & 4) ? boxHalf : -boxHalf));
        btRigidBody *hull = w.add(cube, btVector3(2, -btScalar(0.001), 0), 1);
        w.detect();
        CHECK_EQ(w.collider->lastError(), MF_OK);
        CHECK_EQ(w.manifolds(hull).size(), 1);

        cube->setLocalScaling(btVector3(1, 0, 1));
        w.detect();
        CHECKF(w.collider->lastError() != MF_OK, "batched %d: the flat hull's pair failed silently", batched);
        CHECK(w.collider->lastMessage()[0] != '\0');
        CHECK_EQ(w.manifolds(hull).size(), 0);
        CHECK_EQ(w.manifolds(box).size(), 1);

        cube->setLocalScaling(btVector3(1, 1, 1));
        w.detect();
        CHECK_EQ(w.manifolds(hull).size(), 1);
        CHECK_EQ(w.collider->lastError() == MF_OK, batched != 0);
        w.collider->clearError();
        CHECK_EQ(w.collider->lastError(), MF_OK);
    }
}

// No memory: shapeId and collide return MF_ERR_OUT_OF_MEMORY, and the batched dispatcher leaves
// its pairs without contacts for the step, the error recorded, and nothing thrown.
void running_out_of_memory_is_an_error_not_an_exception()
{
    std::unique_ptr<MfBulletCollider> collider = makeCollider();
    btBoxShape box(btVector3(boxHalf, boxHalf, boxHalf));
    uint32_t shapes[2];
    failAllocations = true;
    mf_status status = collider->shapeId(&box, &shapes[0]);
    failAllocations = false;
    CHECK_EQ(status, MF_ERR_OUT_OF_MEMORY);
    CHECK_EQ(collider->lastError(), MF_ERR_OUT_OF_MEMORY);
    collider->clearError();

    CHECK_EQ(collider->shapeId(&box, &shapes[0]), MF_OK);
    shapes[1] = shapes[0];
    mf_transform poses[2] = {{{0, 0, 0}, {0, 0, 0, 1}}, {{0, 2 * boxHalf, 0}, {0, 0, 0, 1}}};
    failAllocations = true;
    const mf_stream *stream = collider->collide(shapes, poses, 1, nullptr);
    failAllocations = false;
    CHECK(stream == nullptr);
    CHECK_EQ(collider->lastError(), MF_ERR_OUT_OF_MEMORY);

    World w(true);
    btRigidBody *resting =
        w.add(new btBoxShape(btVector3(boxHalf, boxHalf, boxHalf)), btVector3(0, boxHalf - btScalar(0.001), 0), 1);
    uint32_t id;
    for (auto &shape : w.shapes) CHECK_EQ(w.collider->shapeId(shape.get(), &id), MF_OK); // no allocation later
    failAllocations = true;
    w.detect();
    failAllocations = false;
    CHECK_EQ(w.collider->lastError(), MF_ERR_OUT_OF_MEMORY);
    CHECK_EQ(w.manifolds(resting).size(), 0);
    w.detect();
    CHECK_EQ(w.collider->lastError(), MF_OK);
    CHECK_EQ(w.manifolds(resting).size(), 1);
}

// The broad phase pads each box by gContactBreakingThreshold: a margin beyond both paddings
// would promise contacts no pair list holds.
void a_margin_past_the_broad_phase_padding_is_refused()
{
    MfBulletSettings settings = oneThread();
    settings.config.margin = 2 * float(gContactBreakingThreshold) * 1.01f;
    MfBulletCollider *collider = nullptr;
    CHECK_EQ(MfBulletCollider::create(settings, &collider), MF_ERR_INVALID_ARGUMENT);
    CHECK(collider == nullptr);
    // The refusal is the adapter's: manyfold itself takes that margin.
    mf_context *context = nullptr;
    CHECK_EQ(mf_context_create(&settings.config, &context), MF_OK);
    mf_context_destroy(context);
    // Both paddings are reach enough.
    settings.config.margin = 2 * float(gContactBreakingThreshold);
    CHECK_EQ(MfBulletCollider::create(settings, &collider), MF_OK);
    delete collider;
}

// Shapes are registered once; a changed box is registered again, a forgotten one afresh.
void shapes_are_registered_once()
{
    std::unique_ptr<MfBulletCollider> collider = makeCollider();
    btBoxShape box(btVector3(1, 2, 3));
    uint32_t first, again, scaled;
    CHECK_EQ(collider->shapeId(&box, &first), MF_OK);
    CHECK_EQ(collider->shapeId(&box, &again), MF_OK);
    CHECK_EQ(again, first);
    CHECK_EQ(mf_bank_shape_count(collider->bank()), 1);
    box.setLocalScaling(btVector3(2, 2, 2));
    CHECK_EQ(collider->shapeId(&box, &scaled), MF_OK);
    CHECK(scaled != first);
    mf_shape_info info;
    CHECK_EQ(mf_bank_shape_info(collider->bank(), scaled, &info), MF_OK);
    CHECK_NEAR(info.volume, 8 * 2 * 4 * 6, 1e-2);
    collider->forgetShape(&box);
    CHECK_EQ(collider->shapeId(&box, &again), MF_OK);
    CHECK_EQ(mf_bank_shape_count(collider->bank()), 3);
}

} // namespace

int main(int argc, char **argv)
{
    static const test_case tests[] = {
        TEST_CASE(a_sunken_box_gets_four_points_with_bullets_signs),
        TEST_CASE(speculative_contacts_have_positive_distance),
        TEST_CASE(a_dropped_box_lands_and_rests),
        TEST_CASE(ids_persist_and_lifetimes_grow),
        TEST_CASE(compound_children_keep_ids_lifetimes_and_impulses),
        TEST_CASE(eight_contacts_fill_two_manifolds),
        TEST_CASE(other_shapes_are_left_to_bullet),
        TEST_CASE(refused_hulls_are_left_to_bullet),
        TEST_CASE(a_margin_past_the_broad_phase_padding_is_refused),
        TEST_CASE(shapes_are_registered_once),
        TEST_CASE(errors_stick_until_cleared),
        TEST_CASE(a_bad_pose_costs_only_its_own_pair),
        TEST_CASE(a_shape_refused_after_its_pair_began_is_an_error),
        TEST_CASE(running_out_of_memory_is_an_error_not_an_exception),
    };
    return test_main(tests, int(sizeof(tests) / sizeof(tests[0])), argc, argv);
}

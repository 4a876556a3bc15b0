// manyfold as Bullet's narrow phase for boxes (btBoxShape) and convex hulls (btConvexHullShape).
//
// Two ways in, over one MfBulletCollider (a bank and a context):
// - MfBulletDispatcher, a btCollisionDispatcher that gathers a step's pairs of supported shapes
//   into one mf_collide call and hands every other pair to Bullet's own algorithms, as usual;
// - MfBulletCreateFuncs, which put MfBulletAlgorithm into any btCollisionDispatcher: each pair is
//   then collided on its own (one mf_collide call per pair), compound children included.
//
// Conventions (see README.md next to this header):
// - A pair's btPersistentManifold is manyfold's manifold of (body 0, body 1): normalWorldOnB is
//   manyfold's normal negated (Bullet's points from B to A), m_distance1 the separation (negative
//   = penetrating), positionWorldOnA / OnB the contact point less / plus half the separation along
//   manyfold's normal: one on each surface.
// - Speculative contacts (separation >= 0, up to the margin) are written as they are, with a
//   positive distance: Bullet's solver lets the bodies close that gap within the step and no more.
// - Point identity: m_index0 / m_index1 hold the feature ids' halves (MF_ID_FEATURE_A / _B),
//   m_partId0 / m_partId1 are -1. A point whose id persists keeps its warm-starting impulses,
//   lifetime and place in the manifold; Bullet's distance matching (getCacheEntry) is not used.
//   The algorithm keeps its own record of the points it wrote, so this holds for a compound's
//   children too, whose manifolds Bullet's compound algorithm refreshes before they run.
// - More than 4 contacts (config.max_contacts up to 8) use a second persistent manifold per pair.
// - Geometry is exact: a box's full half extents (getHalfExtentsWithMargin: Bullet keeps the
//   margin inside a box) and a hull's scaled points (Bullet's hull margin, outside the points, is
//   ignored). Shapes are registered in the bank the first time a pair holds them, by pointer:
//   call forgetShape before deleting or changing a shape the collider has seen.
// - The broad phase grows every AABB by gContactBreakingThreshold (Bullet's global, 0.02 by
//   default), so pairs up to twice that apart reach the narrow phase: create() refuses a margin
//   beyond that. Each manifold's breaking threshold is set to the margin plus the slop.
// - One thread: not for btCollisionDispatcherMt. gContactAddedCallback and
//   gContactProcessedCallback are not called (Bullet's compound algorithm calls the latter for a
//   compound child's points when it refreshes them). MfBulletDispatcher collides the pairs it
//   gathers itself: the user's near callback (setNearCallback) sees only the other pairs.
#pragma once

#include "manyfold.h"

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

// mf_config_default() with MF_FAULT_SKIP: a pair with a non-finite pose is left without contacts
// and recorded (MfBulletCollider::lastError), while every other pair of the call gets its own.
inline mf_config mfBulletDefaultConfig()
{
    mf_config config = mf_config_default();
    config.on_fault = MF_FAULT_SKIP;
    return config;
}

struct MfBulletSettings {
    mf_config config = mfBulletDefaultConfig(); // max_contacts up to 8 (two persistent manifolds)
    bool cached = false;                        // mf_collide_cached: temporal coherence per pair
};

// What the last batch did (MfBulletDispatcher::lastBatch).
struct MfBulletBatch {
    uint32_t manyfoldPairs = 0; // pairs collided by manyfold in the one call
    uint32_t otherPairs = 0;    // pairs handed to Bullet's algorithms
    uint32_t contacts = 0;      // contacts manyfold wrote
};

// The manyfold side: a bank holding every shape seen, a context and the scratch of a call.
class MfBulletCollider {
  public:
    // MF_ERR_INVALID_ARGUMENT for a margin beyond 2 * gContactBreakingThreshold; otherwise
    // mf_context_create's status (which refuses max_contacts above MF_MAX_CONTACTS, 8).
    static mf_status create(const MfBulletSettings &settings, MfBulletCollider **out);
    ~MfBulletCollider();
    MfBulletCollider(const MfBulletCollider &) = delete;
    MfBulletCollider &operator=(const MfBulletCollider &) = delete;

    // Boxes and convex hulls (the shapes this collider answers for); others go to Bullet.
    static bool supports(const btCollisionShape *shape);
    // The shape's id in the bank, registering it on first sight. MF_ERR_* where manyfold refuses
    // it (a degenerate hull): such pairs go to Bullet's algorithms. MF_ERR_OUT_OF_MEMORY is also
    // recorded (lastError).
    mf_status shapeId(const btCollisionShape *shape, uint32_t *id);
    // Drops what the collider knows of a shape (before it is deleted or changed); its id stays in
    // the bank, unused.
    void forgetShape(const btCollisionShape *shape);

    const MfBulletSettings &settings() const { return m_settings; }
    const mf_bank *bank() const { return m_bank; }
    // The first error since the last clearError, and its details; MF_OK and "" if none. Bullet's
    // callbacks cannot return a status, so a failure is kept here until it is read: a pair that
    // failed (a non-finite pose, no memory, a shape manyfold refuses since its pair began) is
    // left without contacts, and later successes do not hide it. MfBulletDispatcher clears it
    // at the start of each step; with MfBulletCreateFuncs alone, call clearError yourself.
    mf_status lastError() const { return m_lastError; }
    const char *lastMessage() const { return m_message; }
    void clearError();
    // Records a failure (the first one since clearError is kept).
    void recordError(mf_status status, const char *message);

    // Collides pairs[i] = (bodies 2i, 2i + 1) into the collider's stream; cache may be NULL.
    // Returns the stream (manifolds in pair order) or NULL after an error (recorded). Under
    // MF_FAULT_SKIP (the settings' default) a pair with a non-finite pose or a zero rotation gets no
    // manifold and an empty cache entry, the first such pair is recorded as an error, and the
    // stream holds every other pair's manifold.
    const mf_stream *collide(const uint32_t *shapes, const mf_transform *transforms, uint32_t pairCount,
                             mf_pair_cache *cache);

  private:
    MfBulletCollider() = default;
    // shapeId and collide without the catch that turns std::bad_alloc into a status.
    mf_status registerShape(const btCollisionShape *shape, uint32_t *id);
    const mf_stream *collidePairs(const uint32_t *shapes, const mf_transform *transforms, uint32_t pairCount,
                                  mf_pair_cache *cache);
    struct Known {
        uint32_t id;
        btVector3 size; // what the id was built from: a box's half extents, a hull's scaling
        int points;     // a hull's point count
    };
    MfBulletSettings m_settings;
    mf_bank *m_bank = nullptr;
    mf_context *m_context = nullptr;
    mf_status m_lastError = MF_OK;
    char m_message[256] = "";
    std::unordered_map<const btCollisionShape *, Known> m_shapes;
    std::vector<mf_pair> m_pairs;
    std::vector<mf_manifold> m_manifolds;
    std::vector<mf_contact> m_contacts;
    std::vector<mf_vec3> m_points;
    mf_stream m_stream = {};
    mf_fault m_fault = {}; // the stream's first skipped pair, for recordError
};

// One pair's algorithm: owns the pair's persistent manifolds (two when more than 4 contacts) and
// its mf_pair_cache entry.
class MfBulletAlgorithm : public btCollisionAlgorithm {
  public:
    MfBulletAlgorithm(const btCollisionAlgorithmConstructionInfo &info, MfBulletCollider *collider,
                      const btCollisionObject *body0, const btCollisionObject *body1);
    ~MfBulletAlgorithm() override;

    // One mf_collide call for this pair alone (the path through Bullet's own dispatcher).
    void processCollision(const btCollisionObjectWrapper *body0, const btCollisionObjectWrapper *body1,
                          const btDispatcherInfo &info, btManifoldResult *result) override;
    btScalar calculateTimeOfImpact(btCollisionObject *, btCollisionObject *, const btDispatcherInfo &,
                                   btManifoldResult *) override
    {
        return btScalar(1); // no time of impact: discrete only
    }
    void getAllContactManifolds(btManifoldArray &manifolds) override;

    // Writes manyfold's manifold of (a = body0(), b = body1()) into the persistent manifolds;
    // NULL clears them. Local points are taken in the bodies' frames, as btManifoldResult does.
    // Returns the contacts written.
    uint32_t write(const mf_manifold *manifold, const mf_contact *contacts);

    MfBulletCollider *collider() const { return m_collider; }
    const btCollisionObject *body0() const { return m_body0; }
    const btCollisionObject *body1() const { return m_body1; }
    mf_pair_cache &cache() { return m_cache; }

  private:
    static const int maxPoints = 2 * MANIFOLD_CACHE_SIZE;
    // What the solver learns at a point and warm starts it with.
    struct Learned {
        btScalar impulse = 0, lateral1 = 0, lateral2 = 0, prevRHS = 0;
    };
    // A point as the last write left it. Bullet may move, age, reorder or drop the points in the
    // persistent manifolds before the next write (a compound refreshes its children's), so ids,
    // order and lifetimes are kept here; impulses are read back from the manifolds, where the
    // solver wrote them, or taken from here for a point Bullet dropped.
    struct Written {
        uint32_t id;
        int lifeTime;
        Learned learned;
    };
    btPersistentManifold *persistentManifold(int index);
    void matchWritten(const mf_manifold *manifold, const mf_contact *contacts, int count, btManifoldPoint *fresh,
                      int *writtenIndex);
    void orderPoints(const int *writtenIndex, int count, int *order) const;
    void fillManifolds(const btManifoldPoint *fresh, const int *order, int count);
    MfBulletCollider *m_collider;
    const btCollisionObject *m_body0;
    const btCollisionObject *m_body1;
    btPersistentManifold *m_manifolds[2] = {nullptr, nullptr};
    Written m_written[maxPoints];
    int m_writtenCount = 0;
    mf_pair_cache m_cache = {};
};

// Creates MfBulletAlgorithm for pairs of supported shapes that manyfold accepts; any other pair
// (a degenerate hull) gets the algorithm of `fallback`, Bullet's create function for the types.
struct MfBulletCreateFunc : btCollisionAlgorithmCreateFunc {
    btCollisionAlgorithm *CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo &info,
                                                   const btCollisionObjectWrapper *body0,
                                                   const btCollisionObjectWrapper *body1) override;
    MfBulletCollider *m_collider = nullptr;
    btCollisionAlgorithmCreateFunc *m_fallback = nullptr;
    int m_poolElementSize = 0; // the dispatcher's algorithm pool's
};

// The create functions for box-box, box-hull, hull-box and hull-hull, Bullet's as fallbacks.
class MfBulletCreateFuncs {
  public:
    MfBulletCreateFuncs(MfBulletCollider *collider, btCollisionConfiguration *configuration);
    // Registers them for contact points (closest-point queries stay Bullet's).
    void registerWith(btCollisionDispatcher *dispatcher);

  private:
    MfBulletCreateFunc m_funcs[2][2]; // [box or hull][box or hull]
};

// The batched narrow phase: each step, the supported pairs the broad phase reports go into one
// mf_collide call; other pairs go to the near callback as in btCollisionDispatcher.
class MfBulletDispatcher : public btCollisionDispatcher {
  public:
    MfBulletDispatcher(btCollisionConfiguration *configuration, MfBulletCollider *collider);
    void dispatchAllCollisionPairs(btOverlappingPairCache *pairs, const btDispatcherInfo &info,
                                   btDispatcher *dispatcher) override;
    const MfBulletBatch &lastBatch() const { return m_batch; }

  private:
    friend struct MfBulletGather;
    MfBulletCollider *m_collider;
    MfBulletCreateFuncs m_createFuncs;
    MfBulletBatch m_batch;
    std::vector<MfBulletAlgorithm *> m_algorithms;
    std::vector<uint32_t> m_shapes;
    std::vector<mf_transform> m_transforms;
    std::vector<mf_pair_cache> m_caches;
};

// MfBulletDispatcher: one mf_collide call for a step's pairs of boxes and hulls.
//
// Per step:
// 1. Walk the broad phase's pairs as btCollisionDispatcher does (needsCollision, an algorithm
//    found once per pair and kept in it). A pair whose algorithm is an MfBulletAlgorithm of this
//    collider is gathered: its two shapes and poses, and its cache entry; any other pair goes to
//    the near callback at once, Bullet's algorithms and all.
// 2. Collide the gathered pairs in one call.
// 3. Write each pair's manifold (or none) into its algorithm's persistent manifolds.
// The collider's error is cleared first: what it holds after the step is this step's.
#include "mf_bullet.h"
#include "mf_bullet_convert.h"

#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>

#include <new>

struct MfBulletGather : btOverlapCallback {
    MfBulletDispatcher &dispatcher;
    const btDispatcherInfo &info;
    MfBulletGather(MfBulletDispatcher &dispatcher, const btDispatcherInfo &info) : dispatcher(dispatcher), info(info) {}

    bool processOverlap(btBroadphasePair &pair) override
    {
        auto *object0 = static_cast<btCollisionObject *>(pair.m_pProxy0->m_clientObject);
        auto *object1 = static_cast<btCollisionObject *>(pair.m_pProxy1->m_clientObject);
        if (!dispatcher.needsCollision(object0, object1)) return false;
        if (pair.m_algorithm == nullptr) {
            btCollisionObjectWrapper wrap0(nullptr, object0->getCollisionShape(), object0, object0->getWorldTransform(),
                                           -1, -1);
            btCollisionObjectWrapper wrap1(nullptr, object1->getCollisionShape(), object1, object1->getWorldTransform(),
                                           -1, -1);
            pair.m_algorithm = dispatcher.findAlgorithm(&wrap0, &wrap1, nullptr, BT_CONTACT_POINT_ALGORITHMS);
        }
        auto *algorithm = dynamic_cast<MfBulletAlgorithm *>(pair.m_algorithm);
        uint32_t shapes[2];
        if (algorithm == nullptr || algorithm->collider() != dispatcher.m_collider ||
            dispatcher.m_collider->shapeId(algorithm->body0()->getCollisionShape(), &shapes[0]) != MF_OK ||
            dispatcher.m_collider->shapeId(algorithm->body1()->getCollisionShape(), &shapes[1]) != MF_OK) {
            ++dispatcher.m_batch.otherPairs;
            (*dispatcher.getNearCallback())(pair, dispatcher, info);
            return false;
        }
        dispatcher.m_algorithms.push_back(algorithm);
        for (int i = 0; i < 2; ++i) dispatcher.m_shapes.push_back(shapes[i]);
        dispatcher.m_transforms.push_back(mfBulletTransform(algorithm->body0()->getWorldTransform()));
        dispatcher.m_transforms.push_back(mfBulletTransform(algorithm->body1()->getWorldTransform()));
        return false;
    }
};

// Without memory to gather a step: every pair manyfold serves is left without contacts.
struct MfBulletClear : btOverlapCallback {
    const MfBulletCollider *collider;
    explicit MfBulletClear(const MfBulletCollider *collider) : collider(collider) {}

    bool processOverlap(btBroadphasePair &pair) override
    {
        auto *algorithm = dynamic_cast<MfBulletAlgorithm *>(pair.m_algorithm);
        if (algorithm != nullptr && algorithm->collider() == collider) algorithm->write(nullptr, nullptr);
        return false;
    }
};

MfBulletDispatcher::MfBulletDispatcher(btCollisionConfiguration *configuration, MfBulletCollider *collider)
    : btCollisionDispatcher(configuration), m_collider(collider), m_createFuncs(collider, configuration)
{
    m_createFuncs.registerWith(this);
}

void MfBulletDispatcher::dispatchAllCollisionPairs(btOverlappingPairCache *pairs, const btDispatcherInfo &info,
                                                   btDispatcher *dispatcher)
{
    if (info.m_dispatchFunc != btDispatcherInfo::DISPATCH_DISCRETE) {
        btCollisionDispatcher::dispatchAllCollisionPairs(pairs, info, dispatcher);
        return;
    }
    m_batch = MfBulletBatch();
    m_collider->clearError();
    m_algorithms.clear();
    m_shapes.clear();
    m_transforms.clear();
    bool cached = m_collider->settings().cached;
    const mf_stream *stream = nullptr;
    // No exception may leave Bullet's step: without memory for the gathered pairs, they get no
    // contacts and the collider records why.
    try {
        MfBulletGather gather(*this, info);
        pairs->processAllOverlappingPairs(&gather, dispatcher, info);
        if (cached) {
            m_caches.resize(m_algorithms.size());
            for (size_t i = 0; i < m_algorithms.size(); ++i) m_caches[i] = m_algorithms[i]->cache();
        }
        stream = m_collider->collide(m_shapes.data(), m_transforms.data(), uint32_t(m_algorithms.size()),
                                     cached ? m_caches.data() : nullptr);
    } catch (const std::bad_alloc &) {
        m_collider->recordError(MF_ERR_OUT_OF_MEMORY, "no memory to gather the step's pairs");
        MfBulletClear clear(m_collider);
        pairs->processAllOverlappingPairs(&clear, dispatcher, info);
        return;
    }
    uint32_t count = uint32_t(m_algorithms.size());
    // After a failed call (lastError) every gathered pair is left without contacts.
    uint32_t next = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const mf_manifold *manifold = nullptr;
        if (stream != nullptr && next < stream->manifold_count && stream->manifolds[next].pair == i) {
            manifold = &stream->manifolds[next++];
        }
        m_batch.contacts += m_algorithms[i]->write(manifold, stream != nullptr ? stream->contacts : nullptr);
        if (cached && stream != nullptr) m_algorithms[i]->cache() = m_caches[i];
    }
    m_batch.manyfoldPairs = count;
}

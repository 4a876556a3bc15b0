// MfBulletAlgorithm on its own (one pair, one mf_collide call) and the create functions that put
// it into a dispatcher.
#include "mf_bullet.h"
#include "mf_bullet_convert.h"

#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <LinearMath/btPoolAllocator.h>

#include <new>

MfBulletAlgorithm::MfBulletAlgorithm(const btCollisionAlgorithmConstructionInfo &info, MfBulletCollider *collider,
                                     const btCollisionObject *body0, const btCollisionObject *body1)
    : btCollisionAlgorithm(info), m_collider(collider), m_body0(body0), m_body1(body1)
{
}

MfBulletAlgorithm::~MfBulletAlgorithm()
{
    for (btPersistentManifold *manifold : m_manifolds)
        if (manifold != nullptr) m_dispatcher->releaseManifold(manifold);
}

btPersistentManifold *MfBulletAlgorithm::persistentManifold(int index)
{
    if (m_manifolds[index] == nullptr) {
        m_manifolds[index] = m_dispatcher->getNewManifold(m_body0, m_body1);
        // Contacts lie up to the margin apart, and the cache keeps some up to the slop beyond.
        const mf_config &config = m_collider->settings().config;
        m_manifolds[index]->setContactBreakingThreshold(btScalar(config.margin + config.linear_slop));
    }
    return m_manifolds[index];
}

void MfBulletAlgorithm::getAllContactManifolds(btManifoldArray &manifolds)
{
    for (btPersistentManifold *manifold : m_manifolds)
        if (manifold != nullptr) manifolds.push_back(manifold);
}

void MfBulletAlgorithm::processCollision(const btCollisionObjectWrapper *body0, const btCollisionObjectWrapper *body1,
                                         const btDispatcherInfo &, btManifoldResult *result)
{
    // manyfold's a is the manifold's body 0, whichever order the caller passes the two in.
    const btCollisionObjectWrapper *a = body0, *b = body1;
    if (a->getCollisionObject() != m_body0) std::swap(a, b);
    uint32_t shapes[2];
    const mf_stream *stream = nullptr;
    mf_status status = m_collider->shapeId(a->getCollisionShape(), &shapes[0]);
    if (status == MF_OK) status = m_collider->shapeId(b->getCollisionShape(), &shapes[1]);
    if (status == MF_OK) {
        // The wrappers' transforms: a compound's child is placed in its parent.
        mf_transform transforms[2] = {mfBulletTransform(a->getWorldTransform()),
                                      mfBulletTransform(b->getWorldTransform())};
        stream = m_collider->collide(shapes, transforms, 1, m_collider->settings().cached ? &m_cache : nullptr);
    } else {
        // The create function accepted both shapes: one has changed into a shape manyfold refuses.
        m_collider->recordError(status, "a shape changed into one manyfold refuses since its pair began");
    }
    bool touching = stream != nullptr && stream->manifold_count == 1;
    write(touching ? &stream->manifolds[0] : nullptr, touching ? stream->contacts : nullptr);
    if (m_manifolds[0] != nullptr) result->setPersistentManifold(m_manifolds[0]);
}

btCollisionAlgorithm *MfBulletCreateFunc::CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo &info,
                                                                   const btCollisionObjectWrapper *body0,
                                                                   const btCollisionObjectWrapper *body1)
{
    uint32_t id;
    if (m_collider->shapeId(body0->getCollisionShape(), &id) != MF_OK ||
        m_collider->shapeId(body1->getCollisionShape(), &id) != MF_OK) {
        return m_fallback->CreateCollisionAlgorithm(info, body0, body1);
    }
    // The dispatcher's pool holds algorithms up to its element size; a larger one is allocated
    // as the dispatcher itself does on overflow, and freeCollisionAlgorithm tells the two apart.
    void *memory = nullptr;
    if (sizeof(MfBulletAlgorithm) <= size_t(m_poolElementSize)) {
        memory = info.m_dispatcher1->allocateCollisionAlgorithm(int(sizeof(MfBulletAlgorithm)));
    } else {
        memory = btAlignedAlloc(sizeof(MfBulletAlgorithm), 16);
    }
    if (memory == nullptr) return nullptr;
    return new (memory) MfBulletAlgorithm(info, m_collider, body0->getCollisionObject(), body1->getCollisionObject());
}

MfBulletCreateFuncs::MfBulletCreateFuncs(MfBulletCollider *collider, btCollisionConfiguration *configuration)
{
    const int types[2] = {BOX_SHAPE_PROXYTYPE, CONVEX_HULL_SHAPE_PROXYTYPE};
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 2; ++k) {
            m_funcs[i][k].m_collider = collider;
            m_funcs[i][k].m_fallback = configuration->getCollisionAlgorithmCreateFunc(types[i], types[k]);
            m_funcs[i][k].m_poolElementSize = configuration->getCollisionAlgorithmPool()->getElementSize();
        }
    }
}

void MfBulletCreateFuncs::registerWith(btCollisionDispatcher *dispatcher)
{
    const int types[2] = {BOX_SHAPE_PROXYTYPE, CONVEX_HULL_SHAPE_PROXYTYPE};
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) dispatcher->registerCollisionCreateFunc(types[i], types[k], &m_funcs[i][k]);
}

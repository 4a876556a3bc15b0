// MfBulletCollider: Bullet's shapes in a manyfold bank, and the one call that collides pairs.
#include "mf_bullet.h"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <cstdio>
#include <new>

// Up to 8 contacts fill two persistent manifolds; mf_context_create refuses more.
static_assert(MF_MAX_CONTACTS <= 2 * MANIFOLD_CACHE_SIZE, "a pair's contacts fit two persistent manifolds");

mf_status MfBulletCollider::create(const MfBulletSettings &settings, MfBulletCollider **out)
{
    *out = nullptr;
    // The broad phase pads each AABB by gContactBreakingThreshold: a pair farther apart than two
    // paddings never reaches the narrow phase, so a larger margin would be a promise not kept.
    if (!(settings.config.margin <= 2.0f * float(gContactBreakingThreshold))) return MF_ERR_INVALID_ARGUMENT;
    MfBulletCollider *collider = new (std::nothrow) MfBulletCollider();
    if (collider == nullptr) return MF_ERR_OUT_OF_MEMORY;
    collider->m_settings = settings;
    mf_status status = mf_bank_create(&collider->m_bank);
    if (status == MF_OK) status = mf_context_create(&settings.config, &collider->m_context);
    if (status != MF_OK) {
        delete collider;
        return status;
    }
    *out = collider;
    return MF_OK;
}

MfBulletCollider::~MfBulletCollider()
{
    mf_context_destroy(m_context);
    mf_bank_destroy(m_bank);
}

bool MfBulletCollider::supports(const btCollisionShape *shape)
{
    int type = shape->getShapeType();
    return type == BOX_SHAPE_PROXYTYPE || type == CONVEX_HULL_SHAPE_PROXYTYPE;
}

void MfBulletCollider::clearError()
{
    m_lastError = MF_OK;
    m_message[0] = '\0';
}

void MfBulletCollider::recordError(mf_status status, const char *message)
{
    if (m_lastError != MF_OK) return;
    m_lastError = status;
    std::snprintf(m_message, sizeof(m_message), "%s", message);
}

// Called from Bullet's callbacks: no exception may leave, so a failed allocation becomes a status.
mf_status MfBulletCollider::shapeId(const btCollisionShape *shape, uint32_t *id)
{
    try {
        return registerShape(shape, id);
    } catch (const std::bad_alloc &) {
        recordError(MF_ERR_OUT_OF_MEMORY, "no memory to register a shape");
        return MF_ERR_OUT_OF_MEMORY;
    }
}

mf_status MfBulletCollider::registerShape(const btCollisionShape *shape, uint32_t *id)
{
    if (!supports(shape)) return MF_ERR_INVALID_ARGUMENT;
    Known now = {0, btVector3(0, 0, 0), 0};
    const btConvexHullShape *hull = nullptr;
    if (shape->getShapeType() == BOX_SHAPE_PROXYTYPE) {
        // Bullet keeps a box's margin inside its half extents: with the margin is the real box.
        now.size = static_cast<const btBoxShape *>(shape)->getHalfExtentsWithMargin();
    } else {
        hull = static_cast<const btConvexHullShape *>(shape);
        now.size = hull->getLocalScaling();
        now.points = hull->getNumPoints();
    }
    auto found = m_shapes.find(shape);
    if (found != m_shapes.end() && found->second.size == now.size && found->second.points == now.points) {
        *id = found->second.id;
        return MF_OK;
    }
    mf_status status;
    if (hull == nullptr) {
        mf_vec3 half = {float(now.size.x()), float(now.size.y()), float(now.size.z())};
        status = mf_bank_add_box(m_bank, half, &now.id);
    } else {
        // The hull's own points, scaled; Bullet's margin around them is left out.
        m_points.resize(size_t(now.points));
        for (int i = 0; i < now.points; ++i) {
            btVector3 p = hull->getScaledPoint(i);
            m_points[size_t(i)] = {float(p.x()), float(p.y()), float(p.z())};
        }
        status = mf_bank_add_hull(m_bank, m_points.data(), uint32_t(now.points), &now.id);
    }
    if (status != MF_OK) return status;
    m_shapes[shape] = now;
    *id = now.id;
    return MF_OK;
}

void MfBulletCollider::forgetShape(const btCollisionShape *shape) { m_shapes.erase(shape); }

const mf_stream *MfBulletCollider::collide(const uint32_t *shapes, const mf_transform *transforms, uint32_t pairCount,
                                           mf_pair_cache *cache)
{
    try {
        return collidePairs(shapes, transforms, pairCount, cache);
    } catch (const std::bad_alloc &) {
        recordError(MF_ERR_OUT_OF_MEMORY, "no memory for the pairs and their contacts");
        return nullptr;
    }
}

const mf_stream *MfBulletCollider::collidePairs(const uint32_t *shapes, const mf_transform *transforms,
                                                uint32_t pairCount, mf_pair_cache *cache)
{
    m_stream.manifold_count = 0;
    m_stream.contact_count = 0;
    m_stream.fault_count = 0;
    if (pairCount == 0) return &m_stream;
    m_pairs.resize(pairCount);
    for (uint32_t i = 0; i < pairCount; ++i) m_pairs[i] = {2 * i, 2 * i + 1};
    // A stream that holds every pair's largest manifold: one call, never MF_ERR_CAPACITY.
    uint32_t manifoldCapacity, contactCapacity;
    mf_stream_bound(pairCount, m_settings.config.max_contacts, &manifoldCapacity, &contactCapacity);
    if (m_manifolds.size() < manifoldCapacity) m_manifolds.resize(manifoldCapacity);
    if (m_contacts.size() < contactCapacity) m_contacts.resize(contactCapacity);
    m_stream = {};
    m_stream.manifolds = m_manifolds.data();
    m_stream.manifold_capacity = uint32_t(m_manifolds.size());
    m_stream.contacts = m_contacts.data();
    m_stream.contact_capacity = uint32_t(m_contacts.size());
    m_stream.faults = &m_fault;
    m_stream.fault_capacity = 1;
    mf_bodies bodies = {shapes, transforms, 2 * pairCount, nullptr};
    mf_status status = cache != nullptr
                           ? mf_collide_cached(m_context, m_bank, &bodies, m_pairs.data(), pairCount, cache, &m_stream)
                           : mf_collide(m_context, m_bank, &bodies, m_pairs.data(), pairCount, &m_stream);
    if (status != MF_OK) {
        recordError(status, mf_context_message(m_context));
        return nullptr;
    }
    // Skipped pairs are left without contacts, as a failed pair is; the others keep theirs.
    if (m_stream.fault_count > 0) recordError(m_fault.status, mf_context_message(m_context));
    return &m_stream;
}

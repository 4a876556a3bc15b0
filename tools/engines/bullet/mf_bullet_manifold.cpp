// How a manyfold manifold becomes Bullet's persistent manifold: signs, the two surface points,
// and point identity by feature id instead of by distance.
#include "mf_bullet.h"
#include "mf_bullet_convert.h"

#include <algorithm>

namespace {

const int maxPoints = 2 * MANIFOLD_CACHE_SIZE;

// The id a point was written with, or ~0 for a point that is not manyfold's.
uint32_t pointId(const btManifoldPoint &point)
{
    if (point.m_index0 < 0 || point.m_index1 < 0 || point.m_partId0 != -1 || point.m_partId1 != -1) return ~0u;
    return uint32_t(point.m_index0) << 16 | uint32_t(point.m_index1);
}

// Bullet's point for one manyfold contact. manyfold's normal points from a to b; Bullet's
// normalWorldOnB from B to A, with positionWorldOnA = positionWorldOnB + normal * distance.
btManifoldPoint makePoint(const mf_contact &contact, const btVector3 &normal, const btCollisionObject *a,
                          const btCollisionObject *b)
{
    btVector3 point = mfBulletVector(contact.point), half = normal * btScalar(0.5f * contact.separation);
    btVector3 onA = point - half, onB = point + half;
    btManifoldPoint p(a->getWorldTransform().invXform(onA), b->getWorldTransform().invXform(onB), -normal,
                      btScalar(contact.separation));
    p.m_positionWorldOnA = onA;
    p.m_positionWorldOnB = onB;
    p.m_index0 = int(MF_ID_FEATURE_A(contact.id));
    p.m_index1 = int(MF_ID_FEATURE_B(contact.id));
    // What btManifoldResult::addContactPoint gives every new point.
    p.m_combinedFriction = btManifoldResult::calculateCombinedFriction(a, b);
    p.m_combinedRestitution = btManifoldResult::calculateCombinedRestitution(a, b);
    p.m_combinedRollingFriction = btManifoldResult::calculateCombinedRollingFriction(a, b);
    p.m_combinedSpinningFriction = btManifoldResult::calculateCombinedSpinningFriction(a, b);
    int flags = a->getCollisionFlags() | b->getCollisionFlags();
    if (flags & btCollisionObject::CF_HAS_CONTACT_STIFFNESS_DAMPING) {
        p.m_combinedContactDamping1 = btManifoldResult::calculateCombinedContactDamping(a, b);
        p.m_combinedContactStiffness1 = btManifoldResult::calculateCombinedContactStiffness(a, b);
        p.m_contactPointFlags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    }
    if (flags & btCollisionObject::CF_HAS_FRICTION_ANCHOR) p.m_contactPointFlags |= BT_CONTACT_FLAG_FRICTION_ANCHOR;
    btPlaneSpace1(p.m_normalWorldOnB, p.m_lateralFrictionDir1, p.m_lateralFrictionDir2);
    return p;
}

// A point that persists keeps what the solver learnt (as replaceContactPoint keeps it).
void carry(btManifoldPoint &point, const btManifoldPoint &old)
{
    point.m_appliedImpulse = old.m_appliedImpulse;
    point.m_prevRHS = old.m_prevRHS;
    point.m_appliedImpulseLateral1 = old.m_appliedImpulseLateral1;
    point.m_appliedImpulseLateral2 = old.m_appliedImpulseLateral2;
    point.m_userPersistentData = old.m_userPersistentData;
    point.m_lifeTime = old.m_lifeTime;
}

} // namespace

uint32_t MfBulletAlgorithm::write(const mf_manifold *manifold, const mf_contact *contacts)
{
    int count = manifold != nullptr ? int(std::min<uint32_t>(manifold->count, maxPoints)) : 0;

    // The points there now, from both manifolds, and which new point (if any) takes each over.
    btManifoldPoint old[maxPoints];
    int takenBy[maxPoints];
    int oldCount = 0;
    for (btPersistentManifold *m : m_manifolds)
        for (int i = 0; m != nullptr && i < m->getNumContacts(); ++i) {
            takenBy[oldCount] = -1;
            old[oldCount++] = m->getContactPoint(i);
        }

    btManifoldPoint fresh[maxPoints];
    bool persists[maxPoints] = {};
    for (int i = 0; i < count; ++i) {
        fresh[i] =
            makePoint(contacts[manifold->first + uint32_t(i)], mfBulletVector(manifold->normal), m_body0, m_body1);
        uint32_t id = contacts[manifold->first + uint32_t(i)].id;
        for (int k = 0; k < oldCount; ++k) {
            if (takenBy[k] < 0 && pointId(old[k]) == id) {
                carry(fresh[i], old[k]);
                takenBy[k] = i;
                persists[i] = true;
                break;
            }
        }
        // Lifetimes count the steps a point has lived, as refreshContactPoints counts them.
        fresh[i].m_lifeTime += 1;
    }
    // Points gone for good: their user data is released as Bullet releases a removed point's.
    for (int k = 0; k < oldCount; ++k)
        if (takenBy[k] < 0 && m_manifolds[0] != nullptr) m_manifolds[0]->clearUserCache(old[k]);

    // Persisting points keep their order, new ones follow: the sequential solver visits points in
    // manifold order, and an order that changes from step to step is a bias that changes with it.
    int order[maxPoints], placed = 0;
    for (int k = 0; k < oldCount; ++k)
        if (takenBy[k] >= 0) order[placed++] = takenBy[k];
    for (int i = 0; i < count; ++i)
        if (!persists[i]) order[placed++] = i;

    // Contacts 0-3 into the first manifold, 4-7 into the second.
    for (int m = 0; m < 2; ++m) {
        int first = m * MANIFOLD_CACHE_SIZE, n = std::max(0, std::min(count - first, int(MANIFOLD_CACHE_SIZE)));
        if (n == 0 && m_manifolds[m] == nullptr) continue;
        btPersistentManifold *target = persistentManifold(m);
        int before = target->getNumContacts();
        // Slots left behind hold no user data: Bullet's addManifoldPoint expects them empty.
        for (int i = n; i < before; ++i) target->getContactPoint(i).m_userPersistentData = nullptr;
        target->setNumContacts(n);
        for (int i = 0; i < n; ++i) target->getContactPoint(i) = fresh[order[first + i]];
        if (before == 0 && n > 0 && gContactStartedCallback != nullptr) gContactStartedCallback(target);
        if (before > 0 && n == 0 && gContactEndedCallback != nullptr) gContactEndedCallback(target);
    }
    return uint32_t(count);
}

// How a manyfold manifold becomes Bullet's persistent manifold: signs, the two surface points,
// and point identity by feature id instead of by distance.
#include "mf_bullet.h"
#include "mf_bullet_convert.h"

#include <algorithm>

namespace {

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

} // namespace

// Makes Bullet's point for each contact and carries over what persisting points learnt: an id
// the last write held is the same point. Its impulses and user data come from the manifolds,
// where the solver left them, wherever Bullet has moved it since; if Bullet dropped it, the
// impulses it started the last step with. Points gone for good release their user data.
void MfBulletAlgorithm::matchWritten(const mf_manifold *manifold, const mf_contact *contacts, int count,
                                     btManifoldPoint *fresh, int *writtenIndex)
{
    btManifoldPoint *held[maxPoints];
    int heldCount = 0;
    for (btPersistentManifold *m : m_manifolds)
        for (int i = 0; m != nullptr && i < m->getNumContacts(); ++i) held[heldCount++] = &m->getContactPoint(i);
    bool heldTaken[maxPoints] = {}, writtenTaken[maxPoints] = {};

    for (int i = 0; i < count; ++i) {
        const mf_contact &contact = contacts[manifold->first + uint32_t(i)];
        fresh[i] = makePoint(contact, mfBulletVector(manifold->normal), m_body0, m_body1);
        writtenIndex[i] = -1;
        for (int k = 0; k < m_writtenCount && writtenIndex[i] < 0; ++k)
            if (!writtenTaken[k] && m_written[k].id == contact.id) writtenIndex[i] = k;
        if (writtenIndex[i] < 0) {
            fresh[i].m_lifeTime = 1;
            continue;
        }
        const Written &written = m_written[writtenIndex[i]];
        writtenTaken[writtenIndex[i]] = true;
        fresh[i].m_lifeTime = written.lifeTime + 1;
        Learned learned = written.learned;
        for (int h = 0; h < heldCount; ++h) {
            if (heldTaken[h] || pointId(*held[h]) != contact.id) continue;
            heldTaken[h] = true;
            learned = {held[h]->m_appliedImpulse, held[h]->m_appliedImpulseLateral1, held[h]->m_appliedImpulseLateral2,
                       held[h]->m_prevRHS};
            fresh[i].m_userPersistentData = held[h]->m_userPersistentData;
            held[h]->m_userPersistentData = nullptr; // moved to the fresh point
            break;
        }
        fresh[i].m_appliedImpulse = learned.impulse;
        fresh[i].m_appliedImpulseLateral1 = learned.lateral1;
        fresh[i].m_appliedImpulseLateral2 = learned.lateral2;
        fresh[i].m_prevRHS = learned.prevRHS;
    }
    // Released as Bullet releases a removed point's.
    for (int h = 0; h < heldCount; ++h)
        if (!heldTaken[h]) m_manifolds[0]->clearUserCache(*held[h]); // held points mean a manifold
}

// Persisting points keep their order, new ones follow: the sequential solver visits points in
// manifold order, and an order that changes from step to step is a bias that changes with it.
void MfBulletAlgorithm::orderPoints(const int *writtenIndex, int count, int *order) const
{
    int placed = 0;
    for (int k = 0; k < m_writtenCount; ++k)
        for (int i = 0; i < count; ++i)
            if (writtenIndex[i] == k) order[placed++] = i;
    for (int i = 0; i < count; ++i)
        if (writtenIndex[i] < 0) order[placed++] = i;
}

// Points 0-3 of the order into the first manifold, 4-7 into the second, and the record of them.
void MfBulletAlgorithm::fillManifolds(const btManifoldPoint *fresh, const int *order, int count)
{
    for (int m = 0; m < 2; ++m) {
        int first = m * MANIFOLD_CACHE_SIZE, n = std::max(0, std::min(count - first, int(MANIFOLD_CACHE_SIZE)));
        if (n == 0 && m_manifolds[m] == nullptr) continue;
        btPersistentManifold *target = persistentManifold(m);
        int before = target->getNumContacts();
        // The points' user data has been moved or released: Bullet's addManifoldPoint expects
        // free slots to hold none.
        for (int i = 0; i < MANIFOLD_CACHE_SIZE; ++i) target->getContactPoint(i).m_userPersistentData = nullptr;
        target->setNumContacts(n);
        for (int i = 0; i < n; ++i) target->getContactPoint(i) = fresh[order[first + i]];
        if (before == 0 && n > 0 && gContactStartedCallback != nullptr) gContactStartedCallback(target);
        if (before > 0 && n == 0 && gContactEndedCallback != nullptr) gContactEndedCallback(target);
    }
    for (int j = 0; j < count; ++j) {
        const btManifoldPoint &p = fresh[order[j]];
        m_written[j] = {pointId(p),
                        p.m_lifeTime,
                        {p.m_appliedImpulse, p.m_appliedImpulseLateral1, p.m_appliedImpulseLateral2, p.m_prevRHS}};
    }
    m_writtenCount = count;
}

uint32_t MfBulletAlgorithm::write(const mf_manifold *manifold, const mf_contact *contacts)
{
    int count = manifold != nullptr ? int(std::min<uint32_t>(manifold->count, maxPoints)) : 0;
    btManifoldPoint fresh[maxPoints];
    int writtenIndex[maxPoints], order[maxPoints];
    matchWritten(manifold, contacts, count, fresh, writtenIndex);
    orderPoints(writtenIndex, count, order);
    fillManifolds(fresh, order, count);
    return uint32_t(count);
}

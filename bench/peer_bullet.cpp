// Bullet peer (see peer_bullet.h). Bullet reports normals on B pointing towards A and negative
// distances for penetration; outcomes flip both into manyfold's terms.
#include "peer_bullet.h"

#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexPolyhedron.h>
#include <BulletCollision/NarrowPhaseCollision/btPolyhedralContactClipping.h>

#include <memory>
#include <new>
#include <vector>

namespace {

// What Bullet reports for one pair: how many contacts, and the deepest one's distance and normal.
struct pair_result final : btDiscreteCollisionDetectorInterface::Result {
    int contacts = 0;
    btScalar deepest = BT_LARGE_FLOAT;
    btVector3 normal_on_b{0, 0, 0};

    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3 &normal_on_b_world, const btVector3 &, btScalar distance) override
    {
        ++contacts;
        if (distance < deepest) {
            deepest = distance;
            normal_on_b = normal_on_b_world;
        }
    }

    // normal_on_b: the normal the pair's manifold uses (Bullet's points from B towards A).
    bench_outcome outcome(const btVector3 &manifold_normal_on_b) const
    {
        if (contacts == 0) return bench_outcome{};
        const btVector3 n = manifold_normal_on_b.normalized();
        return bench_outcome{{float(-n.x()), float(-n.y()), float(-n.z())}, float(-deepest), uint32_t(contacts)};
    }
};

btVector3 to_bullet(mf_vec3 v) { return btVector3(v.x, v.y, v.z); }

// A shape as a Bullet convex hull with polygonal faces: boxes by their corners, hulls by the same
// input points manyfold was given.
std::unique_ptr<btConvexHullShape> make_hull(const scene_shape &shape)
{
    auto hull = std::make_unique<btConvexHullShape>();
    if (shape.kind == SCENE_BOX) {
        for (int i = 0; i < 8; ++i) {
            mf_vec3 h = shape.half_extents;
            hull->addPoint(btVector3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z), false);
        }
    } else {
        for (uint32_t i = 0; i < shape.point_count; ++i) hull->addPoint(to_bullet(shape.points[i]), false);
    }
    hull->recalcLocalAabb();
    hull->setMargin(0); // the polyhedral path ignores margins; make it explicit
    hull->initializePolyhedralFeatures();
    return hull;
}

} // namespace

struct peer_bullet {
    const scene *s = nullptr;
    bool box_detector = false;
    btScalar margin = 0;
    std::vector<std::unique_ptr<btConvexHullShape>> hulls; // per shape, polyhedral mode
    std::vector<std::unique_ptr<btBoxShape>> boxes;        // per shape, box mode
    btAlignedObjectArray<btTransform> transforms;          // per body
    btVertexArray clip_in, clip_out;                       // clipping scratch, reserved once
};

peer_bullet *peer_bullet_create(const scene *s, int box_detector, float margin)
{
    try {
        auto peer = std::make_unique<peer_bullet>();
        peer->s = s;
        peer->box_detector = box_detector != 0;
        peer->margin = margin;
        for (uint32_t i = 0; i < s->shape_count; ++i) {
            const scene_shape &shape = s->shapes[i];
            if (peer->box_detector) {
                if (shape.kind != SCENE_BOX) return nullptr;
                peer->boxes.push_back(std::make_unique<btBoxShape>(to_bullet(shape.half_extents)));
            } else {
                peer->hulls.push_back(make_hull(shape));
            }
        }
        peer->transforms.resize(int(s->body_count), btTransform::getIdentity());
        for (uint32_t i = 0; i < s->body_count; ++i) {
            const mf_transform &t = s->body_transform[i];
            peer->transforms[int(i)] = btTransform(btQuaternion(t.q.x, t.q.y, t.q.z, t.q.w), to_bullet(t.p));
        }
        peer->clip_in.reserve(4 * MF_MAX_FACE_VERTICES);
        peer->clip_out.reserve(4 * MF_MAX_FACE_VERTICES);
        return peer.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

static void collide_polyhedra(peer_bullet *peer, bench_outcome *outcomes)
{
    const scene *s = peer->s;
    for (uint32_t i = 0; i < s->pair_count; ++i) {
        uint32_t a = s->pairs[i].a, b = s->pairs[i].b;
        const btConvexPolyhedron &hull_a = *peer->hulls[s->body_shape[a]]->getConvexPolyhedron();
        const btConvexPolyhedron &hull_b = *peer->hulls[s->body_shape[b]]->getConvexPolyhedron();
        const btTransform &ta = peer->transforms[int(a)], &tb = peer->transforms[int(b)];
        pair_result result;
        btVector3 axis(0, 0, 0);
        // As btConvexConvexAlgorithm does: an edge-edge axis reports its own point (with the
        // normal between the edges' lines), then the clipped face's points (with the axis). The
        // axis is the manifold's normal.
        if (btPolyhedralContactClipping::findSeparatingAxis(hull_a, hull_b, ta, tb, axis, result)) {
            btPolyhedralContactClipping::clipHullAgainstHull(axis, hull_a, hull_b, ta, tb, -BT_LARGE_FLOAT,
                                                             peer->margin, peer->clip_in, peer->clip_out, result);
        }
        outcomes[i] = result.outcome(axis);
    }
}

static void collide_boxes(peer_bullet *peer, bench_outcome *outcomes)
{
    const scene *s = peer->s;
    btDiscreteCollisionDetectorInterface::ClosestPointInput input;
    for (uint32_t i = 0; i < s->pair_count; ++i) {
        uint32_t a = s->pairs[i].a, b = s->pairs[i].b;
        btBoxBoxDetector detector(peer->boxes[s->body_shape[a]].get(), peer->boxes[s->body_shape[b]].get());
        input.m_transformA = peer->transforms[int(a)];
        input.m_transformB = peer->transforms[int(b)];
        pair_result result;
        detector.getClosestPoints(input, result, nullptr);
        outcomes[i] = result.outcome(result.normal_on_b); // every contact carries the same normal
    }
}

void peer_bullet_collide(peer_bullet *peer, bench_outcome *outcomes)
{
    if (peer->box_detector) {
        collide_boxes(peer, outcomes);
    } else {
        collide_polyhedra(peer, outcomes);
    }
}

void peer_bullet_destroy(peer_bullet *peer) { delete peer; }

// The contact law, point by point (see contact_law.h).
#include "contact_law.h"

#include <cmath>
#include <cstring>

namespace manyfold_lammps {

static double dot(const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

// Velocity of the body's material at point p.
static void velocity_at(const BodyMotion &body, const double p[3], double out[3])
{
  double arm[3] = {p[0] - body.x[0], p[1] - body.x[1], p[2] - body.x[2]};
  cross(body.omega, arm, out);
  for (int k = 0; k < 3; ++k) out[k] += body.v[k];
}

static void add_torque(const BodyMotion &body, const double p[3], const double force[3],
                       double torque[3])
{
  double arm[3] = {p[0] - body.x[0], p[1] - body.x[1], p[2] - body.x[2]};
  double t[3];
  cross(arm, force, t);
  for (int k = 0; k < 3; ++k) torque[k] += t[k];
}

ContactEffect apply_contact_law(const ContactLaw &law, const mf_manifold &manifold,
                                const mf_contact *contacts, const double origin[3],
                                const BodyMotion &a, const BodyMotion &b, SpringHistory *springs,
                                int max_contacts, double dt, bool update)
{
  ContactEffect effect;
  SpringHistory kept[MF_MAX_CONTACTS];
  std::memcpy(kept, springs, sizeof(SpringHistory) * (size_t) max_contacts);
  std::memset(springs, 0, sizeof(SpringHistory) * (size_t) max_contacts);

  // Reduced mass; an immovable body (a wall) has mass 0 and leaves the other's.
  double reduced = a.mass > 0.0 && b.mass > 0.0 ? a.mass * b.mass / (a.mass + b.mass)
                                                : (a.mass > 0.0 ? a.mass : b.mass);
  // Hertz's contact radius from the bodies' reaches, as gran/hertz/history takes the spheres'.
  double radius = std::isfinite(b.reach) ? a.reach * b.reach / (a.reach + b.reach) : a.reach;
  double n[3] = {manifold.normal.x, manifold.normal.y, manifold.normal.z};
  int stored = 0;
  for (uint32_t c = 0; c < manifold.count; ++c) {
    const mf_contact &contact = contacts[manifold.first + c];
    double overlap = -(double) contact.separation;
    if (overlap <= 0.0) continue;    // speculative: no force, no spring
    double p[3] = {origin[0] + contact.point.x, origin[1] + contact.point.y,
                   origin[2] + contact.point.z};
    double va[3], vb[3], relative[3];
    velocity_at(a, p, va);
    velocity_at(b, p, vb);
    for (int k = 0; k < 3; ++k) relative[k] = vb[k] - va[k];
    double closing = dot(relative, n);    // > 0: b moves away from a
    double tangential[3] = {relative[0] - closing * n[0], relative[1] - closing * n[1],
                            relative[2] - closing * n[2]};

    double scale = law.model == ContactModel::hertz ? std::sqrt(overlap * radius) : 1.0;
    double kn = law.kn * scale, kt = law.kt * scale;
    double normal_force = kn * overlap - law.gamma_n * scale * reduced * closing;
    if (normal_force < 0.0) normal_force = 0.0;    // damping never pulls the bodies together

    // The spring this point had, found by its features; turned into today's tangent plane
    // with its length kept (as gran/hooke/history does).
    double stretch[3] = {0.0, 0.0, 0.0};
    for (int s = 0; s < max_contacts; ++s) {
      if (kept[s].id_plus_one == (double) contact.id + 1.0) {
        std::memcpy(stretch, kept[s].stretch, sizeof(stretch));
        break;
      }
    }
    double length = std::sqrt(dot(stretch, stretch));
    double along = dot(stretch, n);
    for (int k = 0; k < 3; ++k) stretch[k] -= along * n[k];
    double turned = std::sqrt(dot(stretch, stretch));
    if (turned > 0.0)
      for (int k = 0; k < 3; ++k) stretch[k] *= length / turned;
    if (update)
      for (int k = 0; k < 3; ++k) stretch[k] += tangential[k] * dt;

    double friction[3];
    for (int k = 0; k < 3; ++k)
      friction[k] = -kt * stretch[k] - law.gamma_t * scale * reduced * tangential[k];
    double magnitude = std::sqrt(dot(friction, friction));
    double limit = law.mu * normal_force;
    if (magnitude > limit) {
      // Sliding: the force is Coulomb's, and the spring holds what gives that force.
      double shrink = magnitude > 0.0 ? limit / magnitude : 0.0;
      for (int k = 0; k < 3; ++k) {
        friction[k] *= shrink;
        stretch[k] = kt > 0.0 ? -(friction[k] + law.gamma_t * scale * reduced * tangential[k]) / kt
                              : 0.0;
      }
    }

    double force[3];
    for (int k = 0; k < 3; ++k) force[k] = normal_force * n[k] + friction[k];
    double minus[3] = {-force[0], -force[1], -force[2]};
    for (int k = 0; k < 3; ++k) effect.force_on_b[k] += force[k];
    add_torque(b, p, force, effect.torque_on_b);
    add_torque(a, p, minus, effect.torque_on_a);

    double normal_energy = law.model == ContactModel::hertz ? 0.4 * kn * overlap * overlap
                                                            : 0.5 * kn * overlap * overlap;
    effect.energy += normal_energy + 0.5 * kt * dot(stretch, stretch);
    if (overlap > effect.deepest) effect.deepest = overlap;
    effect.touching++;
    if (stored < max_contacts) {
      springs[stored].id_plus_one = (double) contact.id + 1.0;
      std::memcpy(springs[stored].stretch, stretch, sizeof(stretch));
      ++stored;
    }
  }
  return effect;
}

}    // namespace manyfold_lammps

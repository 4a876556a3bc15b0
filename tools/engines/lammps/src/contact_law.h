// The granular contact law at each contact point of a manyfold manifold: a normal spring-dashpot
// (Hooke, or Hertz) and a tangential spring with history capped by Coulomb friction, as LAMMPS's
// gran/hooke/history and gran/hertz/history apply it between spheres. Here the overlap at a point
// is minus its separation, and a pair with four contact points has four springs: a box resting
// on a face sinks by m g / (4 kn) under Hooke.
//
// The tangential springs are kept per contact, keyed by the contact's feature id: a point that
// keeps its features keeps its spring from step to step, and a point that is new starts at zero.
#pragma once

#include "manyfold.h"

#include <cstdint>

namespace manyfold_lammps {

enum class ContactModel { hooke, hertz };

struct ContactLaw {
  ContactModel model = ContactModel::hooke;
  double kn = 0.0;         // normal stiffness: force / length (Hooke), force / length^2 (Hertz)
  double kt = 0.0;         // tangential stiffness, same units
  double gamma_n = 0.0;    // normal damping: 1 / time, times the reduced mass
  double gamma_t = 0.0;    // tangential damping
  double mu = 0.0;         // Coulomb friction coefficient
};

// One contact's history: its feature id plus one (0: unused) and its tangential spring.
struct SpringHistory {
  double id_plus_one;
  double stretch[3];
};

// Per pair, in the doubles LAMMPS's neighbour history keeps: the kernel's cache entry, bytes
// copied as they are, then max_contacts springs.
constexpr int cache_doubles = (int) ((sizeof(mf_pair_cache) + sizeof(double) - 1) / sizeof(double));
constexpr int spring_doubles = (int) (sizeof(SpringHistory) / sizeof(double));
static_assert(sizeof(SpringHistory) == 4 * sizeof(double), "a spring is four doubles");
inline int history_doubles(int max_contacts)
{
  return cache_doubles + spring_doubles * max_contacts;
}

// What the law needs of a body: its centre of mass, velocities, mass (0: immovable) and reach.
struct BodyMotion {
  const double *x;
  const double *v;
  const double *omega;
  double mass;
  double reach;
};

// What a manifold does to its two bodies.
struct ContactEffect {
  double force_on_b[3] = {0.0, 0.0, 0.0};    // a gets minus this
  double torque_on_a[3] = {0.0, 0.0, 0.0};
  double torque_on_b[3] = {0.0, 0.0, 0.0};
  double energy = 0.0;     // elastic energy in the springs
  double deepest = 0.0;    // the largest overlap
  int touching = 0;        // points that overlap
};

// Applies the law to one manifold whose points are relative to `origin`. springs[0 ..
// max_contacts) hold the pair's springs of the last step and get this step's (in the manifold's
// order, one for each overlapping point). update: whether the springs stretch (not during
// LAMMPS's setup, which only measures forces).
ContactEffect apply_contact_law(const ContactLaw &law, const mf_manifold &manifold,
                                const mf_contact *contacts, const double origin[3],
                                const BodyMotion &a, const BodyMotion &b, SpringHistory *springs,
                                int max_contacts, double dt, bool update);

}    // namespace manyfold_lammps

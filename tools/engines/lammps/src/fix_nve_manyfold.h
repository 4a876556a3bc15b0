/* fix nve/manyfold: constant NVE integration of rigid polyhedra, translation and rotation.

   fix ID group nve/manyfold [density RHO]
     RHO: mass per volume of every atom in the group (default 1); each atom's rmass becomes RHO
     times its shape's volume, and its principal moments RHO times the shape's

   Velocity Verlet for the centre of mass, as fix nve/asphere for the turn: the angular momentum
   (d2_angmom, in the world's frame) takes half kicks from the torque, and the quaternion (d2_quat,
   the principal frame's turn into the world) steps by Richardson iteration with the shape's
   principal inertia. omega is kept as the angular momentum gives it, for the contact law's
   velocities. Needs pair_style manyfold (its shape library). */

#ifdef FIX_CLASS
#else

#ifndef LMP_FIX_NVE_MANYFOLD_H
#define LMP_FIX_NVE_MANYFOLD_H

#include "fix.h"

namespace LAMMPS_NS {

class FixNVEManyfold : public Fix {
 public:
  FixNVEManyfold(class LAMMPS *, int, char **);
  int setmask() override;
  void init() override;
  void initial_integrate(int) override;
  void final_integrate() override;
  void reset_dt() override;

 protected:
  void principal_moments(int shape, double moments[3]) const;
  void set_masses();
  double density_ = 1.0;
  double dtv_ = 0.0, dtf_ = 0.0;
  class PairManyfold *pair_ = nullptr;
};

}    // namespace LAMMPS_NS

#endif
#endif

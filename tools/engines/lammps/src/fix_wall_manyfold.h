/* fix wall/manyfold: planes and boxes that hold polyhedra in, with pair_style manyfold's
   contact law.

   fix ID group wall/manyfold hooke|hertz Kn Kt gamma_n gamma_t mu wall args ... [wall args ...]
     xplane lo hi, yplane lo hi, zplane lo hi: a plane at lo facing +axis and one at hi facing
                                              -axis (either may be NULL), as fix wall/gran has them
     box xlo xhi ylo yhi zlo zhi:             a fixed box, solid

   Each plane is the face of a slab much larger than the largest shape, centred beside each atom,
   so the kernel sees a box and no coordinate grows with the domain. The walls are immovable:
   their contact forces act on the atoms only. Each atom keeps, per wall, the kernel's cache entry
   and its contact points' springs; they migrate with it and are kept in restart files. */

#ifdef FIX_CLASS
#else

#ifndef LMP_FIX_WALL_MANYFOLD_H
#define LMP_FIX_WALL_MANYFOLD_H

#include "fix.h"

#include "contact_law.h"
#include "kernel_call.h"

#include <vector>

namespace LAMMPS_NS {

class FixWallManyfold : public Fix {
 public:
  FixWallManyfold(class LAMMPS *, int, char **);
  ~FixWallManyfold() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void post_force(int) override;

  double memory_usage() override;
  void grow_arrays(int) override;
  void copy_arrays(int, int, int) override;
  void set_arrays(int) override;
  int pack_exchange(int, double *) override;
  int unpack_exchange(int, double *) override;
  int pack_restart(int, double *) override;
  void unpack_restart(int, int) override;
  int size_restart(int) override;
  int maxsize_restart() override;

 private:
  struct Wall {
    int axis = -1;             // a plane's axis, or -1 for a box
    int facing = 0;            // +1: solid below the plane, -1: above
    double position = 0.0;     // the plane's
    double low[3], high[3];    // the box's
    int shape = -1;            // in the pair style's bank
  };
  void add_wall_shapes();
  bool may_touch(const Wall &wall, const double x[3], double reach) const;
  mf_transform wall_pose(const Wall &wall, const double x[3]) const;

  manyfold_lammps::ContactLaw law_;
  std::vector<Wall> walls_;
  class PairManyfold *pair_ = nullptr;
  int shapes_for_ = -1;    // the library load (generation) the wall shapes were added to,
  const void *shapes_pair_ = nullptr;    // of this pair style
  double slab_half_ = 0.0;               // the slabs' half thickness and half width
  double slab_width_ = 0.0;
  mf_context *context_ = nullptr;
  int history_size_ = 0;    // doubles per wall
  int contacts_ = 0;
  double **history_ = nullptr;    // per atom: walls x history_size_

  struct Candidate {
    int atom, wall;
  };
  std::vector<Candidate> candidates_;
  manyfold_lammps::KernelCall kernel_call_;
};

}    // namespace LAMMPS_NS

#endif
#endif

/* compute contact/manyfold: pair_style manyfold's contacts of the last step, summed over ranks.

   compute ID all contact/manyfold

   A global vector of 9:
     1 pairs given to the kernel        2 of them with a manifold
     3 pairs that overlap               4 overlapping contact points
     5 mean overlap of the touching pairs (each pair's deepest point)
     6 largest overlap
     7-9 seconds so far in pair_style manyfold, summed over ranks: placing the pairs' bodies,
         the kernel's call, the contact law and force assembly */

#ifdef COMPUTE_CLASS
#else

#ifndef LMP_COMPUTE_CONTACT_MANYFOLD_H
#define LMP_COMPUTE_CONTACT_MANYFOLD_H

#include "compute.h"

namespace LAMMPS_NS {

class ComputeContactManyfold : public Compute {
 public:
  ComputeContactManyfold(class LAMMPS *, int, char **);
  ~ComputeContactManyfold() override;
  void init() override;
  void compute_vector() override;

 private:
  class PairManyfold *pair_ = nullptr;
};

}    // namespace LAMMPS_NS

#endif
#endif

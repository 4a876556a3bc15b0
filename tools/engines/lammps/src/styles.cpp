// The style maps' entries for manyfold's styles.
#include "styles.h"

#include "compute_contact_manyfold.h"
#include "fix_nve_manyfold.h"
#include "fix_wall_manyfold.h"
#include "pair_manyfold.h"

#include "force.h"
#include "lammps.h"
#include "modify.h"

namespace manyfold_lammps {
namespace {

  LAMMPS_NS::Pair *make_pair(LAMMPS_NS::LAMMPS *lammps)
  {
    return new LAMMPS_NS::PairManyfold(lammps);
  }

  template <typename FixStyle>
  LAMMPS_NS::Fix *make_fix(LAMMPS_NS::LAMMPS *lammps, int narg, char **arg)
  {
    return new FixStyle(lammps, narg, arg);
  }

  template <typename ComputeStyle>
  LAMMPS_NS::Compute *make_compute(LAMMPS_NS::LAMMPS *lammps, int narg, char **arg)
  {
    return new ComputeStyle(lammps, narg, arg);
  }

}    // namespace

void register_styles(LAMMPS_NS::LAMMPS *lammps)
{
  (*lammps->force->pair_map)["manyfold"] = &make_pair;
  (*lammps->modify->fix_map)["nve/manyfold"] = &make_fix<LAMMPS_NS::FixNVEManyfold>;
  (*lammps->modify->fix_map)["wall/manyfold"] = &make_fix<LAMMPS_NS::FixWallManyfold>;
  (*lammps->modify->compute_map)["contact/manyfold"] =
      &make_compute<LAMMPS_NS::ComputeContactManyfold>;
}

}    // namespace manyfold_lammps

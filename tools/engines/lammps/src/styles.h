// Adds manyfold's styles to a LAMMPS instance, as if they were compiled into it.
#pragma once

namespace LAMMPS_NS {
class LAMMPS;
}

namespace manyfold_lammps {

// pair_style manyfold, fix nve/manyfold, fix wall/manyfold, compute contact/manyfold. Call after
// the instance is made and before its input is read.
void register_styles(LAMMPS_NS::LAMMPS *lammps);

}    // namespace manyfold_lammps

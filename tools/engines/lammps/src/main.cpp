// manyfold-lmp: LAMMPS with manyfold's styles, on LAMMPS's command line (-in, -var, -log, -echo,
// -screen, ...), serially or under mpirun.
//
// Debian's LAMMPS is built without the PLUGIN package, so styles cannot be loaded into its `lmp`.
// This program is `lmp` with the styles added to the instance's style maps before it reads the
// input: pair_style manyfold, fix nve/manyfold, fix wall/manyfold, compute contact/manyfold.
#include "styles.h"

#include "input.h"
#include "lammps.h"

#include <cstdio>
#include <mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  try {
    auto *lammps = new LAMMPS_NS::LAMMPS(argc, argv, MPI_COMM_WORLD);
    manyfold_lammps::register_styles(lammps);
    lammps->input->file();
    delete lammps;
  } catch (fmt::format_error &problem) {
    fprintf(stderr, "manyfold-lmp: a message could not be formatted: %s\n", problem.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

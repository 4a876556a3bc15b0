// compute contact/manyfold (see compute_contact_manyfold.h).
#include "compute_contact_manyfold.h"

#include "pair_manyfold.h"

#include "error.h"
#include "force.h"
#include "update.h"

using namespace LAMMPS_NS;

ComputeContactManyfold::ComputeContactManyfold(LAMMPS *lmp, int narg, char **arg) :
    Compute(lmp, narg, arg)
{
  if (narg != 3)
    error->all(FLERR,
               "Illegal compute contact/manyfold command: compute ID group contact/manyfold");
  vector_flag = 1;
  size_vector = 9;
  extvector = 0;
  vector = new double[size_vector];
}

ComputeContactManyfold::~ComputeContactManyfold()
{
  delete[] vector;
}

void ComputeContactManyfold::init()
{
  pair_ = dynamic_cast<PairManyfold *>(force->pair_match("^manyfold", 0));
  if (pair_ == nullptr) error->all(FLERR, "compute contact/manyfold needs pair_style manyfold");
}

void ComputeContactManyfold::compute_vector()
{
  invoked_vector = update->ntimestep;
  const PairManyfold::StepFigures &mine = pair_->figures();
  double sums[8] = {mine.pairs,          mine.manifolds,     mine.touching,
                    mine.contacts,       mine.overlap_sum,   mine.seconds_gather,
                    mine.seconds_kernel, mine.seconds_forces};
  double totals[8], largest = 0.0;
  MPI_Allreduce(sums, totals, 8, MPI_DOUBLE, MPI_SUM, world);
  MPI_Allreduce(&mine.overlap_max, &largest, 1, MPI_DOUBLE, MPI_MAX, world);
  vector[0] = totals[0];
  vector[1] = totals[1];
  vector[2] = totals[2];
  vector[3] = totals[3];
  vector[4] = totals[2] > 0.0 ? totals[4] / totals[2] : 0.0;
  vector[5] = largest;
  vector[6] = totals[5];
  vector[7] = totals[6];
  vector[8] = totals[7];
}

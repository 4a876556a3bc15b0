// fix nve/manyfold (see fix_nve_manyfold.h).
#include "fix_nve_manyfold.h"

#include "pair_manyfold.h"

#include "atom.h"
#include "error.h"
#include "force.h"
#include "math_extra.h"
#include "update.h"

#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;

FixNVEManyfold::FixNVEManyfold(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
{
  time_integrate = 1;
  for (int iarg = 3; iarg < narg; iarg += 2) {
    if (strcmp(arg[iarg], "density") == 0 && iarg + 1 < narg) {
      density_ = utils::numeric(FLERR, arg[iarg + 1], false, lmp);
      if (!(density_ > 0.0))
        error->all(FLERR, "fix nve/manyfold: density must be > 0, not {}", arg[iarg + 1]);
    } else {
      error->all(FLERR,
                 "Illegal fix nve/manyfold command: {} (fix ID group nve/manyfold [density RHO])",
                 arg[iarg]);
    }
  }
}

int FixNVEManyfold::setmask()
{
  return INITIAL_INTEGRATE | FINAL_INTEGRATE;
}

void FixNVEManyfold::init()
{
  pair_ = dynamic_cast<PairManyfold *>(force->pair_match("^manyfold", 0));
  if (pair_ == nullptr)
    error->all(FLERR, "fix nve/manyfold needs pair_style manyfold (its shape library)");
  if (!atom->rmass_flag || !atom->omega_flag || !atom->torque_flag)
    error->all(FLERR, "fix nve/manyfold needs atom_style sphere (rmass, omega, torque)");
  pair_->check_atoms();
  reset_dt();
  set_masses();
}

void FixNVEManyfold::reset_dt()
{
  dtv_ = update->dt;
  dtf_ = 0.5 * update->dt * force->ftm2v;
}

void FixNVEManyfold::principal_moments(int shape, double moments[3]) const
{
  const manyfold_lammps::ShapeProperties &p = pair_->library().properties(shape);
  for (int k = 0; k < 3; ++k) moments[k] = density_ * p.principal[k];
}

// Masses from the shapes, and omega from the angular momentum (which the input may have set).
void FixNVEManyfold::set_masses()
{
  int *shape = pair_->shapes();
  double **quat = pair_->quats(), **angmom = pair_->angmoms();
  double *rmass = atom->rmass;
  double **omega = atom->omega;
  int *mask = atom->mask;
  for (int i = 0; i < atom->nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    rmass[i] = density_ * pair_->library().properties(shape[i]).volume;
    double moments[3];
    principal_moments(shape[i], moments);
    MathExtra::mq_to_omega(angmom[i], quat[i], moments, omega[i]);
  }
}

void FixNVEManyfold::initial_integrate(int /*vflag*/)
{
  int *shape = pair_->shapes();
  double **quat = pair_->quats(), **angmom = pair_->angmoms();
  double **x = atom->x, **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  double *rmass = atom->rmass;
  int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;
  double dtq = 0.5 * dtv_;
  for (int i = 0; i < nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    double dtfm = dtf_ / rmass[i];
    for (int k = 0; k < 3; ++k) {
      v[i][k] += dtfm * f[i][k];
      x[i][k] += dtv_ * v[i][k];
      angmom[i][k] += dtf_ * torque[i][k];
    }
    double moments[3], w[3];
    principal_moments(shape[i], moments);
    // omega at the half step from the angular momentum then and the current turn; the turn a
    // full step by Richardson iteration (normalised), then omega again for the new turn.
    MathExtra::mq_to_omega(angmom[i], quat[i], moments, w);
    MathExtra::richardson(quat[i], angmom[i], w, moments, dtq);
    MathExtra::mq_to_omega(angmom[i], quat[i], moments, omega[i]);
  }
}

void FixNVEManyfold::final_integrate()
{
  int *shape = pair_->shapes();
  double **quat = pair_->quats(), **angmom = pair_->angmoms();
  double **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  double *rmass = atom->rmass;
  int *mask = atom->mask;
  int nlocal = atom->nlocal;
  if (igroup == atom->firstgroup) nlocal = atom->nfirst;
  for (int i = 0; i < nlocal; i++) {
    if (!(mask[i] & groupbit)) continue;
    double dtfm = dtf_ / rmass[i];
    for (int k = 0; k < 3; ++k) {
      v[i][k] += dtfm * f[i][k];
      angmom[i][k] += dtf_ * torque[i][k];
    }
    double moments[3];
    principal_moments(shape[i], moments);
    MathExtra::mq_to_omega(angmom[i], quat[i], moments, omega[i]);
  }
}

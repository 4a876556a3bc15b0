// pair_style manyfold (see pair_manyfold.h): the rank's pairs to the kernel in one call, the
// contact law at each manifold's points, forces, torques, energy and virial as LAMMPS tallies them.
#include "pair_manyfold.h"

#include "atom.h"
#include "comm.h"
#include "error.h"
#include "fix_dummy.h"
#include "fix_neigh_history.h"
#include "force.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neigh_request.h"
#include "neighbor.h"
#include "update.h"

#include <chrono>
#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using manyfold_lammps::BodyMotion;
using manyfold_lammps::ContactEffect;
using manyfold_lammps::ContactLaw;
using manyfold_lammps::ContactModel;
using manyfold_lammps::SpringHistory;

namespace {
double seconds_since(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}    // namespace

PairManyfold::PairManyfold(LAMMPS *lmp) : Pair(lmp)
{
  single_enable = 0;
  no_virial_fdotr_compute = 1;
  finitecutflag = 1;
  history_size_ = manyfold_lammps::history_doubles(contacts_);
  comm_forward = 4;
  // The history is kept by atom IDs, the lower one first: the copy a partner atom keeps is the
  // same values, not the negated ones that spheres' shear displacements want.
  nondefault_history_transfer = 1;
  // Neighbours are listed by reach plus half the margin: keep the history of every listed pair.
  beyond_contact = 1;
  // Made now so that it comes before any fix of the input in the fix list, as the granular
  // styles do; init_style puts the real history fix in its place.
  fix_dummy_ = (FixDummy *) modify->add_fix("NEIGH_HISTORY_MANYFOLD_DUMMY" +
                                            std::to_string(instance_me) + " all DUMMY");
}

PairManyfold::~PairManyfold()
{
  if (copymode) return;
  if (fix_history_ == nullptr)
    modify->delete_fix("NEIGH_HISTORY_MANYFOLD_DUMMY" + std::to_string(instance_me));
  else
    modify->delete_fix("NEIGH_HISTORY_MANYFOLD" + std::to_string(instance_me));
  if (allocated) {
    memory->destroy(setflag);
    memory->destroy(cutsq);
    for (int i = 0; i <= atom->ntypes; ++i) delete[] laws_[i];
    delete[] laws_;
  }
  mf_context_destroy(context_);
}

void PairManyfold::allocate()
{
  allocated = 1;
  int n = atom->ntypes;
  memory->create(setflag, n + 1, n + 1, "pair:setflag");
  for (int i = 1; i <= n; i++)
    for (int j = i; j <= n; j++) setflag[i][j] = 0;
  memory->create(cutsq, n + 1, n + 1, "pair:cutsq");
  laws_ = new ContactLaw *[n + 1];
  for (int i = 0; i <= n; ++i) laws_[i] = new ContactLaw[n + 1];
}

/* ---------------------------------------------------------------------- */

void PairManyfold::settings(int narg, char **arg)
{
  if (narg < 1)
    error->all(FLERR, "Illegal pair_style manyfold command: it needs a shape library file");
  library_path_ = arg[0];
  margin_ = slop_ = cutoff_ = -1.0;
  contacts_ = 4;
  cached_ = true;
  for (int iarg = 1; iarg < narg; iarg += 2) {
    std::string key = arg[iarg];
    if (iarg + 1 >= narg)
      error->all(FLERR, "Illegal pair_style manyfold command: {} needs a value", key);
    const char *value = arg[iarg + 1];
    if (key == "margin") {
      margin_ = utils::numeric(FLERR, value, false, lmp);
      if (!(margin_ >= 0.0))
        error->all(FLERR, "pair_style manyfold: margin must be >= 0, not {}", value);
    } else if (key == "slop") {
      slop_ = utils::numeric(FLERR, value, false, lmp);
      if (!(slop_ >= 0.0))
        error->all(FLERR, "pair_style manyfold: slop must be >= 0, not {}", value);
    } else if (key == "contacts") {
      contacts_ = utils::inumeric(FLERR, value, false, lmp);
      if (contacts_ < 1 || contacts_ > MF_MAX_CONTACTS)
        error->all(FLERR, "pair_style manyfold: contacts must be 1 to {}, not {}", MF_MAX_CONTACTS,
                   value);
    } else if (key == "cache") {
      if (strcmp(value, "yes") == 0)
        cached_ = true;
      else if (strcmp(value, "no") == 0)
        cached_ = false;
      else
        error->all(FLERR, "pair_style manyfold: cache must be yes or no, not {}", value);
    } else if (key == "cutoff") {
      cutoff_ = utils::numeric(FLERR, value, false, lmp);
      if (!(cutoff_ > 0.0))
        error->all(FLERR, "pair_style manyfold: cutoff must be > 0, not {}", value);
    } else {
      error->all(FLERR, "Illegal pair_style manyfold command: unknown keyword {}", key);
    }
  }
  if (fix_history_ != nullptr && manyfold_lammps::history_doubles(contacts_) != history_size_)
    error->all(FLERR, "pair_style manyfold: contacts cannot change once the pair style has run");
  history_size_ = manyfold_lammps::history_doubles(contacts_);
  load_library(library_path_);
}

void PairManyfold::load_library(const std::string &path)
{
  std::string problem;
  if (!library_.load(path, problem))
    error->all(FLERR, "pair_style manyfold: cannot load the shape library: {}", problem);
  double smallest = library_.smallest_reach();
  double margin = margin_ >= 0.0 ? margin_ : 0.05 * smallest;
  double slop = slop_ >= 0.0 ? slop_ : 0.001 * smallest;
  config_ = mf_config_default();
  config_.margin = (float) margin;
  config_.linear_slop = (float) slop;
  config_.max_contacts = (uint32_t) contacts_;
  config_.threads = 1;    // one rank per core: LAMMPS's ranks are the parallelism
  double least = 2.0 * library_.largest_reach() + margin;
  if (cutoff_ > 0.0 && cutoff_ < least)
    error->all(
        FLERR,
        "pair_style manyfold: cutoff {} is too small for the largest shape of {} (reach {}): "
        "it must be at least twice the reach plus the margin, {}",
        cutoff_, path, library_.largest_reach(), least);
  make_context();
}

void PairManyfold::make_context()
{
  mf_context_destroy(context_);
  context_ = nullptr;
  mf_status status = mf_context_create(&config_, &context_);
  if (status != MF_OK)
    error->all(FLERR, "pair_style manyfold: the kernel refused margin {} slop {} contacts {}: {}",
               config_.margin, config_.linear_slop, config_.max_contacts, mf_status_string(status));
}

ContactLaw PairManyfold::parse_contact_law(LAMMPS *lmp, const char *command, char **arg)
{
  ContactLaw law;
  if (strcmp(arg[0], "hooke") == 0)
    law.model = ContactModel::hooke;
  else if (strcmp(arg[0], "hertz") == 0)
    law.model = ContactModel::hertz;
  else
    lmp->error->all(FLERR, "{}: the contact model is hooke or hertz, not {}", command, arg[0]);
  law.kn = utils::numeric(FLERR, arg[1], false, lmp);
  law.kt = strcmp(arg[2], "NULL") == 0 ? law.kn * 2.0 / 7.0
                                       : utils::numeric(FLERR, arg[2], false, lmp);
  law.gamma_n = utils::numeric(FLERR, arg[3], false, lmp);
  law.gamma_t = strcmp(arg[4], "NULL") == 0 ? 0.5 * law.gamma_n
                                            : utils::numeric(FLERR, arg[4], false, lmp);
  law.mu = utils::numeric(FLERR, arg[5], false, lmp);
  if (!(law.kn >= 0.0 && law.kt >= 0.0 && law.gamma_n >= 0.0 && law.gamma_t >= 0.0 &&
        law.mu >= 0.0))
    lmp->error->all(FLERR, "{}: Kn, Kt, gamma_n, gamma_t and mu must be >= 0", command);
  return law;
}

void PairManyfold::coeff(int narg, char **arg)
{
  if (narg != 8)
    error->all(FLERR,
               "Incorrect args for pair coefficients: pair_coeff I J hooke|hertz Kn Kt gamma_n "
               "gamma_t mu");
  if (!allocated) allocate();
  int ilo, ihi, jlo, jhi;
  utils::bounds(FLERR, arg[0], 1, atom->ntypes, ilo, ihi, error);
  utils::bounds(FLERR, arg[1], 1, atom->ntypes, jlo, jhi, error);
  ContactLaw law = parse_contact_law(lmp, "pair_coeff manyfold", arg + 2);
  int count = 0;
  for (int i = ilo; i <= ihi; i++) {
    for (int j = MAX(jlo, i); j <= jhi; j++) {
      laws_[i][j] = laws_[j][i] = law;
      setflag[i][j] = 1;
      count++;
    }
  }
  if (count == 0) error->all(FLERR, "Incorrect args for pair coefficients");
}

/* ---------------------------------------------------------------------- */

int PairManyfold::find_property(const char *name, int want_double, int want_columns)
{
  int flag = -1, columns = -1;
  int index = atom->find_custom(name, flag, columns);
  const char *declared = want_double ? (want_columns ? "d2_" : "d_") : "i_";
  if (index < 0 || flag != want_double || columns != want_columns)
    error->all(FLERR,
               "pair_style manyfold needs the per-atom property {}{}{}: declare "
               "'fix ID all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes'",
               declared, name, want_columns ? " " + std::to_string(want_columns) : std::string());
  return index;
}

int *PairManyfold::shapes()
{
  return atom->ivector[find_property("shape", 0, 0)];
}
double **PairManyfold::quats()
{
  return atom->darray[find_property("quat", 1, 4)];
}
double **PairManyfold::angmoms()
{
  return atom->darray[find_property("angmom", 1, 3)];
}

void PairManyfold::check_atoms()
{
  int *shape = shapes();
  double **quat = quats();
  tagint *tag = atom->tag;
  int count = library_.particle_count();
  for (int i = 0; i < atom->nlocal; ++i) {
    if (shape[i] < 0 || shape[i] >= count)
      error->one(FLERR, "Atom {} has shape {}, but the shape library {} holds shapes 0 to {}",
                 tag[i], shape[i], library_.path(), count - 1);
    double *q = quat[i];
    if (!(std::isfinite(q[0]) && std::isfinite(q[1]) && std::isfinite(q[2]) && std::isfinite(q[3])))
      error->one(FLERR, "Atom {} has a non-finite quaternion ({} {} {} {})", tag[i], q[0], q[1],
                 q[2], q[3]);
    double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (norm == 0.0) {
      q[0] = 1.0;    // no turn given: the principal frame is the world's
    } else {
      for (int k = 0; k < 4; ++k) q[k] /= norm;
    }
  }
}

void PairManyfold::init_style()
{
  if (!atom->radius_flag || !atom->rmass_flag || !atom->omega_flag || !atom->torque_flag)
    error->all(FLERR, "pair_style manyfold needs atom_style sphere (radius, rmass, omega, torque)");
  if (comm->ghost_velocity == 0)
    error->all(FLERR, "pair_style manyfold needs ghost velocities: add 'comm_modify vel yes'");
  if (!allocated) error->all(FLERR, "pair_style manyfold: no pair_coeff given");
  check_atoms();

  // Every atom's neighbour sphere: its shape's reach and half the margin, so two atoms listed by
  // LAMMPS's size-based lists include every pair nearer than the margin.
  int *shape = shapes();
  double *radius = atom->radius;
  double half_margin = 0.5 * config_.margin;
  for (int i = 0; i < atom->nlocal; ++i)
    radius[i] = library_.properties(shape[i]).reach + half_margin;

  int irequest = neighbor->request(this, instance_me);
  neighbor->requests[irequest]->size = 1;
  neighbor->requests[irequest]->history = 1;

  if (fix_history_ == nullptr) {
    auto command =
        fmt::format("NEIGH_HISTORY_MANYFOLD{} all NEIGH_HISTORY {}", instance_me, history_size_);
    fix_history_ = (FixNeighHistory *) modify->replace_fix(
        "NEIGH_HISTORY_MANYFOLD_DUMMY" + std::to_string(instance_me), command, 1);
    fix_history_->pair = this;
  }
  int ifix = modify->find_fix("NEIGH_HISTORY_MANYFOLD" + std::to_string(instance_me));
  if (ifix < 0) error->all(FLERR, "pair_style manyfold: its neighbour history fix is missing");
  fix_history_ = (FixNeighHistory *) modify->fix[ifix];
}

double PairManyfold::init_one(int i, int j)
{
  if (setflag[i][j] == 0)
    error->all(FLERR, "pair_style manyfold: no pair_coeff for types {} and {}", i, j);
  double least = 2.0 * library_.largest_reach() + config_.margin;
  return cutoff_ > 0.0 ? cutoff_ : least;
}

/* ---------------------------------------------------------------------- */

void PairManyfold::compute(int eflag, int vflag)
{
  ev_init(eflag, vflag);
  auto started = std::chrono::steady_clock::now();
  // Ghosts' turns change every step, and property/atom sends them only when lists are rebuilt.
  comm->forward_comm_pair(this);
  if (neighbor->ago == 0) check_atoms();

  double **x = atom->x, **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  double *rmass = atom->rmass;
  int *type = atom->type;
  tagint *tag = atom->tag;
  int *shape = shapes();
  double **quat = quats();
  int nlocal = atom->nlocal;
  int newton_pair = force->newton_pair;
  const double margin = config_.margin;
  const int dnum = history_size_;

  int inum = list->inum;
  int *ilist = list->ilist, *numneigh = list->numneigh, **firstneigh = list->firstneigh;
  int **firsttouch = fix_history_->firstflag;
  double **firsthistory = fix_history_->firstvalue;

  // 1. The pairs whose spheres come within the margin, each placed about its lower-ID atom.
  candidates_.clear();
  kernel_call_.clear();
  // Each atom's shape frame once, for every pair it is in.
  int nall = nlocal + atom->nghost;
  frames_.resize((size_t) nall);
  for (int i = 0; i < nall; ++i)
    frames_[i] = manyfold_lammps::shape_frame(library_.properties(shape[i]), quat[i]);
  for (int ii = 0; ii < inum; ii++) {
    int i = ilist[ii];
    int *jlist = firstneigh[i];
    int jnum = numneigh[i];
    double reach_i = library_.properties(shape[i]).reach;
    for (int jj = 0; jj < jnum; jj++) {
      int j = jlist[jj] & NEIGHMASK;
      int *touch = &firsttouch[i][jj];
      double *history = &firsthistory[i][dnum * jj];
      double d[3] = {x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]};
      double reach = reach_i + library_.properties(shape[j]).reach + margin;
      if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= reach * reach) {
        // A flag of 0 means an empty history (LAMMPS fills new entries with zeros), so most
        // pairs out of reach cost no write.
        if (*touch) {
          *touch = 0;
          memset(history, 0, sizeof(double) * (size_t) dnum);
        }
        continue;
      }
      Candidate c;
      c.a = tag[i] <= tag[j] ? i : j;
      c.b = c.a == i ? j : i;
      c.i = i;
      c.touch = touch;
      c.history = history;
      const double *origin = x[c.a];
      kernel_call_.add((uint32_t) shape[c.a],
                       manyfold_lammps::placed_pose(frames_[c.a], x[c.a], origin),
                       (uint32_t) shape[c.b],
                       manyfold_lammps::placed_pose(frames_[c.b], x[c.b], origin), history);
      candidates_.push_back(c);
    }
  }
  figures_.seconds_gather += seconds_since(started);

  // 2. One kernel call for the rank's pairs.
  started = std::chrono::steady_clock::now();
  uint32_t pair_count = kernel_call_.pair_count();
  mf_status status = kernel_call_.collide(context_, library_.bank(), config_.max_contacts, cached_);
  if (status != MF_OK) {
    std::string detail = mf_context_message(context_);
    error->one(FLERR, "pair_style manyfold: the kernel refused step {}'s pairs: {} ({})",
               update->ntimestep, mf_status_string(status), detail);
  }
  figures_.seconds_kernel += seconds_since(started);

  // 3. The contact law at each manifold's points; forces, torques, histories.
  started = std::chrono::steady_clock::now();
  const bool stretch = !update->setupflag;
  const double dt = update->dt;
  StepFigures step;
  step.seconds_gather = figures_.seconds_gather;
  step.seconds_kernel = figures_.seconds_kernel;
  step.seconds_forces = figures_.seconds_forces;
  step.pairs = pair_count;
  step.manifolds = kernel_call_.manifold_count();
  for (uint32_t m = 0; m < kernel_call_.manifold_count(); ++m) {
    const mf_manifold &manifold = kernel_call_.manifold(m);
    Candidate &c = candidates_[manifold.pair];
    int a = c.a, b = c.b;
    // In LAMMPS's setup (the first forces of a run) the histories are read, not written: a run
    // resumed from a restart file then steps on exactly as the run that wrote it.
    SpringHistory *springs =
        reinterpret_cast<SpringHistory *>(c.history + manyfold_lammps::cache_doubles);
    SpringHistory setup_springs[MF_MAX_CONTACTS];
    if (!stretch) {
      memcpy(setup_springs, springs, sizeof(SpringHistory) * (size_t) contacts_);
      springs = setup_springs;
    }
    BodyMotion body_a = {x[a], v[a], omega[a], rmass[a], library_.properties(shape[a]).reach};
    BodyMotion body_b = {x[b], v[b], omega[b], rmass[b], library_.properties(shape[b]).reach};
    ContactEffect effect = manyfold_lammps::apply_contact_law(
        laws_[type[a]][type[b]], manifold, kernel_call_.contacts(), x[a], body_a, body_b, springs,
        contacts_, dt, stretch);
    if (effect.touching == 0) continue;
    step.touching += 1.0;
    step.contacts += effect.touching;
    step.overlap_sum += effect.deepest;
    step.overlap_max = MAX(step.overlap_max, effect.deepest);
    const double *fb = effect.force_on_b;
    int j = c.i == a ? b : a;
    if (c.i == a || newton_pair || a < nlocal) {
      f[a][0] -= fb[0];
      f[a][1] -= fb[1];
      f[a][2] -= fb[2];
      for (int k = 0; k < 3; ++k) torque[a][k] += effect.torque_on_a[k];
    }
    if (c.i == b || newton_pair || b < nlocal) {
      f[b][0] += fb[0];
      f[b][1] += fb[1];
      f[b][2] += fb[2];
      for (int k = 0; k < 3; ++k) torque[b][k] += effect.torque_on_b[k];
    }
    if (evflag) {
      double sign = c.i == a ? -1.0 : 1.0;    // the force on the list's owner i
      int i = c.i;
      ev_tally_xyz(i, j, nlocal, newton_pair, effect.energy, 0.0, sign * fb[0], sign * fb[1],
                   sign * fb[2], x[i][0] - x[j][0], x[i][1] - x[j][1], x[i][2] - x[j][2]);
    }
  }
  // Cache entries back into the history; a pair the kernel found apart keeps its entry (the
  // cached axis settles it fast next step) but no springs.
  for (uint32_t k = 0; stretch && k < pair_count; ++k) {
    Candidate &c = candidates_[k];
    int keep = kernel_call_.has_manifold(k) || (cached_ && kernel_call_.cache(k).axis != 0);
    if (!keep) {
      // Nothing to keep: an empty history and a flag of 0, so that the pair costs no write
      // while it stays out of reach.
      if (*c.touch) memset(c.history, 0, sizeof(double) * (size_t) dnum);
      *c.touch = 0;
      continue;
    }
    if (cached_) memcpy(c.history, &kernel_call_.cache(k), sizeof(mf_pair_cache));
    *c.touch = 1;
    // Springs are stored from the first slot on: an unused first slot means none.
    SpringHistory *springs =
        reinterpret_cast<SpringHistory *>(c.history + manyfold_lammps::cache_doubles);
    if (!kernel_call_.has_manifold(k) && springs[0].id_plus_one != 0.0)
      memset(springs, 0, sizeof(double) * (size_t) (dnum - manyfold_lammps::cache_doubles));
  }
  figures_ = step;
  figures_.seconds_forces += seconds_since(started);
}

/* ---------------------------------------------------------------------- */

int PairManyfold::pack_forward_comm(int n, int *list, double *buf, int /*pbc_flag*/, int * /*pbc*/)
{
  double **quat = quats();
  int m = 0;
  for (int k = 0; k < n; ++k) {
    double *q = quat[list[k]];
    buf[m++] = q[0];
    buf[m++] = q[1];
    buf[m++] = q[2];
    buf[m++] = q[3];
  }
  return m;
}

void PairManyfold::unpack_forward_comm(int n, int first, double *buf)
{
  double **quat = quats();
  int m = 0;
  for (int i = first; i < first + n; ++i) {
    quat[i][0] = buf[m++];
    quat[i][1] = buf[m++];
    quat[i][2] = buf[m++];
    quat[i][3] = buf[m++];
  }
}

void PairManyfold::transfer_history(double *source, double *target)
{
  memcpy(target, source, sizeof(double) * (size_t) history_size_);
}

double PairManyfold::memory_usage()
{
  double bytes = Pair::memory_usage();
  bytes += (double) candidates_.capacity() * sizeof(Candidate);
  bytes += (double) frames_.capacity() * sizeof(manyfold_lammps::ShapeFrame);
  return bytes;
}

/* ---------------------------------------------------------------------- */

void PairManyfold::write_restart(FILE *fp)
{
  write_restart_settings(fp);
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      fwrite(&setflag[i][j], sizeof(int), 1, fp);
      if (setflag[i][j]) fwrite(&laws_[i][j], sizeof(ContactLaw), 1, fp);
    }
}

void PairManyfold::read_restart(FILE *fp)
{
  read_restart_settings(fp);
  allocate();
  int me = comm->me;
  for (int i = 1; i <= atom->ntypes; i++)
    for (int j = i; j <= atom->ntypes; j++) {
      if (me == 0) utils::sfread(FLERR, &setflag[i][j], sizeof(int), 1, fp, nullptr, error);
      MPI_Bcast(&setflag[i][j], 1, MPI_INT, 0, world);
      if (setflag[i][j]) {
        if (me == 0) utils::sfread(FLERR, &laws_[i][j], sizeof(ContactLaw), 1, fp, nullptr, error);
        MPI_Bcast(&laws_[i][j], (int) sizeof(ContactLaw), MPI_BYTE, 0, world);
        laws_[j][i] = laws_[i][j];
      }
    }
}

void PairManyfold::write_restart_settings(FILE *fp)
{
  int length = (int) library_path_.size() + 1;
  fwrite(&length, sizeof(int), 1, fp);
  fwrite(library_path_.c_str(), sizeof(char), (size_t) length, fp);
  double numbers[3] = {margin_, slop_, cutoff_};
  fwrite(numbers, sizeof(double), 3, fp);
  int flags[2] = {contacts_, cached_ ? 1 : 0};
  fwrite(flags, sizeof(int), 2, fp);
}

void PairManyfold::read_restart_settings(FILE *fp)
{
  int me = comm->me, length = 0;
  if (me == 0) utils::sfread(FLERR, &length, sizeof(int), 1, fp, nullptr, error);
  MPI_Bcast(&length, 1, MPI_INT, 0, world);
  std::vector<char> path((size_t) length);
  if (me == 0) utils::sfread(FLERR, path.data(), sizeof(char), (size_t) length, fp, nullptr, error);
  MPI_Bcast(path.data(), length, MPI_CHAR, 0, world);
  double numbers[3];
  int flags[2];
  if (me == 0) {
    utils::sfread(FLERR, numbers, sizeof(double), 3, fp, nullptr, error);
    utils::sfread(FLERR, flags, sizeof(int), 2, fp, nullptr, error);
  }
  MPI_Bcast(numbers, 3, MPI_DOUBLE, 0, world);
  MPI_Bcast(flags, 2, MPI_INT, 0, world);
  library_path_ = path.data();
  margin_ = numbers[0];
  slop_ = numbers[1];
  cutoff_ = numbers[2];
  contacts_ = flags[0];
  cached_ = flags[1] != 0;
  history_size_ = manyfold_lammps::history_doubles(contacts_);
  load_library(library_path_);
}

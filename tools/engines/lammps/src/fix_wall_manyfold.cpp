// fix wall/manyfold (see fix_wall_manyfold.h).
#include "fix_wall_manyfold.h"

#include "pair_manyfold.h"

#include "atom.h"
#include "error.h"
#include "force.h"
#include "memory.h"
#include "update.h"

#include <cmath>
#include <cstring>

using namespace LAMMPS_NS;
using namespace FixConst;
using manyfold_lammps::BodyMotion;
using manyfold_lammps::ContactEffect;
using manyfold_lammps::SpringHistory;

FixWallManyfold::FixWallManyfold(LAMMPS *lmp, int narg, char **arg) : Fix(lmp, narg, arg)
{
  const char *usage = "fix ID group wall/manyfold hooke|hertz Kn Kt gamma_n gamma_t mu "
                      "xplane|yplane|zplane lo hi | box xlo xhi ylo yhi zlo zhi ...";
  if (narg < 11) error->all(FLERR, "Illegal fix wall/manyfold command: {}", usage);
  law_ = PairManyfold::parse_contact_law(lmp, "fix wall/manyfold", arg + 3);

  for (int iarg = 9; iarg < narg;) {
    std::string kind = arg[iarg];
    if (kind == "xplane" || kind == "yplane" || kind == "zplane") {
      if (iarg + 2 >= narg)
        error->all(FLERR, "fix wall/manyfold: {} needs lo and hi (either may be NULL)", kind);
      for (int side = 0; side < 2; ++side) {
        const char *value = arg[iarg + 1 + side];
        if (strcmp(value, "NULL") == 0) continue;
        Wall wall;
        wall.axis = kind[0] - 'x';
        wall.facing = side == 0 ? 1 : -1;
        wall.position = utils::numeric(FLERR, value, false, lmp);
        walls_.push_back(wall);
      }
      iarg += 3;
    } else if (kind == "box") {
      if (iarg + 6 >= narg)
        error->all(FLERR, "fix wall/manyfold: box needs xlo xhi ylo yhi zlo zhi");
      Wall wall;
      for (int k = 0; k < 3; ++k) {
        wall.low[k] = utils::numeric(FLERR, arg[iarg + 1 + 2 * k], false, lmp);
        wall.high[k] = utils::numeric(FLERR, arg[iarg + 2 + 2 * k], false, lmp);
        if (!(wall.high[k] > wall.low[k]))
          error->all(FLERR, "fix wall/manyfold: a box's hi must exceed its lo");
      }
      walls_.push_back(wall);
      iarg += 7;
    } else {
      error->all(FLERR, "fix wall/manyfold: unknown wall {}: {}", kind, usage);
    }
  }
  if (walls_.empty()) error->all(FLERR, "fix wall/manyfold: no walls given");

  // Room for the most contacts a pair style may ask for: the history is made before it is known.
  contacts_ = MF_MAX_CONTACTS;
  history_size_ = manyfold_lammps::history_doubles(contacts_);
  restart_peratom = 1;
  create_attribute = 1;
  grow_arrays(atom->nmax);
  atom->add_callback(Atom::GROW);
  atom->add_callback(Atom::RESTART);
  for (int i = 0; i < atom->nlocal; ++i) set_arrays(i);
}

FixWallManyfold::~FixWallManyfold()
{
  atom->delete_callback(id, Atom::GROW);
  atom->delete_callback(id, Atom::RESTART);
  memory->destroy(history_);
  mf_context_destroy(context_);
}

int FixWallManyfold::setmask()
{
  return POST_FORCE;
}

void FixWallManyfold::init()
{
  pair_ = dynamic_cast<PairManyfold *>(force->pair_match("^manyfold", 0));
  if (pair_ == nullptr)
    error->all(FLERR, "fix wall/manyfold needs pair_style manyfold (its shape library)");
  if (!atom->rmass_flag || !atom->omega_flag || !atom->torque_flag)
    error->all(FLERR, "fix wall/manyfold needs atom_style sphere (rmass, omega, torque)");
  if (shapes_pair_ != pair_ || shapes_for_ != pair_->library().generation()) add_wall_shapes();
  mf_config config = pair_->kernel_config();
  mf_context_destroy(context_);
  context_ = nullptr;
  mf_status status = mf_context_create(&config, &context_);
  if (status != MF_OK) error->all(FLERR, "fix wall/manyfold: {}", mf_status_string(status));
}

// The slabs (one per axis) and boxes, added to the pair style's bank once per library.
void FixWallManyfold::add_wall_shapes()
{
  manyfold_lammps::ShapeLibrary &library = pair_->library();
  double reach = library.largest_reach() + pair_->kernel_config().margin;
  slab_half_ = 2.0 * reach;
  slab_width_ = 4.0 * reach;
  int slabs[3] = {-1, -1, -1};
  std::string problem;
  for (Wall &wall : walls_) {
    if (wall.axis >= 0) {
      if (slabs[wall.axis] < 0) {
        double half[3] = {slab_width_, slab_width_, slab_width_};
        half[wall.axis] = slab_half_;
        slabs[wall.axis] = library.add_box(half, problem);
      }
      wall.shape = slabs[wall.axis];
    } else {
      double half[3];
      for (int k = 0; k < 3; ++k) half[k] = 0.5 * (wall.high[k] - wall.low[k]);
      wall.shape = library.add_box(half, problem);
    }
    if (wall.shape < 0) error->all(FLERR, "fix wall/manyfold: {}", problem);
  }
  shapes_for_ = library.generation();
  shapes_pair_ = pair_;
}

bool FixWallManyfold::may_touch(const Wall &wall, const double x[3], double reach) const
{
  if (wall.axis >= 0) return wall.facing * (x[wall.axis] - wall.position) < reach;
  double outside = 0.0;
  for (int k = 0; k < 3; ++k) {
    double d = std::max(wall.low[k] - x[k], x[k] - wall.high[k]);
    if (d > 0.0) outside += d * d;
  }
  return outside < reach * reach;
}

mf_transform FixWallManyfold::wall_pose(const Wall &wall, const double x[3]) const
{
  mf_transform pose = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
  if (wall.axis >= 0) {
    // Beside the atom, its face on the plane: the slab's centre is half its thickness behind.
    double centre = wall.position - wall.facing * slab_half_ - x[wall.axis];
    float *p = &pose.p.x;
    p[wall.axis] = (float) centre;
  } else {
    pose.p = {(float) (0.5 * (wall.low[0] + wall.high[0]) - x[0]),
              (float) (0.5 * (wall.low[1] + wall.high[1]) - x[1]),
              (float) (0.5 * (wall.low[2] + wall.high[2]) - x[2])};
  }
  return pose;
}

void FixWallManyfold::setup(int vflag)
{
  post_force(vflag);
}

void FixWallManyfold::post_force(int /*vflag*/)
{
  int *shape = pair_->shapes();
  double **quat = pair_->quats();
  double **x = atom->x, **v = atom->v, **f = atom->f;
  double **omega = atom->omega, **torque = atom->torque;
  double *rmass = atom->rmass;
  int *mask = atom->mask;
  int nlocal = atom->nlocal;
  const manyfold_lammps::ShapeLibrary &library = pair_->library();
  const double margin = pair_->kernel_config().margin;
  const int max_contacts = (int) pair_->kernel_config().max_contacts;
  int walls = (int) walls_.size();

  candidates_.clear();
  kernel_call_.clear();
  for (int i = 0; i < nlocal; ++i) {
    if (!(mask[i] & groupbit)) continue;
    const manyfold_lammps::ShapeProperties &p = library.properties(shape[i]);
    for (int w = 0; w < walls; ++w) {
      double *history = &history_[i][w * history_size_];
      if (!may_touch(walls_[w], x[i], p.reach + margin)) {
        memset(history, 0, sizeof(double) * (size_t) history_size_);
        continue;
      }
      kernel_call_.add((uint32_t) shape[i], manyfold_lammps::placed_pose(p, x[i], quat[i], x[i]),
                       (uint32_t) walls_[w].shape, wall_pose(walls_[w], x[i]), history);
      candidates_.push_back({i, w});
    }
  }
  uint32_t pair_count = kernel_call_.pair_count();
  mf_status status = kernel_call_.collide(context_, library.bank(), (uint32_t) max_contacts, true);
  if (status != MF_OK)
    error->one(FLERR, "fix wall/manyfold: the kernel refused step {}'s wall pairs: {} ({})",
               update->ntimestep, mf_status_string(status), mf_context_message(context_));

  const bool stretch = !update->setupflag;
  const double still[3] = {0.0, 0.0, 0.0};
  for (uint32_t m = 0; m < kernel_call_.manifold_count(); ++m) {
    const mf_manifold &manifold = kernel_call_.manifold(m);
    const Candidate &c = candidates_[manifold.pair];
    int i = c.atom;
    double *history = &history_[i][c.wall * history_size_];
    // Read, not written, in LAMMPS's setup (as pair_style manyfold does).
    SpringHistory *springs =
        reinterpret_cast<SpringHistory *>(history + manyfold_lammps::cache_doubles);
    SpringHistory setup_springs[MF_MAX_CONTACTS];
    if (!stretch) {
      memcpy(setup_springs, springs, sizeof(SpringHistory) * (size_t) max_contacts);
      springs = setup_springs;
    }
    BodyMotion body = {x[i], v[i], omega[i], rmass[i], library.properties(shape[i]).reach};
    BodyMotion wall = {x[i], still, still, 0.0, INFINITY};
    ContactEffect effect =
        manyfold_lammps::apply_contact_law(law_, manifold, kernel_call_.contacts(), x[i], body,
                                           wall, springs, max_contacts, update->dt, stretch);
    for (int k = 0; k < 3; ++k) {
      f[i][k] -= effect.force_on_b[k];
      torque[i][k] += effect.torque_on_a[k];
    }
  }
  for (uint32_t k = 0; stretch && k < pair_count; ++k) {
    const Candidate &c = candidates_[k];
    double *history = &history_[c.atom][c.wall * history_size_];
    memcpy(history, &kernel_call_.cache(k), sizeof(mf_pair_cache));
    if (!kernel_call_.has_manifold(k))
      memset(history + manyfold_lammps::cache_doubles, 0,
             sizeof(double) * (size_t) (history_size_ - manyfold_lammps::cache_doubles));
  }
}

/* ---- per-atom history: grows, migrates and restarts with the atoms ---- */

double FixWallManyfold::memory_usage()
{
  return (double) atom->nmax * (double) walls_.size() * history_size_ * sizeof(double);
}

void FixWallManyfold::grow_arrays(int nmax)
{
  memory->grow(history_, nmax, (int) walls_.size() * history_size_, "wall/manyfold:history");
}

void FixWallManyfold::copy_arrays(int i, int j, int /*delflag*/)
{
  memcpy(history_[j], history_[i], sizeof(double) * walls_.size() * (size_t) history_size_);
}

void FixWallManyfold::set_arrays(int i)
{
  memset(history_[i], 0, sizeof(double) * walls_.size() * (size_t) history_size_);
}

int FixWallManyfold::pack_exchange(int i, double *buf)
{
  int n = (int) walls_.size() * history_size_;
  memcpy(buf, history_[i], sizeof(double) * (size_t) n);
  return n;
}

int FixWallManyfold::unpack_exchange(int nlocal, double *buf)
{
  int n = (int) walls_.size() * history_size_;
  memcpy(history_[nlocal], buf, sizeof(double) * (size_t) n);
  return n;
}

int FixWallManyfold::pack_restart(int i, double *buf)
{
  int n = (int) walls_.size() * history_size_;
  buf[0] = n + 1;    // LAMMPS's restart records start with their own length
  memcpy(buf + 1, history_[i], sizeof(double) * (size_t) n);
  return n + 1;
}

void FixWallManyfold::unpack_restart(int nlocal, int nth)
{
  double **extra = atom->extra;
  int m = 0;
  for (int k = 0; k < nth; ++k) m += (int) extra[nlocal][m];
  m++;
  memcpy(history_[nlocal], &extra[nlocal][m],
         sizeof(double) * walls_.size() * (size_t) history_size_);
}

int FixWallManyfold::size_restart(int /*nlocal*/)
{
  return (int) walls_.size() * history_size_ + 1;
}

int FixWallManyfold::maxsize_restart()
{
  return (int) walls_.size() * history_size_ + 1;
}

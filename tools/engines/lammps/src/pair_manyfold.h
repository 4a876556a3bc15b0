/* pair_style manyfold: convex polyhedra in contact, their manifolds from manyfold.

   pair_style manyfold SHAPES keyword value ...
     SHAPES = a scene file whose "shapes" are the shape library (boxes, hulls of points or of an
              .obj file's vertices; tools/scenes/README.md); atom i is shape i_shape[i]
     keywords (lengths in the input's units; defaults from the library's smallest shape reach):
       margin M     pairs nearer than M get a manifold (default 0.05 x the smallest reach)
       slop S       the kernel's linear_slop: how far a contact's depth may lie from the true
                    overlap (default 0.001 x the smallest reach)
       contacts N   contact points per pair, 1..8 (default 4)
       cache yes/no the kernel's per-pair cache (mf_collide_cached; default yes)
       cutoff C     the neighbour cutoff between any two atoms (default: twice the largest reach
                    plus the margin; a smaller one is refused)
   pair_coeff I J hooke|hertz Kn Kt gamma_n gamma_t mu
     the contact law of contact_law.h at every contact point; Kt NULL = 2/7 Kn, gamma_t NULL =
     gamma_n / 2, as gran/hooke/history has them

   Atoms: atom_style sphere (radius, rmass, omega, torque), plus
     fix ID all property/atom i_shape d2_quat 4 d2_angmom 3 ghost yes
   The atom is the body's centre of mass; d2_quat (w, x, y, z) turns the shape's principal frame
   into the world (0 0 0 0: no turn); fix nve/manyfold sets masses and integrates. The pair style
   sets each atom's radius to its shape's reach plus half the margin, so LAMMPS's size-based
   neighbour lists hold every pair that can touch. comm_modify vel yes is needed (the contact
   law's damping reads ghost velocities).

   Each step, every pair of a rank, owned with owned and owned with ghost, goes to one kernel
   call. A pair's cache entry and its contact points' tangential springs live in LAMMPS's
   neighbour history, keyed by the pair's atom IDs, so they follow the pair across neighbour
   list rebuilds, ranks and restart files. */

#ifdef PAIR_CLASS
#else

#ifndef LMP_PAIR_MANYFOLD_H
#define LMP_PAIR_MANYFOLD_H

#include "pair.h"

#include "contact_law.h"
#include "kernel_call.h"
#include "shape_library.h"

#include <string>
#include <vector>

namespace LAMMPS_NS {

class PairManyfold : public Pair {
 public:
  PairManyfold(class LAMMPS *);
  ~PairManyfold() override;
  void compute(int, int) override;
  void settings(int, char **) override;
  void coeff(int, char **) override;
  void init_style() override;
  double init_one(int, int) override;
  void write_restart(FILE *) override;
  void read_restart(FILE *) override;
  void write_restart_settings(FILE *) override;
  void read_restart_settings(FILE *) override;
  int pack_forward_comm(int, int *, double *, int, int *) override;
  void unpack_forward_comm(int, int, double *) override;
  void transfer_history(double *, double *) override;
  double memory_usage() override;

  // A contact law from its six arguments (hooke|hertz Kn Kt gamma_n gamma_t mu); error->all,
  // naming the command, on a bad one.
  static manyfold_lammps::ContactLaw parse_contact_law(class LAMMPS *lmp, const char *command,
                                                       char **arg);

  // What fix nve/manyfold, fix wall/manyfold and compute contact/manyfold share.
  const manyfold_lammps::ShapeLibrary &library() const { return library_; }
  manyfold_lammps::ShapeLibrary &library() { return library_; }
  const mf_config &kernel_config() const { return config_; }
  // Shape index, quaternion and angular momentum of atom i; error->all if the properties are missing.
  int *shapes();
  double **quats();
  double **angmoms();
  // Checks the owned atoms' shapes and quaternions (naming the first bad atom) and turns zero
  // quaternions into the identity.
  void check_atoms();

  // This rank's figures of the last step (compute contact/manyfold sums them over ranks).
  struct StepFigures {
    double pairs = 0.0;          // pairs given to the kernel
    double manifolds = 0.0;      // of them, with a manifold
    double touching = 0.0;       // of them, overlapping
    double contacts = 0.0;       // overlapping contact points
    double overlap_sum = 0.0;    // of the deepest overlap of each touching pair
    double overlap_max = 0.0;
    double seconds_gather = 0.0;    // running totals: placing the pairs' bodies
    double seconds_kernel = 0.0;    // the kernel's call
    double seconds_forces = 0.0;    // the contact law and force assembly
  };
  const StepFigures &figures() const { return figures_; }

 protected:
  void allocate();
  void load_library(const std::string &path);
  void make_context();
  int find_property(const char *name, int want_double, int want_columns);

  manyfold_lammps::ShapeLibrary library_;
  mf_config config_ = {};
  mf_context *context_ = nullptr;
  bool cached_ = true;
  double margin_ = -1.0, slop_ = -1.0, cutoff_ = -1.0;    // -1: from the library
  int contacts_ = 4;
  int history_size_ = manyfold_lammps::history_doubles(4);    // doubles per pair
  std::string library_path_;
  manyfold_lammps::ContactLaw **laws_ = nullptr;    // [ntypes + 1][ntypes + 1]

  class FixNeighHistory *fix_history_ = nullptr;
  class FixDummy *fix_dummy_ = nullptr;

  // Scratch that keeps its capacity from step to step.
  struct Candidate {
    int a, b;    // atom indices, a the lower ID
    int i;       // the neighbour list's owner (a or b)
    int *touch;
    double *history;
  };
  std::vector<Candidate> candidates_;
  manyfold_lammps::KernelCall kernel_call_;
  std::vector<manyfold_lammps::ShapeFrame> frames_;    // per owned and ghost atom, this step
  StepFigures figures_;
};

}    // namespace LAMMPS_NS

#endif
#endif

// One kernel call over a step's pairs, as pair_style manyfold and fix wall/manyfold make it: each
// pair's two bodies placed about the pair's own origin, its cache entry copied in from LAMMPS's
// history and read back after the call. The arrays keep their capacity from step to step.
#pragma once

#include "manyfold.h"

#include <vector>

namespace manyfold_lammps {

class KernelCall {
 public:
  void clear();

  // Adds a pair of bodies; history holds its cache entry as LAMMPS keeps it (all zeros: empty).
  void add(uint32_t shape_a, const mf_transform &pose_a, uint32_t shape_b,
           const mf_transform &pose_b, const double *history);

  // Collides every pair added in one call (mf_collide_cached, or mf_collide when not cached),
  // with room for the context's max_contacts a manifold.
  mf_status collide(mf_context *context, const mf_bank *bank, uint32_t max_contacts, bool cached);

  uint32_t pair_count() const { return (uint32_t) pairs_.size(); }
  const mf_pair_cache &cache(uint32_t pair) const { return caches_[pair]; }
  bool has_manifold(uint32_t pair) const { return has_manifold_[pair] != 0; }
  uint32_t manifold_count() const { return manifold_count_; }
  const mf_manifold &manifold(uint32_t m) const { return manifolds_[m]; }
  const mf_contact *contacts() const { return contacts_.data(); }

 private:
  std::vector<uint32_t> body_shapes_;
  std::vector<mf_transform> body_poses_;
  std::vector<mf_pair> pairs_;
  std::vector<mf_pair_cache> caches_;
  std::vector<mf_manifold> manifolds_;
  std::vector<mf_contact> contacts_;
  std::vector<char> has_manifold_;
  uint32_t manifold_count_ = 0;
};

}    // namespace manyfold_lammps

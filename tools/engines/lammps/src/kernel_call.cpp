// A step's kernel call (see kernel_call.h).
#include "kernel_call.h"

#include <cstring>

namespace manyfold_lammps {

void KernelCall::clear()
{
  body_shapes_.clear();
  body_poses_.clear();
  pairs_.clear();
  caches_.clear();
  manifold_count_ = 0;
}

void KernelCall::add(uint32_t shape_a, const mf_transform &pose_a, uint32_t shape_b,
                     const mf_transform &pose_b, const double *history)
{
  uint32_t body = (uint32_t) body_poses_.size();
  body_shapes_.push_back(shape_a);
  body_poses_.push_back(pose_a);
  body_shapes_.push_back(shape_b);
  body_poses_.push_back(pose_b);
  pairs_.push_back({body, body + 1});
  mf_pair_cache entry;
  memcpy(&entry, history, sizeof(entry));
  caches_.push_back(entry);
}

mf_status KernelCall::collide(mf_context *context, const mf_bank *bank, uint32_t max_contacts,
                              bool cached)
{
  uint32_t count = pair_count();
  uint32_t manifold_capacity = 0, contact_capacity = 0;
  mf_stream_bound(count, max_contacts, &manifold_capacity, &contact_capacity);
  manifolds_.resize(manifold_capacity > 0 ? manifold_capacity : 1);
  contacts_.resize(contact_capacity > 0 ? contact_capacity : 1);
  mf_stream stream = {};
  stream.manifolds = manifolds_.data();
  stream.manifold_capacity = manifold_capacity;
  stream.contacts = contacts_.data();
  stream.contact_capacity = contact_capacity;
  mf_bodies bodies = {body_shapes_.data(), body_poses_.data(), (uint32_t) body_poses_.size(),
                      nullptr};
  mf_status status = cached
      ? mf_collide_cached(context, bank, &bodies, pairs_.data(), count, caches_.data(), &stream)
      : mf_collide(context, bank, &bodies, pairs_.data(), count, &stream);
  manifold_count_ = status == MF_OK ? stream.manifold_count : 0;
  has_manifold_.assign(count, 0);
  for (uint32_t m = 0; m < manifold_count_; ++m) has_manifold_[manifolds_[m].pair] = 1;
  return status;
}

}    // namespace manyfold_lammps

// The shapes a manyfold pair style collides, read from a scene file's shape list, with what the
// dynamics needs of each: its mass properties per unit density and its reach about the centre.
//
// An atom is a body's centre of mass, and its quaternion turns the shape's principal frame into
// the world (as LAMMPS's ellipsoids and bodies do), so that the integrator's inertia is diagonal.
// The kernel knows shapes in the frame they were given in: placed_pose() converts.
#pragma once

#include "manyfold.h"

#include <string>
#include <vector>

namespace manyfold_lammps {

struct ShapeProperties {
  double volume;             // the mass of density 1
  double center[3];          // centre of mass, in the shape's frame
  double principal[3];       // principal moments of inertia for density 1
  double to_shape[4];        // w, x, y, z: turns the principal frame into the shape's
  double reach;              // largest distance of a vertex from the centre of mass
  double smallest_extent;    // the thinnest width over the face normals
  bool is_box;
};

class ShapeLibrary {
 public:
  ShapeLibrary() = default;
  ~ShapeLibrary();
  ShapeLibrary(const ShapeLibrary &) = delete;
  ShapeLibrary &operator=(const ShapeLibrary &) = delete;

  // Reads a scene file (tools/scenes/README.md; its bodies are ignored); on failure returns
  // false with a message in `error` and holds nothing.
  bool load(const std::string &path, std::string &error);

  // A box of the given half extents added to the bank (walls); returns its shape id, or -1 with
  // a message.
  int add_box(const double half_extents[3], std::string &error);

  int count() const { return (int) properties_.size(); }
  // Shapes of the file; walls' boxes come after them.
  int particle_count() const { return particle_count_; }
  // Counts loads: shapes added after a load (walls) belong to that load's bank.
  int generation() const { return generation_; }
  const ShapeProperties &properties(int shape) const { return properties_[(size_t) shape]; }
  const mf_bank *bank() const { return bank_; }
  const std::string &path() const { return path_; }
  double largest_reach() const;
  double smallest_reach() const;

 private:
  bool describe(uint32_t shape, bool is_box, std::string &error);
  mf_bank *bank_ = nullptr;
  std::vector<ShapeProperties> properties_;
  std::string path_;
  int particle_count_ = 0;
  int generation_ = 0;
};

// The pose manyfold places `shape` with for an atom at x with quaternion q (w, x, y, z; the
// principal frame's turn into the world), relative to `origin`: positions as floats are exact to
// about 1e-7 of their size, so each pair is placed near its own origin, never the world's.
// The turn of the shape's own frame (w, x, y, z) and where its origin lies from the atom, for an
// atom with quaternion q: once per atom and step, for every pair the atom is in.
struct ShapeFrame {
  double turn[4];
  double offset[3];    // the shape's origin less the atom's position
};
ShapeFrame shape_frame(const ShapeProperties &shape, const double q[4]);

// The pose of a shape at x in that frame, relative to origin.
inline mf_transform placed_pose(const ShapeFrame &frame, const double x[3], const double origin[3])
{
  mf_transform pose;
  pose.p = {(float) ((x[0] - origin[0]) + frame.offset[0]),
            (float) ((x[1] - origin[1]) + frame.offset[1]),
            (float) ((x[2] - origin[2]) + frame.offset[2])};
  pose.q = {(float) frame.turn[1], (float) frame.turn[2], (float) frame.turn[3],
            (float) frame.turn[0]};
  return pose;
}

mf_transform placed_pose(const ShapeProperties &shape, const double x[3], const double q[4],
                         const double origin[3]);

}    // namespace manyfold_lammps

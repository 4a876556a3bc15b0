// Reading the shape library and measuring each shape once.
#include "shape_library.h"

extern "C" {
#include "scene_file.h"
}

#include <algorithm>
#include <cmath>
#include <vector>

namespace manyfold_lammps {

ShapeLibrary::~ShapeLibrary()
{
  mf_bank_destroy(bank_);
}

bool ShapeLibrary::load(const std::string &path, std::string &error)
{
  scene loaded = {};
  cli_error failure = {};
  if (!scene_file_load(path.c_str(), &loaded, &failure)) {
    error = failure.text;
    return false;
  }
  mf_bank_destroy(bank_);
  bank_ = loaded.bank;
  loaded.bank = nullptr;    // ours now
  properties_.clear();
  path_ = path;
  bool ok = loaded.shape_count > 0;
  if (!ok) error = path + ": the shape library holds no shapes";
  for (uint32_t shape = 0; ok && shape < loaded.shape_count; ++shape)
    ok = describe(shape, loaded.shapes[shape].kind == SCENE_BOX, error);
  scene_free(&loaded);
  particle_count_ = ok ? (int) properties_.size() : 0;
  ++generation_;
  if (!ok) {
    mf_bank_destroy(bank_);
    bank_ = nullptr;
    properties_.clear();
  }
  return ok;
}

int ShapeLibrary::add_box(const double half_extents[3], std::string &error)
{
  uint32_t shape = 0;
  mf_vec3 half = {(float) half_extents[0], (float) half_extents[1], (float) half_extents[2]};
  mf_status status = mf_bank_add_box(bank_, half, &shape);
  if (status != MF_OK) {
    error = std::string("a wall box was refused: ") + mf_status_string(status);
    return -1;
  }
  if (!describe(shape, true, error)) return -1;
  return (int) shape;
}

bool ShapeLibrary::describe(uint32_t shape, bool is_box, std::string &error)
{
  mf_mass mass = {};
  mf_status status = mf_bank_shape_mass(bank_, shape, 1.0f, &mass);
  if (status != MF_OK) {
    error = path_ + ": shape " + std::to_string(shape) + ": " + mf_status_string(status);
    return false;
  }
  ShapeProperties p = {};
  p.volume = mass.mass;
  p.center[0] = mass.center.x;
  p.center[1] = mass.center.y;
  p.center[2] = mass.center.z;
  p.principal[0] = mass.principal.x;
  p.principal[1] = mass.principal.y;
  p.principal[2] = mass.principal.z;
  p.to_shape[0] = mass.principal_rotation.w;
  p.to_shape[1] = mass.principal_rotation.x;
  p.to_shape[2] = mass.principal_rotation.y;
  p.to_shape[3] = mass.principal_rotation.z;
  p.is_box = is_box;

  mf_shape_info info = {};
  mf_bank_shape_info(bank_, shape, &info);
  std::vector<mf_vec3> vertices(info.vertex_count);
  mf_bank_shape_vertices(bank_, shape, vertices.data(), info.vertex_count);
  for (const mf_vec3 &v : vertices) {
    double d[3] = {v.x - p.center[0], v.y - p.center[1], v.z - p.center[2]};
    p.reach = std::max(p.reach, std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
  }
  p.smallest_extent = INFINITY;
  for (uint32_t f = 0; f < info.face_count; ++f) {
    mf_vec3 n;
    float offset = 0.0f;
    uint32_t count = 0;
    mf_bank_shape_face(bank_, shape, f, &n, &offset, nullptr, 0, &count);
    double lowest = INFINITY;
    for (const mf_vec3 &v : vertices)
      lowest = std::min(lowest, (double) n.x * v.x + (double) n.y * v.y + (double) n.z * v.z);
    p.smallest_extent = std::min(p.smallest_extent, offset - lowest);
  }
  if (shape != properties_.size()) {
    error = "shape ids out of step with the library";
    return false;
  }
  properties_.push_back(p);
  return true;
}

double ShapeLibrary::largest_reach() const
{
  double largest = 0.0;
  for (const ShapeProperties &p : properties_) largest = std::max(largest, p.reach);
  return largest;
}

double ShapeLibrary::smallest_reach() const
{
  double smallest = INFINITY;
  for (const ShapeProperties &p : properties_) smallest = std::min(smallest, p.reach);
  return smallest;
}

// Hamilton product, w first.
static void multiply(const double a[4], const double b[4], double out[4])
{
  out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

static void rotate(const double q[4], const double v[3], double out[3])
{
  // v + 2 w (u x v) + 2 u x (u x v), u the vector part
  double t[3] = {2.0 * (q[2] * v[2] - q[3] * v[1]), 2.0 * (q[3] * v[0] - q[1] * v[2]),
                 2.0 * (q[1] * v[1] - q[2] * v[0])};
  out[0] = v[0] + q[0] * t[0] + (q[2] * t[2] - q[3] * t[1]);
  out[1] = v[1] + q[0] * t[1] + (q[3] * t[0] - q[1] * t[2]);
  out[2] = v[2] + q[0] * t[2] + (q[1] * t[1] - q[2] * t[0]);
}

ShapeFrame shape_frame(const ShapeProperties &shape, const double q[4])
{
  // The shape's frame turns into the world by q times the inverse of to_shape.
  const double back[4] = {shape.to_shape[0], -shape.to_shape[1], -shape.to_shape[2],
                          -shape.to_shape[3]};
  ShapeFrame frame;
  multiply(q, back, frame.turn);
  double centre[3];
  rotate(frame.turn, shape.center, centre);
  for (int k = 0; k < 3; ++k) frame.offset[k] = -centre[k];
  return frame;
}

mf_transform placed_pose(const ShapeProperties &shape, const double x[3], const double q[4],
                         const double origin[3])
{
  return placed_pose(shape_frame(shape, q), x, origin);
}

}    // namespace manyfold_lammps

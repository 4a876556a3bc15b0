// A LAMMPS dump's frame as a scene to draw: each atom's shape placed the way pair_style manyfold
// places it (tools/engines/lammps/src/shape_library.cpp, placed_pose), and the simulation box's
// fixed floor.
#pragma once

#include "cli_error.h"
#include "lammps_dump.h"
#include "scene.h"

// The pose of a body's shape frame, for a body whose centre of mass is at `center_of_mass` and
// whose quaternion `quat` (w, x, y, z) turns its shape's principal frame into the world: the shape
// frame turns by quat * conj(mass->principal_rotation), and its origin lies at center_of_mass
// less that turn of mass->center.
mf_transform lammps_body_pose(const mf_mass *mass, const double center_of_mass[3], const double quat[4]);

// Replaces the bodies of `s`, a loaded shape library, with the frame's atoms, each placed by
// lammps_body_pose (every i_shape below the library's shape count). Where the frame's box has a
// fixed ('f') lower bound along the up axis (0 x, 1 y, 2 z), a thin slab whose top is that bound
// and which spans the box across is added after them as the floor (*floor_added says). False with
// a message when a shape's mass properties or memory fail.
bool lammps_scene_place(scene *s, const lammps_frame *frame, int up, bool *floor_added, cli_error *error);

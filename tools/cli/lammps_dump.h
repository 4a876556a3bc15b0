// One frame of a LAMMPS "dump custom" text file, as manyfold's LAMMPS styles leave their bodies:
// per atom its shape (the i_shape column, an index into the shape library), its centre of mass
// (x y z, or xu yu zu) and the quaternion (w, x, y, z) turning the shape's principal frame into the
// world (d2_quat[1] to d2_quat[4]). tools/engines/lammps/src/shape_library.h holds the convention.
#pragma once

#include "cli_error.h"

#include <stdbool.h>
#include <stdint.h>

// A count past this is a corrupt header rather than a picture anyone could read.
#define LAMMPS_DUMP_MAX_ATOMS 100000000u

typedef struct lammps_frame {
    int64_t step; // ITEM: TIMESTEP
    uint32_t atom_count;
    uint32_t *shape;  // per atom
    double *position; // per atom x, y, z: the centre of mass
    double *quat;     // per atom w, x, y, z, normalised
    bool has_box;     // ITEM: BOX BOUNDS was given
    double box_low[3], box_high[3];
    char boundary[3][3]; // per axis the lower and upper boundary flags ("ff", "pp", "sm"), "" if unnamed
} lammps_frame;

// Which frame to keep: the one at timestep `step`, or the file's last when `last`.
typedef struct lammps_frame_choice {
    bool last;
    int64_t step;
} lammps_frame_choice;

// Reads frames up to the chosen one, checking each: its items in order, the ATOMS columns named
// above (others are ignored), as many atom lines as NUMBER OF ATOMS says, finite numbers, a shape
// index below shape_count, a non-zero quaternion. On failure *frame is empty and `error` holds
// "FILE:LINE: problem". *frames_read counts the frames read, the kept one included.
bool lammps_dump_read(const char *path, lammps_frame_choice choice, uint32_t shape_count, lammps_frame *frame,
                      uint32_t *frames_read, cli_error *error);

void lammps_frame_free(lammps_frame *frame);

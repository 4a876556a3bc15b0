// Manifold files, as `run --out` writes them and `render --manifolds` reads them:
// - JSON Lines (any extension but .csv): one manifold per line,
//   {"step":0,"pair":12,"a":3,"b":7,"normal":[x,y,z],
//    "contacts":[{"point":[x,y,z],"separation":s,"id":[fa,fb]}, ...]}
//   where fa and fb are the contact's feature id's halves, a's and b's (MF_ID_FEATURE_A and _B);
//   the reader also takes the whole id as one number, as files written before the halves have it;
// - CSV (.csv): a header, then one row per contact:
//   step,pair,a,b,normal_x,normal_y,normal_z,point_x,point_y,point_z,separation,id
//   (id the whole feature id, a's half times 65536 plus b's)
// Floats are written with 9 significant digits, which read back to the same float.
#pragma once

#include "cli_error.h"
#include "manifold_list.h"
#include "manyfold.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct manifold_writer {
    FILE *file;
    const char *path;
    bool csv;
} manifold_writer;

bool manifold_writer_open(manifold_writer *writer, const char *path, cli_error *error);

// Writes one chunk's stream; its pair indices count from pairs + pair_offset.
bool manifold_writer_write(manifold_writer *writer, uint32_t step, const mf_pair *pairs, uint32_t pair_offset,
                           const mf_stream *stream, cli_error *error);

// Closes the file, reporting a failed write (a full disk) that buffering hid until now.
bool manifold_writer_close(manifold_writer *writer, cli_error *error);

// Reads the manifolds of one step of a manifold file into `list`.
bool manifold_file_read(const char *path, uint32_t step, manifold_list *list, cli_error *error);

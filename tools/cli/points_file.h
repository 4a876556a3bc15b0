// Point clouds from files: the `v` lines of a Wavefront .obj, or plain "x y z" lines.
#pragma once

#include "cli_error.h"
#include "manyfold.h"

#include <stdbool.h>
#include <stdint.h>

// Reads the points of `path` into a malloc'd array. A path ending in .obj is read as Wavefront
// (only `v` lines count); anything else as text with three numbers per line, separated by spaces
// or commas, where blank lines and lines starting with # are skipped.
bool points_file_read(const char *path, mf_vec3 **points, uint32_t *count, cli_error *error);

// Whether the path ends in the extension (".obj"), ignoring case.
bool path_has_extension(const char *path, const char *extension);

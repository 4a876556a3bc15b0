// The scenes a SCENE argument names: a JSON scene file (shapes as a box, hull points or an .obj
// file's vertices; bodies placed with a position and a rotation; an optional config; the format is
// described in tools/scenes/README.md), or "default", the built-in heap of tools/scene.
#pragma once

#include "cli_error.h"
#include "scene.h"

#include <stdbool.h>

// Rocks and boxes have sizes around 1; a scene keeps coordinates within this so that float
// contacts stay meaningful (the library refuses hull points beyond 1e7 for the same reason).
#define CLI_MAX_COORDINATE 1e7

// Opens "default" (or NULL: the built-in heap of pile_bodies bodies) or a JSON scene file.
bool scene_file_open(const char *name, uint32_t pile_bodies, scene *s, cli_error *error);

// Loads and checks the whole file; on failure `error` holds "FILE:LINE: problem" and *s is empty.
bool scene_file_load(const char *path, scene *s, cli_error *error);

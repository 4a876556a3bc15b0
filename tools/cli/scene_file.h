// JSON scene files: shapes (box, hull points, or an .obj file's vertices), bodies placed with a
// position and a rotation, and an optional config. The format is described in tools/scenes/README.md.
#pragma once

#include "cli_scene.h"

// Loads and checks the whole file; on failure `error` holds "FILE:LINE: problem".
bool scene_file_load(const char *path, cli_scene *scene, cli_error *error);

// The built-in scene: a deterministic heap of boxes and rocks on a ground box, the default job of
// `manyfold run`.
#pragma once

#include "cli_scene.h"

// body_count bodies in all: body 0 is the ground, the others alternate boxes and rocks at random.
bool pile_make(uint32_t body_count, cli_scene *scene, cli_error *error);

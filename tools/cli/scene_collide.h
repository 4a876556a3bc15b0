// One collision of a whole scene, kept in memory: broad phase, then mf_collide in chunks, with
// every manifold appended to a list (for render, and as the reference in the CLI's tests).
#pragma once

#include "cli_error.h"
#include "manifold_list.h"
#include "scene.h"

// Collides the scene with its own config (isa and threads as given in `config`); *pair_count
// gets the number of candidate pairs.
bool scene_collide(const scene *s, const mf_config *config, manifold_list *list, uint32_t *pair_count,
                   cli_error *error);

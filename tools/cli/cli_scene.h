// A scene as the command line holds it: a bank of shapes, bodies placed in the world, and the
// configuration the scene asks for. It comes from a JSON file (scene_file.c) or the built-in
// pile (pile.c).
#pragma once

#include "cli_error.h"
#include "manyfold.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_scene {
    char *name;    // the file path, or a description of the built-in pile
    mf_bank *bank; // shape ids are the order of the file's "shapes"
    uint32_t *body_shape;
    mf_transform *body_transform; // quaternions normalised
    uint32_t body_count;
    mf_config config; // margin, linear_slop, max_contacts from the scene; isa and threads default
} cli_scene;

// Opens "default" (the built-in pile of pile_bodies bodies) or a JSON scene file.
bool cli_scene_open(const char *name, uint32_t pile_bodies, cli_scene *scene, cli_error *error);

void cli_scene_free(cli_scene *scene);

static inline mf_bodies cli_scene_bodies(const cli_scene *scene)
{
    return (mf_bodies){scene->body_shape, scene->body_transform, scene->body_count};
}

// Allocates the body arrays for `count` bodies (zeroed); false when out of memory.
bool cli_scene_reserve_bodies(cli_scene *scene, uint32_t count);

// Rocks and boxes have sizes around 1; a scene keeps coordinates within this so that float
// contacts stay meaningful (the library refuses hull points beyond 1e7 for the same reason).
#define CLI_MAX_COORDINATE 1e7

// Scene lifetime and the choice between the built-in pile and a scene file.
#include "cli_scene.h"

#include "pile.h"
#include "scene_file.h"

#include <stdlib.h>
#include <string.h>

bool cli_scene_open(const char *name, uint32_t pile_bodies, cli_scene *scene, cli_error *error)
{
    if (name == NULL || strcmp(name, "default") == 0) return pile_make(pile_bodies, scene, error);
    return scene_file_load(name, scene, error);
}

bool cli_scene_reserve_bodies(cli_scene *scene, uint32_t count)
{
    scene->body_shape = calloc(count > 0 ? count : 1, sizeof(uint32_t));
    scene->body_transform = calloc(count > 0 ? count : 1, sizeof(mf_transform));
    scene->body_count = count;
    return scene->body_shape != NULL && scene->body_transform != NULL;
}

void cli_scene_free(cli_scene *scene)
{
    free(scene->name);
    mf_bank_destroy(scene->bank);
    free(scene->body_shape);
    free(scene->body_transform);
    *scene = (cli_scene){0};
}

// The recipes behind scene_make: each fills a fresh scene with its shapes, bodies and pairs.
// pile_step's lives in scene_pile.c.
#pragma once

#include "scene.h"
#include "scene_random.h"

mf_status scene_recipe_box_box(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_box_resting(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull8(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull16(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull32(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull48(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull64(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull128(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull256(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_hull_bunny(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_nearmiss(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_crowd(scene *s, uint32_t pair_count, scene_random *random);
mf_status scene_recipe_pile_step(scene *s, uint32_t pair_count, scene_random *random);

// Pictures of a scene: an isometric, orthographic view of the bodies (shaded faces, hull edges)
// with contact points coloured by depth and their normals, drawn with cairo to PNG or SVG.
#pragma once

#include "cli_error.h"
#include "manifold_list.h"
#include "scene.h"

#include <stdbool.h>

typedef struct render_request {
    const scene *scene;
    const manifold_list *manifolds;
    int width, height; // pixels
    const char *path;  // .png or .svg decides the format
} render_request;

bool render_picture(const render_request *request, cli_error *error);

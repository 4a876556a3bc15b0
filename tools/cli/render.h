// Pictures of a scene: an isometric, orthographic view of the bodies (shaded faces, hull edges)
// with contact points coloured by depth and their normals, drawn with cairo to PNG or SVG.
#pragma once

#include "cli_error.h"
#include "manifold_list.h"
#include "scene.h"

#include <cairo.h>
#include <stdbool.h>

typedef struct render_request {
    const scene *scene;
    const manifold_list *manifolds; // NULL: the bodies only, without the contacts' colour bar
    int width, height;              // pixels
    const char *path;               // .png or .svg decides the format
    scene_axis up;                  // the world axis drawn upwards: the scene's own, as a rule
    const char *caption;            // the title; NULL: the scene's name and its counts
} render_request;

bool render_picture(const render_request *request, cli_error *error);

// Text in the pictures' font and colour, its baseline starting at (x, y): `manyfold render`'s
// labels and `manyfold simulate --plot`'s axes share it.
void render_text(cairo_t *cr, double x, double y, double size, const char *text);

// Writes a picture drawn on `surface` to `path` (an SVG surface is written as it finishes, an
// image surface as PNG) and destroys the surface; false with the reason in *error.
bool render_write(cairo_surface_t *surface, const char *path, cli_error *error);

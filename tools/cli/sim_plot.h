// The settling figures of a `manyfold simulate` run over time, drawn with cairo: penetration, mean
// and largest speed, the top body's drift and the collision time per step, one panel each.
#pragma once

#include "cli_error.h"
#include "sim_run.h"

#include <stdbool.h>

// .png or .svg by the path's ending; `title` heads the picture.
bool sim_plot_draw(const char *path, const char *title, const sim_sample *samples, uint32_t count, cli_error *error);

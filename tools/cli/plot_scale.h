// The vertical scale of a plot's panel: from zero to a round value at or above what it shows.
#pragma once

#include <stdbool.h>
#include <stdint.h>

// The smallest of 1, 2 and 5 times a power of ten at or above `value` (1 for none above 0).
double plot_nice_ceiling(double value);

// The top of a scale for `values`: the nice ceiling of the largest, or with `robust` of the
// largest below PLOT_OUTLIER_FACTOR times the 99th percentile, so that a few outliers (a step the
// system interrupted) do not flatten the rest. *above counts the values beyond the top (drawn at
// the top edge and named in the panel's label). Values that are not finite are ignored.
#define PLOT_OUTLIER_FACTOR 1.5
double plot_scale_top(const double *values, uint32_t count, bool robust, uint32_t *above);

// Plot scales (plot_scale.h).
#include "plot_scale.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double plot_nice_ceiling(double value)
{
    if (!(value > 0.0)) return 1.0;
    double power = pow(10.0, floor(log10(value)));
    for (double step = 1.0; step <= 10.0; step = step == 1.0 ? 2.0 : step == 2.0 ? 5.0 : 10.0)
        if (step * power >= value) return step * power;
    return 10.0 * power;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double plot_scale_top(const double *values, uint32_t count, bool robust, uint32_t *above)
{
    double largest = 0.0;
    uint32_t finite = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (isfinite(values[i])) largest = fmax(largest, values[i]), ++finite;
    double limit = largest;
    double *sorted = robust && finite > 0 ? malloc(finite * sizeof(double)) : NULL;
    if (sorted != NULL) { // without memory, the plain scale
        uint32_t n = 0;
        for (uint32_t i = 0; i < count; ++i)
            if (isfinite(values[i])) sorted[n++] = values[i];
        qsort(sorted, n, sizeof(double), compare_doubles);
        double percentile = sorted[(size_t)floor(0.99 * (n - 1))];
        limit = fmin(largest, PLOT_OUTLIER_FACTOR * percentile);
        free(sorted);
    }
    double top = plot_nice_ceiling(limit);
    *above = 0;
    for (uint32_t i = 0; i < count; ++i) *above += isfinite(values[i]) && values[i] > top;
    return top;
}

// Line charts of a simulation's samples (sim_plot.h): four panels stacked, time along x, each with
// its own scale from zero to its largest value rounded up to a 1-2-5 step; the collision time's
// scale leaves out a few outliers (plot_scale.h), which its label names.
#include "sim_plot.h"

#include "plot_scale.h"
#include "points_file.h"
#include "render.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PLOT_WIDTH 900
#define PLOT_PANEL_HEIGHT 170
#define PLOT_TOP 40
#define PLOT_LEFT 80
#define PLOT_RIGHT 20
#define PLOT_GAP 30
#define PLOT_PANELS 4

typedef double (*sample_value)(const sim_sample *s);

static double penetration_mm(const sim_sample *s) { return 1e3 * s->penetration; }
static double mean_speed_mm(const sim_sample *s) { return 1e3 * s->mean_speed; }
static double max_speed_mm(const sim_sample *s) { return 1e3 * s->max_speed; }
static double drift_mm(const sim_sample *s) { return 1e3 * s->drift; }
static double collide_ms(const sim_sample *s) { return s->collide_ms; }

typedef struct panel {
    const char *label;
    sample_value values[2]; // the second may be NULL
    const char *legend[2];
    bool robust; // a scale robust to outliers: a step's timing is at the mercy of the system
} panel;

static bool draw_panel(cairo_t *cr, const panel *p, double top, const sim_sample *samples, uint32_t count)
{
    double left = PLOT_LEFT, width = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, height = PLOT_PANEL_HEIGHT;
    double end_time = count > 0 ? samples[count - 1].time : 1.0, largest = 0.0;
    uint32_t value_count = 0, above = 0;
    double *values = malloc((2 * (size_t)count + 1) * sizeof(double));
    if (values == NULL) return false;
    for (int v = 0; v < 2; ++v)
        for (uint32_t i = 0; p->values[v] != NULL && i < count; ++i) {
            values[value_count] = p->values[v](&samples[i]);
            largest = fmax(largest, values[value_count++]);
        }
    double high = plot_scale_top(values, value_count, p->robust, &above);
    free(values);
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.97);
    cairo_rectangle(cr, left, top, width, height);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.75, 0.75, 0.78);
    cairo_set_line_width(cr, 1.0);
    char text[64];
    for (int tick = 0; tick <= 4; ++tick) {
        double y = top + height * (1.0 - tick / 4.0);
        cairo_move_to(cr, left, y);
        cairo_line_to(cr, left + width, y);
        cairo_stroke(cr);
        snprintf(text, sizeof(text), "%g", high * tick / 4.0);
        render_text(cr, left - 50, y + 4, 11, text);
    }
    for (int tick = 0; tick <= 5; ++tick) {
        snprintf(text, sizeof(text), "%.3g s", end_time * tick / 5.0);
        render_text(cr, left + width * tick / 5.0 - 10, top + height + 14, 11, text);
    }
    char label[160];
    if (above > 0)
        snprintf(label, sizeof(label), "%s; %u step%s above the scale, up to %.3g", p->label, above,
                 above == 1 ? "" : "s", largest);
    else snprintf(label, sizeof(label), "%s", p->label);
    render_text(cr, left, top - 6, 13, label);
    static const double colours[2][3] = {{0.15, 0.35, 0.75}, {0.85, 0.35, 0.1}};
    for (int v = 0; v < 2 && p->values[v] != NULL; ++v) {
        cairo_set_source_rgb(cr, colours[v][0], colours[v][1], colours[v][2]);
        cairo_set_line_width(cr, 1.5);
        for (uint32_t i = 0; i < count; ++i) {
            double x = left + width * samples[i].time / end_time;
            double y = top + height * (1.0 - fmin(p->values[v](&samples[i]) / high, 1.0));
            if (i == 0) cairo_move_to(cr, x, y);
            else cairo_line_to(cr, x, y);
        }
        cairo_stroke(cr);
        if (p->legend[v] != NULL) {
            double x = left + width - 160 + 80 * v;
            cairo_rectangle(cr, x, top - 14, 10, 10);
            cairo_fill(cr);
            render_text(cr, x + 14, top - 5, 11, p->legend[v]);
        }
    }
    return true;
}

bool sim_plot_draw(const char *path, const char *title, const sim_sample *samples, uint32_t count, cli_error *error)
{
    static const panel panels[PLOT_PANELS] = {
        {"deepest penetration (mm)", {penetration_mm, NULL}, {NULL, NULL}, false},
        {"speed of the moving bodies (mm/s)", {mean_speed_mm, max_speed_mm}, {"mean", "largest"}, false},
        {"top body's horizontal drift (mm)", {drift_mm, NULL}, {NULL, NULL}, false},
        {"collision time per step (ms)", {collide_ms, NULL}, {NULL, NULL}, true},
    };
    int height = PLOT_TOP + PLOT_PANELS * (PLOT_PANEL_HEIGHT + PLOT_GAP + 20);
    bool svg = path_has_extension(path, ".svg");
    cairo_surface_t *surface = svg ? cairo_svg_surface_create(path, PLOT_WIDTH, height)
                                   : cairo_image_surface_create(CAIRO_FORMAT_RGB24, PLOT_WIDTH, height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_paint(cr);
    render_text(cr, PLOT_LEFT, 22, 15, title);
    bool drawn = true;
    for (int i = 0; i < PLOT_PANELS && drawn; ++i)
        drawn = draw_panel(cr, &panels[i], PLOT_TOP + 24 + i * (PLOT_PANEL_HEIGHT + PLOT_GAP + 20), samples, count);
    cairo_destroy(cr);
    if (!drawn) {
        cairo_surface_destroy(surface);
        return cli_fail(error, "%s: out of memory drawing the plot", path);
    }
    return render_write(surface, path, error);
}

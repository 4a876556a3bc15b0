// Drawing: bodies back to front (painter's order by centre depth, after the bodies far larger
// than the typical one, such as a ground slab, which are the backdrop), each body's faces that
// look at the camera shaded by a fixed light, then its edges on those faces; contacts on top of
// everything, so none hides inside a body.
#include "render.h"

#include "scene_geometry.h"
#include "scene_math.h"
#include "points_file.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

// The isometric camera: looking down the (-1, -1, -1) diagonal with the up axis up on the screen.
typedef struct camera {
    mf_vec3 right, up, forward;
    mf_vec3 vertical;                 // the world's up axis
    mf_vec3 light;                    // towards the light
    double scale, offset_x, offset_y; // world units to pixels
    int height;
} camera;

// A direction given as if y were up, in a world with another axis up: a cyclic permutation of the
// axes, so a rotation, and the (-1, -1, -1) diagonal stays where it is.
static mf_vec3 from_y_up(scene_axis up, mf_vec3 v)
{
    if (up == SCENE_AXIS_Z) return (mf_vec3){v.z, v.x, v.y};
    if (up == SCENE_AXIS_X) return (mf_vec3){v.y, v.z, v.x};
    return v;
}

static camera isometric_camera(scene_axis up)
{
    return (camera){.right = scene_normalize(from_y_up(up, (mf_vec3){1.0f, 0.0f, -1.0f})),
                    .up = scene_normalize(from_y_up(up, (mf_vec3){-1.0f, 2.0f, -1.0f})),
                    .forward = scene_normalize(from_y_up(up, (mf_vec3){-1.0f, -1.0f, -1.0f})),
                    .vertical = from_y_up(up, (mf_vec3){0.0f, 1.0f, 0.0f}),
                    .light = scene_normalize(from_y_up(up, (mf_vec3){0.3f, 1.0f, 0.55f}))};
}

static void to_screen(const camera *c, mf_vec3 p, double *x, double *y)
{
    *x = c->offset_x + c->scale * scene_dot(p, c->right);
    *y = c->offset_y - c->scale * scene_dot(p, c->up);
}

static void free_geometry(scene_geometry *shapes, uint32_t count)
{
    for (uint32_t shape = 0; shapes != NULL && shape < count; ++shape) scene_geometry_free(&shapes[shape]);
    free(shapes);
}

// The greatest height of a body's vertices along the world's up axis.
static float top_of(const scene_geometry *g, const mf_transform *t, mf_vec3 vertical)
{
    scene_mat3 r = scene_mat3_from_quat(t->q);
    float top = -INFINITY;
    for (uint32_t v = 0; v < g->vertex_count; ++v)
        top = fmaxf(top, scene_dot(scene_transform_point(t, &r, g->vertices[v]), vertical));
    return top;
}

typedef struct draw_order {
    int backdrop; // 1 for bodies far larger than the typical one: drawn first
    float depth;
    uint32_t body;
} draw_order;

static int back_to_front(const void *a, const void *b)
{
    const draw_order *x = a, *y = b;
    if (x->backdrop != y->backdrop) return x->backdrop > y->backdrop ? -1 : 1;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return (x->body > y->body) - (x->body < y->body);
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// Muted colours, one per shape id, so repeated shapes read as the same kind of thing.
static void shape_colour(uint32_t shape, double rgb[3])
{
    static const double palette[][3] = {{0.62, 0.64, 0.60}, {0.80, 0.62, 0.40}, {0.58, 0.66, 0.78}, {0.72, 0.55, 0.60},
                                        {0.60, 0.72, 0.56}, {0.76, 0.72, 0.52}, {0.55, 0.58, 0.70}, {0.70, 0.62, 0.75}};
    const double *c = palette[shape % (sizeof(palette) / sizeof(palette[0]))];
    rgb[0] = c[0];
    rgb[1] = c[1];
    rgb[2] = c[2];
}

// Deep contacts red, shallow yellow, touching green, speculative (separated) blue.
static void depth_colour(double t, double rgb[3])
{
    static const double stops[5][3] = {
        {0.75, 0.05, 0.10}, {0.95, 0.45, 0.05}, {0.95, 0.85, 0.10}, {0.20, 0.75, 0.35}, {0.15, 0.35, 0.90}};
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    double at = t * 4.0;
    int i = at >= 4.0 ? 3 : (int)at;
    double f = at - i;
    for (int k = 0; k < 3; ++k) rgb[k] = stops[i][k] + f * (stops[i + 1][k] - stops[i][k]);
}

// Maps a separation to [0, 1] of the colour ramp: the deepest contact is 0, zero separation is
// 0.75 (green), the margin 1 (blue).
static double ramp_position(float separation, float deepest, float margin)
{
    if (separation >= 0.0f) return margin > 0.0f ? 0.75 + 0.25 * separation / margin : 1.0;
    return deepest < 0.0f ? 0.75 * (1.0 - separation / deepest) : 0.75;
}

static void draw_body(cairo_t *cr, const camera *cam, const scene_geometry *g, uint32_t shape, const mf_transform *t,
                      double line_width, double *screen_x, double *screen_y, bool *front)
{
    scene_mat3 r = scene_mat3_from_quat(t->q);
    for (uint32_t v = 0; v < g->vertex_count; ++v)
        to_screen(cam, scene_transform_point(t, &r, g->vertices[v]), &screen_x[v], &screen_y[v]);
    double base[3];
    shape_colour(shape, base);
    for (uint32_t f = 0; f < g->face_count; ++f) {
        mf_vec3 n = scene_mat3_mul(&r, g->normals[f]);
        front[f] = scene_dot(n, cam->forward) < 0.0f;
        if (!front[f]) continue;
        float lit = scene_dot(n, cam->light);
        double shade = 0.55 + 0.45 * (lit > 0.0f ? lit : 0.0f);
        const uint32_t *loop = g->loops + g->face_first[f];
        cairo_move_to(cr, screen_x[loop[0]], screen_y[loop[0]]);
        for (uint32_t k = 1; k < g->face_size[f]; ++k) cairo_line_to(cr, screen_x[loop[k]], screen_y[loop[k]]);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, base[0] * shade, base[1] * shade, base[2] * shade);
        cairo_fill(cr);
    }
    // Hulls of many small faces get finer, lighter edges, or their outlines turn into a dark smear.
    double density = g->face_count > 12 ? sqrt(12.0 / g->face_count) : 1.0;
    double grey = 0.18 + 0.3 * (1.0 - density);
    cairo_set_source_rgb(cr, grey, grey, grey + 0.02);
    cairo_set_line_width(cr, line_width * (density > 0.35 ? density : 0.35));
    for (uint32_t e = 0; e < g->edge_count; ++e) {
        const mf_edge_info *edge = &g->edges[e];
        if (!front[edge->face0] && !front[edge->face1]) continue; // hidden behind the body itself
        cairo_move_to(cr, screen_x[edge->vertex0], screen_y[edge->vertex0]);
        cairo_line_to(cr, screen_x[edge->vertex1], screen_y[edge->vertex1]);
    }
    cairo_stroke(cr);
}

// Fits the projected bodies into the picture, leaving room for the title and the legend. A
// backdrop (a ground slab) is left out when other bodies exist: it would shrink them to specks,
// and running off the picture's edge is what a ground does anyway.
static void fit_camera(camera *cam, const scene *s, const scene_geometry *shapes, const draw_order *order, int width,
                       int height)
{
    bool skip_backdrops = false;
    for (uint32_t i = 0; i < s->body_count && !skip_backdrops; ++i) skip_backdrops = !order[i].backdrop;
    double low_x = DBL_MAX, high_x = -DBL_MAX, low_y = DBL_MAX, high_y = -DBL_MAX;
    cam->scale = 1.0;
    cam->offset_x = cam->offset_y = 0.0;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        if (skip_backdrops && order[i].backdrop) continue;
        const mf_transform *t = &s->body_transform[order[i].body];
        const scene_geometry *g = &shapes[s->body_shape[order[i].body]];
        scene_mat3 r = scene_mat3_from_quat(t->q);
        for (uint32_t v = 0; v < g->vertex_count; ++v) {
            mf_vec3 p = scene_transform_point(t, &r, g->vertices[v]);
            double x = scene_dot(p, cam->right), y = scene_dot(p, cam->up);
            low_x = x < low_x ? x : low_x;
            high_x = x > high_x ? x : high_x;
            low_y = y < low_y ? y : low_y;
            high_y = y > high_y ? y : high_y;
        }
    }
    if (low_x > high_x) low_x = high_x = low_y = high_y = 0.0;
    double pad = 0.04 * (width < height ? width : height), top = pad + 24.0, bottom = pad + 34.0;
    double span_x = high_x - low_x > 1e-9 ? high_x - low_x : 1.0, span_y = high_y - low_y > 1e-9 ? high_y - low_y : 1.0;
    double scale_x = (width - 2.0 * pad) / span_x, scale_y = (height - top - bottom) / span_y;
    cam->scale = scale_x < scale_y ? scale_x : scale_y;
    if (!(cam->scale > 0.0)) cam->scale = 1.0;
    cam->offset_x = 0.5 * width - cam->scale * 0.5 * (low_x + high_x);
    cam->offset_y = top + 0.5 * (height - top - bottom) + cam->scale * 0.5 * (low_y + high_y);
}

static void draw_contacts(cairo_t *cr, const camera *cam, const manifold_list *list, float margin, double normal_length,
                          double dot_radius, float deepest)
{
    double rgb[3];
    for (size_t m = 0; m < list->manifold_count; ++m) {
        const listed_manifold *manifold = &list->manifolds[m];
        for (uint32_t k = 0; k < manifold->count; ++k) {
            const mf_contact *c = &list->contacts[manifold->first + k];
            double x, y, tip_x, tip_y;
            to_screen(cam, c->point, &x, &y);
            to_screen(cam, scene_add(c->point, scene_scale(manifold->normal, (float)normal_length)), &tip_x, &tip_y);
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
            cairo_set_line_width(cr, dot_radius * 0.45);
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, tip_x, tip_y);
            cairo_stroke(cr);
            depth_colour(ramp_position(c->separation, deepest, margin), rgb);
            cairo_arc(cr, x, y, dot_radius, 0.0, 6.283185307179586);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            if (dot_radius < 2.0) { // too small for an outline to read as anything but dark
                cairo_fill(cr);
                continue;
            }
            cairo_fill_preserve(cr);
            cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
            cairo_set_line_width(cr, dot_radius * 0.3);
            cairo_stroke(cr);
        }
    }
}

void render_text(cairo_t *cr, double x, double y, double size, const char *text)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.12);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
}

// Title at the top; at the bottom a colour bar from the deepest contact to the margin, unless
// the picture has bodies only.
static void draw_labels(cairo_t *cr, const render_request *request, const manifold_list *list, float deepest,
                        float margin)
{
    char text[512];
    if (request->caption != NULL) snprintf(text, sizeof(text), "%s", request->caption);
    else
        snprintf(text, sizeof(text), "%s  |  %u bodies, %zu manifolds, %zu contacts", request->scene->name,
                 request->scene->body_count, list->manifold_count, list->contact_count);
    // Translucent bands under the text, so it stays readable over a busy scene.
    cairo_set_source_rgba(cr, 0.97, 0.97, 0.95, 0.8);
    cairo_rectangle(cr, 0.0, 0.0, request->width, 28.0);
    if (request->manifolds != NULL) cairo_rectangle(cr, 0.0, request->height - 32.0, request->width, 32.0);
    cairo_fill(cr);
    render_text(cr, 10.0, 19.0, 13.0, text);
    if (request->manifolds == NULL) return;
    double x0 = 10.0, y0 = request->height - 26.0, width = 180.0;
    double rgb[3];
    for (int i = 0; i < 90; ++i) {
        depth_colour(i / 89.0, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x0 + i * width / 90.0, y0, width / 90.0 + 0.5, 10.0);
        cairo_fill(cr);
    }
    snprintf(text, sizeof(text), "depth %.3g", (double)(deepest < 0.0f ? -deepest : 0.0f));
    render_text(cr, x0, y0 + 22.0, 11.0, text);
    render_text(cr, x0 + 0.75 * width - 3.0, y0 + 22.0, 11.0, "0");
    snprintf(text, sizeof(text), "gap %.3g (margin)  |  lines: normals, from a to b", (double)margin);
    render_text(cr, x0 + width + 8.0, y0 + 9.0, 11.0, text);
}

// Scratch for drawing: per-shape geometry and per-body order, sized once.
typedef struct render_scratch {
    scene_geometry *shapes;
    double *screen_x, *screen_y;
    bool *front;
    draw_order *order;
    float *radii;
} render_scratch;

static bool paint(const render_request *request, const render_scratch *scratch, cli_error *error)
{
    const scene *s = request->scene;
    const scene_geometry *shapes = scratch->shapes;
    camera cam = isometric_camera(request->up);
    // A backdrop (a ground slab) is twice the median radius or more and has its top below the
    // median body centre; backdrops go first, by their farthest point. Sorting a slab by its
    // centre would paint it over the bodies standing behind that centre.
    float radii_sum = 0.0f;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        scratch->radii[i] = shapes[s->body_shape[i]].radius;
        radii_sum += scratch->radii[i];
    }
    qsort(scratch->radii, s->body_count, sizeof(float), compare_floats);
    float median_radius = s->body_count > 0 ? scratch->radii[s->body_count / 2] : 1.0f;
    for (uint32_t i = 0; i < s->body_count; ++i) scratch->radii[i] = scene_dot(s->body_transform[i].p, cam.vertical);
    qsort(scratch->radii, s->body_count, sizeof(float), compare_floats);
    float median_height = s->body_count > 0 ? scratch->radii[s->body_count / 2] : 0.0f;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        const scene_geometry *g = &shapes[s->body_shape[i]];
        const mf_transform *t = &s->body_transform[i];
        float depth = scene_dot(t->p, cam.forward);
        int backdrop = g->radius >= 2.0f * median_radius && top_of(g, t, cam.vertical) <= median_height;
        scratch->order[i] = (draw_order){backdrop, backdrop ? depth + g->radius : depth, i};
    }
    qsort(scratch->order, s->body_count, sizeof(draw_order), back_to_front);
    fit_camera(&cam, s, shapes, scratch->order, request->width, request->height);

    bool svg = path_has_extension(request->path, ".svg");
    cairo_surface_t *surface = svg ? cairo_svg_surface_create(request->path, request->width, request->height)
                                   : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, request->width, request->height);
    if (svg) cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 0.97, 0.97, 0.95);
    cairo_paint(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);

    double line_width = 0.02 * cam.scale;
    line_width = line_width < 0.35 ? 0.35 : line_width > 1.5 ? 1.5 : line_width;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        uint32_t body = scratch->order[i].body;
        draw_body(cr, &cam, &shapes[s->body_shape[body]], s->body_shape[body], &s->body_transform[body], line_width,
                  scratch->screen_x, scratch->screen_y, scratch->front);
    }

    // Normals a quarter of a typical body long, within 6 to 28 pixels; dots a few pixels across.
    static const manifold_list no_manifolds = {0};
    const manifold_list *list = request->manifolds != NULL ? request->manifolds : &no_manifolds;
    float mean_radius = s->body_count > 0 ? radii_sum / (float)s->body_count : 1.0f;
    float deepest = 0.0f;
    for (size_t c = 0; c < list->contact_count; ++c)
        deepest = list->contacts[c].separation < deepest ? list->contacts[c].separation : deepest;
    double dot_radius = 0.04 * cam.scale;
    dot_radius = dot_radius < 1.0 ? 1.0 : dot_radius > 5.0 ? 5.0 : dot_radius;
    double normal_length = 0.25 * mean_radius, normal_pixels = normal_length * cam.scale;
    if (normal_pixels > 28.0) normal_length = 28.0 / cam.scale;
    if (normal_pixels < 6.0) normal_length = 6.0 / cam.scale;
    draw_contacts(cr, &cam, list, s->config.margin, normal_length, dot_radius, deepest);
    draw_labels(cr, request, list, deepest, s->config.margin);

    cairo_destroy(cr);
    return render_write(surface, request->path, error);
}

bool render_write(cairo_surface_t *surface, const char *path, cli_error *error)
{
    cairo_status_t status = cairo_surface_status(surface);
    if (status == CAIRO_STATUS_SUCCESS && cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_SVG)
        status = cairo_surface_write_to_png(surface, path);
    cairo_surface_finish(surface); // writes the SVG
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS)
        return cli_fail(error, "%s: cannot write the picture: %s", path, cairo_status_to_string(status));
    return true;
}

bool render_picture(const render_request *request, cli_error *error)
{
    const scene *s = request->scene;
    uint32_t shape_count = mf_bank_shape_count(s->bank);
    render_scratch scratch = {.shapes = calloc(shape_count + 1, sizeof(scene_geometry))};
    uint32_t max_vertices = 1, max_faces = 1;
    bool ok = scratch.shapes != NULL;
    for (uint32_t shape = 0; ok && shape < shape_count; ++shape) {
        const scene_geometry *g = &scratch.shapes[shape];
        ok = scene_geometry_load(s->bank, shape, &scratch.shapes[shape]) == MF_OK;
        max_vertices = g->vertex_count > max_vertices ? g->vertex_count : max_vertices;
        max_faces = g->face_count > max_faces ? g->face_count : max_faces;
    }
    scratch.screen_x = malloc(max_vertices * sizeof(double));
    scratch.screen_y = malloc(max_vertices * sizeof(double));
    scratch.front = malloc(max_faces * sizeof(bool));
    scratch.order = malloc((s->body_count + 1) * sizeof(draw_order));
    scratch.radii = malloc((s->body_count + 1) * sizeof(float));
    if (!ok || !scratch.screen_x || !scratch.screen_y || !scratch.front || !scratch.order || !scratch.radii)
        ok = cli_fail(error, "out of memory preparing the picture");
    else ok = paint(request, &scratch, error);
    free(scratch.screen_x);
    free(scratch.screen_y);
    free(scratch.front);
    free(scratch.order);
    free(scratch.radii);
    free_geometry(scratch.shapes, shape_count);
    return ok;
}

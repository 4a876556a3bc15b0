// `manyfold hull`: builds the convex hull of a point cloud with mf_bank_add_hull and describes it:
// sizes, faces by vertex count, volume, and what the builder dropped, welded or merged.
#include "args.h"
#include "commands.h"
#include "manyfold.h"
#include "points_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The most input points mf_bank_add_hull takes (its MF_ERR_HULL_TOO_LARGE sentence; the
// library's header does not name the constant).
#define HULL_MAX_INPUT_POINTS 4194304u

static const char hull_help[] =
    "Usage: manyfold hull FILE [--list]\n"
    "\n"
    "Build the convex hull of a point cloud with the library's hull builder and describe it.\n"
    "FILE is a Wavefront .obj (its 'v' lines) or a text file of 'x y z' lines (# comments).\n"
    "\n"
    "Options:\n"
    "  --list         also print every vertex and every face's vertex loop\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 built, 1 unreadable file or a hull the library refuses, 2 bad usage.\n";

static void print_faces(const mf_bank *bank, uint32_t shape, const mf_shape_info *info, bool list)
{
    uint32_t by_size[MF_MAX_FACE_VERTICES + 1] = {0};
    uint32_t loop[MF_MAX_FACE_VERTICES];
    for (uint32_t f = 0; f < info->face_count; ++f) {
        uint32_t count = 0;
        mf_vec3 normal;
        float offset;
        mf_bank_shape_face(bank, shape, f, &normal, &offset, loop, MF_MAX_FACE_VERTICES, &count);
        if (count <= MF_MAX_FACE_VERTICES) ++by_size[count];
        if (!list) continue;
        printf("  face %u: normal (%.6g, %.6g, %.6g), offset %.6g, %u vertices:", f, (double)normal.x, (double)normal.y,
               (double)normal.z, (double)offset, count);
        for (uint32_t k = 0; k < count; ++k) printf(" %u", loop[k]);
        printf("\n");
    }
    printf("faces            %u (by vertex count:", info->face_count);
    const char *separator = " ";
    for (uint32_t n = 0; n <= MF_MAX_FACE_VERTICES; ++n) {
        if (by_size[n] == 0) continue;
        printf("%s%u x %u", separator, by_size[n], n);
        separator = ", ";
    }
    printf(")\n");
}

static void print_warnings(const mf_shape_info *info)
{
    uint32_t welded = info->welded_points;
    uint32_t dropped = info->input_points - welded - info->vertex_count;
    int warnings = 0;
    if (dropped > 0) {
        printf("warning          %u points dropped: inside the hull or on its faces and edges\n", dropped);
        ++warnings;
    }
    if (welded > 0) {
        printf("warning          %u points welded into a near-duplicate neighbour\n", welded);
        ++warnings;
    }
    if (info->merged_facets > 0) {
        printf("warning          %u triangles merged into larger coplanar faces\n", info->merged_facets);
        ++warnings;
    }
    if (warnings == 0) printf("warnings         none: every point is a hull vertex\n");
}

static int compare_points(const void *a, const void *b)
{
    const mf_vec3 *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->y != q->y) return p->y < q->y ? -1 : 1;
    return (p->z > q->z) - (p->z < q->z);
}

// Which of the library's hull limits the points exceed, as far as the points tell: the input
// count and coordinate range exactly; past those the hull's own size. A hull of more than
// MF_MAX_HULL_FACES faces has more than MF_MAX_HULL_VERTICES vertices too (a hull of V vertices
// has at most 2V - 4 faces), and one of at most that many distinct points has no more vertices,
// so only its faces' size can be at fault.
// todo: the library's own detail of the refusal, once the bank reports one (#32 item 7).
static void explain_too_large(const mf_vec3 *points, uint32_t count, char *text, size_t size)
{
    if (count > HULL_MAX_INPUT_POINTS) {
        snprintf(text, size, "%u points: at most %u", count, HULL_MAX_INPUT_POINTS);
        return;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const float c[3] = {points[i].x, points[i].y, points[i].z};
        for (int k = 0; k < 3; ++k)
            if (fabsf(c[k]) > MF_MAX_LENGTH) {
                snprintf(text, size, "point %u has %c = %g: coordinates stay within MF_MAX_LENGTH (%g)", i + 1,
                         "xyz"[k], (double)c[k], (double)MF_MAX_LENGTH);
                return;
            }
    }
    mf_vec3 *sorted = malloc((count > 0 ? count : 1) * sizeof(mf_vec3));
    uint32_t distinct = count;
    if (sorted != NULL && count > 0) {
        memcpy(sorted, points, count * sizeof(mf_vec3));
        qsort(sorted, count, sizeof(mf_vec3), compare_points);
        distinct = 1;
        for (uint32_t i = 1; i < count; ++i) distinct += compare_points(&sorted[i - 1], &sorted[i]) != 0;
    }
    free(sorted);
    if (distinct <= MF_MAX_HULL_VERTICES)
        snprintf(text, size, "a face of its hull has more than MF_MAX_FACE_VERTICES (%d) vertices",
                 MF_MAX_FACE_VERTICES);
    else
        snprintf(text, size,
                 "its hull has more than MF_MAX_HULL_VERTICES (%d) vertices (%u distinct points), or a face of "
                 "more than MF_MAX_FACE_VERTICES (%d)",
                 MF_MAX_HULL_VERTICES, distinct, MF_MAX_FACE_VERTICES);
}

int hull_command(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'}, {"list", no_argument, NULL, 'l'}, {NULL, 0, NULL, 0}};
    bool list = false;
    for (int option; (option = arg_next("hull", argc, argv, ":h", options)) != -1;) {
        if (option == 'h') {
            fputs(hull_help, stdout);
            return CLI_EXIT_OK;
        }
        if (option == 'l') list = true;
    }
    if (argc - optind > 1)
        usage_error("hull", "one file at most, but got '%s' and '%s'", argv[optind], argv[optind + 1]);
    if (optind == argc) usage_error("hull", "which file? give an .obj or a points file");
    const char *path = argv[optind];

    cli_error error;
    mf_vec3 *points;
    uint32_t point_count;
    if (!points_file_read(path, &points, &point_count, &error)) {
        fprintf(stderr, "manyfold hull: %s\n", error.text);
        return CLI_EXIT_INPUT;
    }
    mf_bank *bank;
    uint32_t shape;
    mf_status status = mf_bank_create(&bank);
    if (status == MF_OK) status = mf_bank_add_hull(bank, points, point_count, &shape);
    if (status != MF_OK) {
        char why[256];
        if (status == MF_ERR_HULL_TOO_LARGE) explain_too_large(points, point_count, why, sizeof(why));
        else snprintf(why, sizeof(why), "%s", mf_status_string(status));
        fprintf(stderr, "manyfold hull: %s: the hull of %u points cannot be built: %s%s\n", path, point_count,
                status == MF_ERR_HULL_TOO_LARGE ? "hull too large: " : "", why);
        free(points);
        mf_bank_destroy(bank);
        return CLI_EXIT_INPUT;
    }
    free(points);

    mf_shape_info info;
    mf_bank_shape_info(bank, shape, &info);
    printf("input            %s: %u points\n", path, point_count);
    printf("vertices         %u (limit %d)\n", info.vertex_count, MF_MAX_HULL_VERTICES);
    if (list) {
        mf_vec3 *vertices = malloc(info.vertex_count * sizeof(mf_vec3));
        if (vertices != NULL && mf_bank_shape_vertices(bank, shape, vertices, info.vertex_count) == MF_OK)
            for (uint32_t v = 0; v < info.vertex_count; ++v)
                printf("  vertex %u: %.9g %.9g %.9g\n", v, (double)vertices[v].x, (double)vertices[v].y,
                       (double)vertices[v].z);
        free(vertices);
    }
    print_faces(bank, shape, &info, list);
    printf("edges            %u\n", info.edge_count);
    printf("volume           %.6g\n", (double)info.volume);
    printf("centroid         %.6g %.6g %.6g\n", (double)info.centroid.x, (double)info.centroid.y,
           (double)info.centroid.z);
    printf("radius           %.6g (largest vertex distance from the file's origin)\n", (double)info.radius);
    // Density 1: the inertia per density an engine scales; the principal frame turns into the
    // file's by the rotation (x, y, z, w), as mf_bank_shape_mass gives it.
    mf_mass mass;
    if (mf_bank_shape_mass(bank, shape, 1.0f, &mass) == MF_OK) {
        printf("principal        %.9g %.9g %.9g (moments of inertia at density 1, ascending)\n",
               (double)mass.principal.x, (double)mass.principal.y, (double)mass.principal.z);
        printf("principal frame  %.9g %.9g %.9g %.9g (x y z w: turns the principal axes into the file's)\n",
               (double)mass.principal_rotation.x, (double)mass.principal_rotation.y, (double)mass.principal_rotation.z,
               (double)mass.principal_rotation.w);
    }
    print_warnings(&info);
    mf_bank_destroy(bank);
    return CLI_EXIT_OK;
}

// `manyfold render`: loads a scene, takes its manifolds from a file or collides it, and draws it;
// or draws a frame of a LAMMPS dump with its shape library.
#include "args.h"
#include "commands.h"
#include "lammps_dump.h"
#include "lammps_scene.h"
#include "manifold_file.h"
#include "points_file.h"
#include "render.h"
#include "scene_collide.h"
#include "scene_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_MAX_SIDE 16384

static const char render_help[] =
    "Usage: manyfold render SCENE -o OUT.png|OUT.svg [OPTIONS]\n"
    "       manyfold render --lammps-dump DUMP --shapes LIBRARY.json -o OUT.png|OUT.svg [OPTIONS]\n"
    "\n"
    "Draw an isometric picture of a scene: bodies with their hull edges, contact points coloured\n"
    "by depth (red deep, green touching, blue within the margin) and their normals.\n"
    "SCENE is a JSON scene file or 'default', the built-in pile.\n"
    "\n"
    "Or draw a frame of a LAMMPS 'dump custom' text file of manyfold-lmp's bodies (no contacts):\n"
    "its ATOMS columns i_shape (an index into the library's \"shapes\"), x y z (the centre of\n"
    "mass; or xu yu zu) and d2_quat[1] to d2_quat[4] (w x y z, the principal frame's turn into\n"
    "the world) place each body as pair_style manyfold does; other columns are ignored. Where the\n"
    "box's lower bound along the up axis is fixed ('f'), a slab under it is drawn as the floor.\n"
    "\n"
    "Options:\n"
    "  -o, --out FILE       the picture; .png or .svg\n"
    "  --manifolds FILE     draw the manifolds of a 'run --out' file (its step 0) instead of\n"
    "                       colliding the scene here; refused where they are not this scene's\n"
    "                       (a body it lacks, a contact beyond the reach of its two bodies)\n"
    "  --size WxH           picture size in pixels (default 1024x768)\n"
    "  --bodies N           bodies in the default pile (default 4000)\n"
    "  --up x|y|z           the world axis drawn upwards (default: the scene's \"up\", z unless\n"
    "                       it says; y for the default pile; z with --lammps-dump)\n"
    "  --lammps-dump DUMP   draw this LAMMPS dump's frame instead of a scene\n"
    "  --shapes FILE        the dump's shape library: a scene file (its bodies are ignored), the\n"
    "                       one pair_style manyfold read\n"
    "  --step N|last        the dump's frame at timestep N (default: the last frame)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 drawn, 1 bad input, 2 bad usage.\n";

typedef struct render_options {
    const char *scene, *manifolds, *out;
    const char *dump, *shapes; // --lammps-dump
    lammps_frame_choice frame;
    bool step_given, bodies_given, up_given;
    scene_axis up;
    int width, height;
    uint32_t bodies;
} render_options;

static void parse_size(const char *text, int *width, int *height)
{
    char *end = NULL;
    unsigned long w = 0, h = 0;
    bool ok = text[0] >= '0' && text[0] <= '9';
    if (ok) w = strtoul(text, &end, 10);
    ok = ok && *end == 'x' && end[1] >= '0' && end[1] <= '9';
    if (ok) h = strtoul(end + 1, &end, 10);
    ok = ok && *end == '\0' && w >= 16 && h >= 16 && w <= RENDER_MAX_SIDE && h <= RENDER_MAX_SIDE;
    if (!ok)
        usage_error("render", "--size wants WIDTHxHEIGHT in pixels, each 16 to %d, such as 1024x768, not '%s'",
                    RENDER_MAX_SIDE, text);
    *width = (int)w;
    *height = (int)h;
}

static lammps_frame_choice parse_step(const char *text)
{
    if (strcmp(text, "last") == 0) return (lammps_frame_choice){.last = true};
    char *end = NULL;
    errno = 0;
    long long step = strtoll(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0)
        usage_error("render", "--step wants a timestep (a whole number) or 'last', not '%s'", text);
    return (lammps_frame_choice){.step = step};
}

static render_options parse_options(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"manifolds", required_argument, NULL, 'm'},
                                            {"size", required_argument, NULL, 's'},
                                            {"bodies", required_argument, NULL, 'b'},
                                            {"up", required_argument, NULL, 'u'},
                                            {"lammps-dump", required_argument, NULL, 'd'},
                                            {"shapes", required_argument, NULL, 'S'},
                                            {"step", required_argument, NULL, 't'},
                                            {NULL, 0, NULL, 0}};
    render_options o = {.width = 1024, .height = 768, .bodies = 4000, .frame = {.last = true}};
    for (int option; (option = arg_next("render", argc, argv, ":ho:", options)) != -1;) {
        if (option == 'h') {
            fputs(render_help, stdout);
            exit(CLI_EXIT_OK);
        } else if (option == 'o') {
            o.out = optarg;
        } else if (option == 'm') {
            o.manifolds = optarg;
        } else if (option == 's') {
            parse_size(optarg, &o.width, &o.height);
        } else if (option == 'b') {
            o.bodies = arg_parse_count("render", "--bodies", optarg, 1, 4000000);
            o.bodies_given = true;
        } else if (option == 'u') {
            o.up = arg_parse_axis("render", "--up", optarg);
            o.up_given = true;
        } else if (option == 'd') {
            o.dump = optarg;
        } else if (option == 'S') {
            o.shapes = optarg;
        } else if (option == 't') {
            o.frame = parse_step(optarg);
            o.step_given = true;
        }
    }
    if (o.dump != NULL) {
        if (optind < argc)
            usage_error("render", "--lammps-dump draws a dump instead of a scene; drop '%s' or the dump", argv[optind]);
        if (o.shapes == NULL) usage_error("render", "--lammps-dump needs the dump's shape library: --shapes FILE");
        if (o.manifolds != NULL) usage_error("render", "--manifolds draws a scene's manifolds, not a dump's");
        if (o.bodies_given) usage_error("render", "--bodies sizes the default pile, not a dump");
        if (!o.up_given) o.up = SCENE_AXIS_Z;
    } else if (o.shapes != NULL || o.step_given) {
        usage_error("render", "%s goes with --lammps-dump", o.shapes != NULL ? "--shapes" : "--step");
    } else {
        if (argc - optind > 1)
            usage_error("render", "one scene at most, but got '%s' and '%s'", argv[optind], argv[optind + 1]);
        o.scene = optind < argc ? argv[optind] : NULL;
        if (o.scene == NULL) usage_error("render", "which scene? give a scene file or 'default'");
    }
    if (o.out == NULL) usage_error("render", "where to? give -o OUT.png or -o OUT.svg");
    if (!path_has_extension(o.out, ".png") && !path_has_extension(o.out, ".svg"))
        usage_error("render", "the picture's name must end in .png or .svg, not '%s'", o.out);
    return o;
}

// The shape library first, so that the dump's shape indices are checked as they are read.
static int render_dump(const render_options *o)
{
    cli_error error;
    scene s;
    if (!scene_file_load(o->shapes, &s, &error)) {
        fprintf(stderr, "manyfold render: %s\n", error.text);
        return CLI_EXIT_INPUT;
    }
    lammps_frame frame;
    uint32_t frames = 0;
    bool has_floor = false;
    int up = (int)o->up;
    bool ok = lammps_dump_read(o->dump, o->frame, s.shape_count, &frame, &frames, &error) &&
              lammps_scene_place(&s, &frame, up, &has_floor, &error);
    if (ok) {
        char caption[512], floor_text[96] = "";
        if (has_floor)
            snprintf(floor_text, sizeof(floor_text), ", the floor at %s = %g", scene_axis_name(o->up),
                     frame.box_low[up]);
        snprintf(caption, sizeof(caption), "%s  |  step %lld, %u atoms of %u shapes%s", o->dump, (long long)frame.step,
                 frame.atom_count, s.shape_count - (has_floor ? 1 : 0), floor_text);
        render_request request = {&s, NULL, o->width, o->height, o->out, o->up, caption};
        ok = render_picture(&request, &error);
    }
    if (ok)
        printf("%s: %dx%d, step %lld (frame %u of the dump), %u atoms, %s up%s\n", o->out, o->width, o->height,
               (long long)frame.step, frames, frame.atom_count, scene_axis_name(o->up), has_floor ? ", floor" : "");
    else fprintf(stderr, "manyfold render: %s\n", error.text);
    lammps_frame_free(&frame);
    scene_free(&s);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

// Manifolds read from a file must be this scene's: drawn on another scene, they would hang in mid
// air. Each must name two of its bodies, and each contact lie within the reach of both: the
// body's bounding sphere about its origin, grown by the margin and a little for rounding.
static bool check_manifolds_fit(const scene *s, const manifold_list *list, const char *path, cli_error *error)
{
    for (size_t m = 0; m < list->manifold_count; ++m) {
        const listed_manifold *manifold = &list->manifolds[m];
        uint32_t bodies[2] = {manifold->a, manifold->b};
        for (int k = 0; k < 2; ++k)
            if (bodies[k] >= s->body_count)
                return cli_fail(error,
                                "%s: pair %u names body %u, but %s has %u bodies: these manifolds are another "
                                "scene's",
                                path, manifold->pair, bodies[k], s->name, s->body_count);
        for (uint32_t c = 0; c < manifold->count; ++c) {
            mf_vec3 p = list->contacts[manifold->first + c].point;
            for (int k = 0; k < 2; ++k) {
                mf_shape_info info;
                if (mf_bank_shape_info(s->bank, s->body_shape[bodies[k]], &info) != MF_OK) continue;
                mf_vec3 o = s->body_transform[bodies[k]].p;
                double distance =
                    sqrt(((double)p.x - o.x) * ((double)p.x - o.x) + ((double)p.y - o.y) * ((double)p.y - o.y) +
                         ((double)p.z - o.z) * ((double)p.z - o.z));
                double reach = 1.01 * info.radius + s->config.margin + 1e-4;
                if (distance > reach)
                    return cli_fail(error,
                                    "%s: pair %u's contact at (%g, %g, %g) lies %.3g from body %u, beyond its "
                                    "reach (%.3g): these manifolds are not %s's",
                                    path, manifold->pair, (double)p.x, (double)p.y, (double)p.z, distance, bodies[k],
                                    reach, s->name);
            }
        }
    }
    return true;
}

int render_command(int argc, char **argv)
{
    render_options o = parse_options(argc, argv);
    if (o.dump != NULL) return render_dump(&o);
    cli_error error;
    scene s;
    if (!scene_file_open(o.scene, o.bodies, &s, &error)) {
        fprintf(stderr, "manyfold render: %s\n", error.text);
        return CLI_EXIT_INPUT;
    }
    manifold_list manifolds = {0};
    uint32_t pair_count = 0;
    bool ok = o.manifolds != NULL ? manifold_file_read(o.manifolds, 0, &manifolds, &error) &&
                                        check_manifolds_fit(&s, &manifolds, o.manifolds, &error)
                                  : scene_collide(&s, &s.config, &manifolds, &pair_count, &error);
    if (ok) {
        render_request request = {&s, &manifolds, o.width, o.height, o.out, o.up_given ? o.up : s.up, NULL};
        ok = render_picture(&request, &error);
    }
    if (ok)
        printf("%s: %dx%d, %u bodies, %zu manifolds, %zu contacts\n", o.out, o.width, o.height, s.body_count,
               manifolds.manifold_count, manifolds.contact_count);
    else fprintf(stderr, "manyfold render: %s\n", error.text);
    manifold_list_free(&manifolds);
    scene_free(&s);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

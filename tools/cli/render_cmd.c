// `manyfold render`: loads a scene, takes its manifolds from a file or collides it, and draws it.
#include "args.h"
#include "commands.h"
#include "manifold_file.h"
#include "points_file.h"
#include "render.h"
#include "scene_collide.h"
#include "scene_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_MAX_SIDE 16384

static const char render_help[] =
    "Usage: manyfold render SCENE -o OUT.png|OUT.svg [OPTIONS]\n"
    "\n"
    "Draw an isometric picture of a scene: bodies with their hull edges, contact points coloured\n"
    "by depth (red deep, green touching, blue within the margin) and their normals.\n"
    "SCENE is a JSON scene file or 'default', the built-in pile.\n"
    "\n"
    "Options:\n"
    "  -o, --out FILE       the picture; .png or .svg\n"
    "  --manifolds FILE     draw the manifolds of a 'run --out' file (its step 0) instead of\n"
    "                       colliding the scene here\n"
    "  --size WxH           picture size in pixels (default 1024x768)\n"
    "  --bodies N           bodies in the default pile (default 4000)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 drawn, 1 bad input, 2 bad usage.\n";

typedef struct render_options {
    const char *scene, *manifolds, *out;
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

static render_options parse_options(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"manifolds", required_argument, NULL, 'm'},
                                            {"size", required_argument, NULL, 's'},
                                            {"bodies", required_argument, NULL, 'b'},
                                            {NULL, 0, NULL, 0}};
    render_options o = {.width = 1024, .height = 768, .bodies = 4000};
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
        }
    }
    if (argc - optind > 1)
        usage_error("render", "one scene at most, but got '%s' and '%s'", argv[optind], argv[optind + 1]);
    o.scene = optind < argc ? argv[optind] : NULL;
    if (o.scene == NULL) usage_error("render", "which scene? give a scene file or 'default'");
    if (o.out == NULL) usage_error("render", "where to? give -o OUT.png or -o OUT.svg");
    if (!path_has_extension(o.out, ".png") && !path_has_extension(o.out, ".svg"))
        usage_error("render", "the picture's name must end in .png or .svg, not '%s'", o.out);
    return o;
}

int render_command(int argc, char **argv)
{
    render_options o = parse_options(argc, argv);
    cli_error error;
    scene s;
    if (!scene_file_open(o.scene, o.bodies, &s, &error)) {
        fprintf(stderr, "manyfold render: %s\n", error.text);
        return CLI_EXIT_INPUT;
    }
    manifold_list manifolds = {0};
    uint32_t pair_count = 0;
    bool ok = o.manifolds != NULL ? manifold_file_read(o.manifolds, 0, &manifolds, &error)
                                  : scene_collide(&s, &s.config, &manifolds, &pair_count, &error);
    if (ok) {
        render_request request = {&s, &manifolds, o.width, o.height, o.out};
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

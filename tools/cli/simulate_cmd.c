// `manyfold simulate`: steps a settling scene in a physics engine, with manyfold or the engine's
// own colliders as its narrow phase, and reports how it settles (sim_run.h's measures).
#include "args.h"
#include "commands.h"
#include "manifold_list.h"
#include "points_file.h"
#include "progress.h"
#include "render.h"
#include "scene_file.h"
#include "scene_math.h"
#include "scene_store.h"
#include "sim_plot.h"
#include "sim_run.h"
#include "sim_scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SIMULATE_MAX_SECONDS 3600.0
#define SIMULATE_FRAME_RATE 30.0 // frames per simulated second
#define SIMULATE_FRAME_WIDTH 800
#define SIMULATE_FRAME_HEIGHT 600

static const char simulate_help[] =
    "Usage: manyfold simulate SCENE [OPTIONS]\n"
    "\n"
    "Step a scene in a physics engine with manyfold as its narrow phase (or the engine's own\n"
    "colliders) and report how it settles: the deepest penetration (measured by manyfold on\n"
    "the engine's poses after every step, whichever narrow phase ran), the mean and largest\n"
    "speed over the last second, the drift of the top body (the moving body that starts\n"
    "highest) from where it started, bodies that escaped, and the collision time per step.\n"
    "SCENE is box, tower, pyramid or rocks (tools/engines/sim_scene.h; their up is y), or a\n"
    "JSON scene file (" MANYFOLD_CLI_SCENES "/README.md; its \"up\", z unless it says), whose\n"
    "ground is found: every body whose top lies below the middle of every other body, along\n"
    "the up axis, is static. Gravity pulls along the negative up axis.\n"
    "\n"
    "Options:\n"
    "  --engine NAME        ode or bullet (default ode)\n"
    "  --narrowphase NAME   manyfold or engine (default manyfold)\n"
    "  --uncached           ODE: manyfold without temporal coherence, a plain mf_collide every\n"
    "                       step (by default ODE's adapter keeps an mf_pair_cache entry per pair\n"
    "                       and calls mf_collide_cached); Bullet's back end ignores it\n"
    "  --seconds S          simulated time (default 10)\n"
    "  --max-contacts N     contacts per pair, 1 to 8 (default: the scene's, 4): manyfold's;\n"
    "                       in ODE its own colliders' too; Bullet's own keep up to 4 (its\n"
    "                       persistent manifold's size) whatever N\n"
    "  --seed N             the rocks' seed (default 1)\n"
    "  --up x|y|z           the scene's up axis instead of its own (gravity along its negative)\n"
    "  --frames DIR         write a picture every 1/30 s to DIR/frame_00000.png ... (the ground\n"
    "                       is left out; the caption gives the time and the step's contacts)\n"
    "  --plot FILE          draw the figures over time to FILE (.png or .svg)\n"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input (scene, engine not built in), 2 bad usage.\n";

typedef struct simulate_options {
    const char *scene, *engine, *frames, *plot;
    sim_settings settings;
    double seconds;
    uint64_t seed;
    bool up_given;
    scene_axis up;
} simulate_options;

static double parse_seconds(const char *text)
{
    char *end = NULL;
    errno = 0;
    double seconds = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(seconds > 0.0) || seconds > SIMULATE_MAX_SECONDS)
        usage_error("simulate", "--seconds wants a time above 0 and at most %g, such as 10, not '%s'",
                    SIMULATE_MAX_SECONDS, text);
    return seconds;
}

static simulate_options parse_options(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"engine", required_argument, NULL, 'e'},
                                            {"narrowphase", required_argument, NULL, 'n'},
                                            {"uncached", no_argument, NULL, 'u'},
                                            {"seconds", required_argument, NULL, 's'},
                                            {"max-contacts", required_argument, NULL, 'c'},
                                            {"seed", required_argument, NULL, 'r'},
                                            {"frames", required_argument, NULL, 'f'},
                                            {"plot", required_argument, NULL, 'p'},
                                            {"up", required_argument, NULL, 'U'},
                                            {NULL, 0, NULL, 0}};
    simulate_options o = {.engine = "ode", .settings = sim_settings_default(), .seconds = 10.0, .seed = 1};
    for (int option; (option = arg_next("simulate", argc, argv, ":h", options)) != -1;) {
        if (option == 'h') {
            fputs(simulate_help, stdout);
            exit(CLI_EXIT_OK);
        } else if (option == 'e') {
            if (strcmp(optarg, "ode") != 0 && strcmp(optarg, "bullet") != 0)
                usage_error("simulate", "--engine wants ode or bullet, not '%s'", optarg);
            o.engine = optarg;
        } else if (option == 'n') {
            if (strcmp(optarg, "manyfold") == 0) o.settings.narrowphase = SIM_NARROWPHASE_MANYFOLD;
            else if (strcmp(optarg, "engine") == 0) o.settings.narrowphase = SIM_NARROWPHASE_ENGINE;
            else usage_error("simulate", "--narrowphase wants manyfold or engine, not '%s'", optarg);
        } else if (option == 'u') {
            o.settings.uncached = 1;
        } else if (option == 's') {
            o.seconds = parse_seconds(optarg);
        } else if (option == 'c') {
            o.settings.max_contacts = arg_parse_count("simulate", "--max-contacts", optarg, 1, MF_MAX_CONTACTS);
        } else if (option == 'r') {
            o.seed = arg_parse_count("simulate", "--seed", optarg, 0, UINT32_MAX);
        } else if (option == 'f') {
            o.frames = optarg;
        } else if (option == 'p') {
            o.plot = optarg;
        } else if (option == 'U') {
            o.up = arg_parse_axis("simulate", "--up", optarg);
            o.up_given = true;
        }
    }
    if (argc - optind > 1)
        usage_error("simulate", "one scene at most, but got '%s' and '%s'", argv[optind], argv[optind + 1]);
    if (optind >= argc) usage_error("simulate", "which scene? box, tower, pyramid, rocks or a scene file");
    o.scene = argv[optind];
    if (o.plot != NULL && !path_has_extension(o.plot, ".png") && !path_has_extension(o.plot, ".svg"))
        usage_error("simulate", "the plot's name must end in .png or .svg, not '%s'", o.plot);
    return o;
}

// The engines built into this program (tools/engines/meson.build: have_sim_ode, have_sim_bullet).
static const sim_engine *find_engine(const char *name)
{
#if MANYFOLD_CLI_ODE
    if (strcmp(name, "ode") == 0) return &sim_engine_ode;
#endif
#if MANYFOLD_CLI_BULLET
    if (strcmp(name, "bullet") == 0) return &sim_engine_bullet;
#endif
    (void)name;
    return NULL;
}

// The lowest and highest points of body i along the scene's up axis.
static void body_extent(const scene *s, uint32_t i, float *low, float *high)
{
    mf_transform t = s->body_transform[i];
    mf_vec3 axis = {s->up == SCENE_AXIS_X, s->up == SCENE_AXIS_Y, s->up == SCENE_AXIS_Z};
    mf_vec3 local_up = scene_unrotate(t.q, axis); // the up axis in the shape's frame
    float centre = scene_along(t.p, s->up);
    *high = centre + scene_store_support(s, s->body_shape[i], local_up);
    *low = centre - scene_store_support(s, s->body_shape[i], scene_scale(local_up, -1.0f));
}

// A scene file's static bodies: those whose top lies below the middle (halfway from the lowest to
// the highest point along up) of every other body. The middle, not the origin: a mesh's origin may
// lie at its foot (the bunny's does), below the top of the ground it stands on.
static bool find_ground(const scene *s, uint8_t *is_static, cli_error *error)
{
    float *low = malloc((s->body_count > 0 ? s->body_count : 1) * 2 * sizeof(float)), *high = low + s->body_count;
    if (low == NULL) return cli_fail(error, "out of memory");
    for (uint32_t i = 0; i < s->body_count; ++i) body_extent(s, i, &low[i], &high[i]);
    uint32_t found = 0;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        bool below_all = true;
        for (uint32_t j = 0; j < s->body_count && below_all; ++j)
            below_all = j == i || high[i] < 0.5f * (low[j] + high[j]);
        is_static[i] = below_all;
        found += below_all;
    }
    free(low);
    const char *axis = scene_axis_name(s->up);
    if (found == 0)
        return cli_fail(error,
                        "%s: found no ground below the bodies along -%s: no body's top lies below the middle of "
                        "every other body along %s (is the scene's \"up\" right? --up x|y|z sets another)",
                        s->name, axis, axis);
    return true;
}

static bool open_scene(const simulate_options *o, scene *s, uint8_t **is_static, cli_error *error)
{
    for (const char *const *name = sim_scene_names(); *name != NULL; ++name) {
        if (strcmp(*name, o->scene) != 0) continue;
        mf_status status = sim_scene_make(o->scene, o->seed, s, is_static);
        if (status != MF_OK) return cli_fail(error, "scene %s: %s", o->scene, mf_status_string(status));
        if (o->up_given) s->up = o->up;
        return true;
    }
    if (!path_has_extension(o->scene, ".json"))
        return cli_fail(error, "no scene '%s': box, tower, pyramid, rocks or a .json scene file", o->scene);
    if (!scene_file_load(o->scene, s, error)) return false;
    if (o->up_given) s->up = o->up;
    *is_static = calloc(s->body_count > 0 ? s->body_count : 1, 1);
    if (*is_static == NULL) return cli_fail(error, "out of memory");
    return find_ground(s, *is_static, error);
}

// One picture of the bodies as they are now; the ground (a static body 0) is left out so that
// the camera frames the rest. The engine's contacts are not drawn (only their count: the solver's
// contacts of the last step, which manyfold or the engine's colliders gave it).
static bool write_frame(const simulate_options *o, const scene *s, const uint8_t *is_static, const sim_run *run,
                        uint32_t frame, cli_error *error)
{
    uint32_t sample_count;
    const sim_sample *samples = sim_run_samples(run, &sample_count);
    sim_sample last = sample_count > 0 ? samples[sample_count - 1] : (sim_sample){0};
    char caption[512];
    snprintf(caption, sizeof(caption), "%s  |  %.2f s, %u bodies, %u contacts in the last step", s->name, last.time,
             s->body_count, last.contact_count);
    char path[4096];
    if (snprintf(path, sizeof(path), "%s/frame_%05u.png", o->frames, frame) >= (int)sizeof(path))
        return cli_fail(error, "--frames: the directory name is too long");
    scene view = *s;
    view.body_transform = (mf_transform *)sim_run_poses(run);
    if (is_static[0] && view.body_count > 1) {
        ++view.body_shape;
        ++view.body_transform;
        --view.body_count;
    }
    render_request request = {&view, NULL, SIMULATE_FRAME_WIDTH, SIMULATE_FRAME_HEIGHT, path, s->up, caption};
    return render_picture(&request, error);
}

static bool simulate(const simulate_options *o, const sim_engine *engine, const scene *s, const uint8_t *is_static,
                     sim_run **run_out, uint32_t *frames, cli_error *error)
{
    mf_status status = sim_run_create(engine, s, is_static, &o->settings, run_out);
    if (status != MF_OK)
        return cli_fail(error, "%s cannot build the scene: %s", engine->name, mf_status_string(status));
    sim_run *run = *run_out;
    if (o->frames != NULL && mkdir(o->frames, 0777) != 0 && errno != EEXIST)
        return cli_fail(error, "--frames %s: %s", o->frames, strerror(errno));
    uint32_t steps = (uint32_t)ceil(o->seconds / o->settings.step - 1e-9);
    uint32_t frame = 0;
    *frames = 0;
    if (o->frames != NULL && !write_frame(o, s, is_static, run, frame++, error)) return false;
    progress bar;
    progress_begin(&bar, "simulating");
    for (uint32_t i = 0; i < steps; ++i) {
        status = sim_run_step(run);
        if (status != MF_OK) {
            progress_end(&bar);
            return cli_fail(error, "step %u: %s", i, mf_status_string(status));
        }
        double time = (i + 1) * o->settings.step;
        if (o->frames != NULL && time >= frame / SIMULATE_FRAME_RATE - 1e-9 &&
            !write_frame(o, s, is_static, run, frame++, error)) {
            progress_end(&bar);
            return false;
        }
        *frames = frame;
        progress_update(&bar, (i + 1.0) / steps);
    }
    progress_end(&bar);
    return true;
}

// What the report and the plot call the narrow phase: only ODE's adapter runs uncached.
static const char *narrowphase_name(const simulate_options *o)
{
    if (o->settings.narrowphase == SIM_NARROWPHASE_ENGINE) return "the engine's own";
    return o->settings.uncached && strcmp(o->engine, "ode") == 0 ? "manyfold, uncached" : "manyfold";
}

static void print_report(const simulate_options *o, const scene *s, const uint8_t *is_static, const sim_run *run,
                         uint32_t frames)
{
    sim_figures f = sim_run_figures(run);
    uint32_t moving = 0;
    for (uint32_t i = 0; i < s->body_count; ++i) moving += is_static[i] == 0;
    printf("scene %s: %u bodies, %u moving; engine %s, narrow phase %s\n", s->name, s->body_count, moving, o->engine,
           narrowphase_name(o));
    printf("simulated       %.3g s in %u steps of %.4g s\n", f.seconds, f.steps, o->settings.step);
    printf("penetration     %.3f mm deepest, %.3f mm deepest over the last second\n", 1e3 * f.max_penetration,
           1e3 * f.max_penetration_settled);
    printf("speed           %.3f mm/s mean, %.3f mm/s largest, over the last second\n", 1e3 * f.mean_speed,
           1e3 * f.max_speed);
    printf("top body drift  %.3f mm largest, %.3f mm at the end (body %u)\n", 1e3 * f.max_drift, 1e3 * f.final_drift,
           sim_run_top_body(run));
    printf("escaped         %u bodies\n", f.escaped);
    if (f.pairs > 0.0)
        printf("collision       %.4f ms per step (%.0f pairs, %.0f contacts a step)\n", f.collide_ms, f.pairs,
               f.contacts);
    else printf("collision       %.4f ms per step (%.0f contacts a step)\n", f.collide_ms, f.contacts);
    if (frames > 0) printf("frames          %u in %s\n", frames, o->frames);
    if (o->plot != NULL) printf("plot            %s\n", o->plot);
}

int simulate_command(int argc, char **argv)
{
    simulate_options o = parse_options(argc, argv);
    const sim_engine *engine = find_engine(o.engine);
    if (engine == NULL) {
        fprintf(stderr,
                "manyfold simulate: the %s back end is not built into this program (it is built where %s is "
                "found when the build is configured: tools/engines/meson.build)\n",
                o.engine, strcmp(o.engine, "ode") == 0 ? "ODE (libode-dev)" : "Bullet (libbullet-dev)");
        return CLI_EXIT_INPUT;
    }
    cli_error error;
    scene s = {0};
    uint8_t *is_static = NULL;
    if (!open_scene(&o, &s, &is_static, &error)) {
        fprintf(stderr, "manyfold simulate: %s\n", error.text);
        free(is_static);
        scene_free(&s);
        return CLI_EXIT_INPUT;
    }
    sim_run *run = NULL;
    uint32_t frames = 0;
    bool ok = simulate(&o, engine, &s, is_static, &run, &frames, &error);
    if (ok && o.plot != NULL) {
        uint32_t count;
        const sim_sample *samples = sim_run_samples(run, &count);
        char title[512];
        snprintf(title, sizeof(title), "%s in %s, narrow phase %s", s.name, o.engine, narrowphase_name(&o));
        ok = sim_plot_draw(o.plot, title, samples, count, &error);
    }
    if (ok) print_report(&o, &s, is_static, run, frames);
    else fprintf(stderr, "manyfold simulate: %s\n", error.text);
    sim_run_destroy(run);
    free(is_static);
    scene_free(&s);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

// `manyfold run`: broad phase, mf_collide over every candidate pair, a report of counts and speed,
// optionally the manifolds to a file; with --steps, the scene is nudged and collided again.
#include "args.h"
#include "commands.h"
#include "isa_names.h"
#include "manifold_file.h"
#include "narrowphase.h"
#include "progress.h"
#include "scene_broadphase.h"
#include "scene_file.h"
#include "scene_random.h"
#include "stopwatch.h"
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_DEFAULT_BODIES 4000u
#define RUN_MAX_BODIES 4000000u

static const char run_help[] =
    "Usage: manyfold run [SCENE] [OPTIONS]\n"
    "\n"
    "Collide every candidate pair of a scene and report what touched and how fast.\n"
    "SCENE is a JSON scene file or 'default', the built-in pile of boxes and rocks on the\n"
    "ground, which is used when SCENE is left out. The format and example scenes:\n"
    "  " MANYFOLD_CLI_SCENES "/README.md\n"
    "(tools/scenes/ in the source).\n"
    "Candidate pairs come from a sort-and-sweep over bounding boxes grown by the margin.\n"
    "\n"
    "Options:\n"
    "  --bodies N     bodies in the default pile, ground included (default 4000)\n"
    "  --isa NAME     auto, scalar, sse, avx2, avx512 or neon (default auto)\n"
    "  --threads N    worker threads; 0 uses all cores (default 0)\n"
    "  --steps K      collide K times, nudging every body a little between steps (default 1)\n"
    "  --out FILE     write the manifolds as JSON Lines, or as CSV when FILE ends in .csv\n"
    "  -h, --help     show this help\n"
    "\n"
    "Exit status: 0 success, 1 bad input (scene file, unsupported ISA), 2 bad usage.\n";

typedef struct run_options {
    const char *scene;
    uint32_t bodies;
    bool bodies_given;
    mf_isa isa;
    uint32_t threads, steps;
    const char *out;
} run_options;

// Long options without a short form return letters that the short options (":ho:") leave out.
static run_options parse_options(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'},
                                            {"bodies", required_argument, NULL, 'b'},
                                            {"isa", required_argument, NULL, 'i'},
                                            {"threads", required_argument, NULL, 't'},
                                            {"steps", required_argument, NULL, 's'},
                                            {"out", required_argument, NULL, 'o'},
                                            {NULL, 0, NULL, 0}};
    run_options o = {.bodies = RUN_DEFAULT_BODIES, .isa = MF_ISA_AUTO, .steps = 1};
    for (int option; (option = arg_next("run", argc, argv, ":ho:", options)) != -1;) {
        if (option == 'h') {
            fputs(run_help, stdout);
            exit(CLI_EXIT_OK);
        } else if (option == 'b') {
            o.bodies = arg_parse_count("run", "--bodies", optarg, 1, RUN_MAX_BODIES);
            o.bodies_given = true;
        } else if (option == 'i') {
            if (!isa_from_name(optarg, &o.isa))
                usage_error("run", "--isa wants auto, scalar, sse, avx2, avx512 or neon, not '%s'", optarg);
        } else if (option == 't') {
            o.threads = arg_parse_count("run", "--threads", optarg, 0, 4096);
        } else if (option == 's') {
            o.steps = arg_parse_count("run", "--steps", optarg, 1, 1000000);
        } else if (option == 'o') {
            o.out = optarg;
        }
    }
    if (argc - optind > 1)
        usage_error("run", "one scene at most, but got '%s' and '%s'", argv[optind], argv[optind + 1]);
    o.scene = optind < argc ? argv[optind] : NULL;
    if (o.bodies_given && o.scene != NULL && strcmp(o.scene, "default") != 0)
        usage_error("run", "--bodies sizes the default pile; a scene file has its own bodies");
    return o;
}

// A step's nudge: about 1% of a typical body's size in position, a small random turn in rotation.
static void perturb(scene *s, float distance, scene_random *random)
{
    for (uint32_t i = 0; i < s->body_count; ++i) {
        mf_transform *t = &s->body_transform[i];
        t->p.x += scene_random_range(random, -distance, distance);
        t->p.y += scene_random_range(random, -distance, distance);
        t->p.z += scene_random_range(random, -distance, distance);
        mf_quat q = t->q;
        q.x += scene_random_range(random, -0.005f, 0.005f);
        q.y += scene_random_range(random, -0.005f, 0.005f);
        q.z += scene_random_range(random, -0.005f, 0.005f);
        q.w += scene_random_range(random, -0.005f, 0.005f);
        float scale = 1.0f / sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        t->q = (mf_quat){q.x * scale, q.y * scale, q.z * scale, q.w * scale};
    }
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

// The median radius over bodies: the ground of a pile is one huge outlier among many rocks.
static float typical_radius(const scene *s)
{
    if (s->body_count == 0) return 1.0f;
    float *radii = malloc(s->body_count * sizeof(float));
    if (radii == NULL) return 1.0f;
    for (uint32_t i = 0; i < s->body_count; ++i) {
        mf_shape_info info = {.radius = 1.0f};
        mf_bank_shape_info(s->bank, s->body_shape[i], &info);
        radii[i] = info.radius;
    }
    qsort(radii, s->body_count, sizeof(float), compare_floats);
    float median = radii[s->body_count / 2];
    free(radii);
    return median;
}

typedef struct run_sink {
    manifold_writer *writer;
    progress *progress;
    uint32_t step, steps, pair_count;
} run_sink;

static bool on_chunk(void *user, const mf_pair *pairs, uint32_t pair_offset, uint32_t pairs_done,
                     const mf_stream *stream, cli_error *error)
{
    run_sink *sink = user;
    if (sink->writer != NULL && !manifold_writer_write(sink->writer, sink->step, pairs, pair_offset, stream, error))
        return false;
    double within_step = sink->pair_count > 0 ? (double)(pair_offset + pairs_done) / sink->pair_count : 1.0;
    progress_update(sink->progress, (sink->step + within_step) / sink->steps);
    return true;
}

typedef struct run_totals {
    uint32_t pairs, manifolds, contacts; // of the last step
    double broadphase_seconds, collide_seconds;
    uint64_t pairs_collided;
} run_totals;

static bool collide_steps(const run_options *o, scene *s, mf_context *context, manifold_writer *writer,
                          run_totals *totals, cli_error *error)
{
    scene_broadphase *broad = scene_broadphase_create(s->bank);
    narrowphase narrow;
    if (broad == NULL) return cli_fail(error, "out of memory for the broad phase");
    if (!narrowphase_init(&narrow, NARROWPHASE_CHUNK_PAIRS, s->config.max_contacts, error)) {
        scene_broadphase_destroy(broad);
        return false;
    }
    mf_bodies bodies = scene_bodies(s);
    scene_random random = {12345u};
    float nudge = 0.01f * typical_radius(s);
    progress bar;
    progress_begin(&bar, "colliding");
    bool ok = true;
    for (uint32_t step = 0; step < o->steps && ok; ++step) {
        if (step > 0) perturb(s, nudge, &random);
        const mf_pair *pairs;
        uint32_t pair_count;
        double start = stopwatch_seconds();
        mf_status status = scene_broadphase_find_pairs(broad, context, &bodies, s->config.margin, &pairs, &pair_count);
        totals->broadphase_seconds += stopwatch_seconds() - start;
        if (status != MF_OK) {
            ok = cli_fail(error, "the broad phase failed: %s", mf_status_string(status));
            break;
        }
        uint64_t manifolds_before = narrow.manifolds, contacts_before = narrow.contacts;
        run_sink sink = {writer, &bar, step, o->steps, pair_count};
        ok = narrowphase_collide(&narrow, context, s->bank, &bodies, pairs, pair_count, on_chunk, &sink, error);
        totals->pairs = pair_count;
        totals->manifolds = (uint32_t)(narrow.manifolds - manifolds_before);
        totals->contacts = (uint32_t)(narrow.contacts - contacts_before);
    }
    progress_end(&bar);
    totals->collide_seconds = narrow.collide_seconds;
    totals->pairs_collided = narrow.pairs;
    narrowphase_free(&narrow);
    scene_broadphase_destroy(broad);
    return ok;
}

static void print_report(const run_options *o, const scene *s, const mf_context *context, const run_totals *t)
{
    const char *last = o->steps > 1 ? " (last step)" : "";
    unsigned threads = mf_context_threads(context);
    const char *threads_note = threads < o->threads || (o->threads == 0 && threads < cli_topology_read().cores)
                                   ? " (the library does not run more yet)"
                                   : "";
    double per_step = 1e3 / o->steps;
    printf("scene            %s\n", s->name);
    printf("bodies           %u\n", s->body_count);
    printf("candidate pairs  %u%s\n", t->pairs, last);
    printf("touching pairs   %u%s\n", t->manifolds, last);
    printf("contacts         %u%s\n", t->contacts, last);
    printf("isa              %s\n", mf_isa_name(mf_context_isa(context)));
    printf("threads          %u%s\n", threads, threads_note);
    printf("steps            %u\n", o->steps);
    printf("broad phase      %.3f ms per step\n", t->broadphase_seconds * per_step);
    printf("collide          %.3f ms per step\n", t->collide_seconds * per_step);
    if (t->collide_seconds > 0.0) printf("pairs/s          %.0f\n", (double)t->pairs_collided / t->collide_seconds);
    else printf("pairs/s          -\n");
    if (o->out != NULL) printf("manifolds in     %s\n", o->out);
}

int run_command(int argc, char **argv)
{
    run_options o = parse_options(argc, argv);
    cli_error error;
    scene s;
    if (!scene_file_open(o.scene, o.bodies, &s, &error)) {
        fprintf(stderr, "manyfold run: %s\n", error.text);
        return CLI_EXIT_INPUT;
    }
    mf_config config = s.config;
    config.isa = o.isa;
    config.threads = o.threads;
    mf_context *context;
    mf_status status = mf_context_create(&config, &context);
    if (status != MF_OK) {
        if (status == MF_ERR_UNSUPPORTED_ISA) {
            char why[256];
            isa_why_unsupported(o.isa, why, sizeof(why));
            fprintf(stderr, "manyfold run: --isa %s: unsupported ISA: %s\n", mf_isa_name(o.isa), why);
        } else
            fprintf(stderr, "manyfold run: %s: the library refused the configuration: %s\n", s.name,
                    mf_status_string(status));
        scene_free(&s);
        return CLI_EXIT_INPUT;
    }
    manifold_writer writer = {0};
    bool ok = o.out == NULL || manifold_writer_open(&writer, o.out, &error);
    run_totals totals = {0};
    if (ok) ok = collide_steps(&o, &s, context, o.out != NULL ? &writer : NULL, &totals, &error);
    cli_error close_error; // a failed close matters only when all went well until then
    if (!manifold_writer_close(&writer, &close_error) && ok) {
        error = close_error;
        ok = false;
    }
    if (ok) print_report(&o, &s, context, &totals);
    else fprintf(stderr, "manyfold run: %s\n", error.text);
    mf_context_destroy(context);
    scene_free(&s);
    return ok ? CLI_EXIT_OK : CLI_EXIT_INPUT;
}

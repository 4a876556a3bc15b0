// Fuzz harness: the command line's scene-file loader (tools/cli/scene_file.c, json_source.c and
// points_file.c through cJSON) on arbitrary bytes.
//
// The loader reads a path, so each input is written to scene.json in a private temporary
// directory, next to rock.obj and rock.xyz that an "obj" shape may name. Inputs naming an
// absolute path or one with ".." are skipped: a scene may read any file it names, and /dev/zero
// or a terminal would only hang the fuzzer.
//
// Checked: a failed load leaves a message starting with the path and an empty scene; a loaded
// scene holds what the file format promises (shape ids in range, finite positions within the
// coordinate limit, unit quaternions, a config the library accepts), and colliding its first
// bodies gives a well-formed stream (fuzz_check_stream).
#define _POSIX_C_SOURCE 200809L

#include "fuzz_util.h"

#include "scene_file.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

static char directory[64];
static char scene_path[96], obj_path[96], xyz_path[96];

static void remove_files(void)
{
    unlink(scene_path);
    unlink(obj_path);
    unlink(xyz_path);
    rmdir(directory);
}

static void write_file(const char *path, const void *bytes, size_t size)
{
    FILE *file = fopen(path, "wb");
    FUZZ_REQUIRE(file != NULL, "cannot write %s", path);
    FUZZ_REQUIRE(fwrite(bytes, 1, size, file) == size, "cannot write %s", path);
    FUZZ_REQUIRE(fclose(file) == 0, "cannot write %s", path);
}

static void make_directory(void)
{
    snprintf(directory, sizeof(directory), "/tmp/manyfold-fuzz-scene-XXXXXX");
    FUZZ_REQUIRE(mkdtemp(directory) != NULL, "mkdtemp");
    snprintf(scene_path, sizeof(scene_path), "%s/scene.json", directory);
    snprintf(obj_path, sizeof(obj_path), "%s/rock.obj", directory);
    snprintf(xyz_path, sizeof(xyz_path), "%s/rock.xyz", directory);
    static const char obj[] = "# a rock\no rock\nv 0.4 0 0\nv 0 0.3 0\nv 0 0 0.4\nv -0.3 -0.2 -0.3\n"
                              "v 0.1 0.2 -0.3\nvn 0 1 0\nf 1 2 3\n";
    static const char xyz[] = "0.5 0 0\n0 0.5 0\n0 0 0.5\n-0.5, -0.5, -0.5\n# done\n";
    write_file(obj_path, obj, sizeof(obj) - 1);
    write_file(xyz_path, xyz, sizeof(xyz) - 1);
    atexit(remove_files);
}

// False if any string in the document is an absolute path or climbs out with "..".
static bool strings_stay_inside(const cJSON *node)
{
    for (; node != NULL; node = node->next) {
        if (cJSON_IsString(node) && node->valuestring != NULL &&
            (node->valuestring[0] == '/' || strstr(node->valuestring, "..") != NULL))
            return false;
        if (!strings_stay_inside(node->child)) return false;
    }
    return true;
}

static bool safe_to_load(const uint8_t *data, size_t size)
{
    // The loader's own parse (json_source.c): what it cannot parse, it does not open files for.
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts((const char *)data, size, &end, 0);
    if (root == NULL) return true;
    bool safe = strings_stay_inside(root);
    cJSON_Delete(root);
    return safe;
}

static void check_scene(const scene *s)
{
    FUZZ_REQUIRE(s->bank != NULL && s->name != NULL && strcmp(s->name, scene_path) == 0, "scene name");
    uint32_t shapes = mf_bank_shape_count(s->bank);
    FUZZ_REQUIRE(s->body_count == 0 || (s->body_shape != NULL && s->body_transform != NULL), "bodies");
    for (uint32_t i = 0; i < s->body_count; ++i) {
        FUZZ_REQUIRE(s->body_shape[i] < shapes, "body %u has shape %u of %u", i, s->body_shape[i], shapes);
        mf_transform t = s->body_transform[i];
        FUZZ_REQUIRE(fuzz_finite3(t.p) && fabsf(t.p.x) <= CLI_MAX_COORDINATE && fabsf(t.p.y) <= CLI_MAX_COORDINATE &&
                         fabsf(t.p.z) <= CLI_MAX_COORDINATE,
                     "body %u at %g %g %g", i, (double)t.p.x, (double)t.p.y, (double)t.p.z);
        double length =
            sqrt((double)t.q.x * t.q.x + (double)t.q.y * t.q.y + (double)t.q.z * t.q.z + (double)t.q.w * t.q.w);
        FUZZ_REQUIRE(fabs(length - 1.0) < 1e-5, "body %u: quaternion of length %.9g", i, length);
    }
    mf_context *context;
    mf_status status = mf_context_create(&s->config, &context);
    FUZZ_REQUIRE(status == MF_OK, "the scene's config is refused: %s (margin %g slop %g max %u)",
                 mf_status_string(status), (double)s->config.margin, (double)s->config.linear_slop,
                 s->config.max_contacts);

    // Every pair among the first bodies.
    enum { BODIES = 12, PAIRS = BODIES * (BODIES - 1) / 2 };
    mf_pair pairs[PAIRS];
    uint32_t pair_count = 0, bodies_used = s->body_count < BODIES ? s->body_count : BODIES;
    for (uint32_t a = 0; a < bodies_used; ++a)
        for (uint32_t b = a + 1; b < bodies_used; ++b) pairs[pair_count++] = (mf_pair){a, b};
    static mf_manifold manifolds[PAIRS];
    static mf_contact contacts[PAIRS * MF_MAX_CONTACTS];
    mf_stream stream = {manifolds, PAIRS, 0, contacts, PAIRS * MF_MAX_CONTACTS, 0, 0, NULL, 0, 0};
    mf_bodies bodies = scene_bodies(s);
    status = mf_collide(context, s->bank, &bodies, pairs, pair_count, &stream);
    FUZZ_REQUIRE(status == MF_OK, "colliding a loaded scene: %s (%s)", mf_status_string(status),
                 mf_context_message(context));
    fuzz_check_stream(&stream, status, pair_count, s->config.max_contacts);
    mf_context_destroy(context);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (directory[0] == '\0') make_directory();
    if (!safe_to_load(data, size)) return 0;
    write_file(scene_path, data, size);
    scene s;
    cli_error error = {{0}};
    bool loaded = scene_file_load(scene_path, &s, &error);
    if (loaded) {
        check_scene(&s);
        scene_free(&s);
    } else {
        FUZZ_REQUIRE(strncmp(error.text, scene_path, strlen(scene_path)) == 0 &&
                         strlen(error.text) > strlen(scene_path),
                     "a failed load says \"%s\"", error.text);
        FUZZ_REQUIRE(s.bank == NULL && s.body_shape == NULL && s.body_count == 0 && s.name == NULL,
                     "a failed load left a scene");
    }
    return 0;
}

// Scene file loading: every value is checked (type, finiteness, range) and every problem is
// reported with the file and line of the value at fault.
#include "scene_file.h"

#include "json_source.h"
#include "points_file.h"
#include "scene_store.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scene_reader {
    const char *path;
    json_source json;
    cli_error *error;
    scene *scene;
    const char **shape_names; // index = shape id
    uint32_t shape_count;
} scene_reader;

static bool fail_at(scene_reader *reader, const cJSON *node, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool fail_at(scene_reader *reader, const cJSON *node, const char *format, ...)
{
    char problem[768];
    va_list args;
    va_start(args, format);
    vsnprintf(problem, sizeof(problem), format, args);
    va_end(args);
    uint32_t line = json_source_line(&reader->json, node);
    if (line == 0) return cli_fail(reader->error, "%s: %s", reader->path, problem);
    return cli_fail(reader->error, "%s:%u: %s", reader->path, line, problem);
}

static const char *type_name(const cJSON *node)
{
    if (cJSON_IsNumber(node)) return "a number";
    if (cJSON_IsString(node)) return "a string";
    if (cJSON_IsArray(node)) return "an array";
    if (cJSON_IsObject(node)) return "an object";
    if (cJSON_IsBool(node)) return "a boolean";
    if (cJSON_IsNull(node)) return "null";
    return "an unknown value";
}

// Refuses keys outside `allowed` (NULL-terminated), and a key given twice: a misspelt optional key,
// or the second of two, would otherwise be ignored without a word (lookups find the first).
static bool check_keys(scene_reader *reader, const cJSON *object, const char *what, const char *const *allowed)
{
    for (const cJSON *member = object->child; member != NULL; member = member->next) {
        for (const cJSON *earlier = object->child; earlier != member; earlier = earlier->next) {
            if (strcmp(earlier->string, member->string) != 0) continue;
            uint32_t line = json_source_line(&reader->json, earlier);
            return fail_at(reader, member, "%s: \"%s\" is given twice (first on line %u); give it once", what,
                           member->string, line);
        }
        bool known = false;
        for (const char *const *key = allowed; *key != NULL && !known; ++key) known = strcmp(member->string, *key) == 0;
        if (known) continue;
        char expected[256] = "";
        for (const char *const *key = allowed; *key != NULL; ++key) {
            strncat(expected, *key, sizeof(expected) - strlen(expected) - 1);
            if (key[1] != NULL) strncat(expected, ", ", sizeof(expected) - strlen(expected) - 1);
        }
        return fail_at(reader, member, "%s: unknown key \"%s\" (expected %s)", what, member->string, expected);
    }
    return true;
}

static const cJSON *member_of(const cJSON *object, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

// A finite number within [low, high]; `what` names the value in messages.
static bool read_number(scene_reader *reader, const cJSON *node, const char *what, double low, double high,
                        double *value)
{
    if (!cJSON_IsNumber(node)) return fail_at(reader, node, "%s must be a number, not %s", what, type_name(node));
    double v = node->valuedouble;
    if (!isfinite(v)) return fail_at(reader, node, "%s is not finite (JSON numbers beyond 1e308 overflow)", what);
    if (v < low || v > high) return fail_at(reader, node, "%s = %g is outside [%g, %g]", what, v, low, high);
    *value = v;
    return true;
}

// An array of exactly `n` finite numbers, each within [-limit, limit].
static bool read_numbers(scene_reader *reader, const cJSON *node, const char *what, int n, double limit, double *values)
{
    if (!cJSON_IsArray(node))
        return fail_at(reader, node, "%s must be an array of %d numbers, not %s", what, n, type_name(node));
    if (cJSON_GetArraySize(node) != n)
        return fail_at(reader, node, "%s must be an array of %d numbers, not of %d", what, n, cJSON_GetArraySize(node));
    int i = 0;
    for (const cJSON *item = node->child; item != NULL; item = item->next, ++i) {
        char item_name[160];
        snprintf(item_name, sizeof(item_name), "%s[%d]", what, i);
        if (!read_number(reader, item, item_name, -limit, limit, &values[i])) return false;
    }
    return true;
}

static bool read_vec3(scene_reader *reader, const cJSON *node, const char *what, double limit, mf_vec3 *out)
{
    double v[3];
    if (!read_numbers(reader, node, what, 3, limit, v)) return false;
    *out = (mf_vec3){(float)v[0], (float)v[1], (float)v[2]};
    return true;
}

static bool require_member(scene_reader *reader, const cJSON *object, const char *key, const char *what,
                           const cJSON **member)
{
    *member = member_of(object, key);
    if (*member == NULL) return fail_at(reader, object, "%s: missing \"%s\"", what, key);
    return true;
}

// The directory part of the scene's path, to resolve "obj" paths against.
static void resolve_relative(const char *scene_path, const char *relative, char *out, size_t out_size)
{
    const char *slash = strrchr(scene_path, '/');
    if (relative[0] == '/' || slash == NULL) snprintf(out, out_size, "%s", relative);
    else snprintf(out, out_size, "%.*s/%s", (int)(slash - scene_path + 1), scene_path, relative);
}

static void scale_points(mf_vec3 *points, uint32_t count, double scale)
{
    for (uint32_t i = 0; i < count && scale != 1.0; ++i)
        points[i] = (mf_vec3){(float)(points[i].x * scale), (float)(points[i].y * scale), (float)(points[i].z * scale)};
}

static bool add_hull_shape(scene_reader *reader, const cJSON *node, const char *what, const mf_vec3 *points,
                           uint32_t count, const char *source)
{
    uint32_t id;
    mf_status status = scene_store_add_hull(reader->scene, points, count, &id);
    if (status != MF_OK)
        return fail_at(reader, node, "%s: the hull of %s (%u points) cannot be built: %s", what, source, count,
                       mf_status_string(status));
    return true;
}

static bool read_shape(scene_reader *reader, const cJSON *shape, uint32_t index)
{
    char what[160];
    snprintf(what, sizeof(what), "shapes[%u]", index);
    if (!cJSON_IsObject(shape)) return fail_at(reader, shape, "%s must be an object, not %s", what, type_name(shape));
    static const char *const keys[] = {"name", "box", "hull", "obj", "scale", NULL};
    if (!check_keys(reader, shape, what, keys)) return false;

    const cJSON *name;
    if (!require_member(reader, shape, "name", what, &name)) return false;
    if (!cJSON_IsString(name) || name->valuestring[0] == '\0')
        return fail_at(reader, name, "%s: \"name\" must be a non-empty string, not %s", what, type_name(name));
    for (uint32_t i = 0; i < index; ++i)
        if (strcmp(reader->shape_names[i], name->valuestring) == 0)
            return fail_at(reader, name, "%s: the name \"%s\" is already used by shapes[%u]", what, name->valuestring,
                           i);
    snprintf(what, sizeof(what), "shape \"%.100s\"", name->valuestring);
    reader->shape_names[index] = name->valuestring;

    const cJSON *box = member_of(shape, "box"), *hull = member_of(shape, "hull"), *obj = member_of(shape, "obj");
    int kinds = (box != NULL) + (hull != NULL) + (obj != NULL);
    if (kinds != 1)
        return fail_at(reader, shape, "%s: give exactly one of \"box\", \"hull\" or \"obj\" (found %d)", what, kinds);

    // An optional uniform scale, so a mesh modelled in other units fits the scene.
    double scale = 1.0;
    const cJSON *scale_node = member_of(shape, "scale");
    char scale_what[200];
    snprintf(scale_what, sizeof(scale_what), "%s: \"scale\"", what);
    if (scale_node != NULL && !read_number(reader, scale_node, scale_what, 0.0, 1e6, &scale)) return false;
    if (!(scale > 0.0)) return fail_at(reader, scale_node, "%s must be positive", scale_what);

    uint32_t id;
    if (box != NULL) {
        mf_vec3 half;
        char box_what[200];
        snprintf(box_what, sizeof(box_what), "%s: \"box\"", what);
        if (!read_vec3(reader, box, box_what, CLI_MAX_COORDINATE, &half)) return false;
        half = (mf_vec3){(float)(half.x * scale), (float)(half.y * scale), (float)(half.z * scale)};
        if (!(half.x > 0.0f && half.y > 0.0f && half.z > 0.0f))
            return fail_at(reader, box, "%s: box half extents must be positive", what);
        mf_status status = scene_store_add_box(reader->scene, half, &id);
        if (status != MF_OK)
            return fail_at(reader, box, "%s: the box cannot be built: %s", what, mf_status_string(status));
        return true;
    }
    if (hull != NULL) {
        if (!cJSON_IsArray(hull))
            return fail_at(reader, hull, "%s: \"hull\" must be an array of [x, y, z] points, not %s", what,
                           type_name(hull));
        uint32_t count = (uint32_t)cJSON_GetArraySize(hull);
        mf_vec3 *points = malloc((count > 0 ? count : 1) * sizeof(mf_vec3));
        if (points == NULL) return fail_at(reader, hull, "%s: out of memory", what);
        uint32_t i = 0;
        bool ok = true;
        for (const cJSON *point = hull->child; point != NULL && ok; point = point->next, ++i) {
            char point_what[200];
            snprintf(point_what, sizeof(point_what), "%s: hull point %u", what, i);
            ok = read_vec3(reader, point, point_what, CLI_MAX_COORDINATE, &points[i]);
        }
        scale_points(points, count, scale);
        if (ok) ok = add_hull_shape(reader, hull, what, points, count, "its points");
        free(points);
        return ok;
    }
    if (!cJSON_IsString(obj))
        return fail_at(reader, obj, "%s: \"obj\" must be a file path string, not %s", what, type_name(obj));
    char obj_path[4096];
    resolve_relative(reader->path, obj->valuestring, obj_path, sizeof(obj_path));
    mf_vec3 *points;
    uint32_t count;
    cli_error obj_error;
    if (!points_file_read(obj_path, &points, &count, &obj_error))
        return fail_at(reader, obj, "%s: %s", what, obj_error.text);
    scale_points(points, count, scale);
    bool ok = add_hull_shape(reader, obj, what, points, count, obj_path);
    free(points);
    return ok;
}

static bool read_body(scene_reader *reader, const cJSON *body, uint32_t index)
{
    char what[64];
    snprintf(what, sizeof(what), "bodies[%u]", index);
    if (!cJSON_IsObject(body)) return fail_at(reader, body, "%s must be an object, not %s", what, type_name(body));
    static const char *const keys[] = {"shape", "position", "rotation", NULL};
    if (!check_keys(reader, body, what, keys)) return false;

    const cJSON *shape, *position, *rotation = member_of(body, "rotation");
    if (!require_member(reader, body, "shape", what, &shape)) return false;
    if (!cJSON_IsString(shape))
        return fail_at(reader, shape, "%s: \"shape\" must be a shape's name (a string), not %s", what,
                       type_name(shape));
    uint32_t id = 0;
    while (id < reader->shape_count && strcmp(reader->shape_names[id], shape->valuestring) != 0) ++id;
    if (id == reader->shape_count)
        return fail_at(reader, shape, "%s: unknown shape \"%.100s\" (not among \"shapes\")", what, shape->valuestring);
    reader->scene->body_shape[index] = id;

    char field[96];
    mf_transform *transform = &reader->scene->body_transform[index];
    if (!require_member(reader, body, "position", what, &position)) return false;
    snprintf(field, sizeof(field), "%s: \"position\"", what);
    if (!read_vec3(reader, position, field, CLI_MAX_COORDINATE, &transform->p)) return false;

    transform->q = (mf_quat){0.0f, 0.0f, 0.0f, 1.0f};
    if (rotation != NULL) {
        double q[4];
        snprintf(field, sizeof(field), "%s: \"rotation\"", what);
        if (!read_numbers(reader, rotation, field, 4, 1e30, q)) return false;
        double length = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(length > 1e-6))
            return fail_at(reader, rotation, "%s: \"rotation\" [x, y, z, w] must be a non-zero quaternion", what);
        transform->q =
            (mf_quat){(float)(q[0] / length), (float)(q[1] / length), (float)(q[2] / length), (float)(q[3] / length)};
    }
    return true;
}

static bool read_config(scene_reader *reader, const cJSON *config)
{
    if (!cJSON_IsObject(config))
        return fail_at(reader, config, "\"config\" must be an object, not %s", type_name(config));
    static const char *const keys[] = {"margin", "linear_slop", "max_contacts", NULL};
    if (!check_keys(reader, config, "config", keys)) return false;
    mf_config *c = &reader->scene->config;
    double value;
    const cJSON *member;
    if ((member = member_of(config, "margin")) != NULL) {
        if (!read_number(reader, member, "config: \"margin\"", 0.0, CLI_MAX_COORDINATE, &value)) return false;
        c->margin = (float)value;
    }
    if ((member = member_of(config, "linear_slop")) != NULL) {
        if (!read_number(reader, member, "config: \"linear_slop\"", 0.0, CLI_MAX_COORDINATE, &value)) return false;
        c->linear_slop = (float)value;
    }
    if ((member = member_of(config, "max_contacts")) != NULL) {
        if (!read_number(reader, member, "config: \"max_contacts\"", 1, MF_MAX_CONTACTS, &value)) return false;
        if (value != floor(value))
            return fail_at(reader, member, "config: \"max_contacts\" must be a whole number, not %g", value);
        c->max_contacts = (uint32_t)value;
    }
    return true;
}

// "up": "x", "y" or "z", the axis pointing away from the ground (gravity pulls along its
// negative); +z when the scene does not say.
static bool read_up(scene_reader *reader, const cJSON *up)
{
    if (cJSON_IsString(up))
        for (int axis = SCENE_AXIS_X; axis <= SCENE_AXIS_Z; ++axis)
            if (strcmp(up->valuestring, scene_axis_name((scene_axis)axis)) == 0) {
                reader->scene->up = (scene_axis)axis;
                return true;
            }
    if (cJSON_IsString(up))
        return fail_at(reader, up, "\"up\" must be \"x\", \"y\" or \"z\", not \"%.40s\"", up->valuestring);
    return fail_at(reader, up, "\"up\" must be \"x\", \"y\" or \"z\", not %s", type_name(up));
}

static bool read_scene(scene_reader *reader)
{
    const cJSON *root = reader->json.root;
    if (!cJSON_IsObject(root))
        return fail_at(reader, root, "a scene must be a JSON object with \"shapes\" and \"bodies\", not %s",
                       type_name(root));
    static const char *const keys[] = {"comment", "up", "config", "shapes", "bodies", NULL};
    if (!check_keys(reader, root, "scene", keys)) return false;
    const cJSON *shapes, *bodies, *config = member_of(root, "config"), *up = member_of(root, "up");
    if (!require_member(reader, root, "shapes", "scene", &shapes)) return false;
    if (!require_member(reader, root, "bodies", "scene", &bodies)) return false;
    if (!cJSON_IsArray(shapes))
        return fail_at(reader, shapes, "\"shapes\" must be an array, not %s", type_name(shapes));
    if (!cJSON_IsArray(bodies))
        return fail_at(reader, bodies, "\"bodies\" must be an array, not %s", type_name(bodies));

    uint32_t shape_count = (uint32_t)cJSON_GetArraySize(shapes), body_count = (uint32_t)cJSON_GetArraySize(bodies);
    reader->shape_names = calloc(shape_count > 0 ? shape_count : 1, sizeof(char *));
    if (reader->shape_names == NULL || scene_store_create(reader->scene, reader->path, body_count, 0) != MF_OK)
        return cli_fail(reader->error, "%s: out of memory", reader->path);
    if (config != NULL && !read_config(reader, config)) return false;
    if (up != NULL && !read_up(reader, up)) return false;
    uint32_t i = 0;
    for (const cJSON *shape = shapes->child; shape != NULL; shape = shape->next, ++i) {
        if (!read_shape(reader, shape, i)) return false;
        reader->shape_count = i + 1;
    }
    i = 0;
    for (const cJSON *body = bodies->child; body != NULL; body = body->next, ++i)
        if (!read_body(reader, body, i)) return false;
    return true;
}

// Reads the whole file; false with a message when it cannot be read.
static bool read_text(const char *path, char **text, size_t *length, cli_error *error)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) return cli_fail(error, "%s: cannot open: %s", path, strerror(errno));
    size_t capacity = 1 << 16, used = 0;
    char *buffer = malloc(capacity);
    bool ok = buffer != NULL;
    while (ok) {
        if (used == capacity) {
            char *grown = realloc(buffer, capacity * 2);
            if (grown == NULL) {
                ok = false;
                break;
            }
            buffer = grown;
            capacity *= 2;
        }
        errno = 0;
        size_t got = fread(buffer + used, 1, capacity - used, file);
        used += got;
        if (got == 0) {
            if (ferror(file)) {
                fclose(file);
                free(buffer);
                return cli_fail(error, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
            }
            break;
        }
    }
    fclose(file);
    if (!ok) {
        free(buffer);
        return cli_fail(error, "%s: out of memory reading the file", path);
    }
    *text = buffer;
    *length = used;
    return true;
}

bool scene_file_open(const char *name, uint32_t pile_bodies, scene *s, cli_error *error)
{
    if (name != NULL && strcmp(name, "default") != 0) return scene_file_load(name, s, error);
    mf_status status = scene_make_heap(pile_bodies, s);
    if (status != MF_OK)
        return cli_fail(error, "cannot build a pile of %u bodies: %s", pile_bodies, mf_status_string(status));
    return true;
}

bool scene_file_load(const char *path, scene *s, cli_error *error)
{
    *s = (scene){0};
    char *text = NULL;
    size_t length = 0;
    if (!read_text(path, &text, &length, error)) return false;

    scene_reader reader = {.path = path, .error = error, .scene = s};
    uint32_t error_line, error_column;
    bool ok = true;
    size_t blank = 0;
    while (blank < length && (unsigned char)text[blank] <= 32 && text[blank] != '\0') ++blank;
    if (memchr(text, '\0', length) != NULL) ok = cli_fail(error, "%s: a NUL byte: this is not a JSON text file", path);
    else if (blank == length) ok = cli_fail(error, "%s: the file is empty; a scene is a JSON object", path);
    else if (!json_source_parse(&reader.json, text, length, &error_line, &error_column))
        ok = error_line > 0 ? cli_fail(error, "%s:%u: malformed JSON at column %u", path, error_line, error_column)
                            : cli_fail(error, "%s: malformed JSON (empty file?) or out of memory", path);
    if (ok) ok = read_scene(&reader);
    free(reader.shape_names);
    json_source_free(&reader.json);
    free(text);
    if (!ok) scene_free(s);
    return ok;
}

// Writing and reading manifold files (JSON Lines and CSV), with file and line in every message.
#include "manifold_file.h"

#include "points_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CSV_HEADER "step,pair,a,b,normal_x,normal_y,normal_z,point_x,point_y,point_z,separation,id"

bool manifold_writer_open(manifold_writer *writer, const char *path, cli_error *error)
{
    *writer = (manifold_writer){.path = path, .csv = path_has_extension(path, ".csv")};
    writer->file = fopen(path, "w");
    if (writer->file == NULL) return cli_fail(error, "%s: cannot create: %s", path, strerror(errno));
    if (writer->csv) fputs(CSV_HEADER "\n", writer->file);
    return true;
}

// JSON has no NaN or infinity: a non-finite value (a library bug) is written as null, which keeps
// the line valid and makes the reader complain.
static void put_float(FILE *file, float value)
{
    if (isfinite(value)) fprintf(file, "%.9g", (double)value);
    else fputs("null", file);
}

static void put_vec3_json(FILE *file, mf_vec3 v)
{
    fputc('[', file);
    put_float(file, v.x);
    fputc(',', file);
    put_float(file, v.y);
    fputc(',', file);
    put_float(file, v.z);
    fputc(']', file);
}

bool manifold_writer_write(manifold_writer *writer, uint32_t step, const mf_pair *pairs, uint32_t pair_offset,
                           const mf_stream *stream, cli_error *error)
{
    FILE *f = writer->file;
    for (uint32_t i = 0; i < stream->manifold_count; ++i) {
        const mf_manifold *m = &stream->manifolds[i];
        uint32_t pair = pair_offset + m->pair;
        const mf_contact *contacts = stream->contacts + m->first;
        if (writer->csv) {
            for (uint32_t k = 0; k < m->count; ++k) {
                fprintf(f, "%u,%u,%u,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%u\n", step, pair, pairs[pair].a,
                        pairs[pair].b, (double)m->normal.x, (double)m->normal.y, (double)m->normal.z,
                        (double)contacts[k].point.x, (double)contacts[k].point.y, (double)contacts[k].point.z,
                        (double)contacts[k].separation, contacts[k].id);
            }
            continue;
        }
        fprintf(f, "{\"step\":%u,\"pair\":%u,\"a\":%u,\"b\":%u,\"normal\":", step, pair, pairs[pair].a, pairs[pair].b);
        put_vec3_json(f, m->normal);
        fputs(",\"contacts\":[", f);
        for (uint32_t k = 0; k < m->count; ++k) {
            fputs(k > 0 ? ",{\"point\":" : "{\"point\":", f);
            put_vec3_json(f, contacts[k].point);
            fputs(",\"separation\":", f);
            put_float(f, contacts[k].separation);
            fprintf(f, ",\"id\":[%u,%u]}", MF_ID_FEATURE_A(contacts[k].id), MF_ID_FEATURE_B(contacts[k].id));
        }
        fputs("]}\n", f);
    }
    if (ferror(f)) return cli_fail(error, "%s: cannot write: %s", writer->path, strerror(errno ? errno : EIO));
    return true;
}

bool manifold_writer_close(manifold_writer *writer, cli_error *error)
{
    if (writer->file == NULL) return true;
    bool failed = ferror(writer->file) != 0;
    failed |= fclose(writer->file) != 0;
    writer->file = NULL;
    if (failed) return cli_fail(error, "%s: cannot write: %s", writer->path, strerror(errno ? errno : EIO));
    return true;
}

// ---- reading ----

typedef struct line_reader {
    const char *path;
    uint32_t line;
    cli_error *error;
} line_reader;

static bool json_uint(line_reader *r, const cJSON *object, const char *key, uint32_t *value)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0) || item->valuedouble > 4294967295.0 ||
        item->valuedouble != floor(item->valuedouble))
        return cli_fail(r->error, "%s:%u: \"%s\" must be a whole number from 0 to 4294967295", r->path, r->line, key);
    *value = (uint32_t)item->valuedouble;
    return true;
}

static bool json_float(line_reader *r, const cJSON *item, const char *what, float *value)
{
    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) || fabs(item->valuedouble) > 3.4e38)
        return cli_fail(r->error, "%s:%u: %s must be a finite number", r->path, r->line, what);
    *value = (float)item->valuedouble;
    return true;
}

static bool json_vec3(line_reader *r, const cJSON *item, const char *what, mf_vec3 *v)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return cli_fail(r->error, "%s:%u: %s must be an array of 3 numbers", r->path, r->line, what);
    return json_float(r, cJSON_GetArrayItem(item, 0), what, &v->x) &&
           json_float(r, cJSON_GetArrayItem(item, 1), what, &v->y) &&
           json_float(r, cJSON_GetArrayItem(item, 2), what, &v->z);
}

static bool json_contact(line_reader *r, const cJSON *c, mf_contact *contact)
{
    if (!cJSON_IsObject(c)) return cli_fail(r->error, "%s:%u: a contact must be an object", r->path, r->line);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
    if (!json_vec3(r, cJSON_GetObjectItemCaseSensitive(c, "point"), "a contact's \"point\"", &contact->point) ||
        !json_float(r, cJSON_GetObjectItemCaseSensitive(c, "separation"), "a contact's \"separation\"",
                    &contact->separation))
        return false;
    // [a's feature, b's feature]; or, as files written before the halves were, the whole id.
    if (cJSON_IsNumber(id) && id->valuedouble >= 0.0 && id->valuedouble <= 4294967295.0 &&
        id->valuedouble == floor(id->valuedouble)) {
        contact->id = (uint32_t)id->valuedouble;
        return true;
    }
    double half[2] = {-1.0, -1.0};
    if (cJSON_IsArray(id) && cJSON_GetArraySize(id) == 2)
        for (int k = 0; k < 2; ++k)
            if (cJSON_IsNumber(cJSON_GetArrayItem(id, k))) half[k] = cJSON_GetArrayItem(id, k)->valuedouble;
    for (int k = 0; k < 2; ++k)
        if (!(half[k] >= 0.0 && half[k] <= 65535.0 && half[k] == floor(half[k])))
            return cli_fail(r->error,
                            "%s:%u: a contact's \"id\" must be [a's feature, b's feature], two whole numbers "
                            "from 0 to 65535",
                            r->path, r->line);
    contact->id = (uint32_t)half[0] << 16 | (uint32_t)half[1];
    return true;
}

static bool read_json_line(line_reader *r, const char *text, size_t length, uint32_t step, manifold_list *list)
{
    cJSON *root = cJSON_ParseWithLength(text, length);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return cli_fail(r->error, "%s:%u: not a JSON object (one manifold per line expected)", r->path, r->line);
    }
    uint32_t line_step = 0, pair = 0, a = 0, b = 0;
    bool ok = (cJSON_GetObjectItemCaseSensitive(root, "step") == NULL || json_uint(r, root, "step", &line_step)) &&
              json_uint(r, root, "pair", &pair) && json_uint(r, root, "a", &a) && json_uint(r, root, "b", &b);
    mf_vec3 normal;
    ok = ok && json_vec3(r, cJSON_GetObjectItemCaseSensitive(root, "normal"), "\"normal\"", &normal);
    const cJSON *contacts = cJSON_GetObjectItemCaseSensitive(root, "contacts");
    if (ok && !cJSON_IsArray(contacts))
        ok = cli_fail(r->error, "%s:%u: \"contacts\" must be an array", r->path, r->line);
    if (ok && line_step == step) {
        mf_contact *out;
        listed_manifold *m = manifold_list_push(list, (uint32_t)cJSON_GetArraySize(contacts), &out);
        if (m == NULL) {
            cJSON_Delete(root);
            return cli_fail(r->error, "%s:%u: out of memory", r->path, r->line);
        }
        m->step = step;
        m->pair = pair;
        m->a = a;
        m->b = b;
        m->normal = normal;
        uint32_t k = 0;
        for (const cJSON *c = contacts->child; c != NULL && ok; c = c->next, ++k) ok = json_contact(r, c, &out[k]);
    }
    cJSON_Delete(root);
    return ok;
}

// One CSV row: 4 whole numbers, 7 floats, a whole number.
static bool read_csv_row(line_reader *r, const char *text, uint32_t step, manifold_list *list)
{
    double v[12];
    const char *at = text;
    for (int i = 0; i < 12; ++i) {
        char *end;
        errno = 0;
        v[i] = strtod(at, &end);
        bool whole = i < 4 || i == 11;
        if (end == at || !isfinite(v[i]) || errno == ERANGE || (whole && (v[i] < 0 || v[i] != floor(v[i]))) ||
            *end != (i < 11 ? ',' : '\0'))
            return cli_fail(r->error, "%s:%u: field %d is not a valid %s (a row has 12 comma-separated fields)",
                            r->path, r->line, i + 1, whole ? "whole number" : "number");
        at = end + 1;
    }
    if ((uint32_t)v[0] != step) return true;
    listed_manifold *last = list->manifold_count > 0 ? &list->manifolds[list->manifold_count - 1] : NULL;
    mf_contact *contact;
    if (last != NULL && last->pair == (uint32_t)v[1] && last->step == (uint32_t)v[0]) {
        // Another contact of the same manifold: contacts are contiguous, so grow the last one.
        listed_manifold *m = manifold_list_push(list, 1, &contact);
        if (m == NULL) return cli_fail(r->error, "%s:%u: out of memory", r->path, r->line);
        --list->manifold_count;
        ++list->manifolds[list->manifold_count - 1].count;
    } else {
        listed_manifold *m = manifold_list_push(list, 1, &contact);
        if (m == NULL) return cli_fail(r->error, "%s:%u: out of memory", r->path, r->line);
        m->step = (uint32_t)v[0];
        m->pair = (uint32_t)v[1];
        m->a = (uint32_t)v[2];
        m->b = (uint32_t)v[3];
        m->normal = (mf_vec3){(float)v[4], (float)v[5], (float)v[6]};
    }
    *contact = (mf_contact){{(float)v[7], (float)v[8], (float)v[9]}, (float)v[10], (uint32_t)v[11]};
    return true;
}

bool manifold_file_read(const char *path, uint32_t step, manifold_list *list, cli_error *error)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) return cli_fail(error, "%s: cannot open: %s", path, strerror(errno));
    bool csv = path_has_extension(path, ".csv");
    line_reader r = {.path = path, .error = error};
    char *line = NULL;
    size_t capacity = 0;
    bool ok = true;
    for (;;) {
        errno = 0;
        ssize_t length = getline(&line, &capacity, file);
        if (length < 0) {
            if (ferror(file)) ok = cli_fail(error, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
            break;
        }
        ++r.line;
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
        if (length == 0) continue;
        if (csv && r.line == 1) {
            if (strcmp(line, CSV_HEADER) != 0)
                ok = cli_fail(error, "%s:1: not a manifold CSV file (expected the header %s)", path, CSV_HEADER);
        } else {
            ok = csv ? read_csv_row(&r, line, step, list) : read_json_line(&r, line, (size_t)length, step, list);
        }
        if (!ok) break;
    }
    free(line);
    fclose(file);
    return ok;
}

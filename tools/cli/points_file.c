// Reading point clouds line by line, with the file and line in every message.
#include "points_file.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool path_has_extension(const char *path, const char *extension)
{
    size_t length = strlen(path), extension_length = strlen(extension);
    return length > extension_length && strcasecmp(path + length - extension_length, extension) == 0;
}

// Parses up to `max` numbers separated by spaces, tabs or commas; returns how many, or -1 with
// a message on text that is not a number or a value that does not fit a float.
static int parse_numbers(const char *text, double *numbers, int max, char *problem, size_t problem_size)
{
    int count = 0;
    const char *at = text;
    for (;;) {
        while (*at == ' ' || *at == '\t' || *at == ',' || *at == '\r' || *at == '\n') ++at;
        if (*at == '\0' || *at == '#') return count;
        char *end = NULL;
        double value = strtod(at, &end);
        if (end == at) {
            size_t word = strcspn(at, " \t,\r\n");
            snprintf(problem, problem_size, "'%.*s' is not a number", (int)(word < 40 ? word : 40), at);
            return -1;
        }
        if (!isfinite(value) || fabs(value) > FLT_MAX) {
            snprintf(problem, problem_size, "%.*s is not a finite float", (int)(end - at < 40 ? end - at : 40), at);
            return -1;
        }
        if (count == max) {
            snprintf(problem, problem_size, "more than %d numbers", max);
            return -1;
        }
        numbers[count++] = value;
        at = end;
    }
}

bool points_file_read(const char *path, mf_vec3 **points, uint32_t *count, cli_error *error)
{
    *points = NULL;
    *count = 0;
    FILE *file = fopen(path, "rb");
    if (file == NULL) return cli_fail(error, "%s: cannot open: %s", path, strerror(errno));
    bool obj = path_has_extension(path, ".obj");
    mf_vec3 *list = NULL;
    size_t listed = 0, capacity = 0;
    char *line = NULL;
    size_t line_capacity = 0;
    uint32_t line_number = 0;
    bool ok = true;
    while (ok) {
        errno = 0;
        ssize_t length = getline(&line, &line_capacity, file);
        if (length < 0) {
            if (ferror(file)) ok = cli_fail(error, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
            break;
        }
        ++line_number;
        if ((size_t)length != strlen(line)) {
            ok = cli_fail(error, "%s:%u: a NUL byte: this is not a text file", path, line_number);
            break;
        }
        const char *text = line;
        while (isspace((unsigned char)*text)) ++text;
        if (obj) {
            if (text[0] != 'v' || (text[1] != ' ' && text[1] != '\t')) continue; // f, vn, vt, o, g, # ...
            ++text;
        } else if (*text == '\0' || *text == '#') {
            continue;
        }
        double numbers[7];
        char problem[128];
        int found = parse_numbers(text, numbers, obj ? 7 : 3, problem, sizeof(problem));
        if (found >= 0 && found < 3) snprintf(problem, sizeof(problem), "expected 3 coordinates, found %d", found);
        if (found < 3) {
            ok = cli_fail(error, "%s:%u: %s", path, line_number, problem);
            break;
        }
        if (listed == capacity) {
            capacity = capacity < 256 ? 256 : 2 * capacity;
            mf_vec3 *grown = realloc(list, capacity * sizeof(mf_vec3));
            if (grown == NULL) {
                ok = cli_fail(error, "%s: out of memory after %zu points", path, listed);
                break;
            }
            list = grown;
        }
        if (listed >= UINT32_MAX) {
            ok = cli_fail(error, "%s:%u: too many points", path, line_number);
            break;
        }
        list[listed++] = (mf_vec3){(float)numbers[0], (float)numbers[1], (float)numbers[2]};
    }
    free(line);
    fclose(file);
    if (ok && listed == 0) ok = cli_fail(error, "%s: no points found%s", path, obj ? " (no 'v x y z' lines)" : "");
    if (!ok) {
        free(list);
        return false;
    }
    *points = list;
    *count = (uint32_t)listed;
    return true;
}

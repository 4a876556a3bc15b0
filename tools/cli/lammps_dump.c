// Reading LAMMPS dump files line by line: a frame is ITEM: TIMESTEP and its value, then items
// (NUMBER OF ATOMS, BOX BOUNDS, and any other, such as UNITS or TIME, skipped), and last ITEM:
// ATOMS with its column names and one line per atom. Every problem names the file and line.
#include "lammps_dump.h"

#include "scene_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct dump_reader {
    FILE *file;
    const char *path;
    char *line;
    size_t line_capacity;
    uint32_t line_number;
    bool held; // the current line is read again: an unknown item's values ended where the next item began
    uint32_t shape_count;
    uint32_t atom_capacity;
    char **words; // an atom line's values, one more than the columns to notice an extra one
    uint32_t word_capacity;
    cli_error *error;
} dump_reader;

// The ATOMS columns read, by their names in the ATOMS line; -1 where absent.
enum { COLUMN_ID, COLUMN_SHAPE, COLUMN_X, COLUMN_Y, COLUMN_Z, COLUMN_QW, COLUMN_QX, COLUMN_QY, COLUMN_QZ, COLUMNS };
static const char *const column_names[COLUMNS] = {"id",         "i_shape",    "x",          "y",         "z",
                                                  "d2_quat[1]", "d2_quat[2]", "d2_quat[3]", "d2_quat[4]"};

static bool fail_at(dump_reader *r, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static bool fail_at(dump_reader *r, const char *format, ...)
{
    char problem[768];
    va_list args;
    va_start(args, format);
    vsnprintf(problem, sizeof(problem), format, args);
    va_end(args);
    return cli_fail(r->error, "%s:%u: %s", r->path, r->line_number, problem);
}

// 1 with the next line in r->line (its end of line removed), 0 at the end of the file, -1 on a
// read error or a NUL byte (with the message).
static int next_line(dump_reader *r)
{
    if (r->held) {
        r->held = false;
        return 1;
    }
    errno = 0;
    ssize_t got = getline(&r->line, &r->line_capacity, r->file);
    if (got < 0) {
        if (ferror(r->file))
            return cli_fail(r->error, "%s: cannot read: %s", r->path, strerror(errno ? errno : EIO)), -1;
        if (errno == ENOMEM) return cli_fail(r->error, "%s: out of memory reading a line", r->path), -1;
        return 0;
    }
    ++r->line_number;
    while (got > 0 && (r->line[got - 1] == '\n' || r->line[got - 1] == '\r')) r->line[--got] = '\0';
    if (strlen(r->line) != (size_t)got) return fail_at(r, "a NUL byte: this is not a LAMMPS dump text file"), -1;
    return 1;
}

static bool is_blank(const char *text) { return text[strspn(text, " \t")] == '\0'; }

// The item a line names ("ITEM: NUMBER OF ATOMS" gives "NUMBER OF ATOMS"), or NULL.
static const char *item_of(const char *line)
{
    if (strncmp(line, "ITEM:", 5) != 0) return NULL;
    return line + 5 + strspn(line + 5, " \t");
}

static bool item_is(const char *item, const char *name)
{
    size_t length = strlen(name);
    return strncmp(item, name, length) == 0 && (item[length] == '\0' || item[length] == ' ' || item[length] == '\t');
}

// Splits `text` in place at spaces and tabs; stores up to `max` words and returns how many there are.
static uint32_t split(char *text, char **words, uint32_t max)
{
    uint32_t count = 0;
    for (char *at = text;;) {
        at += strspn(at, " \t");
        if (*at == '\0') return count;
        char *end = at + strcspn(at, " \t");
        if (count < max) words[count] = at;
        ++count;
        if (*end == '\0') return count;
        *end = '\0';
        at = end + 1;
    }
}

// The value line after an item, which must be there and be one whole number.
static bool read_integer_line(dump_reader *r, const char *item, int64_t low, int64_t high, int64_t *value)
{
    int got = next_line(r);
    if (got < 0) return false;
    if (got == 0) return fail_at(r, "the file ends after ITEM: %s, before its value (truncated?)", item);
    char *words[2];
    uint32_t count = split(r->line, words, 2);
    if (count != 1) return fail_at(r, "ITEM: %s wants one whole number on the next line, not %u words", item, count);
    char *end = NULL;
    errno = 0;
    long long v = strtoll(words[0], &end, 10);
    if (*end != '\0' || end == words[0] || errno != 0)
        return fail_at(r, "ITEM: %s wants a whole number, not '%.40s'", item, words[0]);
    if (v < low || v > high)
        return fail_at(r, "ITEM: %s = %lld is outside [%lld, %lld]", item, v, (long long)low, (long long)high);
    *value = v;
    return true;
}

// "ITEM: BOX BOUNDS [xy xz yz] [xx yy zz]" and one line per axis of "low high [tilt]": a
// triclinic box's first two numbers are its bounding box, which is all the floor needs.
static bool read_box(dump_reader *r, const char *item, lammps_frame *frame)
{
    char flags[256], *words[8];
    snprintf(flags, sizeof(flags), "%s", item + strlen("BOX BOUNDS"));
    uint32_t count = split(flags, words, 8);
    for (int axis = 0; axis < 3; ++axis) {
        frame->boundary[axis][0] = '\0';
        // The flags are the last three words when there are three (after the tilt names, if any).
        if (count >= 3 && count <= 8 && strlen(words[count - 3 + axis]) == 2)
            memcpy(frame->boundary[axis], words[count - 3 + axis], 3);
    }
    for (int axis = 0; axis < 3; ++axis) {
        int got = next_line(r);
        if (got < 0) return false;
        if (got == 0) return fail_at(r, "the file ends inside ITEM: BOX BOUNDS (truncated?)");
        uint32_t n = split(r->line, words, 3);
        if (n < 2 || n > 3) return fail_at(r, "ITEM: BOX BOUNDS wants 2 or 3 numbers per line, not %u", n);
        double bound[2];
        for (int k = 0; k < 2; ++k) {
            char *end = NULL;
            bound[k] = strtod(words[k], &end);
            if (*end != '\0' || end == words[k] || !isfinite(bound[k]))
                return fail_at(r, "ITEM: BOX BOUNDS: '%.40s' is not a finite number", words[k]);
        }
        if (bound[0] > bound[1])
            return fail_at(r, "ITEM: BOX BOUNDS: the low bound %g is above the high bound %g", bound[0], bound[1]);
        frame->box_low[axis] = bound[0];
        frame->box_high[axis] = bound[1];
    }
    frame->has_box = true;
    return true;
}

// Finds the columns in the ATOMS line's names; names what is missing when something is.
static bool find_columns(dump_reader *r, const char *item, int column[COLUMNS], uint32_t *column_count)
{
    char names[4096], *words[256];
    snprintf(names, sizeof(names), "%s", item + strlen("ATOMS"));
    uint32_t count = split(names, words, 256);
    if (count > 256) return fail_at(r, "ITEM: ATOMS names %u columns; manyfold render reads at most 256", count);
    for (int c = 0; c < COLUMNS; ++c) column[c] = -1;
    for (uint32_t w = 0; w < count; ++w) {
        for (int c = 0; c < COLUMNS; ++c)
            if (column[c] < 0 && strcmp(words[w], column_names[c]) == 0) column[c] = (int)w;
        // Unwrapped positions stand in for wrapped ones: the body is drawn where it is.
        static const char *const unwrapped[3] = {"xu", "yu", "zu"};
        for (int axis = 0; axis < 3; ++axis)
            if (strcmp(words[w], unwrapped[axis]) == 0 && column[COLUMN_X + axis] < 0) column[COLUMN_X + axis] = (int)w;
    }
    char missing[256] = "";
    for (int c = COLUMN_SHAPE; c < COLUMNS; ++c) {
        if (column[c] >= 0) continue;
        if (missing[0] != '\0') strncat(missing, ", ", sizeof(missing) - strlen(missing) - 1);
        strncat(missing, column_names[c], sizeof(missing) - strlen(missing) - 1);
    }
    if (missing[0] != '\0')
        return fail_at(r,
                       "ITEM: ATOMS lacks %s (manyfold render needs i_shape, x y z and d2_quat[1] to d2_quat[4]: "
                       "dump custom ... i_shape x y z d2_quat[1] d2_quat[2] d2_quat[3] d2_quat[4])",
                       missing);
    *column_count = count;
    return true;
}

static bool grow_frame(dump_reader *r, lammps_frame *frame, uint32_t atoms, uint32_t columns)
{
    if (atoms > r->atom_capacity) {
        free(frame->shape);
        free(frame->position);
        free(frame->quat);
        frame->shape = malloc(atoms * sizeof(uint32_t));
        frame->position = malloc(atoms * 3 * sizeof(double));
        frame->quat = malloc(atoms * 4 * sizeof(double));
        r->atom_capacity = frame->shape && frame->position && frame->quat ? atoms : 0;
        if (r->atom_capacity == 0) return fail_at(r, "out of memory for %u atoms", atoms);
    }
    if (columns + 1 > r->word_capacity) {
        free(r->words);
        r->words = malloc((columns + 1) * sizeof(char *));
        r->word_capacity = r->words != NULL ? columns + 1 : 0;
        if (r->words == NULL) return fail_at(r, "out of memory");
    }
    return true;
}

static bool parse_number(dump_reader *r, const char *atom, int column, const char *text, double limit, double *value)
{
    char *end = NULL;
    *value = strtod(text, &end);
    if (*end != '\0' || end == text)
        return fail_at(r, "%s: %s '%.40s' is not a number", atom, column_names[column], text);
    if (!isfinite(*value)) return fail_at(r, "%s: %s = %.40s is not finite", atom, column_names[column], text);
    if (fabs(*value) > limit)
        return fail_at(r, "%s: %s = %g is beyond %g in size", atom, column_names[column], *value, limit);
    return true;
}

static bool read_atom(dump_reader *r, const lammps_frame *frame, const int column[COLUMNS], uint32_t columns,
                      uint32_t atom)
{
    char **words = r->words;
    uint32_t count = split(r->line, words, columns + 1);
    if (count != columns)
        return fail_at(r, "%u values on an atom line, but ITEM: ATOMS names %u columns", count, columns);
    char name[64];
    if (column[COLUMN_ID] >= 0) snprintf(name, sizeof(name), "atom %.40s", words[column[COLUMN_ID]]);
    else snprintf(name, sizeof(name), "atom %u of the frame", atom + 1);

    const char *shape_text = words[column[COLUMN_SHAPE]];
    char *end = NULL;
    errno = 0;
    long long shape = strtoll(shape_text, &end, 10);
    if (*end != '\0' || end == shape_text || errno != 0)
        return fail_at(r, "%s: i_shape '%.40s' is not a whole number", name, shape_text);
    if (shape < 0 || shape >= (long long)r->shape_count) {
        if (r->shape_count == 0) return fail_at(r, "%s: i_shape %lld, but the shape library is empty", name, shape);
        return fail_at(r, "%s: i_shape %lld is not in the shape library (it holds %u shapes, 0 to %u)", name, shape,
                       r->shape_count, r->shape_count - 1);
    }
    frame->shape[atom] = (uint32_t)shape;

    double *position = &frame->position[3 * (size_t)atom], *q = &frame->quat[4 * (size_t)atom];
    for (int axis = 0; axis < 3; ++axis)
        if (!parse_number(r, name, COLUMN_X + axis, words[column[COLUMN_X + axis]], CLI_MAX_COORDINATE,
                          &position[axis]))
            return false;
    for (int k = 0; k < 4; ++k)
        if (!parse_number(r, name, COLUMN_QW + k, words[column[COLUMN_QW + k]], 1e30, &q[k])) return false;
    double length = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(length > 1e-6))
        return fail_at(r, "%s: the quaternion d2_quat is zero (was it set, as fix nve/manyfold does?)", name);
    for (int k = 0; k < 4; ++k) q[k] /= length;
    return true;
}

static bool read_atoms(dump_reader *r, lammps_frame *frame, const char *item, bool have_count)
{
    int column[COLUMNS];
    uint32_t columns = 0;
    if (!have_count)
        return fail_at(r, "ITEM: ATOMS before ITEM: NUMBER OF ATOMS in the frame at step %lld", (long long)frame->step);
    if (!find_columns(r, item, column, &columns) || !grow_frame(r, frame, frame->atom_count, columns)) return false;
    for (uint32_t atom = 0; atom < frame->atom_count; ++atom) {
        int got = next_line(r);
        if (got < 0) return false;
        if (got == 0 || item_of(r->line) != NULL)
            return fail_at(r, "the frame at step %lld ends after %u of its %u atoms (truncated?)",
                           (long long)frame->step, atom, frame->atom_count);
        if (!read_atom(r, frame, column, columns, atom)) return false;
    }
    return true;
}

// Skips an item this reader has no use for (UNITS, TIME): its values run to the next item.
static bool skip_item(dump_reader *r)
{
    int got;
    while ((got = next_line(r)) == 1 && item_of(r->line) == NULL) continue;
    r->held = got == 1;
    return got >= 0;
}

typedef enum frame_result { FRAME_READ, FRAME_NONE, FRAME_FAILED } frame_result;

// Reads the next frame into *frame; FRAME_NONE, with *frame untouched, at the end of the file.
static frame_result read_frame(dump_reader *r, lammps_frame *frame)
{
    int got;
    const char *item;
    for (;;) { // items before the timestep (dump_modify units and time write theirs there) are skipped
        while ((got = next_line(r)) == 1 && is_blank(r->line)) continue;
        if (got <= 0) return got == 0 ? FRAME_NONE : FRAME_FAILED;
        item = item_of(r->line);
        if (item == NULL)
            return fail_at(r, "expected ITEM: TIMESTEP to begin a frame, not '%.60s' (is this a LAMMPS dump?)",
                           r->line),
                   FRAME_FAILED;
        if (item_is(item, "TIMESTEP")) break;
        if (!skip_item(r)) return FRAME_FAILED;
    }
    int64_t step;
    if (!read_integer_line(r, "TIMESTEP", 0, INT64_MAX, &step)) return FRAME_FAILED;
    frame->step = step;
    frame->atom_count = 0;
    frame->has_box = false;
    bool have_count = false;
    for (;;) {
        got = next_line(r);
        if (got < 0) return FRAME_FAILED;
        if (got == 0)
            return fail_at(r, "the file ends in the frame at step %lld, before its ITEM: ATOMS (truncated?)",
                           (long long)step),
                   FRAME_FAILED;
        if (is_blank(r->line)) continue;
        item = item_of(r->line);
        if (item == NULL) return fail_at(r, "expected an ITEM: line, not '%.60s'", r->line), FRAME_FAILED;
        if (item_is(item, "TIMESTEP"))
            return fail_at(r, "a new frame begins before the frame at step %lld had its ITEM: ATOMS", (long long)step),
                   FRAME_FAILED;
        if (item_is(item, "NUMBER OF ATOMS")) {
            int64_t count;
            if (!read_integer_line(r, "NUMBER OF ATOMS", 0, LAMMPS_DUMP_MAX_ATOMS, &count)) return FRAME_FAILED;
            frame->atom_count = (uint32_t)count;
            have_count = true;
        } else if (item_is(item, "BOX BOUNDS")) {
            char copy[256];
            snprintf(copy, sizeof(copy), "%s", item);
            if (!read_box(r, copy, frame)) return FRAME_FAILED;
        } else if (item_is(item, "ATOMS")) {
            char copy[4096];
            snprintf(copy, sizeof(copy), "%s", item);
            return read_atoms(r, frame, copy, have_count) ? FRAME_READ : FRAME_FAILED;
        } else if (!skip_item(r)) {
            return FRAME_FAILED;
        }
    }
}

void lammps_frame_free(lammps_frame *frame)
{
    free(frame->shape);
    free(frame->position);
    free(frame->quat);
    *frame = (lammps_frame){0};
}

bool lammps_dump_read(const char *path, lammps_frame_choice choice, uint32_t shape_count, lammps_frame *frame,
                      uint32_t *frames_read, cli_error *error)
{
    *frame = (lammps_frame){0};
    *frames_read = 0;
    dump_reader r = {.path = path, .shape_count = shape_count, .error = error};
    r.file = fopen(path, "rb");
    if (r.file == NULL) return cli_fail(error, "%s: cannot open: %s", path, strerror(errno));
    int64_t first_step = 0, last_step = 0;
    frame_result result = FRAME_NONE;
    bool found = false;
    while (!found && (result = read_frame(&r, frame)) == FRAME_READ) {
        if (*frames_read == 0) first_step = frame->step;
        last_step = frame->step;
        ++*frames_read;
        found = !choice.last && frame->step == choice.step;
    }
    bool ok = found || result == FRAME_NONE;
    if (ok && *frames_read == 0) ok = cli_fail(error, "%s: no frames: the file is empty", path);
    else if (ok && !found && !choice.last)
        ok = cli_fail(error, "%s: no frame at step %lld (%u frames, at steps %lld to %lld)", path,
                      (long long)choice.step, *frames_read, (long long)first_step, (long long)last_step);
    fclose(r.file);
    free(r.line);
    free(r.words);
    if (!ok) lammps_frame_free(frame);
    return ok;
}

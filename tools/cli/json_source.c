// Line numbers for cJSON values: a second, light pass over the text that walks the parsed tree
// in document order (cJSON keeps children in that order) and notes where each value starts.
#include "json_source.h"

#include <stdlib.h>
#include <string.h>

typedef struct text_cursor {
    const char *at, *end;
    uint32_t line;
} text_cursor;

// cJSON skips every byte <= 32 as whitespace; do the same so both passes stay in step.
static void skip_space(text_cursor *c)
{
    while (c->at < c->end && (unsigned char)*c->at <= 32) {
        if (*c->at == '\n') ++c->line;
        ++c->at;
    }
}

static void skip_string(text_cursor *c)
{
    ++c->at; // opening quote
    while (c->at < c->end && *c->at != '"') {
        if (*c->at == '\\' && c->at + 1 < c->end) ++c->at;
        if (*c->at == '\n') ++c->line;
        ++c->at;
    }
    if (c->at < c->end) ++c->at; // closing quote
}

static void skip_char(text_cursor *c, char expected)
{
    skip_space(c);
    if (c->at < c->end && *c->at == expected) ++c->at;
}

static int remember(json_source *source, const cJSON *node, uint32_t line)
{
    if (source->count == source->capacity) {
        size_t capacity = source->capacity < 256 ? 256 : 2 * source->capacity;
        const cJSON **nodes = realloc(source->nodes, capacity * sizeof(*nodes));
        if (nodes == NULL) return 0;
        source->nodes = nodes;
        uint32_t *lines = realloc(source->lines, capacity * sizeof(*lines));
        if (lines == NULL) return 0;
        source->lines = lines;
        source->capacity = capacity;
    }
    source->nodes[source->count] = node;
    source->lines[source->count] = line;
    ++source->count;
    return 1;
}

static void skip_key(text_cursor *c)
{
    skip_space(c);
    skip_string(c);
    skip_char(c, ':');
}

static char closing_of(const cJSON *container) { return cJSON_IsObject(container) ? '}' : ']'; }

// Iterative with an explicit stack of open containers: cJSON allows 1000 levels of nesting, and
// its nodes have no parent pointer.
static int walk(json_source *source, const cJSON *root, text_cursor *c)
{
    const cJSON **open = NULL;
    size_t depth = 0, capacity = 0;
    const cJSON *node = root;
    int ok = 1;
    while (ok) {
        skip_space(c);
        ok = remember(source, node, c->line);
        if (!ok) break;
        if (cJSON_IsObject(node) || cJSON_IsArray(node)) {
            ++c->at; // '{' or '['
            if (node->child != NULL) {
                if (depth == capacity) {
                    capacity = capacity < 16 ? 16 : 2 * capacity;
                    const cJSON **grown = realloc(open, capacity * sizeof(*open));
                    if (grown == NULL) {
                        ok = 0;
                        break;
                    }
                    open = grown;
                }
                open[depth++] = node;
                if (cJSON_IsObject(node)) skip_key(c);
                node = node->child;
                continue;
            }
            skip_char(c, closing_of(node));
        } else if (cJSON_IsString(node)) {
            skip_string(c);
        } else {
            // A number or a literal: up to the next delimiter or whitespace (any byte <= 32).
            while (c->at < c->end && (unsigned char)*c->at > 32 && strchr(",]}", *c->at) == NULL) ++c->at;
        }
        // The value is done: step to its next sibling, closing finished containers on the way.
        while (depth > 0 && node->next == NULL) {
            node = open[--depth];
            skip_char(c, closing_of(node));
        }
        if (depth == 0) break;
        skip_char(c, ',');
        if (cJSON_IsObject(open[depth - 1])) skip_key(c);
        node = node->next;
    }
    free(open);
    return ok;
}

typedef struct node_line {
    const cJSON *node;
    uint32_t line;
} node_line;

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const node_line *)a)->node, y = (uintptr_t)((const node_line *)b)->node;
    return x < y ? -1 : (x > y);
}

static uint32_t line_of(const char *text, const char *at)
{
    uint32_t line = 1;
    for (const char *p = text; p < at; ++p) line += *p == '\n';
    return line;
}

int json_source_parse(json_source *source, const char *text, size_t length, uint32_t *error_line,
                      uint32_t *error_column)
{
    *source = (json_source){0};
    *error_line = *error_column = 0;
    const char *end = NULL;
    source->root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    if (source->root == NULL) {
        if (end == NULL) end = cJSON_GetErrorPtr();
        if (end != NULL && end >= text && end <= text + length) {
            *error_line = line_of(text, end);
            const char *line_start = end;
            while (line_start > text && line_start[-1] != '\n') --line_start;
            *error_column = (uint32_t)(end - line_start) + 1;
        }
        return 0;
    }
    // Anything but whitespace after the value is an error too (cJSON would stop silently).
    text_cursor tail = {end, text + length, line_of(text, end)};
    skip_space(&tail);
    if (tail.at < tail.end) {
        *error_line = tail.line;
        const char *line_start = tail.at;
        while (line_start > text && line_start[-1] != '\n') --line_start;
        *error_column = (uint32_t)(tail.at - line_start) + 1;
        cJSON_Delete(source->root);
        source->root = NULL;
        return 0;
    }

    text_cursor cursor = {text, text + length, 1};
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) cursor.at += 3; // cJSON skips a UTF-8 BOM
    if (!walk(source, source->root, &cursor)) {
        json_source_free(source);
        return 0;
    }
    // Sort node addresses, carrying their lines along.
    node_line *pairs = malloc(source->count * sizeof(node_line));
    if (pairs == NULL) {
        json_source_free(source);
        return 0;
    }
    for (size_t i = 0; i < source->count; ++i) pairs[i] = (node_line){source->nodes[i], source->lines[i]};
    qsort(pairs, source->count, sizeof(node_line), by_address);
    for (size_t i = 0; i < source->count; ++i) {
        source->nodes[i] = pairs[i].node;
        source->lines[i] = pairs[i].line;
    }
    free(pairs);
    return 1;
}

uint32_t json_source_line(const json_source *source, const cJSON *node)
{
    size_t low = 0, high = source->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if ((uintptr_t)source->nodes[middle] < (uintptr_t)node) low = middle + 1;
        else high = middle;
    }
    return low < source->count && source->nodes[low] == node ? source->lines[low] : 0;
}

void json_source_free(json_source *source)
{
    cJSON_Delete(source->root);
    free(source->nodes);
    free(source->lines);
    *source = (json_source){0};
}

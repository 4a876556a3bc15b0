// JSON parsed with cJSON, plus the line each value starts on, so that messages about a scene file
// can name the line (cJSON itself keeps no positions).
#pragma once

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

typedef struct json_source {
    cJSON *root;
    const cJSON **nodes; // sorted by address, for json_source_line
    uint32_t *lines;
    size_t count, capacity;
} json_source;

// Parses `length` bytes of text. On a syntax error returns 0 and sets *error_line and
// *error_column (1-based) to where cJSON stopped; on running out of memory both are 0.
int json_source_parse(json_source *source, const char *text, size_t length, uint32_t *error_line,
                      uint32_t *error_column);

// The 1-based line the node's value starts on (0 if the node is not part of this document).
uint32_t json_source_line(const json_source *source, const cJSON *node);

void json_source_free(json_source *source);

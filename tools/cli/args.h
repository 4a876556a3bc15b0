// Command-line option parsing shared by the commands: `--name VALUE`, `--name=VALUE`, `-x VALUE`,
// flags, and usage errors that exit with status 2 in the usual "Try '... --help'" form.
#pragma once

#include "cli_error.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct arg_cursor {
    int argc;
    char **argv;
    int index;           // the argument being looked at
    const char *command; // "run", "render", ... for messages
    bool options_ended;  // after "--" everything is positional
} arg_cursor;

arg_cursor arg_cursor_make(const char *command, int argc, char **argv);

// True when the current argument is "--", which ends the options: everything after it is
// positional. Call it first for each argument, and skip the argument when it says true.
bool arg_end_of_options(arg_cursor *cursor);

// True when the current argument is this flag (long or short form; short_name may be NULL).
bool arg_flag(arg_cursor *cursor, const char *long_name, const char *short_name);

// True when the current argument is this option; *value gets its value, which may be the next
// argument (the cursor then moves past it). A missing value is a usage error.
bool arg_option(arg_cursor *cursor, const char *long_name, const char *short_name, const char **value);

// True when the current argument looks like an option nobody claimed (a usage error for callers).
bool arg_is_option(arg_cursor *cursor);

// Prints "manyfold COMMAND: problem" and the hint to run --help, then exits with status 2.
_Noreturn void usage_error(const char *command, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// A whole number in [min, max], or a usage error naming the option.
uint32_t arg_parse_count(const char *command, const char *option, const char *text, uint32_t min, uint32_t max);

// One-line error messages, carried from where a problem is found up to main, which prints them.
#pragma once

#include <stdbool.h>

// Exit codes: 0 success, 1 bad input (a file, a value the library refused), 2 bad usage.
enum { CLI_EXIT_OK = 0, CLI_EXIT_INPUT = 1, CLI_EXIT_USAGE = 2 };

typedef struct cli_error {
    char text[1024];
} cli_error;

// Formats the message into `error` and returns false, so callers can write `return cli_fail(...)`.
bool cli_fail(cli_error *error, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// Option parsing helpers and usage errors.
#include "args.h"

#include "cli_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

arg_cursor arg_cursor_make(const char *command, int argc, char **argv)
{
    return (arg_cursor){.argc = argc, .argv = argv, .index = 0, .command = command};
}

static const char *current(const arg_cursor *cursor)
{
    return cursor->index < cursor->argc ? cursor->argv[cursor->index] : "";
}

bool arg_end_of_options(arg_cursor *cursor)
{
    if (cursor->options_ended || strcmp(current(cursor), "--") != 0) return false;
    cursor->options_ended = true;
    return true;
}

bool arg_flag(arg_cursor *cursor, const char *long_name, const char *short_name)
{
    const char *arg = current(cursor);
    if (cursor->options_ended) return false;
    return strcmp(arg, long_name) == 0 || (short_name != NULL && strcmp(arg, short_name) == 0);
}

bool arg_option(arg_cursor *cursor, const char *long_name, const char *short_name, const char **value)
{
    const char *arg = current(cursor);
    if (cursor->options_ended) return false;
    size_t long_length = strlen(long_name);
    if (strncmp(arg, long_name, long_length) == 0 && arg[long_length] == '=') {
        *value = arg + long_length + 1;
        return true;
    }
    if (strcmp(arg, long_name) != 0 && (short_name == NULL || strcmp(arg, short_name) != 0)) return false;
    if (cursor->index + 1 >= cursor->argc) usage_error(cursor->command, "option '%s' needs a value", arg);
    *value = cursor->argv[++cursor->index];
    return true;
}

bool arg_is_option(arg_cursor *cursor)
{
    const char *arg = current(cursor);
    if (cursor->options_ended) return false;
    return arg[0] == '-' && arg[1] != '\0'; // a lone "-" is a positional argument
}

void usage_error(const char *command, const char *format, ...)
{
    const char *space = command != NULL ? " " : "";
    command = command != NULL ? command : "";
    va_list args;
    va_start(args, format);
    fprintf(stderr, "manyfold%s%s: ", space, command);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\nTry 'manyfold%s%s --help' for more information.\n", space, command);
    exit(CLI_EXIT_USAGE);
}

uint32_t arg_parse_count(const char *command, const char *option, const char *text, uint32_t min, uint32_t max)
{
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    // strtoull accepts a sign and leading spaces; a count is plain digits.
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || value < min || value > max)
        usage_error(command, "%s wants a whole number from %u to %u, not '%s'", option, min, max, text);
    return (uint32_t)value;
}

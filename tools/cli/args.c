// Option parsing and usage errors.
#include "args.h"

#include "cli_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arg_next(const char *command, int argc, char **argv, const char *short_options, const struct option *long_options)
{
    opterr = 0; // the messages below, in the program's own words, instead of getopt's
    int option = getopt_long(argc, argv, short_options, long_options, NULL);
    if (option != '?' && option != ':') return option;
    const char *text = argv[optind - 1]; // the option at fault, as written
    if (option == ':') usage_error(command, "option '%s' needs a value", text);
    if (strncmp(text, "--", 2) != 0) usage_error(command, "unknown option '-%c'", optopt);
    // getopt names the option in optopt when it is known but was given a value it does not take.
    if (optopt != 0) usage_error(command, "option '%.*s' takes no value", (int)strcspn(text, "="), text);
    usage_error(command, "unknown option '%s'", text);
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

scene_axis arg_parse_axis(const char *command, const char *option, const char *text)
{
    for (int axis = SCENE_AXIS_X; axis <= SCENE_AXIS_Z; ++axis)
        if (strcmp(text, scene_axis_name((scene_axis)axis)) == 0) return (scene_axis)axis;
    usage_error(command, "%s wants x, y or z, not '%s'", option, text);
}

// Command-line options through getopt_long, and the usage errors every command shares: they exit
// with status 2 in the usual "Try '... --help'" form.
#pragma once

#include "cli_error.h"
#include "scene.h"

#include <getopt.h>
#include <stdint.h>

// getopt_long over a command's arguments (argv[0] is the command's name), GNU style: options and
// operands in any order, "--" ends the options, "--name VALUE" and "--name=VALUE" alike. Returns
// the next option's val, or -1 when argv[optind, argc) are the operands left. short_options starts
// with ':' (getopt then tells a missing value from an unknown option); either is a usage error.
int arg_next(const char *command, int argc, char **argv, const char *short_options, const struct option *long_options);

// Prints "manyfold COMMAND: problem" and the hint to run --help, then exits with status 2.
_Noreturn void usage_error(const char *command, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// A whole number in [min, max], or a usage error naming the option.
uint32_t arg_parse_count(const char *command, const char *option, const char *text, uint32_t min, uint32_t max);

// x, y or z, or a usage error naming the option.
scene_axis arg_parse_axis(const char *command, const char *option, const char *text);

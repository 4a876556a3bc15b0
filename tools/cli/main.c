// `manyfold`: the command-line program. Picks the subcommand; each command parses its own options.
#include "args.h"
#include "cli_error.h"
#include "commands.h"
#include "manyfold.h"

#include <stdio.h>
#include <string.h>

static const char main_help[] =
    "Usage: manyfold COMMAND [OPTIONS]\n"
    "\n"
    "Contact manifolds between convex polyhedra, many body pairs at once.\n"
    "\n"
    "Commands:\n"
    "  run [SCENE]    collide a scene (by default a built-in pile of boxes and rocks) and\n"
    "                 report touching pairs, contacts and pairs per second\n"
    "  render SCENE   draw a scene's bodies, contact points and normals to PNG or SVG\n"
    "  hull FILE      build the convex hull of an .obj or points file and describe it\n"
    "  simulate SCENE step a scene in a physics engine (ODE, Bullet) with manyfold as its\n"
    "                 narrow phase and report how it settles\n"
    "  info           library version, CPU features, the ISA chosen, cores\n"
    "\n"
    "Example scenes and their format (README.md): " MANYFOLD_CLI_SCENES "\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help ('manyfold COMMAND --help' for a command's options)\n"
    "  --version      show the version\n"
    "\n"
    "Exit status: 0 success, 1 bad input (the message names the file and line), 2 bad usage.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {{"run", run_command},
                                   {"render", render_command},
                                   {"hull", hull_command},
                                   {"info", info_command},
                                   {"simulate", simulate_command}};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(main_help, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        fputs(main_help, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        printf("manyfold %s\n", mf_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "help") == 0) {
        // `manyfold help run` is `manyfold run --help`.
        if (argc < 3) {
            fputs(main_help, stdout);
            return CLI_EXIT_OK;
        }
        const command *c = find_command(argv[2]);
        if (c == NULL) usage_error(NULL, "no command '%s' (commands: run, render, hull, info, simulate)", argv[2]);
        char help[] = "--help";
        char *help_argv[] = {argv[2], help, NULL};
        return c->run(2, help_argv);
    }
    const command *c = find_command(first);
    if (c == NULL) {
        if (first[0] == '-') usage_error(NULL, "unknown option '%s'", first);
        usage_error(NULL, "no command '%s' (commands: run, render, hull, info, simulate)", first);
    }
    return c->run(argc - 1, argv + 1);
}

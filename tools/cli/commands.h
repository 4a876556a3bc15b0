// The subcommands of `manyfold`; each parses its own arguments (argv[0] is the command's name, as
// getopt expects a program's) and returns the exit status.
#pragma once

int run_command(int argc, char **argv);
int render_command(int argc, char **argv);
int hull_command(int argc, char **argv);
int info_command(int argc, char **argv);
int simulate_command(int argc, char **argv);

// Where the example scenes and their format (README.md) are installed, for the help texts: meson
// passes <prefix>/<datadir>/manyfold/scenes; a build without it names the source's directory.
#ifndef MANYFOLD_CLI_SCENES
#define MANYFOLD_CLI_SCENES "tools/scenes"
#endif

/* The text front end: reads commands (commands.h) line by line. On a terminal: libedit line
 * editing, a persistent history ($XDG_STATE_HOME/octuple/history), tab completion of
 * commands, moves and file names, colours, Ctrl-C stops a search. In a pipe: no prompt, no
 * colour, and the end of input quits once every earlier command has run. */
#ifndef OCTUPLE_REPL_H
#define OCTUPLE_REPL_H

#include <stdio.h>

#include "engine/engine.h"
#include "cli/input.h"
#include "cli/options.h"

/* Returns the exit status. Switches to nboard_run on the `nboard` command. */
int repl_run(Engine *engine, Input *input, FILE *out, ColorMode color);

/* The history file: paths_user_dir(USER_STATE)/history. */
bool repl_history_path(char *path, size_t size, bool create, OctError *error);

#endif

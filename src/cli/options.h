/* Command-line options of the engine binary: parsed once into a value, never global. The
 * engine settings (--depth, --threads, ...) come from the settings table (settings.h), so
 * every setting is both an option and a REPL command. */
#ifndef OCTUPLE_OPTIONS_H
#define OCTUPLE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/board.h"
#include "core/error.h"
#include "engine/settings.h"

typedef enum Action {
    ACTION_REPL, /* the default: the text interface */
    ACTION_NBOARD,
    ACTION_GTP,
    ACTION_HELP,
    ACTION_VERSION,
    ACTION_PERFT,
    ACTION_SOLVE,
    ACTION_BENCH /* reserved for the search benchmark (tools_bench) */
} Action;

/* Colours on the console's board (--color). */
typedef enum ColorMode {
    COLOR_MODE_AUTO,   /* on a terminal, unless NO_COLOR is set or TERM is dumb */
    COLOR_MODE_ALWAYS, /* even through a pipe, and over NO_COLOR */
    COLOR_MODE_NEVER
} ColorMode;

typedef struct Options {
    Action action;
    int perft_depth;
    const char *solve_path; /* OBF file for --solve */
    bool has_board; /* --board given: the start position (perft, REPL, NBoard) */
    Board board;
    Color side;
    EngineSettings settings;
    ColorMode color;
} Options;

/* Returns false with a message naming the bad option; `options` is then unspecified. */
bool options_parse(int argc, char **argv, Options *options, OctError *error);
/* The option list for --help, one line each. */
void options_usage(FILE *out, const char *program);

#endif

/* Command-line options of the engine binary: parsed once into a value, never global. */
#ifndef OCTUPLE_OPTIONS_H
#define OCTUPLE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "error.h"

typedef enum Action {
    ACTION_HELP,
    ACTION_VERSION,
    ACTION_PERFT,
    ACTION_SOLVE,
} Action;

typedef struct Options {
    Action action;
    int perft_depth;
    const char *solve_path; /* OBF file for --solve */
    size_t hash_megabytes;  /* transposition table size */
    const char *weights_path; /* NULL: the default weights */
    int threads;
    bool has_board; /* --board given: perft from that position */
    Board board;
    Color side;
} Options;

/* Returns false with a message naming the bad option; `options` is then unspecified. */
bool options_parse(int argc, char **argv, Options *options, OctError *error);
/* The option list for --help, one line each. */
void options_usage(FILE *out, const char *program);

#endif

/* The engine binary's batch commands: perft, solving test files. They print reports. */
#ifndef OCTUPLE_TOOLS_H
#define OCTUPLE_TOOLS_H

#include <stddef.h>
#include <stdio.h>

#include "board.h"
#include "model.h"
#include "options.h"

/* Leaf counts for depths 1..options->perft_depth from options->board. */
int tools_perft(const Options *options, FILE *out);
/* The fixed search workload of bench.h with the default (or --weights) model. */
int tools_bench(const Options *options, FILE *out, FILE *err);
/* The counts alone, from any position (the REPL's `perft`, which shows its own board). */
int tools_perft_from(const Board *board, int depth, FILE *out);
/* Solves every position of an OBF file; returns 0 when every score is right, 1 when some
 * score is wrong, 2 when the file or the weights cannot be read. Positions of at most `wld`
 * empties (settings.wld) are solved for win, draw or loss only and judged by the sign of the
 * score. The weights are --weights, else the default ones; without any, a warning, and the
 * bare endgame solver orders the moves. The rows go to `out`, errors and warnings to `err`
 * (the command line's stderr; the console passes its own output for both). */
int tools_solve(const Options *options, const char *path, FILE *out, FILE *err);
/* The same with a given model (may be NULL), table size, thread count and `wld`; errors
 * name `who` first when it is not NULL (the console's command name). */
int tools_solve_with(const char *path, const Model *model, size_t hash_megabytes, int threads,
                     int wld, const char *who, FILE *out, FILE *err);

#endif

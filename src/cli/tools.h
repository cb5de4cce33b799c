/* The engine binary's batch commands: perft, solving test files, the benchmark. They print
 * reports; the searches are the engine's (engine_solve, engine_bench). */
#ifndef OCTUPLE_TOOLS_H
#define OCTUPLE_TOOLS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "core/board.h"
#include "cli/options.h"
#include "engine/engine.h"

/* Ctrl-C for the work the console runs in its own thread (solve, perft, book store and
 * add), where no `stop` can be read: a signal handler raises it (interrupt_raise is safe
 * there), and the work looks at `raised`; a solve also interrupts the engine it has put in
 * `engine`. */
typedef struct Interrupt {
    atomic_bool raised;
    _Atomic(Engine *) engine;
} Interrupt;

void interrupt_raise(Interrupt *interrupt);

/* Leaf counts for depths 1..options->perft_depth from options->board. */
int tools_perft(const Options *options, FILE *out);
/* The fixed search workload of bench.h by an engine with the default (or --weights)
 * network. */
int tools_bench(const Options *options, FILE *out, FILE *err);
/* The counts alone, from any position (the REPL's `perft`, which shows its own board);
 * `interrupt` (may be NULL) ends it early, with a line saying so, and 1. */
int tools_perft_from(const Board *board, int depth, Interrupt *interrupt, FILE *out);
/* Solves every position of an OBF file; returns 0 when every score is right, 1 when some
 * score is wrong, 2 when the file or the weights cannot be read. Positions of at most `wld`
 * empties (settings.wld) are solved for win, draw or loss only and judged by the sign of the
 * score. The weights are --weights, else the default ones; without any, a warning, and the
 * bare endgame solver orders the moves. The rows go to `out`, errors and warnings to `err`
 * (the command line's stderr; the console passes its own output for both). */
int tools_solve(const Options *options, const char *path, FILE *out, FILE *err);
/* The same with a given engine (its table size, threads and `wld` setting): through its
 * search, or by the bare endgame solver (`bare`); errors name `who` first when it is not
 * NULL (the console's command name). `interrupt` (may be NULL) ends it after the positions
 * solved so far, with the summary of those and 1. */
int tools_solve_with(Engine *engine, bool bare, const char *path, const char *who,
                     Interrupt *interrupt, FILE *out, FILE *err);

#endif

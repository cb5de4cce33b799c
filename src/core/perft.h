/* Leaf counting from a position (a pass is a ply; a finished game is one leaf). */
#ifndef OCTUPLE_PERFT_H
#define OCTUPLE_PERFT_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/board.h"

/* The deepest count the command line and the console take: 12 plies from the start have
 * 1.9e9 leaves and each ply multiplies them by about ten, so 20 still fit 64 bits (and no
 * sensible run goes that deep). */
enum { PERFT_MAX_DEPTH = 20 };

uint64_t perft_count(const Board *board, int depth);
/* perft_count that gives up when `stop` (may be NULL) is raised: its count is then partial,
 * and the caller, which raised it, throws it away. */
uint64_t perft_count_until(const Board *board, int depth, const atomic_bool *stop);

#endif

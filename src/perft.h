/* Leaf counting from a position (a pass is a ply; a finished game is one leaf). */
#ifndef OCTUPLE_PERFT_H
#define OCTUPLE_PERFT_H

#include <stdint.h>

#include "board.h"

uint64_t perft_count(const Board *board, int depth);

#endif

/* Deliberately naive rules, square by square, to check the bitboard core against. */
#ifndef OCTUPLE_TESTS_REFERENCE_H
#define OCTUPLE_TESTS_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

/* cells[square]: 0 empty, 1 side to move, 2 opponent */
typedef struct RefBoard {
    int cells[64];
} RefBoard;

void ref_from_bits(RefBoard *ref, uint64_t player, uint64_t opponent);
/* Discs flipped if the side to move plays `square` (0 when the square is not a legal move). */
uint64_t ref_flips(const RefBoard *ref, int square);
uint64_t ref_moves(const RefBoard *ref);
/* Plain recursive leaf count with the perft conventions (a pass is a ply, game over a leaf). */
uint64_t ref_perft(const RefBoard *ref, int depth);

#endif

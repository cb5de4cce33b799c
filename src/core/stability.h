/* Discs that can never be flipped again, for the endgame's upper bound cutoffs. */
#ifndef OCTUPLE_STABILITY_H
#define OCTUPLE_STABILITY_H

#include <stdint.h>

#define STABILITY_COLUMN_A 0x0101010101010101ULL
#define STABILITY_COLUMN_H 0x8080808080808080ULL
#define STABILITY_ROW_1 0x00000000000000ffULL
#define STABILITY_ROW_8 0xff00000000000000ULL
#define STABILITY_CORNERS 0x8100000000000081ULL

/* A subset of the stable discs of `discs` (the other colour being `others`): a disc counts
 * when, on each of the 4 lines through it, the line is full or a neighbour on that line is the
 * board edge or an already-stable disc of the same colour. Sound, not complete. */
uint64_t stability_discs(uint64_t discs, uint64_t others);

enum { STABILITY_NO_CAP = 1 << 20 }; /* above any score: nothing to cut on */

/* The most `player` can finish with, in discs, given the opponent's stable discs; or
 * STABILITY_NO_CAP when `alpha` is too low for the cap to cut anything, or, with a positive
 * `margin`, too low by less than `margin` discs for the scan to be worth it. That spares
 * the stable-disc scan at most nodes. Shared by the one-thread and the parallel solver. */
static inline int stability_cap(uint64_t player, uint64_t opponent, int alpha, int margin)
{
    if (alpha < 64 + margin - 2 * __builtin_popcountll(opponent))
        return STABILITY_NO_CAP;
    return 64 - 2 * __builtin_popcountll(stability_discs(opponent, player));
}

/* The corners of `own` and the edge squares of `own` next to them: stable discs found
 * without a scan, cheap enough to rate every move by. Each one a move adds leaves the
 * opponent fewer replies further down, so such moves cut with smaller subtrees. */
static inline int stability_corners(uint64_t own)
{
    uint64_t corners = own & STABILITY_CORNERS;
    uint64_t next = ((corners & STABILITY_COLUMN_A) << 1)
                  | ((corners & STABILITY_COLUMN_H) >> 1)
                  | ((corners & STABILITY_ROW_1) << 8) | ((corners & STABILITY_ROW_8) >> 8);
    return __builtin_popcountll(corners | (next & own));
}

#endif

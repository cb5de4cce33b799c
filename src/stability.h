/* Discs that can never be flipped again, for the endgame's upper bound cutoffs. */
#ifndef OCTUPLE_STABILITY_H
#define OCTUPLE_STABILITY_H

#include <stdint.h>

/* A subset of the stable discs of `discs` (the other colour being `others`): a disc counts
 * when, on each of the 4 lines through it, the line is full or a neighbour on that line is the
 * board edge or an already-stable disc of the same colour. Sound, not complete. */
uint64_t stability_discs(uint64_t discs, uint64_t others);

#endif

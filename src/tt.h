/* Transposition table shared by the midgame and endgame searches. Each bucket holds two
 * 24-byte entries (a depth-preferred one and an always-replace one). The whole position is
 * stored, so a hit is never a different position. One table belongs to one search thread. */
#ifndef OCTUPLE_TT_H
#define OCTUPLE_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

typedef enum Bound { BOUND_NONE = 0, BOUND_LOWER = 1, BOUND_UPPER = 2, BOUND_EXACT = 3 } Bound;

typedef struct TtEntry {
    uint64_t player;   /* the full position is stored: no false hits */
    uint64_t opponent;
    int8_t lower;      /* score bounds in discs */
    int8_t upper;
    uint8_t move;      /* best move or MOVE_NONE */
    uint8_t depth;     /* search depth; endgame entries use 64 + empties */
    uint8_t generation;
    uint8_t padding[3];
} TtEntry;

typedef struct Tt {
    TtEntry *entries; /* pairs: [2*i] depth-preferred, [2*i+1] always replace */
    size_t mask;      /* bucket count - 1 */
    uint8_t generation;
} Tt;

/* size in megabytes (rounded down to a power of two buckets); false when allocation fails */
bool tt_init(Tt *tt, size_t megabytes);
void tt_free(Tt *tt);
void tt_clear(Tt *tt);
void tt_new_search(Tt *tt);

/* Copies the entry for the position into `out`; false when there is none. */
bool tt_probe(const Tt *tt, const Board *board, TtEntry *out);
void tt_store(Tt *tt, const Board *board, int depth, int lower, int upper, int move);

#endif

/* Transposition table shared by the search threads and by the midgame and endgame searches.
 * Each bucket holds two entries (a depth-preferred one and an always-replaced one). An
 * entry is three 64-bit words written without locks: the position's two bitboards, each
 * XORed with the data word, and the data word itself. A reader accepts an entry only when
 * both bitboards decode to its position, so an entry torn by two threads writing at once
 * reads as a miss, never as another position's data. */
#ifndef OCTUPLE_TT_H
#define OCTUPLE_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"

/* What a probe returns. Scores are in the unit of the search that stored them: discs for
 * endgame entries (depth >= TT_DEPTH_EXACT), evaluation units for midgame ones. */
typedef struct TtEntry {
    int lower;
    int upper;
    int move;  /* best move or MOVE_NONE */
    int depth; /* midgame depth, or TT_DEPTH_EXACT + empties for an exact endgame result */
    int level; /* selectivity of an endgame entry: TT_LEVEL_FULL when nothing was pruned */
    int generation; /* the search that stored it (tt_current_generation) */
} TtEntry;

enum { TT_DEPTH_EXACT = 64, TT_LEVEL_FULL = 7 };

/* The level of the midgame-depth entries of the solver's ordering searches, which value a
 * draw at 0 whatever the contempt: a midgame search with contempt takes only their move. */
enum { TT_LEVEL_DRAW_ZERO = 0 };

/* Searches a stored generation tells apart; the table is cleared when the count wraps. */
enum { TT_GENERATIONS = 4096 };

/* Padded to 32 bytes: a bucket of two is one 64-byte cache line, so a probe costs one
 * memory access, where 24-byte slots left half the buckets across two lines. */
typedef struct TtSlot {
    _Atomic uint64_t player_check;   /* player ^ data */
    _Atomic uint64_t opponent_check; /* opponent ^ data */
    _Atomic uint64_t data;
    uint64_t unused;
} TtSlot;

typedef struct Tt {
    TtSlot *slots; /* pairs: [2*i] depth-preferred, [2*i+1] always replaced; 64-byte aligned */
    void *memory;  /* what was allocated, for free() */
    size_t mask;   /* bucket count - 1 */
    _Atomic unsigned generation;
} Tt;

/* Size in megabytes, rounded down to a power of two buckets; false when allocation fails. */
bool tt_init(Tt *tt, size_t megabytes);
void tt_free(Tt *tt);
void tt_clear(Tt *tt);
/* Starts a new generation: entries stored from now on are this search's own. */
void tt_new_search(Tt *tt);

/* The key both the shared table and the solvers' local tables index by (their top bits). */
static inline uint64_t tt_hash(uint64_t player, uint64_t opponent)
{
    return player * 0x9e3779b97f4a7c15ULL ^ opponent * 0xc2b2ae3d27d4eb4fULL;
}

/* An exact entry's stored lower and upper bound (shared or local table) against the window:
 * true, with the score in `cut`, when they settle the node; otherwise they may narrow the
 * window. */
static inline bool tt_bounds_apply(int lower, int upper, int *alpha, int *beta, int *cut)
{
    if (lower >= *beta || lower == upper) {
        *cut = lower;
        return true;
    }
    if (upper <= *alpha) {
        *cut = upper;
        return true;
    }
    if (lower > *alpha)
        *alpha = lower;
    if (upper < *beta)
        *beta = upper;
    return false;
}

/* The bucket index: two independent multiplies and two shifts, where board_hash's two
 * chained finalisers took about four times as long; every table access, and the enhanced
 * cutoffs' probe of every child, starts with it. The top bits of a product depend on every
 * bit of its factor, so the hash's top 24 bits are the index's low 24 (tables up to 1 GB).
 * Larger tables take their further bits from bit 16 of the hash on. A plain rotation had
 * taken the hash's lowest bits there, which depend on the first squares alone (bit 0 is set
 * exactly when a1 is filled), and a 2 to 64 GB table filled its upper part unevenly; a test
 * in check_search counts the bits. Entries are checked against the whole position, so the
 * index only has to spread positions, not tell them apart. */
static inline size_t tt_index(const Tt *tt, const Board *board)
{
    uint64_t h = tt_hash(board->player, board->opponent);
    return (size_t)((h >> 40 | (h >> 16) << 24) & tt->mask);
}

static inline const TtSlot *tt_bucket(const Tt *tt, const Board *board)
{
    return &tt->slots[tt_index(tt, board) * 2];
}

/* Starts loading the position's bucket, so that a probe after some other work finds it in
 * the cache. */
static inline void tt_prefetch(const Tt *tt, const Board *board)
{
    __builtin_prefetch(tt_bucket(tt, board));
}

/* The slot's data when it holds `board`, else 0. */
static inline uint64_t tt_slot_read(const TtSlot *slot, const Board *board)
{
    uint64_t data = atomic_load_explicit(&slot->data, memory_order_relaxed);
    uint64_t p = atomic_load_explicit(&slot->player_check, memory_order_relaxed) ^ data;
    uint64_t o = atomic_load_explicit(&slot->opponent_check, memory_order_relaxed) ^ data;
    return (data && p == board->player && o == board->opponent) ? data : 0;
}

/* The search generation of a data word (layout below), split around the level's bits. */
static inline int tt_data_generation(uint64_t data)
{
    return (int)(data >> 48 & 0xff) | (int)(data >> 60) << 8;
}

/* Copies the entry for the position from its bucket into `out`; false when there is none.
 * Inline, and with the bucket given, so that a caller that prefetched the bucket does not
 * work its index out twice. data word: lower (16 bits) | upper (16) | move (8) | depth (8) |
 * generation, low 8 bits | 1 + level (4) | generation, high 4 bits. */
static inline bool tt_probe_bucket(const TtSlot *bucket, const Board *board, TtEntry *out)
{
    for (int i = 0; i < 2; ++i) {
        uint64_t data = tt_slot_read(&bucket[i], board);
        if (data) {
            out->lower = (int16_t)(data & 0xffff);
            out->upper = (int16_t)(data >> 16 & 0xffff);
            out->move = (int)(data >> 32 & 0xff);
            out->depth = (int)(data >> 40 & 0xff);
            out->level = (int)(data >> 56 & 0xf) - 1;
            out->generation = tt_data_generation(data);
            return true;
        }
    }
    return false;
}

/* The generation the entries stored now get, as TtEntry.generation reads it. */
static inline int tt_current_generation(const Tt *tt)
{
    return (int)(atomic_load_explicit(&tt->generation, memory_order_relaxed)
                 & (TT_GENERATIONS - 1));
}

/* Copies the entry for the position into `out`; false when there is none. */
static inline bool tt_probe(const Tt *tt, const Board *board, TtEntry *out)
{
    return tt_probe_bucket(tt_bucket(tt, board), board, out);
}
void tt_store(Tt *tt, const Board *board, int depth, int lower, int upper, int move);
/* The same for the result of a selective search (probability cuts at `level`). */
void tt_store_level(Tt *tt, const Board *board, int depth, int level, int lower, int upper,
                    int move);

#endif

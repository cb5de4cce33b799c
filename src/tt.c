#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool tt_init(Tt *tt, size_t megabytes)
{
    size_t bytes = megabytes << 20;
    size_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(TtEntry) <= bytes)
        buckets *= 2;
    tt->entries = malloc(buckets * 2 * sizeof(TtEntry));
    if (!tt->entries)
        return false;
    tt->mask = buckets - 1;
    tt->generation = 0;
    tt_clear(tt);
    return true;
}

void tt_free(Tt *tt)
{
    free(tt->entries);
    tt->entries = NULL;
}

void tt_clear(Tt *tt)
{
    memset(tt->entries, 0, (tt->mask + 1) * 2 * sizeof(TtEntry));
}

void tt_new_search(Tt *tt)
{
    ++tt->generation;
}

static inline size_t tt_bucket(const Tt *tt, const Board *board)
{
    return (size_t)(board_hash(board) & tt->mask) * 2;
}

bool tt_probe(const Tt *tt, const Board *board, TtEntry *out)
{
    const TtEntry *bucket = &tt->entries[tt_bucket(tt, board)];
    for (int i = 0; i < 2; ++i) {
        TtEntry copy = bucket[i];
        if (copy.player == board->player && copy.opponent == board->opponent
            && copy.lower <= copy.upper && (copy.player | copy.opponent) != 0) {
            *out = copy;
            return true;
        }
    }
    return false;
}

void tt_store(Tt *tt, const Board *board, int depth, int lower, int upper, int move)
{
    TtEntry *bucket = &tt->entries[tt_bucket(tt, board)];
    TtEntry entry = {board->player, board->opponent, (int8_t)lower, (int8_t)upper,
                     (uint8_t)move, (uint8_t)depth, tt->generation, {0, 0, 0}};
    TtEntry *slot;
    if (bucket[0].player == board->player && bucket[0].opponent == board->opponent)
        slot = &bucket[0];
    else if (bucket[0].generation != tt->generation || bucket[0].depth <= depth)
        slot = &bucket[0];
    else
        slot = &bucket[1];
    *slot = entry;
}

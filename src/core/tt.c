#include "core/tt.h"

#include <stdlib.h>
#include <sys/mman.h>

/* data word (tt.h): bits 56-59 hold 1 + level, never 0, so an all-zero slot is never a
 * valid entry. */
static inline int clamp16(int value)
{
    return value < -32767 ? -32767 : value > 32767 ? 32767 : value;
}

static inline uint64_t pack(int lower, int upper, int move, int depth, int level,
                            unsigned generation)
{
    /* bounds beyond 16 bits widen to the limit: still true bounds, never wrapped ones */
    lower = clamp16(lower);
    upper = clamp16(upper);
    return (uint64_t)(uint16_t)lower | (uint64_t)(uint16_t)upper << 16
         | (uint64_t)(uint8_t)move << 32 | (uint64_t)(uint8_t)depth << 40
         | (uint64_t)(generation & 0xff) << 48 | (uint64_t)(1 + level) << 56
         | (uint64_t)(generation >> 8 & 0xf) << 60;
}

static inline int data_depth(uint64_t data)
{
    return (int)(data >> 40 & 0xff);
}

bool tt_init(Tt *tt, size_t megabytes)
{
    size_t bytes = megabytes << 20;
    size_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(TtSlot) <= bytes)
        buckets *= 2;
    /* Aligned to a 2 MB page and offered to the kernel as huge pages: a probe lands on a
     * random line of the whole table, and with 4 kB pages nearly every one also missed
     * the TLB. */
    enum { HUGE_PAGE = 2 << 20 };
    size_t size = buckets * 2 * sizeof(TtSlot);
    tt->memory = calloc(size + HUGE_PAGE, 1);
    if (!tt->memory)
        return false;
    uintptr_t address = (uintptr_t)tt->memory;
    tt->slots = (TtSlot *)((address + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
#ifdef MADV_HUGEPAGE
    if (size >= HUGE_PAGE) /* advice only: without huge pages the table works the same */
        madvise(tt->slots, size, MADV_HUGEPAGE);
#endif
    tt->mask = buckets - 1;
    atomic_init(&tt->generation, 0);
    return true;
}

void tt_free(Tt *tt)
{
    free(tt->memory);
    tt->memory = NULL;
    tt->slots = NULL;
}

void tt_clear(Tt *tt)
{
    for (size_t i = 0; i < (tt->mask + 1) * 2; ++i) {
        atomic_store_explicit(&tt->slots[i].player_check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->slots[i].opponent_check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->slots[i].data, 0, memory_order_relaxed);
    }
}

void tt_new_search(Tt *tt)
{
    unsigned next = atomic_fetch_add_explicit(&tt->generation, 1, memory_order_relaxed) + 1;
    /* When the counter wraps, an entry left from TT_GENERATIONS searches ago would read as
     * the new search's own (an analysis trusts only those): clearing the table then keeps
     * every stored generation older than the current one. */
    if ((next & (TT_GENERATIONS - 1)) == 0)
        tt_clear(tt);
}

void tt_store(Tt *tt, const Board *board, int depth, int lower, int upper, int move)
{
    tt_store_level(tt, board, depth, TT_LEVEL_FULL, lower, upper, move);
}

void tt_store_level(Tt *tt, const Board *board, int depth, int level, int lower, int upper,
                    int move)
{
    TtSlot *bucket = (TtSlot *)tt_bucket(tt, board);
    unsigned generation = (unsigned)tt_current_generation(tt);
    uint64_t first = atomic_load_explicit(&bucket[0].data, memory_order_relaxed);
    /* the depth-preferred slot takes the entry when it holds the same position, an entry
     * of an older search, or a shallower one; otherwise the second slot does */
    TtSlot *slot = &bucket[1];
    if (tt_slot_read(&bucket[0], board) || (unsigned)tt_data_generation(first) != generation
        || data_depth(first) <= depth)
        slot = &bucket[0];
    uint64_t data = pack(lower, upper, move, depth, level, generation);
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
    atomic_store_explicit(&slot->player_check, board->player ^ data, memory_order_relaxed);
    atomic_store_explicit(&slot->opponent_check, board->opponent ^ data, memory_order_relaxed);
}

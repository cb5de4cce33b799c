#include "core/perft.h"

#include <stddef.h>

/* One ply from the leaves the count is the number of moves, or 1 when the side to move
 * must pass or the game is over: both are a single leaf. Counting there instead of
 * playing each move out is what makes perft fast. */
static uint64_t perft_frontier(uint64_t player, uint64_t opponent)
{
    uint64_t moves = board_moves(player, opponent);
    return moves ? (uint64_t)__builtin_popcountll(moves) : 1;
}

/* Deep enough that a look at the stop flag costs nothing beside the count below it. */
enum { PERFT_STOP_DEPTH = 6 };

static uint64_t perft_recurse(uint64_t player, uint64_t opponent, int depth,
                              const atomic_bool *stop)
{
    if (depth >= PERFT_STOP_DEPTH && stop && atomic_load_explicit(stop, memory_order_relaxed))
        return 0;
    uint64_t moves = board_moves(player, opponent);
    if (moves == 0) {
        if (board_moves(opponent, player) == 0)
            return 1; /* game over before the target depth */
        return depth == 1 ? 1 : perft_recurse(opponent, player, depth - 1, stop);
    }
    if (depth == 1)
        return (uint64_t)__builtin_popcountll(moves);
    uint64_t total = 0;
    if (depth == 2) {
        for (; moves; moves &= moves - 1) {
            int square = __builtin_ctzll(moves);
            uint64_t flips = board_flips(player, opponent, square);
            total += perft_frontier(opponent ^ flips, player ^ flips ^ (1ULL << square));
        }
        return total;
    }
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        uint64_t flips = board_flips(player, opponent, square);
        total += perft_recurse(opponent ^ flips, player ^ flips ^ (1ULL << square), depth - 1,
                               stop);
    }
    return total;
}

uint64_t perft_count(const Board *board, int depth)
{
    return perft_count_until(board, depth, NULL);
}

uint64_t perft_count_until(const Board *board, int depth, const atomic_bool *stop)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return perft_frontier(board->player, board->opponent);
    return perft_recurse(board->player, board->opponent, depth, stop);
}

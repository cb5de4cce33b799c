#include "core/bench.h"

#include "core/eval.h"
#include "core/notation.h"
#include "core/search.h"

/* Positions reached by deterministic pseudo-random games (a fixed seed, no library
 * randomness), taken at these numbers of empties: midgame searches first, then solves. */
static const int bench_empties[] = {50, 44, 38, 32, 28, 18, 20, 22};
_Static_assert(sizeof bench_empties / sizeof bench_empties[0] == BENCH_POSITIONS,
               "one number of empties per bench position");
enum {
    BENCH_DEPTH = 10,
    BENCH_EXACT = 22 /* positions with at most this many empties are solved exactly */
};

static uint64_t bench_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Plays pseudo-random moves from the start until `empties` remain; a game that ends first
 * is replayed with the next seed. */
static Board bench_position(int index)
{
    for (uint64_t seed = 1000 + (uint64_t)index;; seed += 100) {
        Board board;
        board_init(&board);
        uint64_t state = seed;
        while (board_count_empties(&board) > bench_empties[index] && !board_is_over(&board)) {
            uint64_t moves = board_legal(&board);
            if (!moves) {
                board_pass(&board);
                continue;
            }
            int pick = (int)(bench_random(&state) % (uint64_t)__builtin_popcountll(moves));
            while (pick--)
                moves &= moves - 1;
            board_play(&board, __builtin_ctzll(moves));
        }
        if (board_count_empties(&board) == bench_empties[index] && board_legal(&board))
            return board;
    }
}

void bench_run(Search *search, int positions, FILE *out, BenchTotals *totals)
{
    if (positions > BENCH_POSITIONS)
        positions = BENCH_POSITIONS;
    *totals = (BenchTotals){0};
    fprintf(out, " #  empties  search      move  score          nodes      time\n");
    for (int i = 0; i < positions; ++i) {
        Board board = bench_position(i);
        SearchLimits limits = search_default_limits();
        limits.depth = BENCH_DEPTH;
        limits.exact_empties = BENCH_EXACT;
        limits.threads = 1;
        tt_clear(&search->tt);
        SearchResult result;
        search_run(search, &board, &limits, &result, NULL, NULL);
        char move[3];
        fprintf(out, "%2d  %7d  %-10s  %4s  %+6.2f  %13llu  %7.3f s\n", i + 1, bench_empties[i],
                result.exact ? "exact" : "depth 10", move_format(result.move, move),
                (double)result.score / EVAL_DISC, (unsigned long long)result.nodes,
                result.seconds);
        totals->position_nodes[i] = result.nodes;
        totals->nodes += result.nodes;
        totals->seconds += result.seconds;
    }
    fprintf(out, "bench: %llu nodes, %.3f s, %.0f nodes/s\n", (unsigned long long)totals->nodes,
            totals->seconds, totals->seconds > 0 ? (double)totals->nodes / totals->seconds : 0.0);
}

/* Search against plain minimax on positions the tests generate. */
#include <check.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board.h"
#include "core/endgame.h"
#include "core/eval.h"
#include "core/notation.h"
#include "core/search.h"
#include "core/shapes.h"
#include "core/stability.h"
#include "testutil.h"
#include "core/tt.h"

/* Plain minimax to the end of the game: no pruning, no ordering, no tables. */
static int minimax_exact(const Board *board)
{
    uint64_t moves = board_legal(board);
    if (!moves) {
        Board passed = {board->opponent, board->player};
        if (!board_legal(&passed))
            return board_final_score(board);
        return -minimax_exact(&passed);
    }
    int best = -SCORE_MAX - 1;
    for (; moves; moves &= moves - 1) {
        Board next = *board;
        board_play(&next, __builtin_ctzll(moves));
        int value = -minimax_exact(&next);
        if (value > best)
            best = value;
    }
    return best;
}

/* A random position with `empties` empty squares from a random game (NULL if the game
 * ended earlier). */
static bool random_position(TestRandom *random, int empties, Board *out)
{
    Board positions[128];
    int count = test_random_game(random, positions, 128);
    for (int i = 0; i < count; ++i) {
        if (board_count_empties(&positions[i]) == empties) {
            *out = positions[i];
            return true;
        }
    }
    return false;
}

/* The definition of stability_discs square by square: full lines found by walking them,
 * then discs added one at a time until nothing changes. */
static uint64_t stability_reference(uint64_t discs, uint64_t others)
{
    static const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    uint64_t filled = discs | others;
    uint64_t stable = 0;
    for (bool grew = true; grew;) {
        grew = false;
        for (int square = 0; square < 64; ++square) {
            if (!((discs >> square) & 1) || ((stable >> square) & 1))
                continue;
            bool safe = true;
            for (int d = 0; d < 4 && safe; ++d) {
                int row = square / 8, col = square % 8;
                bool full = true, anchored = false;
                for (int sign = -1; sign <= 1; sign += 2) {
                    int r = row + sign * directions[d][0], c = col + sign * directions[d][1];
                    if (r < 0 || r > 7 || c < 0 || c > 7 || ((stable >> (r * 8 + c)) & 1))
                        anchored = true;
                    for (; r >= 0 && r <= 7 && c >= 0 && c <= 7;
                         r += sign * directions[d][0], c += sign * directions[d][1])
                        if (!((filled >> (r * 8 + c)) & 1))
                            full = false;
                }
                safe = full || anchored;
            }
            if (safe) {
                stable |= 1ULL << square;
                grew = true;
            }
        }
    }
    return stable;
}

START_TEST(test_stability_matches_reference_and_holds)
{
    TestRandom random = {77};
    int checked = 0;
    uint64_t found = 0;
    for (int game = 0; game < 300; ++game) {
        Board positions[128];
        int count = test_random_game(&random, positions, 128);
        for (int i = 0; i < count; ++i) {
            const Board *board = &positions[i];
            uint64_t stable = stability_discs(board->player, board->opponent);
            ck_assert_uint_eq(stable, stability_reference(board->player, board->opponent));
            found += (uint64_t)__builtin_popcountll(stable);
            /* sound: no later move of this game flips them (each step, a pass included,
             * hands the move over, so the owner is the mover every other position) */
            for (int j = i + 1; j < count; ++j) {
                uint64_t owner = (j - i) % 2 ? positions[j].opponent : positions[j].player;
                ck_assert_uint_eq(stable & owner, stable);
            }
            ++checked;
        }
    }
    ck_assert_int_gt(checked, 10000);
    ck_assert_uint_gt(found, 10000); /* the test saw stable discs, not only empty sets */
}
END_TEST

/* Every bit of the table's index, up to the largest table (--hash 65536: 2^30 buckets), is
 * set for about half of the positions of the endgame: a bit taken from the hash's lowest
 * bits, which depend on the first squares alone, is not (the plain rotation used before
 * failed here, bit 26 set in 1,503 of 4,000). */
START_TEST(test_tt_index_uses_whole_table)
{
    enum { BITS = 30 };
    Tt tt = {.mask = ((size_t)1 << BITS) - 1};
    TestRandom random = {77};
    int set[BITS] = {0};
    int count = 0;
    while (count < 4000) {
        Board board;
        if (!random_position(&random, 8 + count % 12, &board))
            continue;
        size_t index = tt_index(&tt, &board);
        ck_assert_uint_le(index, tt.mask);
        for (int bit = 0; bit < BITS; ++bit)
            set[bit] += (int)(index >> bit & 1);
        ++count;
    }
    for (int bit = 0; bit < BITS; ++bit) {
        ck_assert_msg(set[bit] > count * 4 / 10 && set[bit] < count * 6 / 10,
                      "index bit %d set in %d of %d positions", bit, set[bit], count);
    }
}
END_TEST

/* An entry reads back with what was stored, its level and generation included, and an
 * entry stays another search's for the whole generation count: when the count wraps, the
 * table is empty rather than holding an old entry that would read as the new search's. */
START_TEST(test_tt_entry_fields_and_generations)
{
    Tt tt;
    ck_assert(tt_init(&tt, 1));
    Board board, other;
    board_init(&board);
    other = board;
    board_play(&other, 19); /* d3 */
    TtEntry entry;
    for (int level = 0; level <= TT_LEVEL_FULL; ++level) {
        tt_store_level(&tt, &board, TT_DEPTH_EXACT + 60, level, -12 - level, 30000, 19);
        ck_assert(tt_probe(&tt, &board, &entry));
        ck_assert_int_eq(entry.level, level);
        ck_assert_int_eq(entry.lower, -12 - level);
        ck_assert_int_eq(entry.upper, 30000);
        ck_assert_int_eq(entry.move, 19);
        ck_assert_int_eq(entry.depth, TT_DEPTH_EXACT + 60);
        ck_assert_int_eq(entry.generation, tt_current_generation(&tt));
    }
    tt_store(&tt, &board, 5, -300, 300, 37); /* generation 0, left alone from here on */
    for (int search = 1; search < TT_GENERATIONS; ++search) {
        tt_new_search(&tt);
        ck_assert_int_eq(tt_current_generation(&tt), search);
        /* generations with their low byte, their high bits or both set read back whole */
        if (search == 255 || search == 256 || search == 300 || search == 2049
            || search == TT_GENERATIONS - 1) {
            int level = search % (TT_LEVEL_FULL + 1);
            tt_store_level(&tt, &other, 7, level, -1, 1, 20);
            ck_assert(tt_probe(&tt, &other, &entry));
            ck_assert_int_eq(entry.generation, search);
            ck_assert_int_eq(entry.level, level);
            ck_assert(tt_probe(&tt, &board, &entry));
            ck_assert_int_eq(entry.generation, 0);
        }
    }
    tt_new_search(&tt); /* the count wraps to 0 again: the old entries must go */
    ck_assert_int_eq(tt_current_generation(&tt), 0);
    ck_assert(!tt_probe(&tt, &board, &entry));
    ck_assert(!tt_probe(&tt, &other, &entry));
    tt_store(&tt, &board, 5, -300, 300, 37);
    ck_assert(tt_probe(&tt, &board, &entry));
    ck_assert_int_eq(entry.generation, 0);
    tt_free(&tt);
}
END_TEST

START_TEST(test_endgame_matches_minimax)
{
    TestRandom random = {2024};
    Tt tt;
    ck_assert(tt_init(&tt, 4));
    Solver local; /* only holds the local table that the solves below share */
    solver_init(&local, NULL, NULL);
    ck_assert(solver_local_alloc(&local));
    int tried = 0;
    for (int round = 0; round < 3000; ++round) {
        int empties = 1 + round % 10;
        if (empties > 8 && round % 7)
            continue; /* fewer deep ones: minimax is slow there */
        Board board;
        if (!random_position(&random, empties, &board))
            continue;
        int expected = minimax_exact(&board);
        Solver solver;
        solver_init(&solver, NULL, NULL);
        ck_assert_int_eq(endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX), expected);
        solver_init(&solver, &tt, NULL);
        solver.local = local.local; /* kept from position to position, as the table is */
        SolveResult result = endgame_solve(&solver, &board, false);
        ck_assert_int_eq(result.score, expected);
        if (result.move >= 0 && result.move < 64) { /* the move reaches that score */
            Board next = board;
            board_play(&next, result.move);
            ck_assert_int_eq(-minimax_exact(&next), expected);
        }
        /* win/draw/loss mode gets the sign right */
        solver_init(&solver, &tt, NULL);
        solver.local = local.local;
        SolveResult wld = endgame_solve(&solver, &board, true);
        int sign = expected > 0 ? 1 : expected < 0 ? -1 : 0;
        ck_assert_int_eq(wld.score > 0 ? 1 : wld.score < 0 ? -1 : 0, sign);
        ++tried;
    }
    ck_assert_int_gt(tried, 2000);
    solver_local_free(&local);
    tt_free(&tt);
}
END_TEST

/* A fail-soft result against the exact score: a fail-low result is an upper bound, a
 * fail-high one a lower bound, anything inside the window exact. */
static void assert_fail_soft(int exact, int value, int alpha, int beta)
{
    if (value <= alpha)
        ck_assert_int_le(exact, value);
    else if (value >= beta)
        ck_assert_int_ge(exact, value);
    else
        ck_assert_int_eq(exact, value);
}

START_TEST(test_endgame_fail_soft_bounds)
{
    /* deeper positions (14 empties), checked against the full-window score with random
     * windows: fail-low results are upper bounds, fail-high ones lower bounds */
    TestRandom random = {77};
    Tt tt;
    ck_assert(tt_init(&tt, 16));
    Solver local; /* its local table serves every window with the shared table */
    solver_init(&local, NULL, NULL);
    ck_assert(solver_local_alloc(&local));
    int tried = 0;
    while (tried < 40) {
        Board board;
        if (!random_position(&random, 14, &board))
            continue;
        Solver solver;
        solver_init(&solver, NULL, NULL);
        int exact = endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX);
        for (int w = 0; w < 6; ++w) {
            int alpha = test_random_below(&random, 100) - 50;
            int beta = alpha + 1 + test_random_below(&random, 20);
            solver_init(&solver, (w & 1) ? &tt : NULL, NULL);
            if (w & 1)
                solver.local = local.local;
            assert_fail_soft(exact, endgame_search(&solver, &board, alpha, beta), alpha, beta);
        }
        ++tried;
    }
    solver_local_free(&local);
    tt_free(&tt);
}
END_TEST

START_TEST(test_endgame_local_table_windows)
{
    /* One solver with a local table solves positions of 8-13 empties (whose nodes the local
     * table holds) in many random windows one after another, so most windows start from
     * bounds another window stored; each result must stand against the exact score found
     * with no table at all. */
    TestRandom random = {4242};
    Tt tt;
    ck_assert(tt_init(&tt, 8));
    Solver solver;
    solver_init(&solver, &tt, NULL);
    ck_assert(solver_local_alloc(&solver));
    int tried = 0, inside = 0;
    while (tried < 60) {
        Board board;
        if (!random_position(&random, 8 + tried % 6, &board))
            continue;
        Solver plain;
        solver_init(&plain, NULL, NULL);
        int exact = endgame_search(&plain, &board, -SCORE_MAX, SCORE_MAX);
        for (int w = 0; w < 12; ++w) {
            int alpha = exact - 6 + test_random_below(&random, 12);
            int beta = alpha + 1 + test_random_below(&random, 4) * (w & 1);
            int value = endgame_search(&solver, &board, alpha, beta);
            assert_fail_soft(exact, value, alpha, beta);
            inside += value > alpha && value < beta;
        }
        ck_assert_int_eq(endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX), exact);
        ++tried;
    }
    ck_assert_int_gt(inside, 0);
    ck_assert_uint_gt(solver.nodes, 0);
    solver_local_free(&solver);
    ck_assert_ptr_null(solver.local);
    tt_free(&tt);
}
END_TEST

START_TEST(test_endgame_stop_flag)
{
    /* a raised stop flag makes even a long solve return at once, marked stopped */
    TestRandom random = {5};
    Board board;
    while (!random_position(&random, 30, &board))
        ;
    atomic_bool stop = true;
    Solver solver;
    solver_init(&solver, NULL, &stop);
    endgame_solve(&solver, &board, false);
    ck_assert(solver.stopped);
    ck_assert_uint_lt(solver.nodes, 100000);
}
END_TEST


/* A deterministic random Edax-like model: any weights do for comparing searches. */
static Model *test_model(void)
{
    Model *model = test_random_model(42);
    ck_assert_ptr_nonnull(model);
    return model;
}

/* A search with a small table and the test model (the caller frees both). */
static Model *search_with_test_model(Search *search)
{
    Model *model = test_model();
    OctError error;
    ck_assert_msg(search_init(search, 8, &error), "%s", error.message);
    search_set_model(search, model);
    return model;
}

/* Replays a line from `board`: its final score from the root mover's view when it ends the
 * game, else a value out of range. */
static int line_final_score(const Board *board, const int *pv, int length)
{
    Board position = *board;
    for (int i = 0; i < length; ++i)
        if (!board_try_play(&position, pv[i]))
            return 1000;
    if (!board_is_over(&position))
        return 1000;
    int score = board_final_score(&position);
    return length % 2 ? -score : score;
}

/* Every line goes as deep as its search: an exact one to the end of the game with the
 * score it claims (the shared table holds its moves only from 11 empties; below, they are
 * solved), a midgame one `depth` moves (its last node keeps no table entry), and with
 * several lines each has its own. */
START_TEST(test_lines_reach_their_depth_and_score)
{
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    TestRandom random = {404};
    int tried = 0;
    while (tried < 24) {
        Board board;
        if (!random_position(&random, 12 + tried % 5, &board) || !board_legal(&board))
            continue;
        SearchLimits limits = search_default_limits();
        limits.exact_empties = 64;
        limits.threads = 1;
        limits.lines = 1 + 2 * (tried % 2);
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert(result.exact);
        ck_assert_int_eq(line_final_score(&board, result.pv, result.pv_length),
                         result.score / EVAL_DISC);
        for (int i = 0; limits.lines > 1 && i < result.line_count; ++i) {
            const SearchLine *line = &result.lines[i];
            ck_assert_int_eq(line->pv[0], line->move);
            ck_assert_int_eq(line_final_score(&board, line->pv, line->pv_length),
                             line->score / EVAL_DISC);
        }
        /* a midgame search of the same position: `depth` moves, passes aside */
        limits.exact_empties = 0;
        limits.depth = 3 + tried % 3;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        Board position = board;
        int moves = 0;
        for (int i = 0; i < result.pv_length; ++i) {
            ck_assert(board_try_play(&position, result.pv[i]));
            moves += result.pv[i] != MOVE_PASS;
        }
        ck_assert_msg(moves == limits.depth || board_is_over(&position), "%d of %d", moves,
                      limits.depth);
        for (int i = 0; limits.lines > 1 && i < result.line_count; ++i)
            ck_assert_int_ge(result.lines[i].pv_length, 1);
        ++tried;
    }
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_midgame_matches_minimax)
{
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 8, &error));
    TestRandom random = {31};
    int tried = 0;
    for (int round = 0; tried < 60; ++round) {
        Board board;
        if (!random_position(&random, 20 + round % 36, &board) || !board_legal(&board))
            continue;
        int depth = 3 + round % 2;
        /* every fourth position without a network: the search then counts discs */
        const Model *used = round % 4 == 3 ? NULL : model;
        search_set_model(&search, used);
        SearchLimits limits = search_default_limits();
        limits.depth = depth;
        limits.exact_empties = 0;
        limits.use_tt = false;
        limits.lines = 64; /* every root move with its own exact score */
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert(!result.exact);
        ck_assert_int_eq(result.depth, depth);
        ck_assert_int_eq(result.score, test_minimax_depth(used, &board, depth));
        ck_assert_int_eq(result.line_count, __builtin_popcountll(board_legal(&board)));
        for (int i = 0; i < result.line_count; ++i) {
            Board next = board;
            board_play(&next, result.lines[i].move);
            ck_assert_int_eq(result.lines[i].score, -test_minimax_depth(used, &next, depth - 1));
            if (i > 0)
                ck_assert_int_ge(result.lines[i - 1].score, result.lines[i].score);
        }
        /* one line with PVS and the table: the same best score at the same depth */
        limits.lines = 1;
        limits.use_tt = true;
        tt_clear(&search.tt);
        SearchResult pvs;
        search_run(&search, &board, &limits, &pvs, NULL, NULL);
        ck_assert_int_eq(pvs.score, result.score);
        ck_assert(board_legal(&board) >> pvs.move & 1);
        ck_assert_int_ge(pvs.pv_length, 1);
        ck_assert_int_eq(pvs.pv[0], pvs.move);
        int played = 0;
        for (int i = 0; i < pvs.pv_length; ++i)
            played += pvs.pv[i] != MOVE_PASS;
        ck_assert_int_le(played, depth);
        /* a shallower search after it: its line stops at its own depth, where the table's
         * deeper entries would have made it longer */
        limits.depth = 1;
        search_run(&search, &board, &limits, &pvs, NULL, NULL);
        ck_assert_int_eq(pvs.pv_length, 1);
        ++tried;
    }
    search_free(&search);
    model_free(model);
}
END_TEST

/* Alpha-beta to the end in evaluation units, without tables or ordering, where a draw is
 * worth `draw` to the side to move (the contempt, seen from each side in turn). */
static int alphabeta_with_draw(const Board *board, int draw, int alpha, int beta)
{
    uint64_t moves = board_legal(board);
    if (!moves) {
        Board passed = {board->opponent, board->player};
        if (!board_legal(&passed)) {
            int discs = board_final_score(board);
            return discs ? discs * EVAL_DISC : draw;
        }
        return -alphabeta_with_draw(&passed, -draw, -beta, -alpha);
    }
    for (; moves; moves &= moves - 1) {
        Board next = *board;
        board_play(&next, __builtin_ctzll(moves));
        int value = -alphabeta_with_draw(&next, -draw, -beta, -alpha);
        if (value >= beta)
            return value;
        if (value > alpha)
            alpha = value;
    }
    return alpha;
}

static int value_with_draw(const Board *board, int draw)
{
    return alphabeta_with_draw(board, draw, -1000000, 1000000);
}

START_TEST(test_contempt_values_draws)
{
    /* midgame searches deep enough to reach every end: their scores must be the minimax of
     * the final counts with draws at the contempt, also when the table already holds the
     * exact solver's bounds (which count a draw as 0); the exact solve itself picks a move
     * that is best with the contempt too, and reports the plain score */
    static const int draws[] = {EVAL_DISC, -EVAL_DISC, 2 * EVAL_DISC, -2 * EVAL_DISC, 37};
    Search search;
    OctError error;
    ck_assert(search_init(&search, 8, &error));
    search_set_model(&search, NULL);
    TestRandom random = {77};
    int tried = 0, changed = 0, passes = 0;
    for (int round = 0; tried < 30 || passes < 3; ++round) {
        Board board;
        /* from 11 empties the solver leaves its bounds in the shared table */
        int empties = 12 + round % 2;
        if (!random_position(&random, empties, &board))
            continue;
        int draw = draws[round % 5];
        SearchLimits limits = search_default_limits();
        limits.depth = empties; /* every leaf is a finished game */
        limits.draw = draw;
        Board swapped = {board.opponent, board.player};
        if (board_legal(&board) && !board_legal(&swapped)) {
            /* the side to move in `swapped` must pass: the draw is the other side's then */
            limits.exact_empties = 0;
            tt_clear(&search.tt);
            SearchResult passed;
            search_run(&search, &swapped, &limits, &passed, NULL, NULL);
            ck_assert_int_eq(passed.move, MOVE_PASS);
            ck_assert_int_eq(passed.score, value_with_draw(&swapped, draw));
            ++passes;
            limits.exact_empties = 20;
        }
        if (tried >= 30)
            continue;
        /* every root move's exact score (tight bounds in the table), or only the best
         * (one-sided bounds for the others) */
        limits.lines = round % 4 < 2 ? 64 : 1;
        tt_clear(&search.tt);
        SearchResult exact;
        search_run(&search, &board, &limits, &exact, NULL, NULL);
        ck_assert(exact.exact);
        if (exact.score != 0 && round % 64 != 0)
            continue; /* mostly drawn positions, where the contempt shows */
        int expected = value_with_draw(&board, draw);
        ck_assert_int_eq(exact.score, value_with_draw(&board, 0));
        changed += expected != exact.score;
        if (exact.move >= 0 && exact.move < 64) {
            Board next = board;
            board_play(&next, exact.move);
            ck_assert_int_eq(-value_with_draw(&next, -draw), expected);
        }

        limits.exact_empties = 0;
        limits.lines = 1;
        SearchResult result; /* the table still holds the exact bounds */
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert_int_eq(result.score, expected);
        tt_clear(&search.tt);
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert_int_eq(result.score, expected);
        ++tried;
    }
    /* the positions must include draws, or the test proves nothing */
    ck_assert_int_ge(changed, 15);
    /* drawn with best play, and White (to move) must pass: the draw is Black's at the root
     * (found by a brute-force script, checked here by value_with_draw) */
    static const char *const drawn_passes[] = {
        "--OOOOOO-OOOOOOOX-OOXOXOXXOXOXOOXXOXOXXOX-OOOOOX--OOOOXX-OOOOOOO O",
        "OOOOOOO-XOOOOOOOOXXOOXOOOOXOOOOOOOXXOOOOOOXOOOOO-OOXO----OOOOO-- O",
    };
    for (size_t i = 0; i < sizeof drawn_passes / sizeof drawn_passes[0]; ++i) {
        Board board;
        Color side;
        ck_assert(board_parse(drawn_passes[i], &board, &side, &error));
        Board swapped = {board.opponent, board.player};
        ck_assert(!board_legal(&board) && board_legal(&swapped));
        ck_assert_int_eq(value_with_draw(&board, 0), 0);
        for (int sign = -1; sign <= 1; sign += 2) {
            SearchLimits limits = search_default_limits();
            limits.depth = board_count_empties(&board);
            limits.exact_empties = 0;
            limits.draw = sign * EVAL_DISC;
            tt_clear(&search.tt);
            SearchResult result;
            search_run(&search, &board, &limits, &result, NULL, NULL);
            ck_assert_int_eq(result.move, MOVE_PASS);
            ck_assert_int_eq(result.score, sign * EVAL_DISC);
        }
    }
    search_free(&search);
}
END_TEST

/* A leaf of the midgame search whose game is over is worth its final count, not the
 * network's guess: here the only move wipes the opponent out with 61 squares empty, and a
 * search of depth 1 must see the win of 64 discs; with the contempt, a finished draw at a
 * leaf is worth the contempt. */
START_TEST(test_midgame_leaf_game_over)
{
    Search search;
    Model *model = search_with_test_model(&search);
    OctError error;
    Board board;
    Color side;
    ck_assert(board_parse("---------------------------XO----------------------------------- X",
                          &board, &side, &error));
    SearchLimits limits = search_default_limits();
    limits.depth = 1;
    limits.exact_empties = 0;
    SearchResult result;
    search_run(&search, &board, &limits, &result, NULL, NULL);
    ck_assert_int_eq(result.move, 29); /* f4 */
    ck_assert_int_eq(result.score, 64 * EVAL_DISC);
    /* a blocked draw: the mover's only move (h4) leaves 56 empties that neither side can
     * take, with 4 discs each */
    ck_assert(board_parse("-O-----X----O--O---OO--O---------------------------------------- X",
                          &board, &side, &error));
    Board next = board;
    board_play(&next, 31);
    ck_assert_uint_eq(board_legal(&next), 0);
    Board swapped = {next.opponent, next.player};
    ck_assert_uint_eq(board_legal(&swapped), 0);
    ck_assert_int_eq(board_final_score(&next), 0);
    limits.draw = 3 * EVAL_DISC;
    search_run(&search, &board, &limits, &result, NULL, NULL);
    ck_assert_int_eq(result.move, 31);
    ck_assert_int_eq(result.score, 3 * EVAL_DISC);
    search_free(&search);
    model_free(model);
}
END_TEST

/* The root mover's value of the position at the end of `pv` (`length` moves, passes
 * counted as plies, from `board`): its count when the game is over (the contempt `draw` for
 * a draw), else the network's score signed by who moves there. */
static int line_leaf_value(const Model *model, const Board *board, const int *pv, int length,
                           int draw)
{
    Board leaf = *board;
    for (int i = 0; i < length; ++i)
        ck_assert(board_try_play(&leaf, pv[i]));
    int sign = length & 1 ? -1 : 1;
    if (board_is_over(&leaf)) {
        int discs = board_final_score(&leaf);
        return discs ? sign * discs * EVAL_DISC : draw;
    }
    return sign * eval_board(model, &leaf);
}

/* A depth-2 search's lines end at the leaves they valued: each line's last move is the
 * depth-1 node's choice, which must value a finished draw at the contempt as the leaves do.
 * All root moves are asked for, so every depth-1 node below the root shows its choice. The
 * network's weights are a few units, so its scores lie within the contempt. Each position
 * (found by a brute-force scan of random games) has a reply that ends the game in a draw
 * with empties left beside one that does not; the random ones near the end of games add
 * finished wins and losses. */
START_TEST(test_midgame_line_ends_at_its_leaf)
{
    Model *model = test_model();
    model_fill_random(model, 42, 2);
    Search search;
    OctError error;
    ck_assert(search_init(&search, 8, &error));
    search_set_model(&search, model);
    static const char *const blocked_draws[] = {
        "-XXXXXXXOOOOOXXXOXOXXXXXOOOOXXXXOXOXOO-XOOXXXOXOOXXXXOO-OOOOOOO- X",
        "--XXXXXXOOX-XXXXOOOXXOXXOOXOXOOXOOXXOXOXOXOXOOOXOXXXXOOXOOOOOOO- X",
        "OOOOOOO-OXXXXXXXOXXOOOXOOOXXOX--OOOOXOXXOOOXXXXXOOXOOXXX-XXXXXXX X",
        "XXXXXXX-XXXXXOOOXXXXXOOOXXXXOXXOOXXOOOXOO-XOXOXO-OXXXXOO-OOOOOOO X",
        "OXXXXXXXOOOOOOXOOXOOOXXOOXOOXOX-OOOXOXXXOOXXXXXXOOOOO--XXXXXXXX- X",
        "OOOOOOOXOOOOOOXXOOOOOXXXOOOOXXOXOOOXXOXXO-OXOXXX--OXXXXX-XXXXXXX X",
    };
    const int fixed = (int)(sizeof blocked_draws / sizeof blocked_draws[0]);
    TestRandom random = {77};
    int drawn = 0;
    for (int tried = 0; tried < 2 * fixed + 2000; ++tried) {
        Board board;
        Color side;
        if (tried < 2 * fixed) {
            ck_assert(board_parse(blocked_draws[tried / 2], &board, &side, &error));
        } else if (!random_position(&random, 2 + test_random_below(&random, 3), &board)
                   || !board_legal(&board)) {
            --tried;
            continue;
        }
        SearchLimits limits = search_default_limits();
        limits.depth = 2;
        limits.exact_empties = 0;
        limits.lines = SEARCH_MAX_LINES;
        limits.draw = (tried & 1 ? 1 : -1) * SEARCH_MAX_DRAW;
        tt_clear(&search.tt);
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        for (int i = 0; i < result.line_count; ++i) {
            const SearchLine *line = &result.lines[i];
            const int *pv = result.line_count > 1 ? line->pv : result.pv;
            int length = result.line_count > 1 ? line->pv_length : result.pv_length;
            int value = line_leaf_value(model, &board, pv, length, limits.draw);
            ck_assert_msg(value == line->score, "position %d, line %d: worth %d, score %d",
                          tried, i, value, line->score);
            drawn += value == limits.draw;
        }
    }
    ck_assert_int_ge(drawn, 30); /* else the test proves nothing about draws */
    search_free(&search);
    model_free(model);
}
END_TEST

/* A time budget far too short for anything still leaves the first iteration to finish: a
 * timed search always answers a searched move with its score, however loaded the machine
 * (an analysis under the sanitizers on a busy host once lost its played move's score). */
START_TEST(test_time_budget_keeps_first_iteration)
{
    Search search;
    Model *model = search_with_test_model(&search);
    Board board;
    board_init(&board);
    board_play(&board, 37); /* f5 */
    SearchLimits limits = search_default_limits();
    limits.depth = 12;
    limits.seconds = 1e-9;
    SearchResult result;
    search_run(&search, &board, &limits, &result, NULL, NULL);
    ck_assert_int_ge(result.depth, 1);
    ck_assert(result.stopped);
    ck_assert(board_legal(&board) >> result.move & 1);
    search_free(&search);
    model_free(model);
}
END_TEST

/* Entries as the ordering searches store them, one for each child of `board`, each claiming
 * a 30-disc loss for the child's mover. */
static void store_claimed_wins(Tt *tt, const Board *board)
{
    for (uint64_t moves = board_legal(board); moves; moves &= moves - 1) {
        Board child = *board;
        board_play(&child, __builtin_ctzll(moves));
        tt_store_level(tt, &child, 40, TT_LEVEL_DRAW_ZERO, -30 * EVAL_DISC, -30 * EVAL_DISC,
                       MOVE_NONE);
    }
}

/* The solver's ordering searches store midgame-depth entries that value a draw at 0
 * (TT_LEVEL_DRAW_ZERO); a midgame search with contempt takes only their moves. Here every
 * child of the root has such an entry claiming a 30-disc win for the root: without contempt
 * the search believes it, with contempt it finds what it finds on an empty table. */
START_TEST(test_contempt_ignores_ordering_entries)
{
    Search search;
    Model *model = search_with_test_model(&search);
    TestRandom random = {4077};
    int tried = 0;
    while (tried < 12) {
        Board board;
        if (!random_position(&random, 30, &board))
            continue;
        SearchLimits limits = search_default_limits();
        limits.depth = 4;
        limits.exact_empties = 0;
        limits.threads = 1;
        limits.draw = tried % 2 ? EVAL_DISC : -2 * EVAL_DISC;
        tt_clear(&search.tt);
        SearchResult clean;
        search_run(&search, &board, &limits, &clean, NULL, NULL);
        ck_assert_int_lt(clean.score, 20 * EVAL_DISC);
        store_claimed_wins(&search.tt, &board);
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert_int_eq(result.score, clean.score);
        ck_assert_int_eq(result.move, clean.move);
        limits.draw = 0; /* no contempt: the entries' bounds hold */
        tt_clear(&search.tt);
        store_claimed_wins(&search.tt, &board);
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert_int_eq(result.score, 30 * EVAL_DISC);
        ++tried;
    }
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_parallel_solves_match_one_thread)
{
    /* nodes from 8 empties up are shared out, so the split points, their cutoffs and the
     * helpers joining nested splits all run; every score must equal one thread's. (Before the
     * fix for stopped threads joining split points, this setting gave about 1 wrong score in
     * 300 positions.) */
    Model *model = test_model();
    Search one, two;
    OctError error;
    ck_assert(search_init(&one, 16, &error));
    ck_assert(search_init(&two, 16, &error));
    search_set_model(&one, model);
    search_set_model(&two, model);
    TestRandom random = {606};
    int tried = 0;
    while (tried < 150) {
        Board board;
        if (!random_position(&random, 14 + tried % 4, &board) || !board_legal(&board))
            continue;
        SearchLimits limits = search_default_limits();
        limits.exact_empties = 64;
        limits.split_empties = 8;
        limits.check_nodes = 8; /* cutoffs seen at once: the interleavings that once lost moves */
        SearchResult single, parallel;
        tt_clear(&one.tt);
        search_run(&one, &board, &limits, &single, NULL, NULL);
        limits.threads = 2;
        tt_clear(&two.tt);
        search_run(&two, &board, &limits, &parallel, NULL, NULL);
        ck_assert_int_eq(parallel.score, single.score);
        Board next = board;
        board_play(&next, parallel.move);
        Solver solver;
        solver_init(&solver, NULL, NULL);
        ck_assert_int_eq(-endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX) * EVAL_DISC,
                         single.score);
        ++tried;
    }
    search_free(&one);
    search_free(&two);
    model_free(model);
}
END_TEST

typedef struct DepthScores {
    int score[SEARCH_MAX_DEPTH + 1];
    int depths[SEARCH_MAX_DEPTH + 1]; /* in the order reported */
    uint64_t nodes[SEARCH_MAX_DEPTH + 1];
    int count;
    bool pause; /* after the first report: helpers run ahead, as on a loaded machine */
} DepthScores;

static void keep_depth_scores(void *context, const SearchResult *result)
{
    DepthScores *scores = context;
    if (result->running || scores->count > SEARCH_MAX_DEPTH) /* a look at the nodes only */
        return;
    scores->score[result->depth] = result->score;
    scores->nodes[scores->count] = result->nodes;
    scores->depths[scores->count++] = result->depth;
    if (scores->pause && scores->count == 1)
        nanosleep(&(struct timespec){0, 30 * 1000 * 1000}, NULL);
}

START_TEST(test_threads_report_each_depths_own_result)
{
    /* Lazy SMP helpers ahead of the main thread must not lend it their deeper results: each
     * depth reported is that depth's own, the same score as one thread's (full width below
     * PROBCUT_MID_ROOT_DEPTH, so the scores are exact minimax values of each depth), and
     * its node count covers every thread */
    Model *model = test_model();
    Search one, four;
    OctError error;
    ck_assert(search_init(&one, 16, &error));
    ck_assert(search_init(&four, 16, &error));
    search_set_model(&one, model);
    search_set_model(&four, model);
    TestRandom random = {5505};
    int tried = 0;
    while (tried < 4) {
        Board board;
        if (!random_position(&random, 40 + tried, &board) || !board_legal(&board))
            continue;
        SearchLimits limits = search_default_limits();
        limits.depth = PROBCUT_MID_ROOT_DEPTH - 1;
        limits.exact_empties = 0;
        DepthScores single = {0}, parallel = {.pause = true};
        SearchResult result;
        tt_clear(&one.tt);
        search_run(&one, &board, &limits, &result, keep_depth_scores, &single);
        limits.threads = 4;
        tt_clear(&four.tt);
        search_run(&four, &board, &limits, &result, keep_depth_scores, &parallel);
        ck_assert_int_eq(parallel.count, limits.depth);
        for (int i = 0; i < parallel.count; ++i) {
            int depth = parallel.depths[i];
            ck_assert_int_eq(depth, i + 1);
            ck_assert_msg(parallel.score[depth] == single.score[depth],
                          "position %d depth %d: %d on four threads, %d on one", tried, depth,
                          parallel.score[depth], single.score[depth]);
            if (i > 0)
                ck_assert_uint_ge(parallel.nodes[i], parallel.nodes[i - 1]);
        }
        /* the last report counts the nodes so far, the result every thread's to the end */
        ck_assert_uint_le(parallel.nodes[parallel.count - 1], result.nodes);
        ++tried;
    }
    search_free(&one);
    search_free(&four);
    model_free(model);
}
END_TEST

START_TEST(test_exact_same_with_tt_and_threads)
{
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    TestRandom random = {8};
    int tried = 0;
    while (tried < 30) {
        Board board;
        if (!random_position(&random, 12 + tried % 5, &board))
            continue;
        Solver solver;
        solver_init(&solver, NULL, NULL);
        int expected = endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX);
        for (int variant = 0; variant < 4; ++variant) {
            SearchLimits limits = search_default_limits();
            limits.exact_empties = 64;
            limits.use_tt = variant & 1;
            limits.threads = 1 + (variant >> 1);
            tt_clear(&search.tt);
            SearchResult result;
            search_run(&search, &board, &limits, &result, NULL, NULL);
            ck_assert(result.exact);
            ck_assert_int_eq(result.score, expected * EVAL_DISC);
            if (result.move >= 0 && result.move < 64) {
                Board next = board;
                board_play(&next, result.move);
                solver_init(&solver, NULL, NULL);
                ck_assert_int_eq(-endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX), expected);
            }
        }
        ++tried;
    }
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_wld_solves_match_exact_outcomes)
{
    /* win/draw/loss solves (positions above the exact threshold, up to wld_empties): the
     * outcome is the sign of the exact score, the move played keeps it, on one thread and on
     * two, with one line and with every move scored; and at or below the exact threshold
     * the solve stays exact */
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    TestRandom random = {4242};
    int tried = 0, draws = 0, wins = 0, losses = 0;
    while (tried < 60) {
        Board board;
        if (!random_position(&random, 10 + tried % 6, &board) || !board_legal(&board))
            continue;
        Solver solver;
        solver_init(&solver, NULL, NULL);
        int expected = endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX);
        int outcome = (expected > 0) - (expected < 0);
        draws += outcome == 0;
        wins += outcome > 0;
        losses += outcome < 0;
        for (int variant = 0; variant < 4; ++variant) {
            SearchLimits limits = search_default_limits();
            limits.exact_empties = 8;
            limits.wld_empties = 64;
            limits.threads = 1 + (variant & 1);
            limits.split_empties = 8;
            limits.lines = variant & 2 ? 64 : 1;
            tt_clear(&search.tt);
            SearchResult result;
            search_run(&search, &board, &limits, &result, NULL, NULL);
            ck_assert(result.wld);
            ck_assert(!result.exact);
            ck_assert_int_eq(result.depth, board_count_empties(&board));
            ck_assert_int_eq(result.score, outcome * EVAL_DISC);
            Board next = board;
            board_play(&next, result.move);
            solver_init(&solver, NULL, NULL);
            int played = -endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX);
            ck_assert_int_eq((played > 0) - (played < 0), outcome);
            if (limits.lines > 1) { /* every move, with its own outcome, best first */
                ck_assert_int_eq(result.line_count, __builtin_popcountll(board_legal(&board)));
                for (int i = 0; i < result.line_count; ++i) {
                    next = board;
                    board_play(&next, result.lines[i].move);
                    solver_init(&solver, NULL, NULL);
                    int value = -endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX);
                    ck_assert_int_eq(result.lines[i].score, ((value > 0) - (value < 0)) * EVAL_DISC);
                    if (i > 0)
                        ck_assert_int_le(result.lines[i].score, result.lines[i - 1].score);
                }
            }
        }
        SearchLimits limits = search_default_limits(); /* within the exact threshold */
        limits.exact_empties = 64;
        limits.wld_empties = 64;
        tt_clear(&search.tt);
        SearchResult result;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert(result.exact && !result.wld);
        ck_assert_int_eq(result.score, expected * EVAL_DISC);
        ++tried;
    }
    ck_assert_int_gt(wins, 0); /* every outcome came up */
    ck_assert_int_gt(losses, 0);
    ck_assert_int_gt(draws, 0);
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_selective_passes_keep_exact_scores)
{
    /* random weights predict badly, and a narrow sigma makes the selective passes cut often
     * and wrongly: the exact pass must still find every score, on one thread and on two */
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    static Probcut narrow = {.enabled = true, .base = 1.0};
    TestRandom random = {4242};
    int tried = 0;
    uint64_t nodes_plain = 0, nodes_selective = 0, nodes_wide = 0;
    while (tried < 24) {
        Board board;
        if (!random_position(&random, PROBCUT_MIN_EMPTIES + 4 + tried % 4, &board)
            || !board_legal(&board))
            continue;
        Solver solver;
        solver_init(&solver, NULL, NULL);
        int expected = endgame_search(&solver, &board, -SCORE_MAX, SCORE_MAX);
        for (int variant = 0; variant < 5; ++variant) {
            search_set_probcut(&search, variant == 0 ? NULL : &narrow);
            SearchLimits limits = search_default_limits();
            limits.exact_empties = 64;
            limits.threads = variant == 2 || variant == 4 ? 2 : 1;
            if (variant >= 3) /* the wider second pass too */
                limits.wide_pass_empties = PROBCUT_MIN_EMPTIES + 4;
            SearchResult result;
            search_run(&search, &board, &limits, &result, NULL, NULL);
            ck_assert(result.exact);
            ck_assert_int_eq(result.score, expected * EVAL_DISC);
            /* the line too, though the passes leave selective entries and bounds on it */
            ck_assert_int_eq(line_final_score(&board, result.pv, result.pv_length), expected);
            Board next = board;
            board_play(&next, result.move);
            solver_init(&solver, NULL, NULL);
            ck_assert_int_eq(-endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX), expected);
            if (variant == 0)
                nodes_plain += result.nodes;
            else if (variant == 1)
                nodes_selective += result.nodes;
            else if (variant == 3)
                nodes_wide += result.nodes;
        }
        ++tried;
    }
    ck_assert(nodes_plain != nodes_selective); /* the passes ran */
    ck_assert(nodes_wide != nodes_selective);  /* and the wider one too */
    search_free(&search);
    model_free(model);
}
END_TEST

/* Every midgame cell of `probcut` set to v_deep = v_shallow, error `sigma` discs. */
static void midgame_cuts(Probcut *probcut, double sigma)
{
    memset(probcut, 0, sizeof *probcut);
    for (int d = PROBCUT_MID_MIN_DEPTH; d <= PROBCUT_MID_MAX_DEPTH; ++d)
        for (int e = 0; e <= PROBCUT_MID_MAX_EMPTIES; ++e)
            probcut->mid[d][e] = (ProbcutPair){1.0f, 0.0f, (float)(sigma * EVAL_DISC)};
    probcut->mid_enabled = true;
    probcut->mid_deepest[0] = PROBCUT_MID_MAX_DEPTH - 1;
    probcut->mid_deepest[1] = PROBCUT_MID_MAX_DEPTH;
}

START_TEST(test_midgame_probcut)
{
    /* cuts so wide that no bound is reachable leave the search exactly as it was; narrow
     * ones cut: fewer nodes, and still a legal move, a full depth and a principal variation;
     * searches shallower than PROBCUT_MID_ROOT_DEPTH cut nothing */
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    static Probcut wide, narrow;
    midgame_cuts(&wide, 1000.0);
    midgame_cuts(&narrow, 0.25);
    TestRandom random = {777};
    uint64_t nodes_plain = 0, nodes_narrow = 0;
    int tried = 0, differ = 0;
    while (tried < 8) {
        Board board;
        if (!random_position(&random, 30 + tried, &board) || !board_legal(&board))
            continue;
        SearchLimits limits = search_default_limits();
        limits.exact_empties = 0;
        limits.depth = PROBCUT_MID_ROOT_DEPTH - 1;
        SearchResult shallow_plain, shallow_narrow;
        search_set_probcut(&search, NULL);
        tt_clear(&search.tt); /* each search from an empty table */
        search_run(&search, &board, &limits, &shallow_plain, NULL, NULL);
        search_set_probcut(&search, &narrow);
        tt_clear(&search.tt); /* each search from an empty table */
        search_run(&search, &board, &limits, &shallow_narrow, NULL, NULL);
        ck_assert_uint_eq(shallow_narrow.nodes, shallow_plain.nodes);
        ck_assert_int_eq(shallow_narrow.score, shallow_plain.score);
        limits.depth = PROBCUT_MID_ROOT_DEPTH;
        SearchResult plain, same, cut;
        search_set_probcut(&search, NULL);
        tt_clear(&search.tt); /* each search from an empty table */
        search_run(&search, &board, &limits, &plain, NULL, NULL);
        search_set_probcut(&search, &wide);
        tt_clear(&search.tt); /* each search from an empty table */
        search_run(&search, &board, &limits, &same, NULL, NULL);
        ck_assert_int_eq(same.score, plain.score);
        ck_assert_int_eq(same.move, plain.move);
        ck_assert_uint_eq(same.nodes, plain.nodes);
        search_set_probcut(&search, &narrow);
        tt_clear(&search.tt); /* each search from an empty table */
        search_run(&search, &board, &limits, &cut, NULL, NULL);
        ck_assert(!cut.exact && !cut.stopped);
        ck_assert_int_eq(cut.depth, PROBCUT_MID_ROOT_DEPTH);
        ck_assert(board_legal(&board) >> cut.move & 1);
        ck_assert_int_ge(cut.pv_length, 1);
        ck_assert_int_eq(cut.pv[0], cut.move);
        nodes_plain += plain.nodes;
        nodes_narrow += cut.nodes;
        differ += cut.score != plain.score;
        ++tried;
    }
    ck_assert_msg(nodes_narrow < nodes_plain, "narrow cuts: %llu nodes, none: %llu",
                  (unsigned long long)nodes_narrow, (unsigned long long)nodes_plain);
    ck_assert_int_gt(differ, 0); /* the cuts change scores: they did run */
    search_free(&search);
    model_free(model);
}
END_TEST

typedef struct StopRun {
    Search *search;
    Board board;
    SearchResult result;
} StopRun;

static void *stop_run_main(void *argument)
{
    StopRun *run = argument;
    SearchLimits limits = search_default_limits();
    limits.exact_empties = 64; /* a 36-empty exact solve: far longer than the test */
    limits.threads = 2;
    search_run(run->search, &run->board, &limits, &run->result, NULL, NULL);
    return NULL;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

START_TEST(test_search_stop_from_another_thread)
{
    Model *model = test_model();
    Search search;
    OctError error;
    ck_assert(search_init(&search, 16, &error));
    search_set_model(&search, model);
    TestRandom random = {99};
    StopRun run = {&search, {0, 0}, {0}};
    while (!random_position(&random, 36, &run.board) || !board_legal(&run.board))
        ;
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, stop_run_main, &run), 0);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    double raised = now_seconds();
    search_stop(&search);
    pthread_join(thread, NULL);
    double waited = now_seconds() - raised;
    ck_assert(run.result.stopped);
    ck_assert(board_legal(&run.board) >> run.result.move & 1); /* still a legal move */
    ck_assert_msg(waited < 1.0, "stop took %.3f s", waited); /* generous: promptness, not speed */
    search_free(&search);
    model_free(model);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("search");
    TCase *endgame = tcase_create("endgame");
    tcase_set_timeout(endgame, 300);
    tcase_add_test(endgame, test_stability_matches_reference_and_holds);
    tcase_add_test(endgame, test_endgame_matches_minimax);
    tcase_add_test(endgame, test_tt_index_uses_whole_table);
    tcase_add_test(endgame, test_tt_entry_fields_and_generations);
    tcase_add_test(endgame, test_endgame_fail_soft_bounds);
    tcase_add_test(endgame, test_endgame_local_table_windows);
    tcase_add_test(endgame, test_endgame_stop_flag);
    suite_add_tcase(suite, endgame);
    TCase *search = tcase_create("search");
    tcase_set_timeout(search, 300);
    tcase_add_test(search, test_lines_reach_their_depth_and_score);
    tcase_add_test(search, test_midgame_matches_minimax);
    tcase_add_test(search, test_contempt_values_draws);
    tcase_add_test(search, test_contempt_ignores_ordering_entries);
    tcase_add_test(search, test_midgame_leaf_game_over);
    tcase_add_test(search, test_midgame_line_ends_at_its_leaf);
    tcase_add_test(search, test_time_budget_keeps_first_iteration);
    tcase_add_test(search, test_exact_same_with_tt_and_threads);
    tcase_add_test(search, test_parallel_solves_match_one_thread);
    tcase_add_test(search, test_threads_report_each_depths_own_result);
    tcase_add_test(search, test_wld_solves_match_exact_outcomes);
    tcase_add_test(search, test_selective_passes_keep_exact_scores);
    tcase_add_test(search, test_midgame_probcut);
    tcase_add_test(search, test_search_stop_from_another_thread);
    suite_add_tcase(suite, search);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

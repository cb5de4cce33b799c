/* Search against plain minimax on positions the tests generate. */
#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "board.h"
#include "endgame.h"
#include "testutil.h"
#include "tt.h"

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

START_TEST(test_endgame_matches_minimax)
{
    TestRandom random = {2024};
    Tt tt;
    ck_assert(tt_init(&tt, 4));
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
        SolveResult result = endgame_solve(&solver, &board, false);
        ck_assert_int_eq(result.score, expected);
        if (result.move >= 0 && result.move < 64) { /* the move reaches that score */
            Board next = board;
            board_play(&next, result.move);
            ck_assert_int_eq(-minimax_exact(&next), expected);
        }
        /* win/draw/loss mode gets the sign right */
        solver_init(&solver, &tt, NULL);
        SolveResult wld = endgame_solve(&solver, &board, true);
        int sign = expected > 0 ? 1 : expected < 0 ? -1 : 0;
        ck_assert_int_eq(wld.score > 0 ? 1 : wld.score < 0 ? -1 : 0, sign);
        ++tried;
    }
    ck_assert_int_gt(tried, 2000);
    tt_free(&tt);
}
END_TEST

START_TEST(test_endgame_fail_soft_bounds)
{
    /* deeper positions (14 empties), checked against the full-window score with random
     * windows: fail-low results are upper bounds, fail-high ones lower bounds */
    TestRandom random = {77};
    Tt tt;
    ck_assert(tt_init(&tt, 16));
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
            int value = endgame_search(&solver, &board, alpha, beta);
            if (value <= alpha)
                ck_assert_int_le(exact, value);
            else if (value >= beta)
                ck_assert_int_ge(exact, value);
            else
                ck_assert_int_eq(exact, value);
        }
        ++tried;
    }
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

int main(void)
{
    Suite *suite = suite_create("search");
    TCase *endgame = tcase_create("endgame");
    tcase_set_timeout(endgame, 300);
    tcase_add_test(endgame, test_endgame_matches_minimax);
    tcase_add_test(endgame, test_endgame_fail_soft_bounds);
    tcase_add_test(endgame, test_endgame_stop_flag);
    suite_add_tcase(suite, endgame);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/eval.h"
#include "core/rng.h"
#include "core/shapes.h"

uint64_t test_random_next(TestRandom *random)
{
    return rng_next(&random->state);
}

int test_random_below(TestRandom *random, int bound)
{
    return (int)(test_random_next(random) % (uint64_t)bound);
}

int test_random_move(TestRandom *random, const Board *board)
{
    uint64_t moves = board_legal(board);
    if (!moves)
        return MOVE_PASS;
    int pick = test_random_below(random, __builtin_popcountll(moves));
    while (pick--)
        moves &= moves - 1;
    return __builtin_ctzll(moves);
}

void test_random_record(TestRandom *random, Game *game)
{
    game_init(game);
    Board board;
    board_init(&board);
    while (!board_is_over(&board)) {
        int move = test_random_move(random, &board);
        game->moves[game->move_count++] = move; /* legal by construction */
        board_play(&board, move);
    }
}

int test_random_game(TestRandom *random, Board *positions, int capacity)
{
    Board board;
    board_init(&board);
    int count = 0;
    positions[count++] = board;
    while (count < capacity && !board_is_over(&board)) {
        board_play(&board, test_random_move(random, &board));
        positions[count++] = board;
    }
    return count;
}

Model *test_random_model(uint64_t seed)
{
    Shape shape;
    PhaseTable phase;
    Model *model = NULL;
    OctError error;
    if (!shapes_edax(&shape, &error))
        return NULL;
    phase_buckets(&phase, 10);
    bool made = model_create(&shape, 1, &phase, &model, &error);
    shape_free(&shape);
    if (!made)
        return NULL;
    model_fill_random(model, seed, 300);
    return model;
}

void test_random_trainset(TrainSet *set, int games, uint64_t seed)
{
    TestRandom random = {seed};
    trainset_init(set);
    for (int g = 0; g < games; ++g) {
        Game game;
        test_random_record(&random, &game);
        ck_assert(trainset_add_game(set, &game));
    }
}

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

const char *test_source_path(const char *relative)
{
    const char *top = getenv("srcdir");
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", top ? top : TOP_SRCDIR, relative);
    return path;
}

int test_minimax_depth(const Model *model, const Board *board, int depth)
{
    uint64_t moves = board_legal(board);
    if (!moves) {
        Board passed = {board->opponent, board->player};
        if (!board_legal(&passed))
            return board_final_score(board) * EVAL_DISC;
        if (depth == 0)
            return eval_board(model, board);
        return -test_minimax_depth(model, &passed, depth);
    }
    if (depth == 0)
        return eval_board(model, board);
    int best = -1000000;
    for (; moves; moves &= moves - 1) {
        Board next = *board;
        board_play(&next, __builtin_ctzll(moves));
        int value = -test_minimax_depth(model, &next, depth - 1);
        if (value > best)
            best = value;
    }
    return best;
}

void test_write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    fputs(text, file);
    fclose(file);
}

/* Shared test helpers: a seeded generator, random legal games and a random model. */
#ifndef OCTUPLE_TESTS_TESTUTIL_H
#define OCTUPLE_TESTS_TESTUTIL_H

#include <stdint.h>

#include "core/board.h"
#include "core/game.h"
#include "core/model.h"
#include "train/trainset.h"

typedef struct TestRandom {
    uint64_t state;
} TestRandom;

uint64_t test_random_next(TestRandom *random);
int test_random_below(TestRandom *random, int bound);

/* A uniformly chosen legal move, or MOVE_PASS when there is none. */
int test_random_move(TestRandom *random, const Board *board);

/* A random game from the start position to its end, passes explicit. */
void test_random_record(TestRandom *random, Game *game);

/* Plays random legal moves (passing when forced) from the start position until the game ends,
 * storing every position reached (start included) in `positions`; returns how many. */
int test_random_game(TestRandom *random, Board *positions, int capacity);

/* A deterministic random model of the Edax shape with 10 weight sets (any weights do for
 * comparing searches), or NULL when it cannot be built. Free it with model_free. */
Model *test_random_model(uint64_t seed);

/* `games` random finished games from the start position as a training set (labels: their
 * final results). */
void test_random_trainset(TrainSet *set, int games, uint64_t seed);

/* Plain minimax to `depth` plies with the model at the leaves (NULL: disc count; passes do
 * not use depth, finished games score their final count): the search's conventions. */
int test_minimax_depth(const Model *model, const Board *board, int depth);
/* Writes `text` to `path` (the test fails when it cannot). */
void test_write_text(const char *path, const char *text);
/* A file of the source tree (srcdir when the harness sets it, else the tree the tests were
 * configured from), in a static buffer overwritten by the next call. */
const char *test_source_path(const char *relative);

#endif

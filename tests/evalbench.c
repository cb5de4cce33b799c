/* Evaluation speed on an Edax-size network (46 instances of 4 to 10 squares), random
 * weights, positions from random games, for a weight set per move (61 sets, 27 MB: Edax's
 * layout) and for a single weight set. Two workloads:
 *   games   every legal move of every position of each game (the state follows the game):
 *           copy the state, eval_play, eval_score, copy back. Leaves hop between game
 *           stages, so the tables are mostly out of cache: the pessimistic case.
 *   trees   full-width depth-3 trees from every 8th position (eval_set at the root,
 *           eval_play and copy-undo at every node, eval_score at the leaves): what a
 *           search does, leaves at one move number sharing most table lines.
 * Per leaf, median of several runs, it prints
 *   leaf     ns for the incremental evaluation: (copy + eval_play + eval_score + copy back),
 *            plus move generation at the leaves' parents in the tree workload;
 *   update   the same without eval_score;
 *   score    leaf - update: eval_score alone;
 *   scratch  eval_board on the same leaf positions, from scratch;
 * Usage: evalbench [games] [runs] [FILE.shape]   (make evalbench; EVALBENCH_SHAPE=FILE.shape
 * measures another shape, as octuple-train shapes writes them, instead of the Edax-like one) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/board.h"
#include "core/eval.h"
#include "core/model.h"
#include "core/shapefile.h"
#include "core/shapes.h"
#include "testutil.h"

enum { GAME_CAPACITY = 128, MAX_RUNS = 31 };

typedef struct Leaf {
    uint64_t flips;
    int square;
} Leaf;

typedef struct Workload {
    int games;
    int *game_start;      /* first position of each game, games + 1 entries */
    Board *positions;     /* positions of all games, in order */
    int *leaf_start;      /* first leaf of each position, positions + 1 entries */
    Leaf *leaves;
    Board *leaf_boards;   /* the position after each leaf move */
    long position_count, leaf_count;
} Workload;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void workload_build(Workload *w, int games)
{
    TestRandom random = {20240601};
    Board game[GAME_CAPACITY];
    w->games = games;
    w->game_start = malloc(sizeof *w->game_start * (size_t)(games + 1));
    w->positions = malloc(sizeof *w->positions * (size_t)games * GAME_CAPACITY);
    w->position_count = 0;
    for (int g = 0; g < games; ++g) {
        w->game_start[g] = (int)w->position_count;
        int count = test_random_game(&random, game, GAME_CAPACITY);
        for (int i = 0; i < count; ++i)
            w->positions[w->position_count++] = game[i];
    }
    w->game_start[games] = (int)w->position_count;
    w->leaf_start = malloc(sizeof *w->leaf_start * (size_t)(w->position_count + 1));
    long capacity = w->position_count * 32;
    w->leaves = malloc(sizeof *w->leaves * (size_t)capacity);
    w->leaf_boards = malloc(sizeof *w->leaf_boards * (size_t)capacity);
    w->leaf_count = 0;
    for (long p = 0; p < w->position_count; ++p) {
        w->leaf_start[p] = (int)w->leaf_count;
        const Board *board = &w->positions[p];
        for (uint64_t moves = board_legal(board); moves; moves &= moves - 1) {
            int square = __builtin_ctzll(moves);
            Leaf *leaf = &w->leaves[w->leaf_count];
            leaf->square = square;
            leaf->flips = board_flips(board->player, board->opponent, square);
            w->leaf_boards[w->leaf_count] = *board;
            board_play(&w->leaf_boards[w->leaf_count], square);
            ++w->leaf_count;
        }
    }
    w->leaf_start[w->position_count] = (int)w->leaf_count;
}

/* Walks every game; at each position evaluates every leaf incrementally. */
static double run_incremental(const Workload *w, const Model *model, bool score, long *sink)
{
    long total = 0;
    double start = now();
    for (int g = 0; g < w->games; ++g) {
        EvalState state, saved;
        int first = w->game_start[g], end = w->game_start[g + 1];
        eval_set(&state, model, &w->positions[first]);
        for (int p = first; p < end; ++p) {
            if (p > first) {
                /* follow the game: the move played is the one that reaches position p */
                const Board *before = &w->positions[p - 1], *after = &w->positions[p];
                uint64_t placed = (after->opponent & ~before->player) & ~before->opponent;
                if (placed) {
                    int square = __builtin_ctzll(placed);
                    eval_play(&state, model, square, after->opponent & before->opponent);
                } else {
                    eval_pass(&state);
                }
            }
            eval_copy(&saved, &state);
            for (int l = w->leaf_start[p]; l < w->leaf_start[p + 1]; ++l) {
                eval_play(&state, model, w->leaves[l].square, w->leaves[l].flips);
                if (score)
                    total += eval_score(&state, model);
                else
                    total += state.index[0];
                eval_copy(&state, &saved);
            }
        }
    }
    double seconds = now() - start;
    *sink += total;
    return seconds * 1e9 / (double)w->leaf_count;
}

typedef enum LeafWork { LEAF_SCORE, LEAF_NONE, LEAF_SCRATCH } LeafWork;

static long tree_walk(EvalState *state, const Model *model, int depth, LeafWork work, long *leaves)
{
    if (depth == 0) {
        ++*leaves;
        if (work == LEAF_SCORE)
            return eval_score(state, model);
        if (work == LEAF_SCRATCH)
            return eval_board(model, &state->board);
        return state->index[0];
    }
    const Board *board = &state->board;
    uint64_t moves = board_legal(board);
    long total = 0;
    if (!moves) {
        if (!board_moves(board->opponent, board->player))
            return tree_walk(state, model, 0, work, leaves);
        eval_pass(state);
        total = tree_walk(state, model, depth - 1, work, leaves);
        eval_pass(state);
        return total;
    }
    EvalState saved;
    eval_copy(&saved, state);
    for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        eval_play(state, model, square, board_flips(board->player, board->opponent, square));
        total += tree_walk(state, model, depth - 1, work, leaves);
        eval_copy(state, &saved);
    }
    return total;
}

static double run_trees(const Workload *w, const Model *model, LeafWork work, long *sink)
{
    enum { TREE_DEPTH = 3, ROOT_STRIDE = 8 };
    long total = 0, leaves = 0;
    double start = now();
    for (long p = 0; p < w->position_count; p += ROOT_STRIDE) {
        EvalState state;
        eval_set(&state, model, &w->positions[p]);
        total += tree_walk(&state, model, TREE_DEPTH, work, &leaves);
    }
    double seconds = now() - start;
    *sink += total;
    return seconds * 1e9 / (double)leaves;
}

static double run_scratch(const Workload *w, const Model *model, long *sink)
{
    long total = 0;
    double start = now();
    for (long l = 0; l < w->leaf_count; ++l)
        total += eval_board(model, &w->leaf_boards[l]);
    double seconds = now() - start;
    *sink += total;
    return seconds * 1e9 / (double)w->leaf_count;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return values[count / 2];
}

static void report(const char *label, double *leaf, double *update, double *scratch, int runs)
{
    double l = median(leaf, runs), u = median(update, runs), x = median(scratch, runs);
    printf("%-24s leaf %6.1f   update %6.1f   score %6.1f   scratch %6.1f\n", label, l, u,
           l - u, x);
}

static void measure(const char *label, const Workload *w, const Model *model, int runs, long *sink)
{
    double leaf[MAX_RUNS], update[MAX_RUNS], scratch[MAX_RUNS];
    char name[64];
    run_incremental(w, model, true, sink); /* warm up: page the tables in */
    for (int r = 0; r < runs; ++r) {
        leaf[r] = run_incremental(w, model, true, sink);
        update[r] = run_incremental(w, model, false, sink);
        scratch[r] = run_scratch(w, model, sink);
    }
    snprintf(name, sizeof name, "games, %s", label);
    report(name, leaf, update, scratch, runs);
    for (int r = 0; r < runs; ++r) {
        leaf[r] = run_trees(w, model, LEAF_SCORE, sink);
        update[r] = run_trees(w, model, LEAF_NONE, sink);
        /* eval_board at the leaves, less the walk around it */
        scratch[r] = run_trees(w, model, LEAF_SCRATCH, sink) - update[r];
    }
    snprintf(name, sizeof name, "trees, %s", label);
    report(name, leaf, update, scratch, runs);
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 1000;
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    if (games < 1 || runs < 1 || runs > MAX_RUNS || argc > 4) {
        fputs("usage: evalbench [games >= 1] [runs 1..31] [FILE.shape]\n", stderr);
        return 2;
    }
    Shape shape;
    OctError error;
    if (argc > 3 && argv[3][0] ? !shape_read(argv[3], &shape, &error) : !shapes_edax(&shape, &error)) {
        fprintf(stderr, "evalbench: %s\n", error.message);
        return 1;
    }
    Workload w;
    workload_build(&w, games);
    printf("%s shape: %d tuples, %d instances; %d games, %ld positions, %ld depth-1 "
           "leaves; ns per leaf, median of %d runs\n", shape.name, shape.tuple_count, shape.instance_count,
           games, w.position_count, w.leaf_count, runs);
    long sink = 0;
    PhaseTable phase;
    Model *model;
    phase_buckets(&phase, 1);
    if (!model_create(&shape, 1, &phase, &model, &error)) {
        fprintf(stderr, "evalbench: %s\n", error.message);
        return 1;
    }
    model_fill_random(model, 1, 2000);
    measure("61 weight sets", &w, model, runs, &sink);
    model_free(model);
    phase_single(&phase);
    if (!model_create(&shape, 1, &phase, &model, &error)) {
        fprintf(stderr, "evalbench: %s\n", error.message);
        return 1;
    }
    model_fill_random(model, 2, 2000);
    measure("1 weight set", &w, model, runs, &sink);
    model_free(model);
    shape_free(&shape);
    printf("(checksum %ld)\n", sink);
    return 0;
}

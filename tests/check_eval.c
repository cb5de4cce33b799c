/* Evaluation: shape generators, symmetric sampling, incremental indices, weights files,
 * shape files, the Othello League import (hand-checked on Figure 7), WPC baselines. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/board.h"
#include "core/eval.h"
#include "core/fileio.h"
#include "core/league.h"
#include "core/model.h"
#include "core/probcut.h"
#include "core/modeldump.h"
#include "core/search.h"
#include "core/ntuple.h"
#include "core/shapefile.h"
#include "core/shapes.h"
#include "train/selfplay.h"
#include "testutil.h"
#include "core/weights.h"
#include "core/wpc.h"

enum { GAME_CAPACITY = 160 };

/* ---- helpers ---- */

static Model *model_of(const Shape *shapes, int count, const PhaseTable *phase, uint64_t seed,
                       bool symmetric)
{
    Model *model;
    OctError error;
    ck_assert_msg(model_create(shapes, count, phase, &model, &error), "%s", error.message);
    model_fill_random(model, seed, 3000);
    if (symmetric)
        model_symmetrize(model);
    return model;
}

static Model *single_shape_model(bool (*generate)(Shape *, OctError *), uint64_t seed,
                                 bool symmetric, bool per_move)
{
    Shape shape;
    OctError error;
    ck_assert_msg(generate(&shape, &error), "%s", error.message);
    PhaseTable phase;
    if (per_move)
        phase_buckets(&phase, 1);
    else
        phase_single(&phase);
    Model *model = model_of(&shape, 1, &phase, seed, symmetric);
    shape_free(&shape);
    return model;
}

static bool all2(Shape *out, OctError *error) { return shapes_all_n(2, out, error); }
static bool all3(Shape *out, OctError *error) { return shapes_all_n(3, out, error); }
static bool all4(Shape *out, OctError *error) { return shapes_all_n(4, out, error); }
static bool lucas30(Shape *out, OctError *error) { return shapes_snakes(30, 0, 7, out, error); }
static bool rand8x4(Shape *out, OctError *error) { return shapes_snakes(8, 4, 11, out, error); }

/* Three shapes by game stage, weights per move: the phase-shape paper's kind of agent. */
static Model *staged_model(uint64_t seed)
{
    Shape shapes[3];
    OctError error;
    ck_assert(shapes_all_n(2, &shapes[0], &error));
    ck_assert(shapes_edax(&shapes[1], &error));
    ck_assert(shapes_snakes(10, 5, 3, &shapes[2], &error));
    PhaseTable phase;
    static const int first_moves[] = {0, 20, 40};
    phase_stages(&phase, first_moves, 3);
    Model *model = model_of(shapes, 3, &phase, seed, false);
    for (int s = 0; s < 3; ++s)
        shape_free(&shapes[s]);
    return model;
}

static Model *figure7(void)
{
    Model *model;
    OctError error;
    ck_assert_msg(model_import_league(test_source_path("weights/jaskowski-all2.txt"), &model, &error),
                  "%s", error.message);
    return model;
}

/* Random legal moves, passing when forced; `moves[i]` leads from positions[i] to i + 1. */
static int random_game(TestRandom *random, Board *positions, int *moves, int capacity)
{
    Board board;
    board_init(&board);
    int count = 0;
    while (count + 1 < capacity && !board_is_over(&board)) {
        positions[count] = board;
        uint64_t legal = board_legal(&board);
        int move = MOVE_PASS;
        if (legal) {
            int pick = test_random_below(random, __builtin_popcountll(legal));
            while (pick--)
                legal &= legal - 1;
            move = __builtin_ctzll(legal);
        }
        moves[count++] = move;
        board_play(&board, move);
    }
    positions[count] = board;
    return count;
}

static void models_free(Model **models, int count)
{
    for (int i = 0; i < count; ++i)
        model_free(models[i]);
}

/* ---- generators ---- */

START_TEST(test_all_n_counts)
{
    static const int tuples[] = {10, 32, 24, 21};
    static const int weights[] = {30, 288, 648, 1701};
    static const int instances[] = {64, 210, 168, 130}; /* every straight line once */
    for (int n = 1; n <= 4; ++n) {
        Shape shape;
        OctError error;
        ck_assert_msg(shapes_all_n(n, &shape, &error), "%s", error.message);
        ck_assert_int_eq(shape.tuple_count, tuples[n - 1]);
        ck_assert_uint_eq(shape.table_size, (unsigned)weights[n - 1]);
        ck_assert_int_eq(shape.instance_count, instances[n - 1]);
        for (int t = 0; t < shape.tuple_count; ++t)
            ck_assert(tuple_is_symmetric(&shape.tuples[t]));
        shape_free(&shape);
    }
}
END_TEST

/* Figure 7 lists the 32 all-2 tuples with their expansions: ours are the same square sets. */
START_TEST(test_all_2_is_figure_7)
{
    Shape ours;
    OctError error;
    ck_assert(shapes_all_n(2, &ours, &error));
    Model *league = figure7();
    const Shape *theirs = &league->shapes[0];
    ck_assert_int_eq(theirs->tuple_count, 32);
    ck_assert_int_eq(theirs->instance_count, ours.instance_count);
    bool matched[32] = {false};
    for (int t = 0; t < 32; ++t) {
        const Tuple *a = &theirs->tuples[t];
        int found = -1;
        for (int u = 0; u < 32 && found < 0; ++u) {
            const Tuple *b = &ours.tuples[u];
            if (matched[u] || a->instance_count != b->instance_count)
                continue;
            int same = 0;
            for (int i = 0; i < a->instance_count; ++i)
                for (int k = 0; k < b->instance_count; ++k)
                    same += (1ULL << a->squares[i][0] | 1ULL << a->squares[i][1])
                         == (1ULL << b->squares[k][0] | 1ULL << b->squares[k][1]);
            if (same == a->instance_count)
                found = u;
        }
        ck_assert_msg(found >= 0, "Figure 7 tuple %d has no all-2 counterpart", t + 1);
        matched[found] = true;
    }
    shape_free(&ours);
    model_free(league);
}
END_TEST

START_TEST(test_edax_shapes)
{
    static const int images[] = {4, 4, 4, 4, 4, 4, 4, 2, 4, 4, 4, 4};
    Shape shape;
    OctError error;
    ck_assert(shapes_edax(&shape, &error));
    ck_assert_int_eq(shape.tuple_count, 12);
    ck_assert_int_eq(shape.instance_count, 46);
    for (int t = 0; t < 12; ++t)
        ck_assert_int_eq(shape.tuples[t].instance_count, images[t]);
    shape_free(&shape);
    ck_assert(shapes_edax_2x5(&shape, &error));
    ck_assert_int_eq(shape.tuple_count, 11);
    ck_assert_int_eq(shape.instance_count, 46);
    ck_assert_int_eq(shape.tuples[1].instance_count, 8); /* the 2x5 corner, both ways */
    shape_free(&shape);
}
END_TEST

static bool adjacent(int a, int b)
{
    return a != b && abs(a % 8 - b % 8) <= 1 && abs(a / 8 - b / 8) <= 1;
}

START_TEST(test_snakes)
{
    Shape lucas, again, other, fixed;
    OctError error;
    ck_assert(shapes_snakes(30, 0, 42, &lucas, &error));
    ck_assert(shapes_snakes(30, 0, 42, &again, &error));
    ck_assert(shapes_snakes(30, 0, 43, &other, &error));
    ck_assert(shapes_snakes(8, 4, 42, &fixed, &error));
    ck_assert(shape_equal(&lucas, &again));
    ck_assert(!shape_equal(&lucas, &other));
    ck_assert_int_eq(lucas.tuple_count, 30);
    ck_assert_int_eq(fixed.tuple_count, 8);
    for (int t = 0; t < 30; ++t) {
        const Tuple *tuple = &lucas.tuples[t];
        ck_assert(tuple->size >= 2 && tuple->size <= 6);
        for (int j = 1; j < tuple->size; ++j) {
            bool linked = false; /* a walk: each new square touches an earlier one */
            for (int i = 0; i < j; ++i)
                linked |= adjacent(tuple->squares[0][i], tuple->squares[0][j]);
            ck_assert(linked);
        }
    }
    for (int t = 0; t < 8; ++t)
        ck_assert_int_eq(fixed.tuples[t].size, 4);
    shape_free(&other);
    ck_assert(!shapes_snakes(0, 4, 1, &other, &error));
    shape_free(&lucas);
    shape_free(&again);
    shape_free(&fixed);
}
END_TEST

START_TEST(test_phase_tables)
{
    PhaseTable phase;
    OctError error;
    int sets;
    static const int table3[] = {0, 33, 37, 41, 45}; /* Kuramitsu et al. 2025, Table 3 agent */
    phase_stages(&phase, table3, 5);
    ck_assert(phase_check(&phase, 5, &sets, &error));
    ck_assert_int_eq(sets, 61);
    ck_assert_int_eq(phase.shape[32], 0);
    ck_assert_int_eq(phase.shape[33], 1);
    ck_assert_int_eq(phase.shape[44], 3);
    ck_assert_int_eq(phase.shape[60], 4);
    phase_buckets(&phase, 4);
    ck_assert(phase_check(&phase, 1, &sets, &error));
    ck_assert_int_eq(sets, 16);
    phase_single(&phase);
    ck_assert(phase_check(&phase, 1, &sets, &error) && sets == 1);
    ck_assert(!phase_check(&phase, 2, &sets, &error));
    ck_assert(strstr(error.message, "shape 1 is used by no move"));
    phase.set[10] = 2;
    ck_assert(!phase_check(&phase, 1, &sets, &error));
    ck_assert(strstr(error.message, "weight set 1 is used by no move"));
    phase.set[10] = 0;
    phase.shape[10] = 1;
    ck_assert(!phase_check(&phase, 2, &sets, &error));
    ck_assert(strstr(error.message, "weight set 0 is used with shape 0 and, at move 10, with shape 1"));
}
END_TEST

/* ---- symmetry ---- */

START_TEST(test_symmetric_models_score_all_images_alike)
{
    Model *models[] = {
        single_shape_model(all2, 1, true, false),
        single_shape_model(all3, 2, true, false),
        single_shape_model(all4, 3, true, false),
        single_shape_model(shapes_edax, 4, true, true),
        single_shape_model(shapes_edax_2x5, 5, true, false),
        single_shape_model(lucas30, 6, true, false),
        single_shape_model(rand8x4, 7, true, false),
    };
    int count = (int)(sizeof models / sizeof models[0]);
    for (int m = 0; m < count; ++m)
        ck_assert_msg(model_is_symmetric(models[m]), "model %d", m);
    TestRandom random = {99};
    Board positions[GAME_CAPACITY];
    int moves[GAME_CAPACITY];
    int checked = 0;
    while (checked < 1500) {
        int length = random_game(&random, positions, moves, GAME_CAPACITY);
        for (int i = 0; i <= length; ++i, ++checked) {
            for (int m = 0; m < count; ++m) {
                EvalState state;
                eval_set(&state, models[m], &positions[i]);
                int32_t expected = eval_sum(&state, models[m]);
                for (int s = 1; s < SYMMETRY_COUNT; ++s) {
                    Board image = board_symmetry(&positions[i], s);
                    eval_set(&state, models[m], &image);
                    ck_assert_msg(eval_sum(&state, models[m]) == expected,
                                  "model %d symmetry %d differs", m, s);
                }
            }
        }
    }
    models_free(models, count);
}
END_TEST

START_TEST(test_asymmetric_models_are_reported)
{
    Model *random_edax = single_shape_model(shapes_edax, 8, false, false);
    ck_assert(!model_is_symmetric(random_edax)); /* lines read both ways need equal entries */
    model_free(random_edax);
    Model *league = figure7();
    ck_assert(!model_is_symmetric(league)); /* Figure 7 sorts each expansion's squares */
    model_free(league);
}
END_TEST

/* ---- incremental == from scratch ---- */

static void check_incremental(Model *model, TestRandom *random, int positions_wanted,
                              long *passes)
{
    Board positions[GAME_CAPACITY];
    int moves[GAME_CAPACITY];
    EvalState states[GAME_CAPACITY];
    int checked = 0;
    while (checked < positions_wanted) {
        int length = random_game(random, positions, moves, GAME_CAPACITY);
        EvalState state, scratch;
        Color color = COLOR_BLACK;
        eval_set_color(&state, model, &positions[0], color);
        for (int i = 0;; ++i, ++checked) {
            eval_set_color(&scratch, model, &positions[i], color);
            ck_assert(board_equal(&state.board, &positions[i]));
            ck_assert_int_eq(eval_sum(&state, model), eval_sum(&scratch, model));
            ck_assert_int_eq(eval_score(&state, model), eval_score(&scratch, model));
            uint32_t entries[SHAPE_MAX_INSTANCES];
            const WeightSet *set = model_weights(model, state.move_number);
            int32_t sum = set->bias;
            for (int k = eval_entries(&state, model, entries); k-- > 0;)
                sum += set->values[entries[k]];
            ck_assert_int_eq(eval_sign(&state, model) * sum, eval_sum(&state, model));
            eval_copy(&states[i], &state);
            if (i == length)
                break;
            if (moves[i] == MOVE_PASS) {
                eval_pass(&state);
                ++*passes;
            } else {
                Board *board = &positions[i];
                eval_play(&state, model, moves[i], board_flips(board->player, board->opponent, moves[i]));
            }
            color = (Color)!color;
        }
        /* and back: undo restores every earlier evaluation and board */
        for (int i = length - 1; i >= 0; --i) {
            if (moves[i] == MOVE_PASS) {
                eval_pass(&state);
            } else {
                Board *board = &positions[i];
                eval_undo(&state, model, moves[i], board_flips(board->player, board->opponent, moves[i]));
            }
            ck_assert(board_equal(&state.board, &positions[i]));
            ck_assert_int_eq(eval_sum(&state, model), eval_sum(&states[i], model));
            ck_assert_int_eq(state.move_number, states[i].move_number);
        }
    }
}

START_TEST(test_incremental_matches_scratch)
{
    Model *models[6] = {
        single_shape_model(shapes_edax, 21, false, false),
        single_shape_model(shapes_edax, 22, false, true),
        staged_model(23),
        single_shape_model(all3, 24, false, false),
        figure7(),
    };
    models[3]->perspective = PERSPECTIVE_NEGATION;
    OctError error;
    ck_assert(wpc_model(wpc_swh(), "swh", &models[5], &error));
    TestRandom random = {2024};
    long passes = 0;
    for (int m = 0; m < 6; ++m)
        check_incremental(models[m], &random, 6000, &passes);
    ck_assert_int_gt(passes, 0); /* games with passes were part of the sample */
    models_free(models, 6);
}
END_TEST

START_TEST(test_state_is_compact)
{
    Model *model = single_shape_model(shapes_edax, 1, false, false);
    Board board;
    board_init(&board);
    EvalState state, copy;
    eval_set(&state, model, &board);
    eval_copy(&copy, &state);
    ck_assert_int_eq(copy.instance_count, 46);
    ck_assert_int_eq(eval_sum(&copy, model), eval_sum(&state, model));
    ck_assert_uint_le(sizeof(EvalState), 600);
    model_free(model);
}
END_TEST

/* A negation model values positions for black: the side to move's score flips sign with
 * its colour; an inversion model ignores colour. */
START_TEST(test_output_negation_versus_board_inversion)
{
    Model *model = single_shape_model(all3, 31, false, false);
    TestRandom random = {5};
    Board positions[GAME_CAPACITY];
    int moves[GAME_CAPACITY];
    int length = random_game(&random, positions, moves, GAME_CAPACITY);
    for (int i = 0; i <= length; ++i) {
        EvalState black, white;
        model->perspective = PERSPECTIVE_INVERSION;
        eval_set_color(&black, model, &positions[i], COLOR_BLACK);
        eval_set_color(&white, model, &positions[i], COLOR_WHITE);
        ck_assert_int_eq(eval_sum(&black, model), eval_sum(&white, model));
        model->perspective = PERSPECTIVE_NEGATION;
        Board swapped = {positions[i].opponent, positions[i].player};
        EvalState other;
        eval_set_color(&other, model, &swapped, COLOR_WHITE);
        /* same discs on the board, black to move vs white to move: opposite values */
        ck_assert_int_eq(eval_sum(&black, model), -eval_sum(&other, model));
    }
    model_free(model);
}
END_TEST

START_TEST(test_score_rounding_and_clamp)
{
    uint8_t a1 = 0;
    Tuple tuple;
    OctError error;
    ck_assert(tuple_explicit(&a1, 1, 1, &tuple, &error));
    Shape shape;
    ck_assert(shape_build(&shape, "a1", &tuple, 1, &error));
    PhaseTable phase;
    phase_single(&phase);
    Model *model = model_of(&shape, 1, &phase, 1, false);
    shape_free(&shape);
    int16_t *table = model->sets[0].values;
    table[0] = -3; /* opponent on a1 */
    table[1] = 0;
    table[2] = 3;  /* own disc on a1 */
    model->shift = 1;
    Board own = {1, 0}, other = {0, 1};
    ck_assert_int_eq(eval_board(model, &own), 2);    /* 1.5 rounds half up */
    ck_assert_int_eq(eval_board(model, &other), -1); /* -1.5 too */
    model->shift = 0;
    model->sets[0].bias = 3 * EVAL_LIMIT;
    ck_assert_int_eq(eval_board(model, &own), EVAL_LIMIT - 1);
    model->sets[0].bias = -3 * EVAL_LIMIT;
    ck_assert_int_eq(eval_board(model, &own), -EVAL_LIMIT + 1);
    model_free(model);
}
END_TEST

/* ---- weights files ---- */

static bool models_equal(const Model *a, const Model *b)
{
    if (strcmp(a->name, b->name) != 0 || a->shift != b->shift || a->perspective != b->perspective
        || a->origin != b->origin || a->shape_count != b->shape_count
        || a->set_count != b->set_count || memcmp(&a->phase, &b->phase, sizeof a->phase) != 0)
        return false;
    for (int s = 0; s < a->shape_count; ++s)
        if (!shape_equal(&a->shapes[s], &b->shapes[s]) || strcmp(a->shapes[s].name, b->shapes[s].name))
            return false;
    for (int s = 0; s < a->set_count; ++s) {
        const WeightSet *x = &a->sets[s], *y = &b->sets[s];
        if (x->shape != y->shape || x->bias != y->bias
            || memcmp(x->values, y->values, sizeof *x->values * a->shapes[x->shape].table_size))
            return false;
    }
    return true;
}

static char *temporary_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/check_eval_%ld_%s", (long)getpid(), name);
    return path;
}

START_TEST(test_weights_round_trip)
{
    Model *model = staged_model(77);
    snprintf(model->name, sizeof model->name, "staged test");
    model->shift = 3;
    model->perspective = PERSPECTIVE_NEGATION;
    model->sets[5].bias = -12345;
    OctError error;
    char *path = temporary_path("round.ow");
    ck_assert_msg(model_save(model, path, &error), "%s", error.message);
    Model *loaded = NULL;
    ck_assert_msg(model_load(path, &loaded, &error), "%s", error.message);
    ck_assert(models_equal(model, loaded));
    model_free(loaded);

    /* float32: the model's own entries come back exactly; a trainer's floats round */
    ck_assert(weights_save_float(model, NULL, path, &error));
    ck_assert(model_load(path, &loaded, &error));
    ck_assert(models_equal(model, loaded));
    model_free(loaded);
    size_t count = model_weight_count(model);
    float *values = malloc(sizeof *values * count);
    for (size_t i = 0; i < count; ++i)
        values[i] = (float)(i % 7) - 3.4f; /* -3.4 .. 2.6 */
    ck_assert(weights_save_float(model, values, path, &error));
    ck_assert(model_load(path, &loaded, &error));
    ck_assert_int_eq(loaded->sets[0].values[0], -3); /* -3.4 */
    ck_assert_int_eq(loaded->sets[0].values[6], 3);  /* 2.6 */
    ck_assert_int_eq(loaded->sets[0].values[3], 0);  /* -0.4 */
    model_free(loaded);
    free(values);
    unlink(path);
    model_free(model);
}
END_TEST

/* Writes a probcut file of `body` (its header and parameter lines) with the end line the
 * format asks for: the count of sigma and mid lines and the CRC-32 of the bytes before. */
static void write_sealed_mpc(const char *path, const char *body)
{
    int lines = 0;
    for (const char *line = body; *line;) {
        while (*line == ' ' || *line == '\t')
            ++line;
        if (!strncmp(line, "sigma", 5) || !strncmp(line, "mid", 3))
            ++lines;
        const char *newline = strchr(line, '\n');
        line = newline ? newline + 1 : line + strlen(line);
    }
    if (!*body) { /* an empty file stays empty */
        test_write_text(path, body);
        return;
    }
    char text[4096];
    unsigned long checksum = crc32(0L, (const Bytef *)body, (uInt)strlen(body));
    snprintf(text, sizeof text, "%send %d %08lx\n", body, lines, checksum);
    test_write_text(path, text);
}

START_TEST(test_probcut_files)
{
    char path[256];
    snprintf(path, sizeof path, "%s", temporary_path("cuts.mpc"));
    static Probcut fitted = {.enabled = true, .base = 1.5, .per_empty = 0.25, .per_depth = -0.125};
    static Probcut loaded;
    OctError error;
    ck_assert_msg(probcut_save(&fitted, path, "a test\nof two lines", &error), "%s",
                  error.message);
    ck_assert_msg(probcut_load(&loaded, path, &error), "%s", error.message);
    ck_assert(loaded.enabled);
    ck_assert(loaded.base == 1.5 && loaded.per_empty == 0.25 && loaded.per_depth == -0.125);
    ck_assert(probcut_sigma(&loaded, 20, 4) == 1.5 + 5.0 - 0.5);
    ck_assert(probcut_sigma(&loaded, 0, 40) == 1.0); /* never below one disc */

    /* each bad file is refused with what and where; the model in hand stays as it was */
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "empty, not a probcut file"},
        {"octuple-probcut\nsigma 1 0 0\n", "line 1: not a probcut file"},
        {"octuple-probcut 3\nsigma 1 0 0\n", "line 1: version 3 of the probcut format"},
        /* version 1 had no end line: refused by its version, with the way to convert it */
        {"octuple-probcut 1\nsigma 1 0 0\n", "line 1: version 1 of the probcut format"},
        {"# comment\noctuple-probcut 2\nsigma 1 0\n", "line 3: expected 'sigma"},
        {"octuple-probcut 2\nsigma 1 x 0\n", "line 2: expected 'sigma"},
        {"octuple-probcut 2\nsigma 1 0 0 0\n", "line 2: expected 'sigma"},
        {"octuple-probcut 2\nsigma 1e9 0 0\n", "line 2: expected 'sigma"},
        {"octuple-probcut 2\nwidth 3\n", "line 2: unknown key 'width'"},
        {"octuple-probcut 2\n# nothing\n", "neither a 'sigma' nor a 'mid' line"},
        {"octuple-probcut 2\nmid 2 10 20 1 0 3\n", "line 2: expected 'mid"},  /* depth < 3 */
        {"octuple-probcut 2\nmid 5 20 10 1 0 3\n", "line 2: expected 'mid"},  /* 20 > 10 */
        {"octuple-probcut 2\nmid 5 10 61 1 0 3\n", "line 2: expected 'mid"},
        {"octuple-probcut 2\nmid 5 10 20 0 0 3\n", "line 2: expected 'mid"},  /* a = 0 */
        {"octuple-probcut 2\nmid 5 10 20 1 0 0\n", "line 2: expected 'mid"},  /* sigma 0 */
        {"octuple-probcut 2\nsigma 1 0 0\nmid 5 10 20 1 0\n", "line 3: expected 'mid"},
        /* a part given twice: which one was meant cannot be told */
        {"octuple-probcut 2\nsigma 1 0 0\nsigma 4 0 0\n",
         "line 3: a second 'sigma' line (the first is line 2)"},
        {"octuple-probcut 2\nmid 5 10 20 1 0 3\nmid 6 10 20 1 0 3\nmid 5 20 30 1 0 3\n",
         "line 4: depth 5 at 20 empties was given at line 2 already"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        write_sealed_mpc(path, bad[i].text);
        Probcut kept = fitted;
        ck_assert_msg(!probcut_load(&kept, path, &error), "bad file %zu accepted", i);
        ck_assert_msg(strstr(error.message, bad[i].why) && strstr(error.message, path),
                      "file %zu: '%s' lacks '%s'", i, error.message, bad[i].why);
        ck_assert(kept.base == fitted.base && kept.enabled);
    }
    /* a NUL byte would end its line early and hide the rest of it */
    static const char with_nul[] = "octuple-probcut 2\nsigma 1 0 0\nsigma 2\0 x\n";
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    ck_assert_int_eq(fwrite(with_nul, 1, sizeof with_nul - 1, file), sizeof with_nul - 1);
    fclose(file);
    Probcut kept = fitted;
    ck_assert(!probcut_load(&kept, path, &error));
    ck_assert_msg(strstr(error.message, "line 3: a NUL byte"), "%s", error.message);
    ck_assert(kept.base == fitted.base);
    unlink(path);
    ck_assert(!probcut_load(&loaded, path, &error)); /* missing */
}
END_TEST

START_TEST(test_shipped_probcut_file)
{
    /* the shipped file (make weights-mpc) turns on both parts: the midgame cuts and, with
     * its constant endgame sigma, the selective pass before exact solves */
    static Probcut shipped;
    OctError error;
    ck_assert_msg(probcut_load(&shipped, test_source_path("weights/octuple.mpc"), &error), "%s",
                  error.message);
    ck_assert(shipped.enabled && shipped.mid_enabled);
    ck_assert(shipped.base == 8.0 && shipped.per_empty == 0 && shipped.per_depth == 0);
    ck_assert(probcut_sigma(&shipped, 30, PROBCUT_DEPTH) == 8.0);
}
END_TEST

/* The shipped file cut short anywhere, or with one character changed, is refused with a
 * message naming the file and the line; once such files loaded (a cut at 1,700 bytes read
 * "3.5817" as "3.5", a cut after 20 lines lost depths 5-10) and changed the search. The
 * model in hand stays as it was. */
START_TEST(test_probcut_cut_or_changed_is_refused)
{
    char *shipped;
    size_t size;
    OctError error;
    ck_assert_msg(file_read_all(test_source_path("weights/octuple.mpc"), 1 << 16, &shipped,
                                &size, &error), "%s", error.message);
    char path[256];
    snprintf(path, sizeof path, "%s", temporary_path("cut.mpc"));
    static Probcut whole, kept;
    ck_assert(probcut_load(&whole, test_source_path("weights/octuple.mpc"), &error));
    ck_assert(size > 1700 && shipped[size - 1] == '\n');
    /* every cut but the last newline's: mid-number, mid-line and after each line */
    int after_lines = 0, line_at_1700 = 1;
    for (size_t i = 0; i < 1700; ++i)
        line_at_1700 += shipped[i] == '\n';
    ck_assert(isdigit((unsigned char)shipped[1699]) && isdigit((unsigned char)shipped[1700]));
    for (size_t cut = 0; cut + 1 < size; ++cut) {
        FILE *file = fopen(path, "wb");
        ck_assert_ptr_nonnull(file);
        ck_assert_uint_eq(fwrite(shipped, 1, cut, file), cut);
        fclose(file);
        kept = whole;
        ck_assert_msg(!probcut_load(&kept, path, &error), "cut at %zu bytes accepted", cut);
        ck_assert_msg(strstr(error.message, path), "%s", error.message);
        ck_assert(!memcmp(&kept, &whole, sizeof kept));
        if (cut > 0 && shipped[cut - 1] == '\n') {
            ++after_lines;
            ck_assert_msg(strstr(error.message, "the file ends without its end line "
                                 "('end LINES CHECKSUM'): it is cut short or damaged"),
                          "cut after %d lines: %s", after_lines, error.message);
        }
        if (cut == 1700) { /* inside a number (checked below), on the line it cuts */
            char says[64];
            snprintf(says, sizeof says, ": line %d: the file ends without its end line",
                     line_at_1700);
            ck_assert_msg(strstr(error.message, says), "%s", error.message);
        }
    }
    ck_assert_int_eq(after_lines, 99); /* the header, the comment, 97 parameter lines */
    /* the last newline only: nothing is lost */
    FILE *file = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(shipped, 1, size - 1, file), size - 1);
    fclose(file);
    ck_assert_msg(probcut_load(&kept, path, &error), "%s", error.message);

    /* one digit changed, a line dropped, text after the end, a wrong count */
    char *changed = malloc(size + 64);
    memcpy(changed, shipped, size + 1);
    char *digit = strstr(changed, "\nmid ");
    ck_assert_ptr_nonnull(digit);
    digit += 5; /* the first digit of the first midgame line's depth */
    *digit = *digit == '9' ? '8' : (char)(*digit + 1);
    test_write_text(path, changed);
    ck_assert(!probcut_load(&kept, path, &error));
    /* the shipped file's own checksum, from its end line "end 97 XXXXXXXX" */
    const char *end_line = strstr(shipped, "\nend ");
    ck_assert_ptr_nonnull(end_line);
    char says[64];
    snprintf(says, sizeof says, "the end line says %.8s", strchr(end_line + 5, ' ') + 1);
    ck_assert_msg(strstr(error.message, ": line 100: the checksum of the lines before the end "
                         "line is ") && strstr(error.message, says),
                  "%s", error.message);
    memcpy(changed, shipped, size + 1);
    char *third = strstr(changed, "mid 3 14");
    memmove(third, strchr(third, '\n') + 1, strlen(strchr(third, '\n') + 1) + 1);
    test_write_text(path, changed);
    ck_assert(!probcut_load(&kept, path, &error));
    ck_assert_msg(strstr(error.message, "line 99: the checksum"), "%s", error.message);
    snprintf(changed, size + 64, "%send 0 00000000\n", shipped);
    test_write_text(path, changed);
    ck_assert(!probcut_load(&kept, path, &error));
    ck_assert_msg(strstr(error.message, "line 101: the checksum"), "%s", error.message);
    snprintf(changed, size + 64, "%s", shipped);
    strstr(changed, "end 97 ")[5] = '8';
    test_write_text(path, changed);
    ck_assert(!probcut_load(&kept, path, &error));
    ck_assert_msg(strstr(error.message, "line 100: the end line counts 98 parameter lines, the "
                         "file has 97"), "%s", error.message);
    ck_assert(!memcmp(&kept, &whole, sizeof kept));

    /* the model's loader refuses a cut file beside the weights too (it loaded before) */
    Model *model = staged_model(5), *loaded = NULL;
    char weights[256], cuts[256];
    snprintf(weights, sizeof weights, "%s", temporary_path("cut.ow"));
    snprintf(cuts, sizeof cuts, "%s", temporary_path("cut.mpc"));
    ck_assert(model_save(model, weights, &error));
    file = fopen(cuts, "wb");
    ck_assert_uint_eq(fwrite(shipped, 1, 1700, file), 1700);
    fclose(file);
    ck_assert(!model_load(weights, &loaded, &error));
    ck_assert_ptr_null(loaded);
    char cut_says[64];
    snprintf(cut_says, sizeof cut_says, "cut.mpc: line %d: the file ends without", line_at_1700);
    ck_assert_msg(strstr(error.message, cut_says), "%s", error.message);

    /* a version-1 file is converted with the same bytes, so the same numbers: the shipped
     * file without its end line and with the old header upgrades to the shipped file */
    memcpy(changed, shipped, size + 1);
    changed[strlen("octuple-probcut ")] = '1';
    *strstr(changed, "end 97 ") = '\0';
    test_write_text(path, changed);
    ck_assert(!probcut_load(&kept, path, &error));
    ck_assert_msg(strstr(error.message, "line 1: version 1 of the probcut format, which has no "
                         "end line and checksum, is no longer read; convert it with "
                         "'octuple-train mpc-upgrade"), "%s", error.message);
    ck_assert_msg(probcut_upgrade(path, path, &error), "%s", error.message);
    char *upgraded;
    size_t upgraded_size;
    ck_assert(file_read_all(path, 1 << 16, &upgraded, &upgraded_size, &error));
    ck_assert_uint_eq(upgraded_size, size);
    ck_assert(!memcmp(upgraded, shipped, size));
    ck_assert(!probcut_upgrade(path, path, &error)); /* version 2 already */
    ck_assert_msg(strstr(error.message, "version 2 already"), "%s", error.message);
    free(upgraded);
    /* a damaged version-1 file is not converted */
    test_write_text(path, "octuple-probcut 1\nsigma 1 0\n");
    ck_assert(!probcut_upgrade(path, path, &error));
    ck_assert_msg(strstr(error.message, "line 2: expected 'sigma"), "%s", error.message);
    unlink(path);
    unlink(weights);
    model_free(model);
    free(changed);
    free(shipped);
}
END_TEST


/* The shipped network's weight sets agree with their neighbours. A set fitted on too few
 * positions errs where the sets beside it do not: its static value then parts from the
 * 2-ply value, whose leaves use the set two moves on, far more than for the sets around it.
 * Once two sets (19-22 empties) erred twice as much as their neighbours against exact scores
 * and no test saw it. Label-free: positions of short games the network plays itself from
 * random openings. The gaps are averaged over each weight set's counts of empties: where a
 * set spans several moves, the gap is larger at its last counts, whose 2-ply leaves use the
 * next set, and that step is no fault. */
START_TEST(test_shipped_sets_agree_with_neighbours)
{
    Model *model = NULL;
    OctError error;
    const char *path = getenv("OCTUPLE_CHECK_WEIGHTS"); /* to try the test on another file */
    if (!path)
        path = test_source_path("weights/octuple.ow");
    ck_assert_msg(model_load(path, &model, &error), "%s", error.message);
    Search search;
    ck_assert(search_init(&search, 1, &error));
    search_set_model(&search, model);
    SelfplayOptions options = selfplay_defaults();
    options.depth = 1;
    options.exact_empties = 0;
    options.min_random = 4;
    options.max_random = 54;
    PosGame *game = malloc(sizeof *game);
    double gap[61] = {0};
    int count[61] = {0};
    for (uint64_t g = 0; g < 600; ++g) {
        selfplay_game(&search, &options, g, game);
        for (int i = 0; i < game->count; ++i) {
            const Board *board = &game->records[i].board;
            int empties = board_count_empties(board);
            if (empties < 8 || empties > 50 || count[empties] >= 150)
                continue;
            double value = eval_board(model, board), deeper = test_minimax_depth(model, board, 2);
            gap[empties] += fabs(value - deeper) / EVAL_DISC;
            ++count[empties];
        }
    }
    /* by weight set, in order of empties: each set's mean gap over its counts in 8..50 */
    double set_gap[MODEL_MAX_SETS] = {0};
    int set_counts[MODEL_MAX_SETS] = {0}, order[MODEL_MAX_SETS], sets = 0;
    for (int e = 8; e <= 50; ++e) {
        ck_assert_int_ge(count[e], 50);
        int set = model->phase.set[60 - e];
        if (sets == 0 || order[sets - 1] != set)
            order[sets++] = set;
        set_gap[set] += gap[e] / count[e];
        ++set_counts[set];
    }
    for (int k = 1; k + 1 < sets; ++k) {
        double mine = set_gap[order[k]] / set_counts[order[k]];
        double around = 0.5 * (set_gap[order[k - 1]] / set_counts[order[k - 1]]
                               + set_gap[order[k + 1]] / set_counts[order[k + 1]]);
        /* sound sets: 0.89-1.15 of their neighbours (the shipped network, a set per six
         * moves, and weights/octuple-r1.ow, a set per two); octuple-r0.ow fails at its set
         * for 9-10 empties, whose 2-ply leaves use its bad set for 7-8: 3.06 */
        ck_assert_msg(mine < 1.4 * around, "weight set %d: the static value and the 2-ply "
                      "value differ by %.2f discs, against %.2f in the sets beside it: the set "
                      "errs", order[k], mine, around);
    }
    free(game);
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_probcut_midgame_lines)
{
    char path[256];
    snprintf(path, sizeof path, "%s", temporary_path("mid.mpc"));
    write_sealed_mpc(path, "octuple-probcut 2\n"
                     "mid 4 20 23 1.1 0.5 3\n"
                     "mid 3 20 23 0.9 -0.5 2   # a comment\n"
                     "mid 6 30 30 1 0 4\n");
    static Probcut loaded, again;
    OctError error;
    ck_assert_msg(probcut_load(&loaded, path, &error), "%s", error.message);
    ck_assert(!loaded.enabled && loaded.mid_enabled); /* no endgame part */
    const ProbcutPair *pair = probcut_mid(&loaded, 4, 21);
    ck_assert_ptr_nonnull(pair);
    ck_assert(fabs(pair->a - 1.1) < 1e-6 && pair->b == 0.5f * EVAL_DISC
              && pair->sigma == 3.0f * EVAL_DISC);
    ck_assert_ptr_null(probcut_mid(&loaded, 4, 24));  /* outside the band */
    ck_assert_ptr_null(probcut_mid(&loaded, 2, 21));  /* too shallow to cut */
    ck_assert_ptr_null(probcut_mid(&loaded, 8, 21));  /* depth 6's parameters: none at 21 */
    pair = probcut_mid(&loaded, 8, 30);               /* deeper than fitted: depth 6's */
    ck_assert(pair && pair->sigma == 4.0f * EVAL_DISC);
    pair = probcut_mid(&loaded, 7, 20);               /* odd: depth 3's */
    ck_assert(pair && fabs(pair->a - 0.9) < 1e-6 && pair->b == -0.5f * EVAL_DISC);
    ck_assert_int_eq(probcut_mid_shallow(3), 1);
    ck_assert_int_eq(probcut_mid_shallow(8), 4);
    ck_assert_int_eq(probcut_mid_shallow(9), 5);
    for (int d = PROBCUT_MID_MIN_DEPTH; d <= PROBCUT_MID_MAX_DEPTH; ++d) {
        ck_assert_int_eq(probcut_mid_shallow(d) % 2, d % 2);
        ck_assert(probcut_mid_shallow(d) >= 1 && probcut_mid_shallow(d) < d);
    }

    /* saved and loaded again: the same cells, still no endgame part */
    ck_assert_msg(probcut_save(&loaded, path, NULL, &error), "%s", error.message);
    ck_assert_msg(probcut_load(&again, path, &error), "%s", error.message);
    ck_assert(!again.enabled && again.mid_enabled);
    for (int d = 0; d <= PROBCUT_MID_MAX_DEPTH; ++d)
        for (int e = 0; e <= PROBCUT_MID_MAX_EMPTIES; ++e) {
            const ProbcutPair *x = &loaded.mid[d][e], *y = &again.mid[d][e];
            ck_assert(fabs(x->a - y->a) < 1e-4 && fabs(x->b - y->b) < 0.05
                      && fabs(x->sigma - y->sigma) < 0.05);
        }
    unlink(path);
}
END_TEST

START_TEST(test_weights_bring_their_probcut_file)
{
    Model *model = staged_model(5);
    OctError error;
    char weights[256], cuts[256];
    snprintf(weights, sizeof weights, "%s", temporary_path("paired.ow"));
    snprintf(cuts, sizeof cuts, "%s", temporary_path("paired.mpc"));
    ck_assert(model_save(model, weights, &error));
    Model *loaded = NULL;
    unlink(cuts);
    ck_assert_msg(model_load(weights, &loaded, &error), "%s", error.message);
    ck_assert(!loaded->probcut.enabled); /* no file: no cuts */
    model_free(loaded);

    write_sealed_mpc(cuts, "octuple-probcut 2\nsigma 2.5 0.1 -0.2\n");
    ck_assert_msg(model_load(weights, &loaded, &error), "%s", error.message);
    ck_assert(loaded->probcut.enabled && loaded->probcut.base == 2.5);
    model_free(loaded);

    write_sealed_mpc(cuts, "octuple-probcut 2\nsigma 2.5\n");
    loaded = NULL;
    ck_assert(!model_load(weights, &loaded, &error));
    ck_assert_ptr_null(loaded);
    ck_assert_msg(strstr(error.message, "paired.mpc: line 2"), "%s", error.message);

    /* a dangling link in the model file's place is reported, not taken for no file */
    unlink(cuts);
    ck_assert_int_eq(symlink("nowhere.mpc", cuts), 0);
    loaded = NULL;
    ck_assert(!model_load(weights, &loaded, &error));
    ck_assert_ptr_null(loaded);
    ck_assert_msg(strstr(error.message, "paired.mpc: cannot open"), "%s", error.message);
    unlink(cuts);
    unlink(weights);
    model_free(model);
}
END_TEST

static void put_le32(unsigned char *p, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        p[i] = (unsigned char)(value >> (8 * i));
}

static void reseal(unsigned char *data, size_t size)
{
    put_le32(data + size - 4, (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)(size - 4)));
}

static void expect_refused(const unsigned char *data, size_t size, const char *why,
                           const char *what)
{
    Model *model = NULL;
    OctError error;
    ck_assert_msg(!model_parse(data, size, "bad.ow", &model, &error), "%s accepted", what);
    ck_assert_ptr_null(model);
    ck_assert_msg(strstr(error.message, why) != NULL, "%s: '%s' lacks '%s'", what,
                  error.message, why);
}

START_TEST(test_bad_weights_files_are_refused)
{
    Model *model = single_shape_model(all2, 5, false, false);
    unsigned char *good;
    size_t size;
    OctError error;
    ck_assert(weights_encode(model, WEIGHTS_INT16, NULL, &good, &size, &error));
    Model *loaded = NULL;
    ck_assert(model_parse(good, size, "good.ow", &loaded, &error));
    model_free(loaded);
    unsigned char *bad = malloc(size + 16);

    /* truncated, at every length */
    for (size_t cut = 0; cut < size; ++cut)
        expect_refused(good, cut, "truncated", "truncated");
    /* trailing bytes */
    memcpy(bad, good, size);
    bad[size] = 0;
    expect_refused(bad, size + 1, "trailing", "trailing");
    /* corrupted: any flipped bit past the version and size fields */
    for (size_t at = 16; at < size; at += 37) {
        memcpy(bad, good, size);
        bad[at] ^= 0x10;
        expect_refused(bad, size, "corrupted", "corrupted");
    }
    /* another format version, another file type */
    memcpy(bad, good, size);
    put_le32(bad + 8, 2);
    expect_refused(bad, size, "version 2", "version");
    memcpy(bad, good, size);
    bad[1] = 'X';
    expect_refused(bad, size, "magic", "magic");
    expect_refused((const unsigned char *)"{ 32 { 2 8", 10, "League", "league text");

    /* inconsistent fields, checksum made right so only the consistency checks can object */
    struct { size_t offset; uint32_t value; const char *why; } fields[] = {
        {16, 3, "encoding"},          /* weight encoding */
        {20, 40, "shift"},            /* shift */
        {24, 7, "perspective"},
        {28, 9, "origin"},
        {96, 0, "shapes"},            /* shape count */
        {100, 2, "weight sets"},      /* set count vs phase table */
    };
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) {
        memcpy(bad, good, size);
        put_le32(bad + fields[f].offset, fields[f].value);
        reseal(bad, size);
        expect_refused(bad, size, "inconsistent", fields[f].why);
        expect_refused(bad, size, fields[f].why, fields[f].why);
    }
    size_t shapes_at = 104 + 2 * MODEL_MOVES;
    size_t name_length = bad[shapes_at];
    size_t first_tuple = shapes_at + 1 + name_length + 2;
    struct { size_t offset; unsigned char value; const char *why; } bytes[] = {
        {104 + 2 * 30 + 1, 1, "phase table uses 2"}, /* a set the header does not count */
        {104 + 2 * 30, 1, "shape"},              /* and a missing shape */
        {first_tuple, 11, "squares"},            /* tuple size */
        {first_tuple + 1, 9, "instances"},       /* instance count */
        {first_tuple + 2, 64, "out of range"},   /* square number */
        {first_tuple + 3, 0, "twice"},           /* the first square again (set below) */
    };
    for (size_t f = 0; f < sizeof bytes / sizeof bytes[0]; ++f) {
        memcpy(bad, good, size);
        if (f == 5)
            bytes[f].value = bad[first_tuple + 2]; /* repeat the first square */
        bad[bytes[f].offset] = bytes[f].value;
        reseal(bad, size);
        expect_refused(bad, size, "inconsistent", bytes[f].why);
        expect_refused(bad, size, bytes[f].why, bytes[f].why);
    }
    /* a float32 file with a NaN and one with a value too large for int16 */
    unsigned char *floats;
    size_t float_size;
    ck_assert(weights_encode(model, WEIGHTS_FLOAT32, NULL, &floats, &float_size, &error));
    unsigned char *copy = malloc(float_size);
    uint32_t poison[] = {0x7fc00000u, 0x47800000u}; /* NaN, 65536.0 */
    for (int p = 0; p < 2; ++p) {
        memcpy(copy, floats, float_size);
        put_le32(copy + float_size - 8, poison[p]); /* the last entry */
        reseal(copy, float_size);
        expect_refused(copy, float_size, "outside the int16 range", "float");
    }
    free(copy);
    free(floats);
    /* a bias so far from 0 that an evaluation would overflow (the fuzzer's INT32_MIN) */
    for (int sign = -1; sign <= 1; sign += 2) {
        int32_t kept = model->sets[0].bias;
        model->sets[0].bias = sign < 0 ? INT32_MIN : (1 << 28) + 1;
        unsigned char *biased;
        size_t biased_size;
        ck_assert(weights_encode(model, WEIGHTS_INT16, NULL, &biased, &biased_size, &error));
        model->sets[0].bias = kept;
        expect_refused(biased, biased_size, "inconsistent", "weight set 0 has the bias");
        free(biased);
    }

    /* a file on disk: truncated by hand, refused, and *out untouched */
    char *path = temporary_path("cut.ow");
    FILE *file = fopen(path, "wb");
    fwrite(good, 1, size / 2, file);
    fclose(file);
    Model *sentinel = NULL;
    ck_assert(!model_load(path, &sentinel, &error));
    ck_assert_ptr_null(sentinel);
    ck_assert(strstr(error.message, path) && strstr(error.message, "truncated"));
    unlink(path);
    /* one byte more than the header declares: refused by the read, which stops there */
    file = fopen(path, "wb");
    fwrite(good, 1, size, file);
    fputc(0, file);
    fclose(file);
    ck_assert(!model_load(path, &sentinel, &error));
    ck_assert_ptr_null(sentinel);
    char expected[64];
    snprintf(expected, sizeof expected, "longer than the %zu bytes its header declares", size);
    ck_assert_msg(strstr(error.message, path) && strstr(error.message, expected), "%s",
                  error.message);
    unlink(path);
    /* a header that declares 0 bytes: read whole (to the limit), so that the error gives the
     * file's true size, not the 64 KB of the first read */
    file = fopen(path, "wb");
    unsigned char *zeroed = calloc(100000, 1);
    memcpy(zeroed, good, size);
    memset(zeroed + 12, 0, 4);
    fwrite(zeroed, 1, 100000, file);
    fclose(file);
    free(zeroed);
    ck_assert(!model_load(path, &sentinel, &error));
    ck_assert_msg(strstr(error.message, "100000 bytes of trailing data after the declared 0"),
                  "%s", error.message);
    unlink(path);
    /* a device of random bytes is refused by its first bytes, not read to the 1 GB limit */
    ck_assert(!model_load("/dev/urandom", &sentinel, &error));
    ck_assert_msg(strstr(error.message, "/dev/urandom: not an Octuple weights file"), "%s",
                  error.message);
    ck_assert(!model_load(temporary_path("missing.ow"), &sentinel, &error));
    ck_assert(strstr(error.message, "cannot open"));
    free(bad);
    free(good);
    model_free(model);
}
END_TEST

/* Random damage, checksum made right again so the field checks are what stands between
 * the bytes and the model: every file is either refused with a message or loads into a
 * model that evaluates. */
START_TEST(test_mutated_weights_files)
{
    Shape shapes[2];
    OctError error;
    ck_assert(shapes_all_n(2, &shapes[0], &error));
    ck_assert(shapes_snakes(6, 3, 5, &shapes[1], &error));
    PhaseTable phase;
    for (int move = 0; move < MODEL_MOVES; ++move) {
        phase.shape[move] = (uint8_t)(move < 32 ? 0 : 1);
        phase.set[move] = (uint8_t)(move / 4);
    }
    Model *model = model_of(shapes, 2, &phase, 12, false);
    shape_free(&shapes[0]);
    shape_free(&shapes[1]);
    unsigned char *good;
    size_t size;
    ck_assert(weights_encode(model, WEIGHTS_INT16, NULL, &good, &size, &error));
    /* the header, shapes and set headers: everything before the table entries */
    size_t structure = size - 4 - 2 * model_weight_count(model);
    model_free(model);
    unsigned char *bad = malloc(size);
    TestRandom random = {31337};
    Board board;
    board_init(&board);
    int refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        memcpy(bad, good, size);
        for (int hits = 1 + test_random_below(&random, 3); hits > 0; --hits) {
            size_t at = 16 + (size_t)test_random_below(&random, (int)(structure - 16));
            bad[at] = (unsigned char)test_random_next(&random);
        }
        reseal(bad, size);
        Model *loaded = NULL;
        if (model_parse(bad, size, "mutant", &loaded, &error)) {
            eval_board(loaded, &board);
            model_free(loaded);
        } else {
            ck_assert(strstr(error.message, "inconsistent"));
            ++refused;
        }
    }
    ck_assert_int_gt(refused, 1500); /* most damage to the structure is caught */
    free(bad);
    free(good);
}
END_TEST

START_TEST(test_mutated_text_files)
{
    static const char alphabet[] = "{} 0123456789.-|abh#\n";
    TestRandom random = {4242};
    Model *league = figure7();
    char *shape_text = NULL;
    size_t shape_length = 0;
    FILE *memory = open_memstream(&shape_text, &shape_length);
    shape_write(memory, &league->shapes[0]);
    fclose(memory);
    model_free(league);
    char *league_text;
    size_t league_length;
    OctError error;
    FILE *file = fopen(test_source_path("weights/jaskowski-all2.txt"), "rb");
    ck_assert(file);
    league_text = malloc(8192);
    league_length = fread(league_text, 1, 8191, file);
    fclose(file);
    for (int trial = 0; trial < 2000; ++trial) {
        int which = trial & 1;
        const char *source = which ? league_text : shape_text;
        size_t length = which ? league_length : shape_length;
        char *text = malloc(length + 1);
        memcpy(text, source, length);
        size_t keep = length;
        if (test_random_below(&random, 4) == 0)
            keep = (size_t)test_random_below(&random, (int)length); /* truncated */
        for (int hits = test_random_below(&random, 4); hits > 0; --hits)
            text[test_random_below(&random, (int)keep + 1 > (int)length ? (int)length : (int)keep + 1)]
                = alphabet[test_random_below(&random, (int)sizeof alphabet - 1)];
        text[keep] = '\0';
        if (which) {
            Model *model;
            if (league_parse(text, "mutant", PERSPECTIVE_INVERSION, &model, &error))
                model_free(model);
            else
                ck_assert_msg(strncmp(error.message, "mutant", 6) == 0, "%s", error.message);
        } else {
            Shape shape;
            if (shape_parse(text, "mutant", &shape, &error))
                shape_free(&shape);
            else
                ck_assert_msg(strncmp(error.message, "mutant", 6) == 0, "%s", error.message);
        }
        free(text);
    }
    free(league_text);
    free(shape_text);
}
END_TEST

/* ---- shape files ---- */

static void shape_round_trip(const Shape *shape)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream(&text, &length);
    ck_assert(shape_write(memory, shape));
    fclose(memory);
    Shape parsed;
    OctError error;
    ck_assert_msg(shape_parse(text, "memory", &parsed, &error), "%s\n%s", error.message, text);
    ck_assert_msg(shape_equal(shape, &parsed), "%s", text);
    ck_assert_str_eq(shape->name, parsed.name);
    shape_free(&parsed);
    free(text);
}

START_TEST(test_shape_files)
{
    Shape shape;
    OctError error;
    ck_assert(shapes_edax(&shape, &error));
    shape_round_trip(&shape);
    shape_free(&shape);
    ck_assert(shapes_snakes(30, 0, 9, &shape, &error));
    shape_round_trip(&shape);
    shape_free(&shape);
    Model *league = figure7(); /* explicit, non-symmetric instances */
    shape_round_trip(&league->shapes[0]);
    model_free(league);
    Model *wpc;
    ck_assert(wpc_model(wpc_swh(), "swh", &wpc, &error)); /* lone explicit instances */
    shape_round_trip(&wpc->shapes[0]);
    model_free(wpc);

    const char *text = "# corners\nname test shape\n a1 b1 a2  # expanded\n0,1 | 7 6 |\n\nh8 |\n";
    ck_assert_msg(shape_parse(text, "t", &shape, &error), "%s", error.message);
    ck_assert_str_eq(shape.name, "test shape");
    ck_assert_int_eq(shape.tuple_count, 3);
    ck_assert_int_eq(shape.tuples[0].instance_count, 4); /* a1 b1 a2 is its own mirror */
    ck_assert_int_eq(shape.tuples[1].instance_count, 2);
    ck_assert_int_eq(shape.tuples[1].squares[1][0], 7);
    ck_assert_int_eq(shape.tuples[2].instance_count, 1);
    shape_free(&shape);

    struct { const char *text, *why; } bad[] = {
        {"a1 z9\n", "t:1: 'z9' is not a square"},
        {"a1 b1\n\na1 b1 | c1\n", "t:3: instance 2 has 1 squares"},
        {"a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2\n", "more than 10 squares"},
        {"a1 a1\n", "appears twice"},
        {"# nothing\n", "no tuples"},
        {"a1\nname late\n", "before the first tuple"},
        {"64\n", "not a square"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_assert_msg(!shape_parse(bad[i].text, "t", &shape, &error), "accepted %s", bad[i].text);
        ck_assert_msg(strstr(error.message, bad[i].why), "'%s' lacks '%s'", error.message, bad[i].why);
    }
}
END_TEST

/* ---- Figure 7 by hand ----
 * Each all-2 table has 9 entries: index = d(first square) + 3 d(second square), d = 2 for the
 * evaluating player's disc, 1 empty, 0 for the other player's. The network values a position
 * for the player who has just moved (it is a 1-ply player with board inversion), so for the
 * engine's side to move eval_sum must be exactly -100 x that value. Entries in hundredths. */

/* Per Figure 7 tuple: instance count and entry 4 (both squares empty). */
static const int fig7_instances[32] = {8, 4, 8, 8, 8, 8, 8, 8, 4, 8, 8, 8, 8, 4, 8, 4,
                                       8, 8, 8, 4, 8, 8, 8, 4, 8, 4, 4, 8, 8, 4, 4, 2};
static const int fig7_empty[32] = {
    7442, -19931, 15809, -737, -1429, 27339, -8043, -1901, 28439, -2877, 3346, -6596,
    2984, 3055, -2771, 3196, -3884, 6060, -5965, 3208, 8636, 7333, -1325, -4265,
    -7159, 1613, -13799, 2169, 216, -18122, -8005, 19261};

static long fig7_empty_board(void)
{
    long value = 0;
    for (int t = 0; t < 32; ++t)
        value += (long)fig7_instances[t] * fig7_empty[t];
    return value; /* 2492.54 */
}

static void expect_league_value(const Model *model, uint64_t mover, uint64_t to_move,
                                long hundredths)
{
    Board board = {to_move, mover};
    EvalState state;
    eval_set(&state, model, &board);
    ck_assert_int_eq(eval_sum(&state, model), -hundredths);
    int shifted = (int)((-hundredths + (1 << (LEAGUE_SHIFT - 1))) >> LEAGUE_SHIFT);
    ck_assert_int_eq(eval_score(&state, model), shifted);
}

START_TEST(test_figure_7_by_hand)
{
    Model *model = figure7();
    ck_assert_int_eq(model->shift, LEAGUE_SHIFT);
    ck_assert_int_eq(model->perspective, PERSPECTIVE_INVERSION);
    /* 1. Empty board: every instance reads entry 4. */
    long empty = fig7_empty_board();
    ck_assert_int_eq(empty, 249254);
    expect_league_value(model, 0, 0, empty);

    /* 2. The mover owns a1 alone. a1 is the first square of {0 1} and {0 8} (tuple 1) and
     * of {0 9} (tuple 2): index 2 + 3 * 1 = 5. Tuple 1: 74.42 -> -96.30 twice; tuple 2:
     * -199.31 -> -18.72. */
    long corner = empty + 2 * (-9630 - 7442) + (-1872 - -19931);
    ck_assert_int_eq(corner, 233169);
    expect_league_value(model, 1ULL << 0, 0, corner);

    /* 3. The mover owns a1, the side to move b1. {0 1}: 2 + 3 * 0 = 2 -> 111.05; {0 8},
     * {0 9} as in 2; b1 first with an empty partner, index 0 + 3 * 1 = 3: {1 2} tuple 3
     * 84.67, {1 9} tuple 4 -83.93, {1 10} tuple 5 33.32, {1 8} tuple 14 79.22. */
    long pair = empty + (11105 - 7442) + (-9630 - 7442) + (-1872 - -19931) + (8467 - 15809)
              + (-8393 - -737) + (3332 - -1429) + (7922 - 3055);
    ck_assert_int_eq(pair, 248534);
    expect_league_value(model, 1ULL << 0, 1ULL << 1, pair);

    /* 4. The start position, black to move: white (d4, e5) has "just moved" and is the
     * viewer (digit 2); black's d5, e4 are 0. The 26 instances that touch the centre: */
    long start = empty
        /* tuple 26 (4.. entry 16.13): d5c6 3, c3d4 7, f3e4 1, e5f6 5 */
        + (6189 - 1613) + (18285 - 1613) + (14105 - 1613) + (4395 - 1613)
        /* tuple 28 (21.69): e3e4 1, c5d5 1, e4f4 3, e5f5 5, c4d4 7, d5d6 3, e5e6 5, d3d4 7 */
        + 2 * (5690 - 2169) + 2 * (-6184 - 2169) + 2 * (-11698 - 2169) + 2 * (5348 - 2169)
        /* tuple 29 (2.16): d3e4 1, e5d6 5, f4e5 7, e3d4 7, c4d5 1, d4c5 5, d5e6 3, e4f5 3 */
        + 2 * (8178 - 216) + 2 * (1663 - 216) + 2 * (4361 - 216) + 2 * (1562 - 216)
        /* tuple 31 (-80.05): d5e5 6, d4e4 2, e4e5 6, d4d5 2 */
        + 2 * (2263 - -8005) + 2 * (-499 - -8005)
        /* tuple 32 (192.61): e4d5 0 -> 20.00, d4e5 8 -> -42.70 */
        + (2000 - 19261) + (-4270 - 19261);
    ck_assert_int_eq(start, 279292);
    Board board;
    board_init(&board);
    expect_league_value(model, board.opponent, board.player, start);
    model_free(model);
}
END_TEST

/* The committed binary is the committed text, converted. */
START_TEST(test_committed_weights_match_the_text)
{
    Model *text = figure7();
    Model *binary;
    OctError error;
    ck_assert_msg(model_load(test_source_path("weights/jaskowski-all2.ow"), &binary, &error), "%s",
                  error.message);
    ck_assert(models_equal(text, binary));
    model_free(binary);
    model_free(text);
}
END_TEST

START_TEST(test_league_negation_and_errors)
{
    /* One 1-tuple on a1 with its 4 corner images: w = (white -1, empty 0, black +2.5). */
    const char *net = "{ 1 { 1 4 { 0 } { 7 } { 56 } { 63 } { -1 0 2.5 } } }";
    Model *model;
    OctError error;
    ck_assert_msg(league_parse(net, "net", PERSPECTIVE_NEGATION, &model, &error), "%s", error.message);
    Board board = {1ULL << 0, 1ULL << 7}; /* side to move on a1, the other on h1 */
    EvalState state;
    /* values up to 2.5 take the scale 100 * 2^7 (2.5 * 12,800 fits int16): the sums below
     * are in units of 1/100 times that power, and the disc mapping stays the same */
    ck_assert_int_eq(model->shift, LEAGUE_SHIFT + 7);
    int power = 1 << (model->shift - LEAGUE_SHIFT);
    eval_set_color(&state, model, &board, COLOR_BLACK); /* black a1, white h1 */
    ck_assert_int_eq(eval_sum(&state, model), (250 - 100) * power);
    ck_assert_int_eq(eval_score(&state, model), 1); /* 150 / 2^7, as at c = 100 */
    eval_set_color(&state, model, &board, COLOR_WHITE); /* white a1, black h1: -(f) */
    ck_assert_int_eq(eval_sum(&state, model), -(-100 + 250) * power);
    model_free(model);
    ck_assert(league_parse(net, "net", PERSPECTIVE_INVERSION, &model, &error));
    eval_set(&state, model, &board); /* the mover owns h1, reads it as 2 and a1 as 0 */
    ck_assert_int_eq(eval_sum(&state, model), -(250 - 100) * power);
    model_free(model);
    /* values of a thousandth keep their order: 0.01 steps would make them all zero */
    ck_assert(league_parse("{ 1 { 1 1 { 0 } { -0.001 0 0.0015 } } }", "small",
                           PERSPECTIVE_NEGATION, &model, &error));
    ck_assert_int_eq(model->shift, MODEL_MAX_SHIFT);
    Board black_a1 = {1ULL, 0}, white_a1 = {0, 1ULL};
    eval_set_color(&state, model, &black_a1, COLOR_BLACK);
    int32_t own = eval_sum(&state, model);
    eval_set_color(&state, model, &white_a1, COLOR_BLACK);
    int32_t other = eval_sum(&state, model);
    ck_assert(own > 0 && other < 0 && own + other > 0);
    model_free(model);

    struct { const char *text, *why; } bad[] = {
        {"{ 1 { 1 1 { 0 } { 1 2 } } }", "the table has 2 values, a 1-tuple needs 3"},
        {"{ 1 { 1 1 { 0 } { 1 2 3 4 } } }", "more than the 3 values"},
        {"{ 1 { 1 1 { 64 } { 1 2 3 } } }", "a square is 64"},
        {"{ 2 { 1 1 { 0 } { 1 2 3 } } }", "ends after 1 of its 2 tuples"},
        {"{ 1 { 1 1 { 0 } { 1 2 3 } } } }", "unexpected text"},
        {"{ 1 { 2 1 { 0 0 } { 1 2 3 4 5 6 7 8 9 } } }", "twice"},
        {"{ 1 { 1 1 { 0 } { 1 x 3 } } }", "expected a table value"},
        {"{ 1\n{ 1 1 { 0 }\n{ 1 2 } } }", "net:3:"},
        {"", "expected '{'"},
        {"{ 1 { 1 1 { 0 } { 1 2 1e9 } } }", "tuple 1: value 3 (1e+09) is too large"},
        /* beyond a long once scaled: refused, not wrapped to a value that fits */
        {"{ 1 { 1 1 { 0 } { 1e300 0 -1 } } }", "tuple 1: value 1 (1e+300) is too large"},
        {"{ 2 { 1 1 { 0 } { 1 0 -1 } } { 1 1 { 1 } { 1 0 -1e15 } } }",
         "tuple 2: value 3 (-1e+15) is too large"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        ck_assert_msg(!league_parse(bad[i].text, "net", PERSPECTIVE_INVERSION, &model, &error),
                      "accepted %s", bad[i].text);
        ck_assert_msg(strstr(error.message, bad[i].why), "'%s' lacks '%s'", error.message, bad[i].why);
    }
}
END_TEST

/* ---- WPC ---- */

START_TEST(test_wpc_baselines)
{
    const Wpc *swh = wpc_swh();
    ck_assert(swh->weights[0] == 1.0 && swh->weights[9] == -0.25 && swh->weights[27] == 0.01);
    for (int s = 0; s < 64; ++s)
        for (int sym = 1; sym < SYMMETRY_COUNT; ++sym)
            ck_assert(swh->weights[s] == swh->weights[square_symmetry(s, sym)]);
    Model *model;
    OctError error;
    ck_assert(wpc_model(swh, "swh", &model, &error));
    TestRandom random = {17};
    Board positions[GAME_CAPACITY];
    int moves[GAME_CAPACITY];
    int length = random_game(&random, positions, moves, GAME_CAPACITY);
    for (int i = 0; i <= length; ++i) {
        for (int c = 0; c < 2; ++c) {
            Color to_move = (Color)c;
            for (int v = 0; v < 2; ++v) {
                /* linear and odd: both conventions agree for a WPC */
                double negation = wpc_negation(swh, &positions[i], to_move, (Color)v);
                double inversion = wpc_inversion(swh, &positions[i], to_move, (Color)v);
                ck_assert(negation > inversion - 1e-9 && negation < inversion + 1e-9);
            }
        }
        double value = wpc_inversion(swh, &positions[i], COLOR_BLACK, COLOR_BLACK);
        int score = eval_board(model, &positions[i]);
        ck_assert_msg(abs(score - (int)(value * EVAL_DISC + (value > 0 ? 0.5 : -0.5))) <= 1,
                      "%d vs %f", score, value);
    }
    Board start;
    board_init(&start);
    ck_assert_int_eq(eval_board(model, &start), 0);
    model_free(model);
}
END_TEST

/* ---- dump ---- */

START_TEST(test_dump)
{
    Model *model = staged_model(3);
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream(&text, &length);
    model_dump(memory, model);
    fclose(memory);
    ck_assert(strstr(text, "3 shapes, 61 weight sets"));
    ck_assert(strstr(text, "shape 1 \"edax\": 12 tuples, 46 instances"));
    ck_assert(strstr(text, "moves 0-19: shape 0, weight sets 0-19 (one per move)"));
    ck_assert(strstr(text, "moves 40-60: shape 2, weight sets 40-60 (one per move)"));
    ck_assert(strstr(text, "set 60 (shape 2)"));
    ck_assert(strstr(text, "moves 20-39: shape 1, weight sets 20-39 (one per move)"));
    free(text);
    model_free(model);

    model = figure7();
    memory = open_memstream(&text, &length);
    model_dump(memory, model);
    fclose(memory);
    ck_assert(strstr(text, "Othello League"));
    ck_assert(strstr(text, "symmetric: no"));
    ck_assert(strstr(text, "moves 0-60: shape 0, weight set 0"));
    ck_assert(strstr(text, "tuple 1: 2 squares, 8 instances (not a symmetric expansion): g1 h1 | h7 h8"));
    free(text);
    model_free(model);
}
END_TEST

static Suite *eval_suite(void)
{
    Suite *suite = suite_create("eval");
    TCase *shapes = tcase_create("shapes");
    tcase_add_test(shapes, test_all_n_counts);
    tcase_add_test(shapes, test_all_2_is_figure_7);
    tcase_add_test(shapes, test_edax_shapes);
    tcase_add_test(shapes, test_snakes);
    tcase_add_test(shapes, test_shape_files);
    tcase_add_test(shapes, test_phase_tables);
    suite_add_tcase(suite, shapes);
    TCase *eval = tcase_create("eval");
    tcase_set_timeout(eval, 120);
    tcase_add_test(eval, test_shipped_sets_agree_with_neighbours);
    tcase_add_test(eval, test_symmetric_models_score_all_images_alike);
    tcase_add_test(eval, test_asymmetric_models_are_reported);
    tcase_add_test(eval, test_incremental_matches_scratch);
    tcase_add_test(eval, test_state_is_compact);
    tcase_add_test(eval, test_output_negation_versus_board_inversion);
    tcase_add_test(eval, test_score_rounding_and_clamp);
    suite_add_tcase(suite, eval);
    TCase *files = tcase_create("files");
    tcase_set_timeout(files, 120);
    tcase_add_test(files, test_weights_round_trip);
    tcase_add_test(files, test_probcut_files);
    tcase_add_test(files, test_probcut_midgame_lines);
    tcase_add_test(files, test_shipped_probcut_file);
    tcase_add_test(files, test_probcut_cut_or_changed_is_refused);
    tcase_add_test(files, test_weights_bring_their_probcut_file);
    tcase_add_test(files, test_bad_weights_files_are_refused);
    tcase_add_test(files, test_mutated_weights_files);
    tcase_add_test(files, test_mutated_text_files);
    tcase_add_test(files, test_figure_7_by_hand);
    tcase_add_test(files, test_committed_weights_match_the_text);
    tcase_add_test(files, test_league_negation_and_errors);
    tcase_add_test(files, test_wpc_baselines);
    tcase_add_test(files, test_dump);
    suite_add_tcase(suite, files);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(eval_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

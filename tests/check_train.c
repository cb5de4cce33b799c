/* The regression trainer on games the test plays itself: the fit improves on the targets,
 * the finished model is symmetric and equals its float fit, and a seed fixes the result. */
#include <check.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/eval.h"
#include "core/endgame.h"
#include "core/game.h"
#include "core/fileio.h"
#include "train/labels.h"
#include "core/logbook.h"
#include "train/mpc_fit.h"
#include "core/obf.h"
#include "train/regress.h"
#include "core/shapes.h"
#include "testutil.h"
#include "train/trainset.h"
#include "core/weights.h"
#include "core/wthor.h"

static Model *make_model(void)
{
    Shape shape;
    PhaseTable phase;
    Model *model = NULL;
    OctError error;
    ck_assert(shapes_all_n(3, &shape, &error));
    phase_buckets(&phase, 20);
    ck_assert_msg(model_create(&shape, 1, &phase, &model, &error), "%s", error.message);
    shape_free(&shape);
    return model;
}

START_TEST(test_trainset_labels)
{
    TrainSet set;
    test_random_trainset(&set, 20, 3);
    ck_assert_uint_eq(set.games, 20);
    ck_assert_uint_gt(set.count, 20 * 50);
    for (size_t i = 0; i < set.count; ++i) {
        const TrainPosition *p = &set.positions[i];
        ck_assert(board_legal(&p->board) != 0); /* pass positions are left out */
        ck_assert_int_eq(p->move_number, 60 - board_count_empties(&p->board));
        ck_assert_int_le(abs(p->target), 64);
    }
    ck_assert_int_eq(set.positions[0].move_number, 0);
    trainset_free(&set);
}
END_TEST

START_TEST(test_exact_labels)
{
    /* positions of random games at 8 and 11 empties, solved: every label must be the exact
     * score of its position (checked by the bare solver) and its move must reach it */
    enum { GAMES = 40 };
    Game *games = malloc(sizeof *games * GAMES);
    TestRandom random = {515};
    for (int g = 0; g < GAMES; ++g)
        test_random_record(&random, &games[g]);
    LabelOptions options = {{8, 11}, 2, 30, 3, 1, 0};
    char path[128];
    snprintf(path, sizeof path, "/tmp/check_train_%ld_labels.obf", (long)getpid());
    OctError error;
    ck_assert_msg(labels_make(games, GAMES, &options, NULL, path, NULL, &error), "%s",
                  error.message);
    ObfPosition *positions;
    size_t count;
    ck_assert_msg(obf_read_file(path, &positions, &count, &error), "%s", error.message);
    ck_assert_uint_gt(count, 30); /* most random games pass through both counts */
    ck_assert_uint_le(count, 60);
    for (size_t i = 0; i < count; ++i) {
        int empties = board_count_empties(&positions[i].board);
        ck_assert(empties == 8 || empties == 11);
        Solver solver;
        solver_init(&solver, NULL, NULL);
        ck_assert_int_eq(endgame_search(&solver, &positions[i].board, -SCORE_MAX, SCORE_MAX),
                         positions[i].scores[0]);
        Board next = positions[i].board;
        ck_assert(board_try_play(&next, positions[i].moves[0]));
        ck_assert_int_eq(-endgame_search(&solver, &next, -SCORE_MAX, SCORE_MAX),
                         positions[i].scores[0]);
    }
    /* the trainer reads them back as positions of their own games */
    TrainSet set;
    trainset_init(&set);
    ck_assert(trainset_add_obf(&set, path, 3, &error));
    ck_assert_uint_eq(set.count, count);
    ck_assert_uint_eq(set.games, count);
    for (size_t i = 0; i < count; ++i) {
        ck_assert_int_eq(set.positions[i].weight, 3);
        ck_assert_int_eq(set.positions[i].target, positions[i].scores[0]);
        ck_assert_int_eq(set.positions[i].move_number,
                         60 - board_count_empties(&positions[i].board));
    }
    trainset_free(&set);
    /* a seed repeats its sample; the file is whole or not there */
    char again[160];
    snprintf(again, sizeof again, "%s.2", path);
    ck_assert(labels_make(games, GAMES, &options, NULL, again, NULL, &error));
    ObfPosition *second;
    size_t second_count;
    ck_assert(obf_read_file(again, &second, &second_count, &error));
    ck_assert_uint_eq(second_count, count);
    for (size_t i = 0; i < count; ++i)
        ck_assert(board_equal(&second[i].board, &positions[i].board));
    ck_assert(!labels_make(games, GAMES, &options, NULL, "/nonexistent-dir/x.obf", NULL,
                           &error));
    ck_assert_ptr_nonnull(strstr(error.message, "/nonexistent-dir/x.obf"));
    free(second);
    free(positions);
    unlink(path);
    unlink(again);
    free(games);
}
END_TEST

/* Labels by a search of a network (--depth): the minimax value of that depth at each
 * position, in whole discs; and no network, no search labels; no exact solves where they are
 * out of reach. */
START_TEST(test_search_labels)
{
    enum { GAMES = 30 };
    Game *games = malloc(sizeof *games * GAMES);
    TestRandom random = {616};
    for (int g = 0; g < GAMES; ++g)
        test_random_record(&random, &games[g]);
    Model *model = test_random_model(9);
    ck_assert_ptr_nonnull(model);
    LabelOptions options = {{30, 41}, 2, GAMES, 4, 1, 2};
    char path[128];
    snprintf(path, sizeof path, "/tmp/check_train_%ld_search.obf", (long)getpid());
    OctError error;
    ck_assert_msg(labels_make(games, GAMES, &options, model, path, NULL, &error), "%s",
                  error.message);
    ObfPosition *positions;
    size_t count;
    ck_assert_msg(obf_read_file(path, &positions, &count, &error), "%s", error.message);
    ck_assert_uint_gt(count, 30);
    for (size_t i = 0; i < count; ++i) {
        int empties = board_count_empties(&positions[i].board);
        ck_assert(empties == 30 || empties == 41);
        ck_assert_int_eq(positions[i].scores[0],
                         test_minimax_depth(model, &positions[i].board, 2) / EVAL_DISC);
        ck_assert(board_legal(&positions[i].board) >> positions[i].moves[0] & 1);
    }
    free(positions);
    unlink(path);
    ck_assert(!labels_make(games, GAMES, &options, NULL, path, NULL, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "--weights"));
    options.depth = 0;
    ck_assert(!labels_make(games, GAMES, &options, model, path, NULL, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "41 empties"));
    ck_assert_int_ne(access(path, F_OK), 0); /* nothing written */
    model_free(model);
    free(games);
}
END_TEST

/* Positions of a game with at least `empties` empties where the mover has a move. */
static size_t count_positions(const Game *game, int empties)
{
    size_t count = 0;
    Board board = game->start;
    for (int i = 0; i < game->move_count && board_count_empties(&board) >= empties; ++i) {
        count += game->moves[i] != MOVE_PASS;
        board_play(&board, game->moves[i]);
    }
    return count;
}

START_TEST(test_wthor_targets)
{
    /* a database of random games whose theoretical scores differ from their results: the
     * theoretical target labels positions down to the solving depth with it, the final
     * target labels every position with the result */
    enum { GAMES = 12, DEPTH = 24 };
    WthorGame games[GAMES];
    TestRandom random = {77};
    for (int g = 0; g < GAMES; ++g) {
        test_random_record(&random, &games[g].game);
        games[g].tournament = games[g].black = games[g].white = 0;
        games[g].real_score = (64 + game_black_score(&games[g].game)) / 2;
        games[g].theoretical_score = (g * 11) % 65;
    }
    char directory[128], path[160];
    snprintf(directory, sizeof directory, "/tmp/check_train_%ld_wthor", (long)getpid());
    ck_assert_int_eq(mkdir(directory, 0700), 0);
    snprintf(path, sizeof path, "%s/WTH_2001.wtb", directory);
    WthorHeader header = {.century = 20, .year = 1, .month = 1, .day = 1, .game_year = 2001,
                          .board_size = 8, .depth = DEPTH};
    OctError error;
    ck_assert_msg(wthor_write_games(path, &header, games, GAMES, &error), "%s", error.message);
    /* a later file without theoretical scores (depth 0) labels its own games by their
     * results, and only those: it once switched the whole directory to results */
    enum { LATER = 2 };
    char later[160];
    snprintf(later, sizeof later, "%s/WTH_2002.wtb", directory);
    WthorHeader unsolved = header;
    unsolved.game_year = 2002;
    unsolved.year = 2;
    unsolved.depth = 0;
    ck_assert_msg(wthor_write_games(later, &unsolved, games, LATER, &error), "%s",
                  error.message);

    TrainSet theoretical, final;
    trainset_init(&theoretical);
    trainset_init(&final);
    ck_assert_msg(trainset_add_wthor(&theoretical, directory, WTHOR_TARGET_THEORETICAL, &error),
                  "%s", error.message);
    ck_assert(trainset_add_wthor(&final, directory, WTHOR_TARGET_FINAL, &error));
    ck_assert_uint_eq(theoretical.games, GAMES + LATER);
    size_t at = 0, all = 0;
    for (int g = 0; g < GAMES; ++g) {
        const Game *game = &games[g].game;
        int black = 2 * games[g].theoretical_score - 64;
        Board board = game->start;
        Color side = game->start_side;
        for (int i = 0; i < game->move_count && board_count_empties(&board) >= DEPTH; ++i) {
            if (game->moves[i] != MOVE_PASS) {
                ck_assert_uint_lt(at, theoretical.count);
                const TrainPosition *p = &theoretical.positions[at++];
                ck_assert_uint_eq(p->game, (uint32_t)g);
                ck_assert(board_equal(&p->board, &board));
                ck_assert_int_eq(p->target, side == COLOR_BLACK ? black : -black);
            }
            board_play(&board, game->moves[i]);
            side = (Color)!side;
        }
        all += count_positions(game, 0);
    }
    size_t first_later = at;
    for (int g = 0; g < LATER; ++g) /* the later file: every position, by the result */
        at += count_positions(&games[g].game, 0);
    ck_assert_uint_eq(theoretical.count, at); /* nothing past the solving depth */
    ck_assert_int_eq(theoretical.positions[first_later].target,
                     game_black_score(&games[0].game));
    for (int g = 0; g < LATER; ++g)
        all += count_positions(&games[g].game, 0);
    ck_assert_uint_eq(final.count, all);
    ck_assert_int_eq(final.positions[0].target, game_black_score(&games[0].game));
    ck_assert_int_eq(theoretical.positions[0].target, 2 * games[0].theoretical_score - 64);
    trainset_free(&theoretical);
    trainset_free(&final);
    unlink(path);
    unlink(later);
    rmdir(directory);
}
END_TEST

START_TEST(test_regression_fits_and_is_reproducible)
{
    TrainSet set;
    test_random_trainset(&set, 400, 11);
    /* the loss of always answering 0 */
    double baseline = 0;
    for (size_t i = 0; i < set.count; ++i)
        baseline += (double)set.positions[i].target * set.positions[i].target;
    baseline /= (double)set.count;

    RegressOptions options = {.epochs = 6, .rate = 0.001, .test_fraction = 0.2, .seed = 7};
    RegressReport report;
    OctError error;
    Model *model = make_model();
    ck_assert_msg(regress_train(model, &set, &options, &report, NULL, &error), "%s", error.message);
    ck_assert_uint_gt(report.test_positions, 0);
    ck_assert_uint_gt(report.train_positions, report.test_positions);
    ck_assert_msg(report.train_loss < 0.8 * baseline, "train %.2f vs baseline %.2f",
                  report.train_loss, baseline);
    ck_assert(model_is_symmetric(model));
    /* the model's scores stay inside the evaluation's range */
    const TrainPosition *p = &set.positions[0];
    int score = eval_board(model, &p->board);
    ck_assert_int_lt(abs(score), EVAL_LIMIT);

    Model *again = make_model();
    RegressReport second;
    ck_assert(regress_train(again, &set, &options, &second, NULL, &error));
    ck_assert_int_eq(again->shift, model->shift);
    size_t size = model->shapes[0].table_size;
    for (int s = 0; s < model->set_count; ++s) {
        ck_assert_int_eq(again->sets[s].bias, model->sets[s].bias);
        ck_assert(!memcmp(again->sets[s].values, model->sets[s].values, size * sizeof(int16_t)));
    }
    ck_assert(second.test_loss == report.test_loss);
    model_free(again);
    model_free(model);
    trainset_free(&set);
}
END_TEST


/* Full-batch Adam recovers a network from its own scores: targets made by a random teacher
 * network (rounded to discs) are fitted to within the rounding, and a strong L2 penalty holds
 * the weights near 0. */
START_TEST(test_adam_recovers_a_known_network)
{
    TrainSet set;
    test_random_trainset(&set, 300, 21);
    Model *teacher = make_model();
    model_fill_random(teacher, 3, 200);
    model_symmetrize(teacher);
    double spread = 0;
    for (size_t i = 0; i < set.count; ++i) {
        int value = (int)lround(eval_board(teacher, &set.positions[i].board) / (double)EVAL_DISC);
        set.positions[i].target = (int8_t)(value < -64 ? -64 : value > 64 ? 64 : value);
        spread += (double)set.positions[i].target * set.positions[i].target;
    }
    spread /= (double)set.count;
    ck_assert_msg(spread > 20, "targets too flat: %.2f", spread);
    RegressOptions options = {.epochs = 300, .rate = 0.05, .test_fraction = 0, .seed = 1,
                              .method = REGRESS_ADAM, .l2 = 1e-4, .patience = 5, .threads = 2};
    RegressReport report;
    OctError error;
    Model *student = make_model();
    ck_assert_msg(regress_train(student, &set, &options, &report, NULL, &error), "%s",
                  error.message);
    /* rounding the targets costs 1/12 disc^2; the int16 weights a little more */
    ck_assert_msg(report.train_loss < 0.25, "loss %.3f against targets of mean square %.1f",
                  report.train_loss, spread);
    ck_assert(model_is_symmetric(student));
    options.l2 = 1e7;
    Model *held = make_model();
    ck_assert(regress_train(held, &set, &options, &report, NULL, &error));
    ck_assert_msg(report.train_loss > 25, "l2 held nothing: %.2f", report.train_loss);
    size_t size = student->shapes[0].table_size;
    double free_size = 0, held_size = 0;
    for (int s = 0; s < student->set_count; ++s)
        for (size_t i = 0; i < size; ++i) {
            free_size += abs(student->sets[s].values[i]) * ldexp(1, -student->shift);
            held_size += abs(held->sets[s].values[i]) * ldexp(1, -held->shift);
        }
    ck_assert_msg(held_size < 0.5 * free_size, "%.1f vs %.1f", held_size, free_size);
    model_free(held);
    model_free(student);
    model_free(teacher);
    trainset_free(&set);
}
END_TEST

START_TEST(test_mpc_fit)
{
    /* positions of random games, a random network: every band with enough positions gets
     * a line per depth, the endgame part stays, the same seed gives the same cells, and the
     * file written loads back */
    TrainSet set;
    test_random_trainset(&set, 300, 5);
    Model *model = make_model();
    model_fill_random(model, 9, 300);
    MpcFitOptions options = {20, 31, 25, 5, 3};
    static Probcut fitted, again;
    fitted.enabled = true; /* an endgame part the fit must keep */
    fitted.base = 7.5;
    OctError error;
    ck_assert_msg(mpc_fit(&set, model, &options, &fitted, NULL, &error), "%s", error.message);
    ck_assert(fitted.enabled && fitted.base == 7.5 && fitted.mid_enabled);
    ck_assert_int_eq(fitted.mid_deepest[1], 5);
    ck_assert_int_eq(fitted.mid_deepest[0], 4);
    for (int d = 0; d <= PROBCUT_MID_MAX_DEPTH; ++d)
        for (int e = 0; e <= PROBCUT_MID_MAX_EMPTIES; ++e) {
            const ProbcutPair *pair = &fitted.mid[d][e];
            bool inside = d >= PROBCUT_MID_MIN_DEPTH && d <= 5 && e >= 20 && e <= 31;
            if (!inside) {
                ck_assert(pair->sigma == 0);
                continue;
            }
            ck_assert_msg(pair->sigma > 0 && pair->a >= 0.1 && pair->a <= 10,
                          "depth %d, %d empties: a %.3f sigma %.1f", d, e, pair->a, pair->sigma);
            /* one line per band of MPC_FIT_BAND empties */
            if ((e - 20) % MPC_FIT_BAND != 0)
                ck_assert(!memcmp(pair, &fitted.mid[d][e - 1], sizeof *pair));
        }
    ck_assert(mpc_fit(&set, model, &options, &again, NULL, &error));
    ck_assert(!memcmp(again.mid, fitted.mid, sizeof fitted.mid));

    char path[128];
    snprintf(path, sizeof path, "/tmp/check_train_%ld_fitted.mpc", (long)getpid());
    ck_assert_msg(probcut_save(&fitted, path, "test fit", &error), "%s", error.message);
    ck_assert_msg(probcut_load(&again, path, &error), "%s", error.message);
    ck_assert(again.enabled && again.mid_enabled);
    const ProbcutPair *pair = probcut_mid(&again, 4, 25);
    ck_assert(pair && fabs(pair->a - fitted.mid[4][25].a) < 1e-3);
    unlink(path);

    /* a network that scores every position 0 leaves nothing to regress: an error */
    Model *flat = make_model();
    ck_assert(!mpc_fit(&set, flat, &options, &again, NULL, &error));
    ck_assert_msg(strstr(error.message, "too few"), "%s", error.message);
    MpcFitOptions bad = options;
    bad.max_depth = 2;
    ck_assert(!mpc_fit(&set, model, &bad, &again, NULL, &error));
    model_free(flat);
    model_free(model);
    trainset_free(&set);
}
END_TEST

/* A position of weight w counts as w copies: one board labelled +20 three times over and
 * -20 once is fitted near the weighted mean, +10; with equal weights near 0. */
START_TEST(test_regression_weights)
{
    TrainSet set;
    test_random_trainset(&set, 1, 5);
    Board board = set.positions[set.count / 2].board;
    int move_number = set.positions[set.count / 2].move_number;
    for (int weight = 1; weight <= 3; weight += 2) {
        set.count = 2;
        set.positions[0] = (TrainPosition){board, 20, (uint8_t)move_number, (uint8_t)weight, 0};
        set.positions[1] = (TrainPosition){board, -20, (uint8_t)move_number, 1, 1};
        RegressOptions options = {.epochs = 100, .rate = 0.002, .seed = 3};
        RegressReport report;
        OctError error;
        Model *model = make_model();
        ck_assert_msg(regress_train(model, &set, &options, &report, NULL, &error), "%s",
                      error.message);
        double fitted = (double)eval_board(model, &board) / EVAL_DISC;
        double expected = 20.0 * (weight - 1) / (weight + 1);
        ck_assert_msg(fabs(fitted - expected) < 3, "weight %d: fitted %.2f, expected %.2f",
                      weight, fitted, expected);
        model_free(model);
    }
    /* a rate the shape cannot take ends in an error, not in a model of NaNs */
    RegressOptions wild = {.epochs = 20, .rate = 0.05, .seed = 3};
    RegressReport report;
    OctError error;
    Model *model = make_model();
    ck_assert(!regress_train(model, &set, &wild, &report, NULL, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "diverged"));
    model_free(model);
    trainset_free(&set);
}
END_TEST

/* The command line of octuple-train, run as a user would: what it refuses, and that a refusal
 * or a failed fit leaves the files as they were. The data is a logbook of random games the
 * test writes. */
typedef struct CliDir {
    char path[128];
    char logbook[160];
} CliDir;

static void cli_dir_make(CliDir *dir)
{
    snprintf(dir->path, sizeof dir->path, "/tmp/check_train_cli_%ld", (long)getpid());
    mkdir(dir->path, 0755);
    snprintf(dir->logbook, sizeof dir->logbook, "%s/games.gam", dir->path);
    FILE *file = fopen(dir->logbook, "w");
    ck_assert_ptr_nonnull(file);
    TestRandom random = {77};
    for (int g = 0; g < 60; ++g) {
        LogbookGame game;
        test_random_record(&random, &game.game);
        game.score = logbook_final_score(&game.game);
        char line[LOGBOOK_LINE_SIZE];
        OctError error;
        ck_assert_msg(logbook_format_line(&game, line, sizeof line, &error), "%s",
                      error.message);
        fprintf(file, "%s\n", line);
    }
    ck_assert_int_eq(fclose(file), 0);
}

static void cli_dir_remove(const CliDir *dir)
{
    char command[300];
    snprintf(command, sizeof command, "rm -rf '%s'", dir->path);
    ck_assert_int_eq(system(command), 0);
}

/* Runs octuple-train with `arguments` (shell words); its exit status, and what it wrote to
 * standard error in `err`. */
static int cli_run(const CliDir *dir, const char *arguments, char *err, size_t size)
{
    char command[1200];
    snprintf(command, sizeof command, "cd '%s' && '%s' %s 2>&1 >/dev/null", dir->path,
             TRAIN_BINARY, arguments);
    FILE *pipe = popen(command, "r");
    ck_assert_ptr_nonnull(pipe);
    size_t got = fread(err, 1, size - 1, pipe);
    err[got] = '\0';
    int status = pclose(pipe);
    ck_assert_msg(WIFEXITED(status), "%s: no exit", command);
    return WEXITSTATUS(status);
}

static void assert_cli(const CliDir *dir, const char *arguments, int status, const char *says)
{
    char err[4096];
    int got = cli_run(dir, arguments, err, sizeof err);
    ck_assert_msg(got == status, "'%s': status %d, not %d: %s", arguments, got, status, err);
    ck_assert_msg(strstr(err, says), "'%s' should say '%s': %s", arguments, says, err);
}

static bool cli_exists(const CliDir *dir, const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir->path, name);
    return access(path, F_OK) == 0;
}

/* Every line of a help text fits a normal terminal. */
static void assert_within_80_columns(const char *text)
{
    for (const char *line = text; *line;) {
        size_t length = strcspn(line, "\n");
        ck_assert_msg(length <= 80, "help line of %zu columns: %.*s", length, (int)length, line);
        line += length + (line[length] == '\n');
    }
}

START_TEST(test_cli_refuses_bad_command_lines)
{
    CliDir dir;
    cli_dir_make(&dir);
    static const struct {
        const char *arguments, *says;
    } refused[] = {
        {"td --epochs 3 --out x.ow", "--epochs is not an option of this command"},
        {"regress --logbook games.gam --logbook games.gam --out x.ow", "--logbook is given twice"},
        {"regress --logbook games.gam --out x.ow extra", "unexpected argument 'extra'"},
        {"regress --logbook games.gam --seed 1.5 --out x.ow", "bad value for --seed: '1.5'"},
        {"regress --logbook games.gam --epochs 0x2 --out x.ow", "bad value for --epochs: '0x2'"},
        {"label --logbook games.gam --empties 10,10 --out x.obf",
         "bad value for --empties: '10,10'"},
        {"label --logbook games.gam --empties 10, --out x.obf", "bad value for --empties: '10,'"},
        {"regress --logbook games.gam --out --help", "--out needs a value"},
        {"selfplay --out x.opos --games 2", "--weights FILE.ow is required"},
        {"regress --logbook=games.gam --out=x.ow --epochs=0", "bad value for --epochs: '0'"},
        {"label --out x.obf --logbook games.gam --bogus 1", "--bogus is not an option"},
        {"probcut --weights w.ow --logbook games.gam --min-empties 3 --out x.mpc",
         "--min-empties 3"},
        {"book --weights w.ow --update b.book --depth 4 --out b.book",
         "leave out --plies, --depth and --min-games"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i)
        assert_cli(&dir, refused[i].arguments, 2, refused[i].says);
    /* one command's help; the usage line lists exactly what the parser takes */
    char out[4096];
    char command[600];
    snprintf(command, sizeof command, "'%s' regress --help", TRAIN_BINARY);
    FILE *pipe = popen(command, "r");
    size_t got = fread(out, 1, sizeof out - 1, pipe);
    out[got] = '\0';
    ck_assert_int_eq(pclose(pipe), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: octuple-train regress --out FILE"));
    ck_assert_ptr_null(strstr(out, "octuple-train td"));
    assert_within_80_columns(out);
    /* the whole help too */
    static char all[1 << 16];
    snprintf(command, sizeof command, "'%s' --help", TRAIN_BINARY);
    pipe = popen(command, "r");
    got = fread(all, 1, sizeof all - 1, pipe);
    all[got] = '\0';
    ck_assert_int_eq(pclose(pipe), 0);
    ck_assert_ptr_nonnull(strstr(all, "commands:"));
    assert_within_80_columns(all);
    ck_assert(!cli_exists(&dir, "x.ow") && !cli_exists(&dir, "x.obf"));
    cli_dir_remove(&dir);
}
END_TEST

START_TEST(test_cli_keeps_inputs_and_outputs)
{
    CliDir dir;
    cli_dir_make(&dir);
    char *before, *after;
    size_t before_size, after_size;
    OctError error;
    ck_assert(file_read_all(dir.logbook, 1 << 24, &before, &before_size, &error));
    /* an output that names an input is refused before anything is written */
    assert_cli(&dir, "regress --logbook games.gam --epochs 1 --out games.gam", 2,
               "the output games.gam is the input games.gam");
    assert_cli(&dir, "td --games 2 --out t.ow --league-out t.ow", 2, "name the same file");
    assert_cli(&dir, "td --games 2 --out t.ow --league-out ./t.ow", 2, "name the same file");
    ck_assert(file_read_all(dir.logbook, 1 << 24, &after, &after_size, &error));
    ck_assert(after_size == before_size && !memcmp(before, after, before_size));
    free(after);
    /* an output nowhere writable is found before the work, not after it */
    assert_cli(&dir, "label --logbook games.gam --empties 8 --out /nonexistent-dir/x.obf", 1,
               "cannot write into /nonexistent-dir");
    /* a runaway fit is an error and writes nothing */
    assert_cli(&dir, "regress --logbook games.gam --shape all-3 --rate 0.9 --epochs 2 --out x.ow",
               1, "the fit diverged in epoch 1");
    ck_assert(!cli_exists(&dir, "x.ow"));
    /* data with no game is an error too, which names the data */
    assert_cli(&dir, "regress --logbook /dev/null --out x.ow", 1,
               "the data (--logbook /dev/null) holds no position to fit");
    ck_assert(!cli_exists(&dir, "x.ow"));
    assert_cli(&dir, "label --logbook /dev/null --empties 8 --out x.obf", 1,
               "the data (--logbook /dev/null) holds no finished game");
    ck_assert(!cli_exists(&dir, "x.obf"));
    /* a good run: the output replaces a file but keeps its mode, and a link stays a link */
    char target[300], link[300];
    snprintf(target, sizeof target, "%s/kept.ow", dir.path);
    snprintf(link, sizeof link, "%s/link.ow", dir.path);
    test_write_text(target, "old");
    ck_assert_int_eq(chmod(target, 0600), 0);
    ck_assert_int_eq(symlink("kept.ow", link), 0);
    assert_cli(&dir, "regress --logbook games.gam --epochs 1 --shape all-1 --out link.ow", 0, "");
    struct stat info;
    ck_assert_int_eq(lstat(link, &info), 0);
    ck_assert(S_ISLNK(info.st_mode));
    ck_assert_int_eq(stat(target, &info), 0);
    ck_assert_int_eq(info.st_mode & 0777, 0600);
    Model *model;
    ck_assert_msg(model_load(target, &model, &error), "%s", error.message);
    model_free(model);
    free(before);
    cli_dir_remove(&dir);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("train");
    TCase *tc = tcase_create("regress");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_trainset_labels);
    tcase_add_test(tc, test_exact_labels);
    tcase_add_test(tc, test_search_labels);
    tcase_add_test(tc, test_wthor_targets);
    tcase_add_test(tc, test_regression_fits_and_is_reproducible);
    tcase_add_test(tc, test_regression_weights);
    tcase_add_test(tc, test_adam_recovers_a_known_network);
    tcase_add_test(tc, test_mpc_fit);
    suite_add_tcase(suite, tc);
    TCase *cli = tcase_create("command line");
    tcase_set_timeout(cli, 120);
    tcase_add_test(cli, test_cli_refuses_bad_command_lines);
    tcase_add_test(cli, test_cli_keeps_inputs_and_outputs);
    suite_add_tcase(suite, cli);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

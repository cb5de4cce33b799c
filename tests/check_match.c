/* octuple-match: statistics against hand-computed values, the parsers, the opening reader and
 * generator, and whole matches (in-process and through the binary) between fake engines that
 * misbehave in every way the runner must survive, and between two Octuple configurations. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/board.h"
#include "core/fileio.h"
#include "core/game.h"
#include "core/ggf.h"
#include "core/timing.h"
#include "match/match_engine.h"
#include "match/match_game.h"
#include "match/match_openings.h"
#include "match/match_run.h"
#include "match/match_stats.h"
#include "core/notation.h"
#include "core/weights.h"

/* Generous for a loaded 2-core machine; a healthy engine answers in milliseconds. */
static const double MOVE_TIMEOUT = 20.0;

/* Directories made by temp_dir in this process, removed with their files when it exits:
 * Check runs each test in a process of its own, which ends with exit() whether the test
 * passed or failed. Only the process that made them removes them, not a forked engine. */
enum { TEMP_DIRS_MAX = 64 }; /* every test of the file in one process (CK_FORK=no) */
static char temp_dirs[TEMP_DIRS_MAX][64];
static int temp_dir_count;
static pid_t temp_dirs_owner;

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
    (void)info;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void temp_dirs_remove(void)
{
    if (getpid() != temp_dirs_owner)
        return;
    for (int i = 0; i < temp_dir_count; ++i)
        nftw(temp_dirs[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *temp_dir(void)
{
    ck_assert_int_lt(temp_dir_count, TEMP_DIRS_MAX);
    char *path = temp_dirs[temp_dir_count];
    strcpy(path, "/tmp/check_match.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(path));
    ++temp_dir_count;
    if (temp_dirs_owner != getpid()) {
        temp_dirs_owner = getpid();
        atexit(temp_dirs_remove);
    }
    return path;
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    fputs(text, file);
    fclose(file);
}

static char *read_text(const char *path)
{
    char *text;
    size_t size;
    OctError error;
    if (!file_read_all(path, 1 << 26, &text, &size, &error))
        return strdup("");
    return text;
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        ++n;
    return n;
}

/* ---- statistics ---- */

static MatchResult result_of(int opening, int black, int discs)
{
    MatchResult r;
    memset(&r, 0, sizeof r);
    r.opening = opening;
    r.black = black;
    r.discs = discs;
    r.forfeit = -1;
    return r;
}

START_TEST(test_elo)
{
    ck_assert_double_eq_tol(match_elo(0.5), 0.0, 1e-12);
    /* 400 log10(3) = 190.8485 */
    ck_assert_double_eq_tol(match_elo(0.75), 190.8485, 1e-4);
    ck_assert_double_eq_tol(match_elo(0.25), -190.8485, 1e-4);
    ck_assert(isinf(match_elo(1.0)) && match_elo(1.0) > 0);
    ck_assert(isinf(match_elo(0.0)) && match_elo(0.0) < 0);
    ck_assert(isnan(match_elo(NAN)));
}
END_TEST

/* Six openings, two games each (engine 0 black first), engine 0's disc differences:
 *   opening 0: +10, 0   unit score (1 + 1/2)/2 = 0.75  unit discs  5
 *   opening 1:  +2, -6  (1 + 0)/2 = 0.5                           -2
 *   opening 2:  +4, -2  0.5                                        1
 *   opening 3: +14, +10 1.0                                       12
 *   opening 4:  -6, 0   0.25                                      -3
 *   opening 5:  +8, 0   0.75                                       4
 * W 6, D 3, L 3: p = 7.5/12 = 0.625; Elo = 400 log10(0.625/0.375) = 88.7395.
 * Unit deviations from 0.625: +.125 -.125 -.125 +.375 -.375 +.125; squares sum
 * 4 * .015625 + 2 * .140625 = .34375; variance .34375/5 = .06875; SE = sqrt(.06875/6) =
 * .1070436. Interval .625 -+ 2.570582 * .1070436 (Student's t, 5 degrees of freedom) =
 * [.3498356, .9001644] -> Elo [400 log10(.3498356/.6501644), 400 log10(.9001644/.0998356)]
 * = [-107.6636, +382.0145].
 * Discs: mean 34/12 = 2.8333; unit deviations 2.1667 -4.8333 -1.8333 9.1667 -5.8333 1.1667,
 * squares sum 150.8333, variance 30.1667, SE sqrt(30.1667/6) = 2.2423, interval
 * [-2.9306, +8.5973]. */
START_TEST(test_stats_hand_computed)
{
    static const int discs[6][2] = {{10, 0}, {2, -6}, {4, -2}, {14, 10}, {-6, 0}, {8, 0}};
    MatchStats stats;
    ck_assert(match_stats_init(&stats, 6));
    for (int o = 0; o < 6; ++o)
        for (int g = 0; g < 2; ++g)
            match_stats_add(&stats, &(MatchResult){o, g, discs[o][g], -1, {30, 31},
                                                     {1.5, 6.2}});
    MatchSummary s;
    match_stats_summarize(&stats, &s);
    ck_assert_int_eq(s.games, 12);
    ck_assert_int_eq(s.wins, 6);
    ck_assert_int_eq(s.draws, 3);
    ck_assert_int_eq(s.losses, 3);
    ck_assert_int_eq(s.units, 6);
    ck_assert_double_eq_tol(s.score, 0.625, 1e-12);
    ck_assert_double_eq_tol(s.elo, 88.7395, 1e-4);
    ck_assert_double_eq_tol(s.score_se, 0.1070436, 1e-7);
    ck_assert_double_eq_tol(s.score_low, 0.3498356, 1e-7);
    ck_assert_double_eq_tol(s.score_high, 0.9001644, 1e-7);
    ck_assert_double_eq_tol(s.elo_low, -107.6636, 1e-3);
    ck_assert_double_eq_tol(s.elo_high, 382.0145, 1e-3);
    ck_assert_double_eq_tol(s.discs, 34.0 / 12, 1e-12);
    ck_assert_double_eq_tol(s.discs_low, -2.9306, 1e-3);
    ck_assert_double_eq_tol(s.discs_high, 8.5973, 1e-3);
    /* per colour: as black +10 +2 +4 +14 -6 +8, as white 0 -6 -2 +10 0 0 */
    ck_assert_int_eq(stats.color_wins[0], 5);
    ck_assert_int_eq(stats.color_draws[0], 0);
    ck_assert_int_eq(stats.color_losses[0], 1);
    ck_assert_int_eq(stats.color_wins[1], 1);
    ck_assert_int_eq(stats.color_draws[1], 3);
    ck_assert_int_eq(stats.color_losses[1], 2);
    ck_assert_int_eq(stats.moves[0], 360);
    ck_assert_double_eq_tol(stats.seconds[1] / stats.moves[1], 6.2 / 31, 1e-12);

    char *text;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    const char *names[2] = {"alpha", "beta"};
    match_stats_print(&stats, names, out);
    fclose(out);
    ck_assert_msg(strstr(text, "Elo difference (alpha - beta): +89, 95% interval [-108, +382]"),
                  "%s", text);
    ck_assert_msg(strstr(text, "0.0500"), "alpha spends 1.5 s per 30 moves: %s", text);
    ck_assert_msg(strstr(text, "62.5%") && strstr(text, "37.5%"), "%s", text);
    free(text);
    match_stats_free(&stats);
}
END_TEST

START_TEST(test_stats_edges)
{
    MatchStats stats;
    ck_assert(match_stats_init(&stats, 3));
    MatchSummary s;
    match_stats_summarize(&stats, &s);
    ck_assert(isnan(s.score) && isnan(s.elo));
    MatchResult r = result_of(0, 0, 6);
    match_stats_add(&stats, &r);
    match_stats_summarize(&stats, &s);
    ck_assert(isinf(s.elo) && s.elo > 0);
    ck_assert(isnan(s.elo_low)); /* one unit: no interval */
    r = result_of(0, 1, -6);
    match_stats_add(&stats, &r);
    r = result_of(1, 0, 0);
    match_stats_add(&stats, &r);
    match_stats_summarize(&stats, &s);
    /* units 0.5 and 0.5: SE 0, yet two openings prove nothing: by the rule of three the
     * half-width is 0.5 * 3/2, clamped to the whole range */
    ck_assert_double_eq_tol(s.elo, 0, 1e-12);
    ck_assert(isinf(s.elo_low) && s.elo_low < 0 && isinf(s.elo_high) && s.elo_high > 0);
    ck_assert(s.discs_low == -64 && s.discs_high == 64);
    match_stats_free(&stats);

    /* two pairs, +9 and +7 discs a game: SE 1, and the t factor of 1 degree of freedom,
     * 12.706, not the normal 1.96 (which gave [+6.04, +9.96]) */
    ck_assert(match_stats_init(&stats, 2));
    for (int opening = 0; opening < 2; ++opening)
        for (int game = 0; game < 2; ++game) {
            r = result_of(opening, game, opening == 0 ? 9 : 7);
            match_stats_add(&stats, &r);
        }
    match_stats_summarize(&stats, &s);
    ck_assert_double_eq_tol(s.discs_low, 8 - 12.706205, 1e-6);
    ck_assert_double_eq_tol(s.discs_high, 8 + 12.706205, 1e-6);
    match_stats_free(&stats);

    /* 100 openings, each pair split with +4 and -4 discs (deterministic engines of equal
     * strength): p 0.5 +- 0.5 * 3/100, Elo +-10.43; discs 0 +- 64 * 3/100 */
    ck_assert(match_stats_init(&stats, 100));
    for (int opening = 0; opening < 100; ++opening) {
        r = result_of(opening, 0, 4);
        match_stats_add(&stats, &r);
        r = result_of(opening, 1, -4);
        match_stats_add(&stats, &r);
    }
    match_stats_summarize(&stats, &s);
    ck_assert_double_eq_tol(s.score_low, 0.485, 1e-12);
    ck_assert_double_eq_tol(s.score_high, 0.515, 1e-12);
    ck_assert_double_eq_tol(s.elo_low, -10.4262, 1e-3);
    ck_assert_double_eq_tol(s.elo_high, 10.4262, 1e-3);
    ck_assert_double_eq_tol(s.discs_low, -1.92, 1e-12);
    ck_assert_double_eq_tol(s.discs_high, 1.92, 1e-12);
    match_stats_free(&stats);
}
END_TEST

/* ---- parsers ---- */

START_TEST(test_parse_reply)
{
    int move;
    double eval, seconds;
    ck_assert(match_parse_reply("F5", &move, &eval, &seconds));
    ck_assert_int_eq(move, 4 * 8 + 5);
    ck_assert(isnan(eval) && isnan(seconds));
    ck_assert(match_parse_reply("d3/-1.25/0.5", &move, &eval, &seconds));
    ck_assert_int_eq(move, 2 * 8 + 3);
    ck_assert_double_eq(eval, -1.25);
    ck_assert_double_eq(seconds, 0.5);
    ck_assert(match_parse_reply("F5//24.779", &move, &eval, &seconds));
    ck_assert(isnan(eval));
    ck_assert_double_eq(seconds, 24.779);
    ck_assert(match_parse_reply("F5/", &move, &eval, &seconds));
    ck_assert(match_parse_reply("F5/junk/x", &move, &eval, &seconds)); /* evals are advisory */
    ck_assert(isnan(eval) && isnan(seconds));
    static const char *const passes[] = {"PA", "pa", "PA//0.00", "pa/0/0.000", "pass", "Pa "};
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; ++i) {
        ck_assert_msg(match_parse_reply(passes[i], &move, &eval, &seconds), "%s", passes[i]);
        ck_assert_int_eq(move, MOVE_PASS);
    }
    static const char *const bad[] = {"", "z9", "F9", "F5x", "F5 F6", "/1.0", "hello"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        ck_assert_msg(!match_parse_reply(bad[i], &move, &eval, &seconds), "'%s'", bad[i]);
}
END_TEST

START_TEST(test_split_command)
{
    char storage[256];
    char *argv[8];
    ck_assert_int_eq(match_split_command("  ./octuple   --nboard\t--threads 1 ", storage,
                                         sizeof storage, argv, 8), 4);
    ck_assert_str_eq(argv[0], "./octuple");
    ck_assert_str_eq(argv[3], "1");
    ck_assert_ptr_null(argv[4]);
    ck_assert_int_eq(match_split_command("'my engine' \"a b\"c d\\ e", storage, sizeof storage,
                                         argv, 8), 3);
    ck_assert_str_eq(argv[0], "my engine");
    ck_assert_str_eq(argv[1], "a bc");
    ck_assert_str_eq(argv[2], "d e");
    ck_assert_int_eq(match_split_command("'open", storage, sizeof storage, argv, 8), -1);
    ck_assert_int_eq(match_split_command("a b c d e f g h i", storage, sizeof storage, argv, 8),
                     -1);
    ck_assert_int_eq(match_split_command("   ", storage, sizeof storage, argv, 8), 0);
}
END_TEST

START_TEST(test_forfeit_score)
{
    Board board;
    board_init(&board); /* 2 discs each */
    ck_assert_int_eq(match_forfeit_score(&board, COLOR_BLACK, COLOR_BLACK), -60);
    ck_assert_int_eq(match_forfeit_score(&board, COLOR_BLACK, COLOR_WHITE), 60);
    /* the loser ahead: 33-31 for the winner */
    board.player = 0xFFFFFFFFFFULL; /* 40 discs for the side to move (white here) */
    board.opponent = 0x30000000000ULL;
    ck_assert_int_eq(match_forfeit_score(&board, COLOR_WHITE, COLOR_WHITE), 2);
    ck_assert_int_eq(match_forfeit_score(&board, COLOR_WHITE, COLOR_BLACK), -(64 - 4));
}
END_TEST

/* ---- openings ---- */

START_TEST(test_openings_file)
{
    char *dir = temp_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/open.txt", dir);
    write_text(path, "# balanced\r\nf5d6c3d3c4\r\n\n  F5F6e6f4  \n% comment\nf5 f4\n");
    Game *openings;
    size_t count;
    OctError error;
    ck_assert_msg(match_openings_read(path, &openings, &count, &error), "%s", error.message);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(openings[0].move_count, 5);
    ck_assert_int_eq(openings[1].moves[1], 5 * 8 + 5);
    ck_assert_int_eq(openings[2].move_count, 2);
    free(openings);

    write_text(path, "f5d6\nf5f5\n");
    ck_assert(!match_openings_read(path, &openings, &count, &error));
    ck_assert_msg(strstr(error.message, "open.txt:2:"), "%s", error.message);
    write_text(path, "# nothing\n");
    ck_assert(!match_openings_read(path, &openings, &count, &error));

    snprintf(path, sizeof path, "%s/open.ggf", dir);
    char ggf[512];
    snprintf(ggf, sizeof ggf,
             "(;GM[Othello]BO[8 %s *]B[F5]W[d6];)\n(;GM[Othello]BO[8 O*%62s *];)\n",
             "---------------------------O*------*O---------------------------", "");
    memset(strstr(ggf, "BO[8 O*") + 7, '-', 62);
    write_text(path, ggf);
    ck_assert_msg(match_openings_read(path, &openings, &count, &error), "%s", error.message);
    ck_assert_int_eq(count, 2);
    ck_assert_int_eq(openings[0].move_count, 2);
    ck_assert_int_eq(openings[1].move_count, 0);
    ck_assert_int_eq(board_count_empties(&openings[1].start), 62);
    free(openings);
}
END_TEST

static Model *load_model(void)
{
    Model *model;
    OctError error;
    ck_assert_msg(model_load(TOP_SRCDIR "/weights/octuple.ow", &model, &error), "%s",
                  error.message);
    return model;
}

START_TEST(test_openings_generated)
{
    Model *model = load_model();
    MatchGenerateSpec spec = {6, 8, 2.0, 4, 7, model, NULL};
    Game *a, *b;
    double *scores;
    OctError error;
    ck_assert_msg(match_openings_generate(&spec, &a, &scores, NULL, NULL, &error), "%s",
                  error.message);
    spec.count = 4;
    ck_assert(match_openings_generate(&spec, &b, NULL, NULL, NULL, &error));
    for (int i = 0; i < 4; ++i) /* deterministic, and a shorter list is a prefix */
        ck_assert(!memcmp(&a[i], &b[i], sizeof a[i]));
    free(b);
    for (int i = 0; i < 6; ++i) {
        ck_assert_int_eq(a[i].move_count, 8);
        ck_assert(fabs(scores[i]) <= 2.0);
        Board board;
        Color side;
        game_position(&a[i], 8, &board, &side);
        ck_assert(!board_is_over(&board));
        for (int j = 0; j < i; ++j) {
            Board other;
            Color other_side;
            game_position(&a[j], 8, &other, &other_side);
            ck_assert(match_position_key(&board, side) != match_position_key(&other, other_side));
        }
    }
    spec.seed = 8;
    Game *c;
    ck_assert(match_openings_generate(&spec, &c, NULL, NULL, NULL, &error));
    ck_assert(memcmp(a, c, 4 * sizeof *a)); /* another seed, other openings */
    free(c);
    /* impossible balance: a clear error instead of a long loop */
    spec.count = 2;
    spec.plies = 1;
    spec.balance = -1;
    ck_assert(!match_openings_generate(&spec, &c, NULL, NULL, NULL, &error));
    ck_assert_msg(strstr(error.message, "balanced openings"), "%s", error.message);
    /* a raised stop flag (Ctrl-C) ends the generation at once */
    atomic_int stop = 1;
    spec.balance = 2.0;
    spec.stop = &stop;
    ck_assert(!match_openings_generate(&spec, &c, NULL, NULL, NULL, &error));
    ck_assert_msg(strstr(error.message, "interrupted"), "%s", error.message);
    spec.stop = NULL;

    char *dir = temp_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/saved.txt", dir);
    ck_assert(match_openings_write(path, a, 6, &error));
    size_t count;
    ck_assert(match_openings_read(path, &b, &count, &error));
    ck_assert_int_eq(count, 6);
    ck_assert(!memcmp(a[5].moves, b[5].moves, 8 * sizeof(int)));
    free(a);
    free(b);
    free(scores);
    model_free(model);
}
END_TEST

/* ---- matches ---- */

static const char *const OPENINGS =
    "c4e3f2e2f3c3c5g4\ne6f6f5f4d3c6d6c2\ne6f6f5f4c3c6c4e7\nf5d6c4f4f6f7g5h6\n";

typedef struct Run {
    char dir[64];
    Game *openings;
    size_t count;
    MatchConfig config;
    atomic_int stop;
    char output[128];
    char log_path[128];
    MatchStats stats;
    MatchRunInfo info;
    OctError error;
    bool ok;
    char *log;      /* what the runner logged */
    char *ggf;      /* the output file */
} Run;

static void run_setup(Run *run, const char *openings_text, const char *command0,
                      const char *command1)
{
    memset(run, 0, sizeof *run);
    strcpy(run->dir, temp_dir());
    char path[128];
    snprintf(path, sizeof path, "%s/openings.txt", run->dir);
    write_text(path, openings_text);
    OctError error;
    ck_assert_msg(match_openings_read(path, &run->openings, &run->count, &error), "%s",
                  error.message);
    snprintf(run->output, sizeof run->output, "%s/games.ggf", run->dir);
    snprintf(run->log_path, sizeof run->log_path, "%s/log.txt", run->dir);
    MatchConfig *c = &run->config;
    snprintf(c->engines[0].name, MATCH_NAME_SIZE, "one");
    snprintf(c->engines[1].name, MATCH_NAME_SIZE, "two");
    snprintf(c->engines[0].command, MATCH_COMMAND_SIZE, "%s", command0);
    snprintf(c->engines[1].command, MATCH_COMMAND_SIZE, "%s", command1);
    c->openings = run->openings;
    c->opening_count = run->count;
    c->concurrency = 2;
    c->timeout = MOVE_TIMEOUT;
    c->start_timeout = MOVE_TIMEOUT;
    c->output = run->output;
    atomic_init(&run->stop, 0);
    c->stop = &run->stop;
}

static void run_go(Run *run)
{
    FILE *log = fopen(run->log_path, "w");
    ck_assert_ptr_nonnull(log);
    run->config.log = log;
    run->config.progress = true;
    atomic_store(&run->stop, 0);
    run->ok = match_run(&run->config, &run->stats, &run->info, &run->error);
    fclose(log);
    free(run->log);
    free(run->ggf);
    run->log = read_text(run->log_path);
    run->ggf = read_text(run->output);
}

static void run_free(Run *run)
{
    match_stats_free(&run->stats);
    free(run->openings);
    free(run->log);
    free(run->ggf);
}

static const char *fake(const char *arguments)
{
    static char command[4][MATCH_COMMAND_SIZE];
    static int next;
    char *out = command[next++ % 4];
    snprintf(out, MATCH_COMMAND_SIZE, "%s %s", FAKE_ENGINE, arguments);
    return out;
}

/* The records of the output, by game number. */
static int read_records(const Run *run, GgfRecord *records, int capacity)
{
    GgfRecord *all;
    size_t count;
    OctError error;
    ck_assert_msg(ggf_read_file(run->output, &all, &count, &error), "%s", error.message);
    ck_assert_int_le(count, capacity);
    for (size_t i = 0; i < count; ++i) {
        int g = atoi(all[i].place + strlen("octuple-match "));
        ck_assert(g >= 0 && g < capacity);
        records[g] = all[i];
    }
    free(all);
    return (int)count;
}

START_TEST(test_match_fakes)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--play first"), fake("--play hash --lower --evals"));
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.info.played, 8);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
    ck_assert_int_eq(count_of(run.ggf, "(;"), 8);
    ck_assert_msg(!strstr(run.log, "octuple-match:"), "no events expected: %s", run.log);
    ck_assert_msg(strstr(run.log, "[8/8] 8 games"), "%s", run.log);

    static GgfRecord records[8];
    ck_assert_int_eq(read_records(&run, records, 8), 8);
    for (int g = 0; g < 8; ++g) {
        ck_assert_str_eq(records[g].black, g % 2 ? "two" : "one");
        ck_assert_str_eq(records[g].white, g % 2 ? "one" : "two");
        ck_assert(game_is_over(&records[g].game));
        char expected[16];
        snprintf(expected, sizeof expected, "%+d", game_black_score(&records[g].game));
        ck_assert_str_eq(records[g].result, expected);
        /* the opening is kept; the engines' moves carry the runner's times */
        ck_assert_int_eq(records[g].game.moves[0], run.openings[g / 2].moves[0]);
        ck_assert(isnan(records[g].times[7]));
        ck_assert(records[g].times[8] >= 0);
    }
    /* deterministic engines, deterministic match */
    MatchStats first = run.stats;
    memset(&run.stats, 0, sizeof run.stats);
    run.config.overwrite = true;
    run_go(&run);
    ck_assert(run.ok);
    ck_assert_int_eq(run.stats.wins, first.wins);
    ck_assert_int_eq(run.stats.draws, first.draws);
    ck_assert_int_eq(run.stats.disc_sum, first.disc_sum);
    ck_assert_int_eq(count_of(run.ggf, "(;"), 8);
    match_stats_free(&first);
    run_free(&run);
}
END_TEST

/* Every fault, once (the restarted engine behaves): the faulty side loses that game only,
 * the event is logged with the position, the match goes on. */
static void check_fault_protocol(MatchProtocol protocol, const char *fault,
                                 const char *logged, const char *suffix, double timeout)
{
    Run run;
    char arguments[256], once[160];
    run_setup(&run, OPENINGS, "", fake("--play hash"));
    snprintf(once, sizeof once, "%s/once", run.dir);
    snprintf(arguments, sizeof arguments, "%s--play first %s --once %s",
             protocol == MATCH_GTP ? "--gtp " : "", fault, once);
    snprintf(run.config.engines[0].command, MATCH_COMMAND_SIZE, "%s", fake(arguments));
    run.config.engines[0].protocol = protocol;
    run.config.timeout = timeout;
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0], 1);
    ck_assert_int_eq(run.stats.forfeits[1], 0);
    ck_assert_msg(strstr(run.log, logged), "%s: %s", fault, run.log);
    ck_assert_msg(strstr(run.log, "position ") && strstr(run.log, ": one ("), "%s", run.log);
    ck_assert_int_eq(count_of(run.log, "octuple-match: game"), 1);
    ck_assert_msg(strstr(run.ggf, suffix), "%s: %s", fault, run.ggf);
    ck_assert_int_eq(count_of(run.ggf, "(;"), 8);
    run_free(&run);
}

static void check_fault_once(const char *fault, const char *logged, const char *suffix,
                             double timeout)
{
    check_fault_protocol(MATCH_NBOARD, fault, logged, suffix, timeout);
}

/* An engine that is gone once the game is over (here it closes its input as it answers the
 * last move, so the runner cannot even send it that move) is logged and restarted, and the
 * game keeps the board's result: it was complete. */
START_TEST(test_engine_gone_after_the_last_move)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--play first --quit-when-over"), fake("--play hash"));
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
    static GgfRecord records[8];
    ck_assert_int_eq(read_records(&run, records, 8), 8);
    int lost = 0;
    for (int g = 0; g < 8; ++g) {
        ck_assert(game_is_over(&records[g].game));
        char expected[16];
        snprintf(expected, sizeof expected, "%+d", game_black_score(&records[g].game));
        ck_assert_str_eq(records[g].result, expected);
        /* engine one made the last move of this game */
        Board board;
        Color side;
        game_position(&records[g].game, records[g].game.move_count - 1, &board, &side);
        bool one_black = g % 2 == 0;
        lost += (side == COLOR_BLACK) == one_black;
    }
    ck_assert_int_gt(lost, 0); /* the case arose */
    ck_assert_msg(strstr(run.log, "while the last move") || strstr(run.log, "the ping after"),
                  "%s", run.log);
    run_free(&run);
}
END_TEST

START_TEST(test_fault_crash)
{
    check_fault_once("--crash-at 3", "crashed: killed by signal 6", ":r]", MOVE_TIMEOUT);
}
END_TEST

START_TEST(test_fault_hang)
{
    check_fault_once("--hang-at 2", "timed out: no answer to go", ":t]", 3.0);
}
END_TEST

START_TEST(test_fault_illegal)
{
    check_fault_once("--illegal-at 4", "illegal move: illegal move", ":r]", MOVE_TIMEOUT);
    check_fault_once("--unreadable-at 1", "unreadable move '=== z9/1.0'", ":r]", MOVE_TIMEOUT);
    check_fault_once("--wrong-pass-at 2", "pass with a legal move", ":r]", MOVE_TIMEOUT);
}
END_TEST

/* Crashing in every game: every game is lost, the engine restarted each time. */
START_TEST(test_fault_every_game)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--crash-at 2"), fake("--play hash"));
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.losses, 8);
    ck_assert_int_eq(run.stats.forfeits[0], 8);
    ck_assert_int_eq(count_of(run.log, "crashed"), 8);
    run_free(&run);
}
END_TEST

static const char *const PASS_OPENING =
    "(;GM[Othello]BO[8 O*-------------------------------------------------------------- *];)\n";

/* The moves of every game of a run, by game number, as move strings. */
static void run_moves(const Run *run, char moves[8][256])
{
    static GgfRecord records[8];
    ck_assert_int_eq(read_records(run, records, 8), 8);
    for (int g = 0; g < 8; ++g)
        ck_assert(game_format_moves(&records[g].game, moves[g], 256));
}

/* A GTP engine plays the same games as an NBoard engine of the same rule: set up with
 * clear_board and play, asked with genmove, told the other side's moves with play. Chatter,
 * stale answers and answers without ids change nothing; two GTP engines play each other. */
START_TEST(test_gtp_engines)
{
    /* after the first two the side to move has to pass: GTP engines are never told a pass,
     * the other colour's next genmove or play implies it */
    static const char *const openings = "e6f6d3e7e8d8g7f8\nd3c3e6d2d1e3f4e1b3c1\n"
                                        "c4e3f2e2f3c3c5g4\nf5d6c4f4f6f7g5h6\n";
    Run nboard;
    run_setup(&nboard, openings, fake("--play first"), fake("--play hash"));
    run_go(&nboard);
    ck_assert_msg(nboard.ok, "%s", nboard.error.message);
    static char expected[8][256], moves[8][256];
    run_moves(&nboard, expected);
    static const char *const variants[][2] = {
        {"--gtp --play first", "--play hash"},
        {"--gtp --play first --garbage", "--play hash"},
        {"--gtp --play first --no-ids", "--gtp --play hash --garbage"},
    };
    ck_assert_int_ge(count_of(nboard.ggf, "[PA"), 4);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
        Run run;
        run_setup(&run, openings, fake(variants[v][0]), fake(variants[v][1]));
        for (int e = 0; e < 2; ++e)
            if (strstr(variants[v][e], "--gtp"))
                run.config.engines[e].protocol = MATCH_GTP;
        run_go(&run);
        ck_assert_msg(run.ok, "%s", run.error.message);
        ck_assert_int_eq(run.stats.games, 8);
        ck_assert_msg(run.stats.forfeits[0] + run.stats.forfeits[1] == 0, "variant %zu: %s", v,
                      run.log);
        run_moves(&run, moves);
        for (int g = 0; g < 8; ++g)
            ck_assert_str_eq(moves[g], expected[g]);
        ck_assert_int_eq(run.stats.disc_sum, nboard.stats.disc_sum);
        run_free(&run);
    }
    run_free(&nboard);
    /* a start position of its own cannot be given over GTP: refused before any game */
    Run own;
    run_setup(&own, PASS_OPENING, fake("--gtp"), fake(""));
    own.config.engines[0].protocol = MATCH_GTP;
    run_go(&own);
    ck_assert(!own.ok);
    ck_assert_msg(strstr(own.error.message, "opening 1 starts from a position of its own"),
                  "%s", own.error.message);
    run_free(&own);
}
END_TEST

/* A GTP engine's faults: refusing a legal move (while the opening is set up, then in the
 * game), an illegal or unreadable genmove, a crash; each forfeits that game only. */
START_TEST(test_gtp_faults)
{
    check_fault_protocol(MATCH_GTP, "--refuse-at 5",
                         "refused a move: 'play black f3' answered '? illegal move' (while "
                         "setting up the game)", ":r]", MOVE_TIMEOUT);
    check_fault_protocol(MATCH_GTP, "--refuse-at 12", "refused a move: 'play ", ":r]",
                         MOVE_TIMEOUT);
    check_fault_protocol(MATCH_GTP, "--illegal-at 2", "illegal move: illegal move", ":r]",
                         MOVE_TIMEOUT);
    check_fault_protocol(MATCH_GTP, "--unreadable-at 1", "unreadable move '= z9'", ":r]",
                         MOVE_TIMEOUT);
    check_fault_protocol(MATCH_GTP, "--crash-at 3", "crashed: killed by signal 6", ":r]",
                         MOVE_TIMEOUT);
    check_fault_protocol(MATCH_GTP, "--hang-at 2", "timed out: no answer to genmove", ":t]",
                         3.0);
}
END_TEST

START_TEST(test_garbage)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--garbage --play first"), fake("--garbage --play hash"));
    run.config.engines[0].merge_stderr = true; /* stderr chatter among the protocol lines */
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
    /* the same games as without the noise */
    Run clean;
    run_setup(&clean, OPENINGS, fake("--play first"), fake("--play hash"));
    run_go(&clean);
    ck_assert(clean.ok);
    ck_assert_int_eq(run.stats.disc_sum, clean.stats.disc_sum);
    ck_assert_int_eq(run.stats.wins, clean.stats.wins);
    run_free(&run);
    run_free(&clean);
}
END_TEST

START_TEST(test_start_failures)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--no-pong"), fake(""));
    run.config.start_timeout = 1.0;
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "did not answer ping"), "%s", run.error.message);
    run_free(&run);

    run_setup(&run, OPENINGS, fake(""), fake("--exit-at-start"));
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "exited with status 5"), "%s", run.error.message);
    run_free(&run);

    run_setup(&run, OPENINGS, fake(""), "no-such-engine-here --nboard");
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "not found"), "%s", run.error.message);
    run_free(&run);
}
END_TEST

/* Black has no move in this start position (white a1, black b1): the engine must pass in
 * any spelling; white then plays c1 and wins 64-0. */
START_TEST(test_passes)
{
    for (int style = 0; style < 3; ++style) {
        Run run;
        char arguments[64];
        snprintf(arguments, sizeof arguments, "--pass-style %d --lower --evals", style);
        run_setup(&run, PASS_OPENING, fake(arguments), fake("--pass-style 2"));
        run_go(&run);
        ck_assert_msg(run.ok, "%s", run.error.message);
        ck_assert_int_eq(run.stats.games, 2);
        ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
        ck_assert_int_eq(run.stats.disc_sum, 0); /* each engine wins 64-0 as white */
        ck_assert_msg(strstr(run.ggf, "B[PA"), "%s", run.ggf);
        ck_assert_msg(strstr(run.ggf, "W[C1") && strstr(run.ggf, "RE[-64]"), "%s", run.ggf);
        run_free(&run);
    }
    /* a move where only a pass is legal (as black), an occupied square (as white, after
     * the restart) */
    Run run;
    run_setup(&run, PASS_OPENING, fake("--illegal-at 1"), fake(""));
    run_go(&run);
    ck_assert(run.ok);
    ck_assert_int_eq(run.stats.forfeits[0], 2);
    run_free(&run);
}
END_TEST

START_TEST(test_resume)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--play first --evals"), fake("--play hash"));
    run_go(&run);
    ck_assert(run.ok);
    MatchStats full = run.stats;
    memset(&run.stats, 0, sizeof run.stats);

    /* keep three records and a torn fourth, as a crash would leave them */
    char *kept = strdup(run.ggf);
    char *cut = kept;
    for (int i = 0; i < 3; ++i)
        cut = strchr(cut, '\n') + 1;
    cut[40] = '\0';
    write_text(run.output, kept);
    free(kept);
    run.config.resume = true;
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.info.resumed, 3);
    ck_assert_int_eq(run.info.played, 5);
    ck_assert_msg(strstr(run.log, "incomplete"), "%s", run.log);
    ck_assert_int_eq(count_of(run.ggf, "(;"), 8);
    ck_assert_int_eq(count_of(run.ggf, "\n"), 8);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.wins, full.wins);
    ck_assert_int_eq(run.stats.disc_sum, full.disc_sum);
    ck_assert_int_eq(run.stats.moves[0], full.moves[0]);
    /* the times of the resumed games count too: the totals are those of the whole file */
    GgfRecord *records;
    size_t count;
    OctError error;
    ck_assert(ggf_read_file(run.output, &records, &count, &error));
    double seconds[2] = {0, 0};
    for (size_t i = 0; i < count; ++i) {
        int g;
        MatchResult result;
        ck_assert_msg(match_result_from_record(&run.config, &records[i], &g, &result, &error),
                      "%s", error.message);
        seconds[0] += result.seconds[0];
        seconds[1] += result.seconds[1];
    }
    free(records);
    ck_assert_double_eq_tol(run.stats.seconds[0], seconds[0], 1e-9);
    ck_assert_double_eq_tol(run.stats.seconds[1], seconds[1], 1e-9);

    /* nothing left to play */
    match_stats_free(&run.stats);
    run_go(&run);
    ck_assert(run.ok);
    ck_assert_int_eq(run.info.resumed, 8);
    ck_assert_int_eq(run.info.played, 0);

    /* another match's file is refused */
    match_stats_free(&run.stats);
    snprintf(run.config.engines[1].name, MATCH_NAME_SIZE, "three");
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "expected"), "%s", run.error.message);
    /* and without --resume an existing file is not overwritten */
    match_stats_free(&run.stats);
    run.config.resume = false;
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "--resume"), "%s", run.error.message);
    /* a file that is no match's output, or has other text among its games, takes no games;
     * a record torn before its ';' on the last line is cut off */
    snprintf(run.config.engines[1].name, MATCH_NAME_SIZE, "two");
    run.config.resume = true;
    char *whole = strdup(run.ggf);
    *(strchr(whole, '\n') + 1) = '\0'; /* its first record */
    size_t first_length = strlen(whole);
    char foreign[5][2048];
    snprintf(foreign[0], sizeof foreign[0], "notes, not games\n");
    snprintf(foreign[1], sizeof foreign[1], "f5d6c3\nf5f6e6\n");
    snprintf(foreign[2], sizeof foreign[2], "%ssome words\n", whole);
    snprintf(foreign[3], sizeof foreign[3], "%.*s words\n", (int)first_length - 1, whole);
    snprintf(foreign[4], sizeof foreign[4], "%s(notes on game 7", whole);
    for (int i = 0; i < 5; ++i) {
        write_text(run.output, foreign[i]);
        match_stats_free(&run.stats);
        run_go(&run);
        ck_assert(!run.ok);
        ck_assert_msg(strstr(run.error.message, "not a match's output"), "%d: %s", i,
                      run.error.message);
        ck_assert_str_eq(run.ggf, foreign[i]);
    }
    snprintf(foreign[0], sizeof foreign[0], "%s(", whole);
    write_text(run.output, foreign[0]);
    match_stats_free(&run.stats);
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.info.resumed, 1);
    ck_assert_msg(strstr(run.log, "torn start: removed"), "%s", run.log);
    ck_assert_int_eq(count_of(run.ggf, "(;"), 8);
    free(whole);
    match_stats_free(&full);
    run_free(&run);
}
END_TEST

static void *raise_later(void *argument)
{
    struct timespec pause = {1, 0};
    nanosleep(&pause, NULL);
    atomic_store((atomic_int *)argument, 1);
    return NULL;
}

/* The stop flag (^C) ends a match of slow engines within a moment: no wait outlasts it. */
START_TEST(test_interrupt)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--delay 0.5"), fake("--delay 0.5"));
    FILE *log = fopen(run.log_path, "w");
    run.config.log = log;
    atomic_store(&run.stop, 0);
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, raise_later, &run.stop), 0);
    double start = monotonic_seconds();
    run.ok = match_run(&run.config, &run.stats, &run.info, &run.error);
    double elapsed = monotonic_seconds() - start;
    pthread_join(thread, NULL);
    fclose(log);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert(run.info.interrupted);
    ck_assert_int_eq(run.info.played, 0);
    ck_assert_msg(elapsed < 8, "took %.1f s", elapsed);
    run_free(&run);
}
END_TEST

/* ---- the binary ---- */

static int run_binary(const char *command, char **output)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", command);
    FILE *pipe = popen(full, "r");
    ck_assert_ptr_nonnull(pipe);
    size_t size = 0, capacity = 1 << 16;
    char *text = malloc(capacity);
    size_t n;
    while ((n = fread(text + size, 1, capacity - size - 1, pipe)) > 0) {
        size += n;
        if (size + 1 == capacity)
            text = realloc(text, capacity *= 2);
    }
    text[size] = '\0';
    int status = pclose(pipe);
    *output = text;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A second Ctrl-C ends the runner at once, and takes down engines that would outlive the
 * end of their input (they used to keep running, owned by init). */
START_TEST(test_second_interrupt_kills_engines)
{
    char *dir = temp_dir();
    char openings[160];
    snprintf(openings, sizeof openings, "%s/openings.txt", dir);
    write_text(openings, OPENINGS);
    char tag[64], command[4096], *out;
    snprintf(tag, sizeof tag, "second-interrupt-%ld", (long)getpid());
    snprintf(command, sizeof command,
             "cd %s && { %s --engine1 '%s --delay 5 --ignore-eof --tag %s' --engine2 '%s --delay "
             "5 --ignore-eof --tag %s' --openings openings.txt --output out.ggf --quiet "
             "--concurrency 2 "
             ">/dev/null 2>&1 & pid=$!; sleep 1; before=$(pgrep -f -c -- '^%s .*%s'); "
             "kill -INT $pid; sleep 0.3; kill -INT $pid; wait $pid; status=$?; sleep 0.5; "
             "echo \"status $status engines $before left $(pgrep -f -c -- '^%s .*%s')\"; }",
             dir, MATCH_BINARY, FAKE_ENGINE, tag, FAKE_ENGINE, tag, FAKE_ENGINE, tag,
             FAKE_ENGINE, tag);
    ck_assert_int_eq(run_binary(command, &out), 0);
    int status = -1, before = -1, left = -1;
    ck_assert_msg(sscanf(out, "status %d engines %d left %d", &status, &before, &left) == 3,
                  "%s", out);
    ck_assert_int_eq(status, 3);
    ck_assert_int_ge(before, 4); /* two games at a time, two engines each */
    ck_assert_int_eq(left, 0);
    free(out);
}
END_TEST

/* `octuple-match --engine1 x --engine2 y ARGUMENTS` exits 2 with `message`. */
static void assert_usage_error(const char *arguments, const char *message)
{
    char command[4096], *out;
    snprintf(command, sizeof command, "%s --engine1 x --engine2 y %s", MATCH_BINARY, arguments);
    ck_assert_int_eq(run_binary(command, &out), 2);
    ck_assert_msg(strstr(out, message), "%s: %s", arguments, out);
    free(out);
}

START_TEST(test_binary)
{
    char *dir = temp_dir();
    char command[4096], *out;
    snprintf(command, sizeof command, "%s --help", MATCH_BINARY);
    ck_assert_int_eq(run_binary(command, &out), 0);
    ck_assert(strstr(out, "--engine1"));
    for (const char *line = out; *line;) { /* a normal terminal's width */
        size_t length = strcspn(line, "\n");
        ck_assert_msg(length <= 80, "--help line of %zu columns: %.*s", length, (int)length,
                      line);
        line += length + (line[length] == '\n');
    }
    free(out);
    snprintf(command, sizeof command, "%s --engine1 x --bogus", MATCH_BINARY);
    ck_assert_int_eq(run_binary(command, &out), 2);
    free(out);

    char openings[160];
    snprintf(openings, sizeof openings, "%s/openings.txt", dir);
    write_text(openings, OPENINGS);
    snprintf(command, sizeof command,
             "cd %s && %s --engine1 '%s --play first' --engine2 '%s --play last' --openings "
             "openings.txt --pairs 3 --concurrency 2 --timeout 20 --output out.ggf", dir,
             MATCH_BINARY, FAKE_ENGINE, FAKE_ENGINE);
    ck_assert_int_eq(run_binary(command, &out), 0);
    ck_assert_msg(strstr(out, "fake_engine-1 vs fake_engine-2: 3 openings"), "%s", out);
    ck_assert_msg(strstr(out, "Elo difference (fake_engine-1 - fake_engine-2)"), "%s", out);
    ck_assert_msg(strstr(out, "[6/6] 6 games"), "%s", out);
    free(out);
    char other[4096];
    /* a GTP engine by the command line */
    snprintf(other, sizeof other,
             "cd %s && %s --engine1 '%s --play first' --engine2 '%s --gtp --play last' "
             "--protocol2 gtp --depth1 3 --openings openings.txt --pairs 2 --output gtp.ggf",
             dir, MATCH_BINARY, FAKE_ENGINE, FAKE_ENGINE);
    ck_assert_int_eq(run_binary(other, &out), 0);
    ck_assert_msg(strstr(out, "[4/4] 4 games") && strstr(out, "forfeits"), "%s", out);
    free(out);
    /* the games may not go into the openings file */
    snprintf(other, sizeof other,
             "cd %s && %s --engine1 '%s' --engine2 '%s' --openings openings.txt --output "
             "openings.txt --resume", dir, MATCH_BINARY, FAKE_ENGINE, FAKE_ENGINE);
    ck_assert_int_eq(run_binary(other, &out), 2);
    ck_assert_msg(strstr(out, "also the --openings file"), "%s", out);
    free(out);
    snprintf(other, sizeof other, "cd %s && %s --engine1 x --engine2 y --openings openings.txt "
             "--output new.ggf --log ./new.ggf", dir, MATCH_BINARY);
    ck_assert_int_eq(run_binary(other, &out), 2);
    ck_assert_msg(strstr(out, "also the --log file"), "%s", out);
    free(out);
    /* a named pipe that nobody reads is an error, not an open that waits for ever */
    snprintf(other, sizeof other, "(cd %s && mkfifo pipe && %s --engine1 x --engine2 y "
             "--openings openings.txt --output pipe; s=$?; %s --engine1 x --engine2 y "
             "--openings openings.txt --output out2.ggf --log pipe; echo status $s $?)",
             dir, MATCH_BINARY, MATCH_BINARY);
    ck_assert_int_eq(run_binary(other, &out), 0);
    ck_assert_int_eq(count_of(out, "pipe: cannot open for writing: a named pipe that no "
                                   "process reads"), 2);
    ck_assert_msg(strstr(out, "status 1 1"), "%s", out);
    free(out);
    /* a bad value names its option; a name must be one printable word; GTP has no depth
     * command, so a depth for a GTP engine is refused, not dropped */
    assert_usage_error("--dir1 /nonexistent-dir", "--dir1: '/nonexistent-dir': No such file");
    assert_usage_error("--protocol2 uci", "--protocol2: bad value 'uci'");
    assert_usage_error("--protocol2 gtp --depth 5", "engine 2 speaks GTP");
    assert_usage_error("--pairs 0", "--pairs: bad value '0'");
    assert_usage_error("--pairs=0", "--pairs: bad value '0'");
    assert_usage_error("--quiet=1", "--quiet takes no value");
    assert_usage_error("--timeout", "--timeout needs a value");
    assert_usage_error("--name1 \"$(printf 'a\\nb')\"", "control characters");
    /* the same command again: the output exists, refused without announcing a match */
    ck_assert_int_eq(run_binary(command, &out), 1);
    ck_assert_msg(strstr(out, "--resume"), "%s", out);
    ck_assert_msg(!strstr(out, " openings ("), "a match announced, then refused: %s", out);
    free(out);
    strcat(command, " --resume --quiet");
    ck_assert_int_eq(run_binary(command, &out), 0);
    ck_assert_msg(strstr(out, "6 games read back from out.ggf, 0 played now"), "%s", out);
    free(out);

    /* generated openings, saved */
    snprintf(command, sizeof command,
             "cd %s && %s --save-openings gen.txt --pairs 3 --plies 6 --search-depth 3 "
             "--weights %s/weights/octuple.ow", dir, MATCH_BINARY, TOP_SRCDIR);
    ck_assert_int_eq(run_binary(command, &out), 0);
    free(out);
    snprintf(openings, sizeof openings, "%s/gen.txt", dir);
    char *text = read_text(openings);
    ck_assert_int_eq(count_of(text, "\n"), 3);
    ck_assert_int_eq(strlen(text), 3 * 13);
    free(text);
}
END_TEST

/* ---- Octuple against itself ---- */

START_TEST(test_octuple_configurations)
{
    char one[MATCH_COMMAND_SIZE], two[MATCH_COMMAND_SIZE];
    snprintf(one, sizeof one, "%s --nboard --threads 1 --hash 8 --no-book", OCTUPLE_BINARY);
    snprintf(two, sizeof two, "%s --nboard --threads 1 --hash 8 --no-book --weights %s/weights/"
             "jaskowski-all2.ow", OCTUPLE_BINARY, TOP_SRCDIR);
    Run run;
    run_setup(&run, "c4e3f2e2f3c3c5g4\ne6f6f5f4d3c6d6c2\nf5d6c4f4f6f7g5h6\n", one, two);
    run.config.engines[0].depth = 1;
    run.config.engines[1].depth = 2;
    run.config.concurrency = 1; /* one process per engine, games in order: reproducible */
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 6);
    ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
    ck_assert_msg(!strstr(run.log, "octuple-match:"), "%s", run.log);
    ck_assert_int_gt(run.stats.moves[0], 6 * 10);
    static GgfRecord first[6], second[6];
    ck_assert_int_eq(read_records(&run, first, 6), 6);
    for (int g = 0; g < 6; ++g)
        ck_assert(game_is_over(&first[g].game));

    run.config.overwrite = true;
    match_stats_free(&run.stats);
    run_go(&run);
    ck_assert(run.ok);
    ck_assert_int_eq(read_records(&run, second, 6), 6);
    for (int g = 0; g < 6; ++g) {
        char a[GAME_MOVE_CAPACITY * 2 + 1], b[GAME_MOVE_CAPACITY * 2 + 1];
        game_format_moves(&first[g].game, a, sizeof a);
        game_format_moves(&second[g].game, b, sizeof b);
        ck_assert_msg(!strcmp(a, b), "game %d differs:\n%s\n%s", g, a, b);
        ck_assert_str_eq(first[g].result, second[g].result);
    }
    run_free(&run);
}
END_TEST

/* Octuple over GTP plays the games it plays over NBoard (the same settings, given on its
 * command line), passes included. */
/* A run of Octuple (over NBoard when `gtp` is false) with `settings`, one game at a time,
 * against a fake engine. */
static void octuple_setup(Run *run, const char *openings, bool gtp, const char *settings)
{
    char one[MATCH_COMMAND_SIZE];
    snprintf(one, sizeof one, "%s --%s --threads 1 --hash 8 --no-book %s", OCTUPLE_BINARY,
             gtp ? "gtp" : "nboard", settings);
    run_setup(run, openings, one, fake("--play hash"));
    run->config.engines[0].protocol = gtp ? MATCH_GTP : MATCH_NBOARD;
    run->config.concurrency = 1;
}

START_TEST(test_octuple_gtp)
{
    static const char *const openings = "e6f6d3e7e8d8g7f8\nd3c3e6d2d1e3f4e1b3c1\n"
                                        "f5d6c4f4f6f7g5h6\n";
    static GgfRecord records[2][6];
    for (int p = 0; p < 2; ++p) {
        Run run;
        octuple_setup(&run, openings, p, "--depth 2 --exact 8");
        run_go(&run);
        ck_assert_msg(run.ok, "%s", run.error.message);
        ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
        ck_assert_msg(!strstr(run.log, "octuple-match:"), "%s", run.log);
        ck_assert_int_eq(read_records(&run, records[p], 6), 6);
        run_free(&run);
    }
    for (int g = 0; g < 6; ++g) {
        char a[GAME_MOVE_CAPACITY * 2 + 1], b[GAME_MOVE_CAPACITY * 2 + 1];
        ck_assert(game_is_over(&records[0][g].game));
        game_format_moves(&records[0][g].game, a, sizeof a);
        game_format_moves(&records[1][g].game, b, sizeof b);
        ck_assert_msg(!strcmp(a, b), "game %d differs:\n%s\n%s", g, a, b);
    }
}
END_TEST

/* Clocks (--clock): every record carries TI; engines within their clocks play on (the GTP
 * fake answers time_settings and time_left as unknown commands, which costs it nothing); an
 * engine slower than its clock loses each game on time, killed at the flag and restarted;
 * a match resumes only with the clock it was played with. */
START_TEST(test_clock)
{
    Run run;
    run_setup(&run, OPENINGS, fake("--play first --delay 0.01"), fake("--gtp --play hash"));
    run.config.engines[1].protocol = MATCH_GTP;
    run.config.clock = (MatchClock){30, 0.5};
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0] + run.stats.forfeits[1], 0);
    ck_assert_int_eq(count_of(run.ggf, "TI[0:30/0:00.500]"), 8);
    run_free(&run);

    /* 0.3 s a move on a clock of 1 s: the flag falls at its fourth move */
    run_setup(&run, OPENINGS, fake("--play first --delay 0.3"), fake("--play hash"));
    run.config.clock = (MatchClock){1, 0};
    run_go(&run);
    ck_assert_msg(run.ok, "%s", run.error.message);
    ck_assert_int_eq(run.stats.games, 8);
    ck_assert_int_eq(run.stats.forfeits[0], 8);
    ck_assert_int_eq(run.stats.forfeits[1], 0);
    ck_assert_int_eq(count_of(run.log, "timed out: lost on time"), 8);
    ck_assert_int_eq(count_of(run.ggf, ":t]"), 8);
    ck_assert_int_eq(count_of(run.ggf, "TI[0:01]"), 8);

    run.config.clock = (MatchClock){2, 0};
    run.config.resume = true;
    match_stats_free(&run.stats);
    run_go(&run);
    ck_assert(!run.ok);
    ck_assert_msg(strstr(run.error.message, "TI[0:01], but this match plays TI[0:02]"), "%s",
                  run.error.message);
    run_free(&run);
}
END_TEST

/* Octuple under a clock, over NBoard (the GGF's TI and move times) and GTP (time_settings,
 * time_left): at depth 60, searches without end, every move comes within its clock. */
START_TEST(test_octuple_clock)
{
    static const char *const openings = "f5d6c3d3c4f4f6f3\n";
    for (int p = 0; p < 2; ++p) {
        Run run;
        octuple_setup(&run, openings, p, "--depth 60 --exact 40");
        run.config.engines[0].depth = p ? 0 : 60;
        run.config.clock = (MatchClock){2, 0};
        run_go(&run);
        ck_assert_msg(run.ok, "%s", run.error.message);
        ck_assert_int_eq(run.stats.games, 2);
        ck_assert_msg(run.stats.forfeits[0] + run.stats.forfeits[1] == 0, "%s", run.log);
        run_free(&run);
    }
}
END_TEST

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    Suite *suite = suite_create("match");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, test_elo);
    tcase_add_test(tc, test_stats_hand_computed);
    tcase_add_test(tc, test_stats_edges);
    suite_add_tcase(suite, tc);
    tc = tcase_create("parsing");
    tcase_add_test(tc, test_parse_reply);
    tcase_add_test(tc, test_split_command);
    tcase_add_test(tc, test_forfeit_score);
    tcase_add_test(tc, test_openings_file);
    tcase_add_test(tc, test_openings_generated);
    suite_add_tcase(suite, tc);
    tc = tcase_create("matches");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_match_fakes);
    tcase_add_test(tc, test_engine_gone_after_the_last_move);
    tcase_add_test(tc, test_fault_crash);
    tcase_add_test(tc, test_fault_hang);
    tcase_add_test(tc, test_fault_illegal);
    tcase_add_test(tc, test_fault_every_game);
    tcase_add_test(tc, test_garbage);
    tcase_add_test(tc, test_gtp_engines);
    tcase_add_test(tc, test_gtp_faults);
    tcase_add_test(tc, test_octuple_gtp);
    tcase_add_test(tc, test_clock);
    tcase_add_test(tc, test_octuple_clock);
    tcase_add_test(tc, test_start_failures);
    tcase_add_test(tc, test_passes);
    tcase_add_test(tc, test_resume);
    tcase_add_test(tc, test_interrupt);
    tcase_add_test(tc, test_second_interrupt_kills_engines);
    tcase_add_test(tc, test_binary);
    tcase_add_test(tc, test_octuple_configurations);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

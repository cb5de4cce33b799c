/* The embedding library through its public header alone, linked as it is installed
 * (src/liboctuple.a): the game, options, errors that leave the state alone, exact results
 * against a reference solver of this file's own, hints, stops from another thread, clocks.
 * This file includes no other header of the project: what it uses, an embedding program
 * can use. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep: no more than a program may ask */
#include <check.h>
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "octuple.h"

static const char *const test_weights = TOP_SRCDIR "/weights/jaskowski-all2.ow";

/* The engine's internal names, defined again here: were any of them a global symbol of the
 * library, this program would not link (multiple definition). */
void board_init(void);
void board_init(void) {}
int search_run(void);
int search_run(void) { return 0; }
int engine_create(void);
int engine_create(void) { return 0; }

static Octuple *open_engine(void)
{
    char error[OCTUPLE_ERROR_SIZE];
    Octuple *octuple = octuple_open(test_weights, error, sizeof error);
    ck_assert_msg(octuple != NULL, "%s", error);
    /* small and quiet: these tests search positions the reference can check */
    ck_assert_msg(octuple_set_option(octuple, "threads", "1", error, sizeof error), "%s", error);
    ck_assert_msg(octuple_set_option(octuple, "hash", "8", error, sizeof error), "%s", error);
    ck_assert_msg(octuple_set_option(octuple, "book", "off", error, sizeof error), "%s", error);
    return octuple;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- a reference of this file's own: plain bitboards and negamax ---- */

typedef struct Position {
    uint64_t mine, theirs; /* the side to move's discs, the other side's */
} Position;

static uint64_t slow_flips(const Position *p, int square)
{
    static const int steps[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0},
                                    {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    if (((p->mine | p->theirs) >> square) & 1)
        return 0;
    uint64_t flips = 0;
    for (int d = 0; d < 8; ++d) {
        uint64_t line = 0;
        int row = square / 8 + steps[d][0], col = square % 8 + steps[d][1];
        while (row >= 0 && row < 8 && col >= 0 && col < 8
               && ((p->theirs >> (row * 8 + col)) & 1)) {
            line |= 1ULL << (row * 8 + col);
            row += steps[d][0];
            col += steps[d][1];
        }
        if (line && row >= 0 && row < 8 && col >= 0 && col < 8
            && ((p->mine >> (row * 8 + col)) & 1))
            flips |= line;
    }
    return flips;
}

/* Final disc difference with the empties going to the winner, the side to move's view. */
static int slow_final(const Position *p)
{
    int mine = __builtin_popcountll(p->mine), theirs = __builtin_popcountll(p->theirs);
    int empties = 64 - mine - theirs;
    return mine > theirs ? mine - theirs + empties : mine < theirs ? mine - theirs - empties : 0;
}

static int slow_negamax(const Position *p, bool passed)
{
    int best = -100;
    for (int square = 0; square < 64; ++square) {
        uint64_t flips = slow_flips(p, square);
        if (!flips)
            continue;
        Position next = {p->theirs ^ flips, p->mine ^ flips ^ (1ULL << square)};
        int value = -slow_negamax(&next, false);
        if (value > best)
            best = value;
    }
    if (best > -100)
        return best;
    if (passed)
        return slow_final(p);
    Position swapped = {p->theirs, p->mine};
    return -slow_negamax(&swapped, true);
}

/* The value of `move` in `p` (the mover's view); the move must be legal. */
static int slow_move_value(const Position *p, int move)
{
    uint64_t flips = move >= 0 && move < 64 ? slow_flips(p, move) : 0;
    ck_assert_msg(flips != 0, "%d is not a legal move", move);
    Position next = {p->theirs ^ flips, p->mine ^ flips ^ (1ULL << move)};
    return -slow_negamax(&next, false);
}

/* The engine's current position, read square by square through the API. */
static Position position_read(const Octuple *octuple)
{
    OctupleColor side = octuple_side_to_move(octuple);
    ck_assert_int_ne(side, OCTUPLE_EMPTY);
    Position p = {0, 0};
    for (int square = 0; square < 64; ++square) {
        OctupleColor color = octuple_square(octuple, square);
        if (color == side)
            p.mine |= 1ULL << square;
        else if (color != OCTUPLE_EMPTY)
            p.theirs |= 1ULL << square;
    }
    return p;
}

static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Random moves from the start until `empties` are left; false when the game ended first. */
static bool random_game(Octuple *octuple, int empties, uint64_t *rng)
{
    char error[OCTUPLE_ERROR_SIZE];
    octuple_new_game(octuple);
    while (octuple_discs(octuple, OCTUPLE_EMPTY) > empties) {
        if (octuple_side_to_move(octuple) == OCTUPLE_EMPTY)
            return false;
        int moves[64];
        int count = octuple_legal_moves(octuple, moves);
        int move = count ? moves[rng_next(rng) % (uint64_t)count] : OCTUPLE_PASS;
        ck_assert_msg(octuple_play(octuple, move, error, sizeof error), "%s", error);
    }
    /* a position with one move or none: the engine would answer it unsearched */
    int moves[64];
    return octuple_side_to_move(octuple) != OCTUPLE_EMPTY
        && octuple_legal_moves(octuple, moves) >= 2;
}

/* A new handle in a random game's position of `empties` empties with two moves or more. */
static Octuple *open_in_random_game(int empties, uint64_t *rng)
{
    Octuple *octuple = open_engine();
    while (!random_game(octuple, empties, rng))
        continue;
    return octuple;
}

/* ---- the game ---- */

START_TEST(test_start_and_moves)
{
    Octuple *octuple = open_engine();
    ck_assert_str_eq(octuple_version(), "Octuple " VERSION_STRING);
    ck_assert_int_eq(octuple_side_to_move(octuple), OCTUPLE_BLACK);
    int moves[64];
    ck_assert_int_eq(octuple_legal_moves(octuple, moves), 4);
    ck_assert_int_eq(moves[0], 19); /* d3 */
    ck_assert_int_eq(moves[1], 26); /* c4 */
    ck_assert_int_eq(moves[2], 37); /* f5 */
    ck_assert_int_eq(moves[3], 44); /* e6 */
    ck_assert_int_eq(octuple_discs(octuple, OCTUPLE_BLACK), 2);
    ck_assert_int_eq(octuple_discs(octuple, OCTUPLE_WHITE), 2);
    ck_assert_int_eq(octuple_discs(octuple, OCTUPLE_EMPTY), 60);
    ck_assert_int_eq(octuple_square(octuple, 27), OCTUPLE_WHITE); /* d4 */
    ck_assert_int_eq(octuple_square(octuple, 28), OCTUPLE_BLACK); /* e4 */
    ck_assert_int_eq(octuple_square(octuple, 64), OCTUPLE_EMPTY);
    ck_assert_int_eq(octuple_square(octuple, -1), OCTUPLE_EMPTY);

    char error[OCTUPLE_ERROR_SIZE], before[OCTUPLE_BOARD_TEXT], after[OCTUPLE_BOARD_TEXT];
    ck_assert_msg(octuple_play(octuple, octuple_move_parse("f5"), error, sizeof error), "%s",
                  error);
    ck_assert_int_eq(octuple_ply(octuple), 1);
    ck_assert_int_eq(octuple_side_to_move(octuple), OCTUPLE_WHITE);
    ck_assert_int_eq(octuple_discs(octuple, OCTUPLE_BLACK), 4);

    /* an illegal move, a pass while moves exist, a number that is no move: refused, and
     * the game stays as it was */
    octuple_board(octuple, before);
    error[0] = '\0';
    ck_assert(!octuple_play(octuple, 0, error, sizeof error));
    ck_assert_msg(strstr(error, "a1") != NULL, "the error names the move: %s", error);
    ck_assert(!octuple_play(octuple, OCTUPLE_PASS, error, sizeof error));
    ck_assert(error[0] != '\0');
    ck_assert(!octuple_play(octuple, 99, error, sizeof error));
    ck_assert_msg(strstr(error, "99") != NULL, "%s", error);
    ck_assert(!octuple_play(octuple, -3, NULL, 0)); /* no room for an error: still refused */
    octuple_board(octuple, after);
    ck_assert_str_eq(before, after);
    ck_assert_int_eq(octuple_ply(octuple), 1);

    ck_assert_int_eq(octuple_undo(octuple), 1);
    ck_assert_int_eq(octuple_ply(octuple), 0);
    ck_assert_int_eq(octuple_undo(octuple), 0);
    ck_assert_int_eq(octuple_redo(octuple), 1);
    octuple_board(octuple, after);
    ck_assert_str_eq(before, after);
    octuple_close(octuple);
}
END_TEST

START_TEST(test_board_text)
{
    Octuple *octuple = open_engine();
    char text[OCTUPLE_BOARD_TEXT], error[OCTUPLE_ERROR_SIZE];
    octuple_board(octuple, text);
    ck_assert_int_eq((int)strlen(text), 66);
    ck_assert_int_eq(text[27], 'O');
    ck_assert_int_eq(text[28], 'X');
    ck_assert_int_eq(text[65], 'X');

    /* what octuple_board writes, octuple_set_board reads */
    const char *position = "XXXXXXXXXOOOOOOOXXXXXXX-XOOOOO--XXXXXX--XOOOO---XXX-----O------- O";
    ck_assert_msg(octuple_set_board(octuple, position, error, sizeof error), "%s", error);
    octuple_board(octuple, text);
    ck_assert_str_eq(text, position);
    ck_assert_int_eq(octuple_side_to_move(octuple), OCTUPLE_WHITE);
    ck_assert_int_eq(octuple_ply(octuple), 0);

    /* a short board, a bad square, a bad side: refused with the reason, nothing changed */
    const char *bad[] = {
        "XXXX O",
        "XXXXXXXXXOOOOOOOXXXXXXX-XOOOOO--XXXXXX--XOOOO---XXX-----O---Z--- O",
        "XXXXXXXXXOOOOOOOXXXXXXX-XOOOOO--XXXXXX--XOOOO---XXX-----O------- Q",
        ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        error[0] = '\0';
        ck_assert(!octuple_set_board(octuple, bad[i], error, sizeof error));
        ck_assert_msg(error[0] != '\0', "no reason given for board %zu", i);
        octuple_board(octuple, text);
        ck_assert_str_eq(text, position);
    }
    ck_assert(!octuple_set_board(octuple, NULL, error, sizeof error));
    octuple_close(octuple);
}
END_TEST

START_TEST(test_move_names)
{
    char name[3];
    ck_assert_int_eq(octuple_move_parse("a1"), 0);
    ck_assert_int_eq(octuple_move_parse("F5"), 37);
    ck_assert_int_eq(octuple_move_parse("h8"), 63);
    ck_assert_int_eq(octuple_move_parse("pass"), OCTUPLE_PASS);
    ck_assert_int_eq(octuple_move_parse("PA"), OCTUPLE_PASS);
    ck_assert_int_eq(octuple_move_parse("i1"), -1);
    ck_assert_int_eq(octuple_move_parse("f5e6"), -1);
    ck_assert_int_eq(octuple_move_parse(""), -1);
    ck_assert_int_eq(octuple_move_parse(NULL), -1);
    ck_assert_str_eq(octuple_move_name(37, name), "f5");
    ck_assert_str_eq(octuple_move_name(OCTUPLE_PASS, name), "pa");
    ck_assert_str_eq(octuple_move_name(OCTUPLE_NO_MOVE, name), "--");
    ck_assert_str_eq(octuple_move_name(-7, name), "--");
}
END_TEST

/* ---- options ---- */

START_TEST(test_options)
{
    Octuple *octuple = open_engine();
    char value[64], error[OCTUPLE_ERROR_SIZE];
    ck_assert_msg(octuple_set_option(octuple, "depth", "9", error, sizeof error), "%s", error);
    ck_assert(octuple_get_option(octuple, "depth", value, sizeof value, error, sizeof error));
    ck_assert_str_eq(value, "9");
    ck_assert(octuple_get_option(octuple, "book", value, sizeof value, error, sizeof error));
    ck_assert_str_eq(value, "off");

    /* a bad value names the option; an unknown option is named; nothing changes */
    ck_assert(!octuple_set_option(octuple, "depth", "nine", error, sizeof error));
    ck_assert_msg(strstr(error, "depth") && strstr(error, "nine"), "%s", error);
    ck_assert(!octuple_set_option(octuple, "depht", "9", error, sizeof error));
    ck_assert_msg(strstr(error, "depht") != NULL, "%s", error);
    /* the refusal lists the options there are, not the console's clock */
    ck_assert_msg(strstr(error, "depth, exact") && strstr(error, "book-randomness")
                  && !strstr(error, "game-time"), "%s", error);
    ck_assert(!octuple_get_option(octuple, "depht", value, sizeof value, error, sizeof error));
    /* the command line's --no-book is the option book, off */
    ck_assert(!octuple_set_option(octuple, "no-book", "", error, sizeof error));
    ck_assert_msg(strstr(error, "the option \"book\", on or off"), "%s", error);
    ck_assert(!octuple_set_option(octuple, "weights", "/nonexistent/x.ow", error, sizeof error));
    ck_assert_msg(strstr(error, "/nonexistent/x.ow") != NULL, "%s", error);
    ck_assert(!octuple_set_option(octuple, "hash", "0", error, sizeof error));
    ck_assert(!octuple_set_option(octuple, NULL, "1", error, sizeof error));
    ck_assert(octuple_get_option(octuple, "depth", value, sizeof value, error, sizeof error));
    ck_assert_str_eq(value, "9");
    ck_assert(octuple_get_option(octuple, "hash", value, sizeof value, error, sizeof error));
    ck_assert_str_eq(value, "8 MB");
    /* a value that does not fit is refused, not cut into another one ("8 ") */
    ck_assert(!octuple_get_option(octuple, "hash", value, 3, error, sizeof error));
    ck_assert_msg(strstr(error, "5 bytes") != NULL, "%s", error);
    /* option names only: the console's book-file is the option book */
    ck_assert(!octuple_set_option(octuple, "book-file", "off", error, sizeof error));
    ck_assert_msg(strstr(error, "book-file") != NULL, "%s", error);
    /* the console's game clock times moves the console plays: a program gives a clock */
    ck_assert(!octuple_set_option(octuple, "game-time", "5:00", error, sizeof error));
    ck_assert_msg(strstr(error, "OctupleClock") != NULL, "%s", error);
    ck_assert(octuple_get_option(octuple, "game-time", value, sizeof value, error, sizeof error));
    ck_assert_str_eq(value, "0 (no clock)");
    ck_assert_str_eq(octuple_weights_name(octuple) ? "named" : "", "named");
    octuple_close(octuple);
}
END_TEST

START_TEST(test_open_errors)
{
    char error[OCTUPLE_ERROR_SIZE] = "";
    ck_assert(octuple_open("/nonexistent/weights.ow", error, sizeof error) == NULL);
    ck_assert_msg(strstr(error, "/nonexistent/weights.ow") != NULL, "%s", error);
    ck_assert(octuple_open("/nonexistent/weights.ow", NULL, 0) == NULL);
    octuple_close(NULL);
}
END_TEST

/* ---- searches ---- */

START_TEST(test_think_exact_against_reference)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE];
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    int tried = 0;
    while (tried < 40) {
        int empties = 6 + (int)(rng_next(&rng) % 4);
        if (!random_game(octuple, empties, &rng))
            continue;
        ++tried;
        Position p = position_read(octuple);
        int expected = slow_negamax(&p, false);
        OctupleResult result;
        ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
        ck_assert(result.exact);
        ck_assert(!result.stopped && !result.from_book);
        ck_assert_msg(result.score == expected, "position %d: %g, the reference %d", tried,
                      result.score, expected);
        ck_assert_int_eq(result.line[0], result.move);
        /* the move named reaches that score */
        ck_assert_int_eq(slow_move_value(&p, result.move), expected);
    }
    octuple_close(octuple);
}
END_TEST

START_TEST(test_hint_against_reference)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE];
    uint64_t rng = 12345;
    int tried = 0;
    while (tried < 10) {
        if (!random_game(octuple, 9, &rng))
            continue;
        ++tried;
        Position p = position_read(octuple);
        int legal[64];
        int count = octuple_legal_moves(octuple, legal);
        OctupleResult results[OCTUPLE_MAX_HINTS];
        int written = octuple_hint(octuple, 3, results, error, sizeof error);
        ck_assert_msg(written >= 0, "%s", error);
        ck_assert_int_eq(written, count < 3 ? count : 3);
        for (int i = 0; i < written; ++i) {
            ck_assert(results[i].exact);
            int value = slow_move_value(&p, results[i].move);
            ck_assert_msg(results[i].score == value, "hint %d: %g, the reference %d", i,
                          results[i].score, value);
            if (i > 0)
                ck_assert(results[i].score <= results[i - 1].score);
        }
        ck_assert_int_eq(results[0].score, slow_negamax(&p, false));
    }
    OctupleResult results[OCTUPLE_MAX_HINTS];
    ck_assert_int_eq(octuple_hint(octuple, 0, results, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "0") != NULL, "%s", error);
    ck_assert_int_eq(octuple_hint(octuple, OCTUPLE_MAX_HINTS + 1, results, NULL, 0), -1);
    octuple_close(octuple);
}
END_TEST

START_TEST(test_game_over_and_forced)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE];
    /* the board full: no move, the final score */
    const char *full = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOO O";
    ck_assert(octuple_set_board(octuple, full, error, sizeof error));
    ck_assert_int_eq(octuple_side_to_move(octuple), OCTUPLE_EMPTY);
    int moves[64];
    ck_assert_int_eq(octuple_legal_moves(octuple, moves), 0);
    OctupleResult result;
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    ck_assert_int_eq(result.move, OCTUPLE_NO_MOVE);
    ck_assert(result.exact && !result.forced);
    ck_assert_msg(result.score == -16.0, "%g", result.score);

    /* one legal move: answered without a search */
    const char *one = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X";
    ck_assert(octuple_set_board(octuple, one, error, sizeof error));
    ck_assert_int_eq(octuple_legal_moves(octuple, moves), 1);
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    ck_assert_int_eq(result.move, 63);
    ck_assert(result.forced);
    octuple_close(octuple);
}
END_TEST

typedef struct Stopper {
    Octuple *octuple;
    double delay;
} Stopper;

static void *stop_later(void *argument)
{
    Stopper *stopper = argument;
    struct timespec delay = {0, (long)(stopper->delay * 1e9)};
    nanosleep(&delay, NULL);
    octuple_stop(stopper->octuple);
    return NULL;
}

typedef struct Progress {
    int calls;
    int last_depth;
    bool deepening; /* every report as deep as the one before */
} Progress;

static void on_progress(void *context, const OctupleResult *so_far)
{
    Progress *progress = context;
    if (so_far->depth < progress->last_depth)
        progress->deepening = false;
    progress->last_depth = so_far->depth;
    ++progress->calls;
}

START_TEST(test_stop_from_another_thread)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE];
    /* a search that would run for hours */
    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "threads", "2", error, sizeof error));
    Progress progress = {0, 0, true};
    octuple_set_progress(octuple, on_progress, &progress);
    Stopper stopper = {octuple, 0.3};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, stop_later, &stopper), 0);
    double start = now();
    OctupleResult result;
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    double took = now() - start;
    pthread_join(thread, NULL);
    ck_assert(result.stopped);
    /* promptly: a bound for a hang, not a speed measurement */
    ck_assert_msg(took < 10.0, "the stop took %.1f s", took);
    int moves[64];
    int count = octuple_legal_moves(octuple, moves);
    bool legal = false;
    for (int i = 0; i < count; ++i)
        legal |= moves[i] == result.move;
    ck_assert_msg(legal, "a stopped search names a legal move, not %d", result.move);
    ck_assert_int_gt(progress.calls, 0);
    ck_assert(progress.deepening);

    /* a stop with no search running is forgotten: the next search runs to its depth */
    octuple_stop(octuple);
    ck_assert(octuple_set_option(octuple, "depth", "3", error, sizeof error));
    octuple_set_progress(octuple, NULL, NULL);
    ck_assert(octuple_think(octuple, NULL, &result, error, sizeof error));
    ck_assert(!result.stopped);
    ck_assert_int_eq(result.depth, 3);
    octuple_close(octuple);
}
END_TEST

START_TEST(test_clock)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE];
    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    OctupleClock clock = {1.0, 0};
    double start = now();
    OctupleResult result;
    ck_assert_msg(octuple_think(octuple, &clock, &result, error, sizeof error), "%s", error);
    double took = now() - start;
    /* a share of one second on the clock: well within it (a bound for a hang) */
    ck_assert_msg(took < 5.0, "one second on the clock took %.1f s", took);
    ck_assert(!result.stopped); /* the clock ends a search normally */
    ck_assert_int_ge(result.depth, 1);

    OctupleClock bad = {-1, 0};
    ck_assert(!octuple_think(octuple, &bad, &result, error, sizeof error));
    ck_assert_msg(strstr(error, "clock") != NULL, "%s", error);
    octuple_close(octuple);
}
END_TEST

/* A game played out from 8 empties, analysed back to that point: every position's best
 * score, and the played move's, against the reference. */
START_TEST(test_analyze_against_reference)
{
    uint64_t rng = 777;
    Octuple *octuple = open_in_random_game(8, &rng);
    char error[OCTUPLE_ERROR_SIZE];
    int first = octuple_ply(octuple);
    Position positions[16];
    int moves_played[16];
    int plies = 0;
    while (octuple_side_to_move(octuple) != OCTUPLE_EMPTY) {
        ck_assert_int_lt(plies, 16);
        positions[plies] = position_read(octuple);
        int moves[64];
        int count = octuple_legal_moves(octuple, moves);
        int move = count ? moves[rng_next(&rng) % (uint64_t)count] : OCTUPLE_PASS;
        moves_played[plies++] = move;
        ck_assert_msg(octuple_play(octuple, move, error, sizeof error), "%s", error);
    }
    OctupleAnalysis analyses[32];
    int written = octuple_analyze(octuple, first, analyses, 32, error, sizeof error);
    ck_assert_msg(written == plies + 1, "%d positions analysed of %d: %s", written, plies + 1,
                  error);
    for (int i = 0; i < plies; ++i) {
        const OctupleAnalysis *analysis = &analyses[i];
        ck_assert_int_eq(analysis->ply, first + i);
        ck_assert_int_eq(analysis->played, moves_played[i]);
        ck_assert(analysis->best.exact);
        int expected = slow_negamax(&positions[i], false);
        ck_assert_msg(analysis->best.score == expected, "ply %d: %g, the reference %d",
                      analysis->ply, analysis->best.score, expected);
        ck_assert(analysis->played_scored);
        /* a pass: the position's own value */
        int played = moves_played[i] == OCTUPLE_PASS
                   ? expected : slow_move_value(&positions[i], moves_played[i]);
        ck_assert_msg(analysis->played_score == played, "ply %d: played %g, the reference %d",
                      analysis->ply, analysis->played_score, played);
    }
    /* the final position: no move, the final score */
    ck_assert_int_eq(analyses[plies].played, OCTUPLE_NO_MOVE);
    ck_assert_int_eq(analyses[plies].best.move, OCTUPLE_NO_MOVE);
    ck_assert(!analyses[plies].played_scored);

    /* no room for every position, or a ply outside the game: refused before searching */
    ck_assert_int_eq(octuple_analyze(octuple, first, analyses, plies, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "room for") != NULL, "%s", error);
    ck_assert_int_eq(octuple_analyze(octuple, first + plies, analyses, 1, error, sizeof error),
                     1);
    ck_assert_int_eq(analyses[0].ply, first + plies);
    ck_assert_int_eq(octuple_analyze(octuple, -1, analyses, 32, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "-1") != NULL, "%s", error);
    ck_assert_int_eq(octuple_analyze(octuple, first + plies + 1, analyses, 32, NULL, 0), -1);
    octuple_close(octuple);
}
END_TEST

/* A search started without waiting: a stop at once from the same thread always reaches
 * it, the game and the settings refuse changes until it is collected, and the wakeup
 * descriptor says when it is over. */
START_TEST(test_started_search)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE], before[OCTUPLE_BOARD_TEXT], after[OCTUPLE_BOARD_TEXT];
    OctupleResult results[OCTUPLE_MAX_HINTS];
    ck_assert_int_eq(octuple_wait(octuple, results, 1, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "no search") != NULL, "%s", error);

    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    octuple_board(octuple, before);
    for (int round = 0; round < 20; ++round) {
        double start = now();
        ck_assert_msg(octuple_think_start(octuple, NULL, error, sizeof error), "%s", error);
        octuple_stop(octuple);
        ck_assert_int_eq(octuple_wait(octuple, results, 1, error, sizeof error), 1);
        ck_assert_msg(results[0].stopped, "round %d: the stop was lost", round);
        ck_assert_msg(now() - start < 10.0, "round %d took %.1f s", round, now() - start);
        ck_assert(results[0].move == 19 || results[0].move == 26 || results[0].move == 37
                  || results[0].move == 44);
    }

    ck_assert(octuple_think_start(octuple, NULL, error, sizeof error));
    ck_assert(octuple_busy(octuple));
    ck_assert(!octuple_think_start(octuple, NULL, error, sizeof error));
    ck_assert(!octuple_hint_start(octuple, 2, error, sizeof error));
    ck_assert(!octuple_play(octuple, 37, error, sizeof error));
    ck_assert_msg(strstr(error, "search is running") != NULL, "%s", error);
    ck_assert(!octuple_set_option(octuple, "depth", "3", error, sizeof error));
    ck_assert(!octuple_set_board(octuple, after, error, sizeof error));
    octuple_new_game(octuple);
    ck_assert_int_eq(octuple_undo(octuple), 0);
    octuple_board(octuple, after);
    ck_assert_str_eq(before, after);
    octuple_stop(octuple);
    ck_assert_int_eq(octuple_wait(octuple, results, 1, error, sizeof error), 1);
    ck_assert(!octuple_busy(octuple));

    /* the descriptor turns readable when a search ends by itself; a callback set while it
     * runs is for the next search */
    ck_assert(octuple_set_option(octuple, "depth", "4", error, sizeof error));
    Progress running = {0, 0, true}, next = {0, 0, true};
    octuple_set_progress(octuple, on_progress, &running);
    ck_assert(octuple_hint_start(octuple, 2, error, sizeof error));
    octuple_set_progress(octuple, on_progress, &next);
    struct pollfd wakeup = {octuple_wakeup_fd(octuple), POLLIN, 0};
    ck_assert_int_eq(poll(&wakeup, 1, 60000), 1);
    ck_assert(!octuple_busy(octuple));
    ck_assert_int_eq(octuple_wait(octuple, results, OCTUPLE_MAX_HINTS, error, sizeof error), 2);
    ck_assert(!results[0].stopped && results[0].depth == 4);
    ck_assert(results[1].score <= results[0].score);
    ck_assert_int_gt(running.calls, 0);
    ck_assert_int_eq(next.calls, 0);
    ck_assert(!octuple_set_option(octuple, "Depth", "4", error, sizeof error));
    ck_assert(!octuple_set_option(octuple, "BOOK", "off", error, sizeof error));
    ck_assert(octuple_play(octuple, results[0].move, error, sizeof error));
    octuple_close(octuple);
}
END_TEST

/* Whole games in and out: a move string and a GGF record load with their moves (undo steps
 * back through them), the record written reads back the same, bad text changes nothing. */
START_TEST(test_game_records)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE], board[OCTUPLE_BOARD_TEXT], other[OCTUPLE_BOARD_TEXT];
    static char record[OCTUPLE_GAME_TEXT], again[OCTUPLE_GAME_TEXT];
    ck_assert_int_eq(octuple_api_version(), OCTUPLE_API_VERSION);
    ck_assert_int_ge(OCTUPLE_API_VERSION, 2);

    /* a move string from the start: the same position as the moves played one by one */
    ck_assert_msg(octuple_set_game(octuple, "f5d6 c3d3c4", error, sizeof error), "%s", error);
    ck_assert_int_eq(octuple_ply(octuple), 5);
    octuple_board(octuple, board);
    Octuple *played = open_engine();
    static const int line[] = {37, 43, 18, 19, 26};
    for (int i = 0; i < 5; ++i)
        ck_assert(octuple_play(played, line[i], error, sizeof error));
    octuple_board(played, other);
    ck_assert_str_eq(board, other);
    ck_assert_int_eq(octuple_undo(octuple), 1);
    ck_assert_int_eq(octuple_ply(octuple), 4);
    ck_assert_int_eq(octuple_redo(octuple), 1);

    /* written and read back: the same moves, and the evaluations the record carries */
    ck_assert_msg(octuple_get_game(octuple, record, sizeof record, error, sizeof error), "%s",
                  error);
    ck_assert_msg(strncmp(record, "(;GM[Othello]", 13) == 0, "%s", record);
    ck_assert_msg(strstr(record, "B[F5]") || strstr(record, "B[f5]"), "%s", record);
    ck_assert_msg(octuple_set_game(played, record, error, sizeof error), "%s", error);
    ck_assert_int_eq(octuple_ply(played), 5);
    octuple_board(played, other);
    ck_assert_str_eq(board, other);
    ck_assert(octuple_get_game(played, again, sizeof again, error, sizeof error));
    ck_assert_str_eq(record, again);

    /* a record from another start position, with an evaluation on a move */
    const char *ggf = "junk before (;GM[Othello]PB[one]PW[two]RE[?]TY[8]"
                      "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- "
                      "-------- *]B[f5/1.50]W[f6];) (;GM[Othello];)";
    ck_assert_msg(octuple_set_game(played, ggf, error, sizeof error), "%s", error);
    ck_assert_int_eq(octuple_ply(played), 2);
    ck_assert_int_eq(octuple_square(played, 37), OCTUPLE_BLACK);
    ck_assert_int_eq(octuple_square(played, 45), OCTUPLE_WHITE);
    ck_assert(octuple_get_game(played, again, sizeof again, error, sizeof error));
    ck_assert_msg(strstr(again, "PB[one]") && strstr(again, "1.5"), "%s", again);

    /* refused, each leaving the game as it was */
    static const char *const bad[] = {"", "f5d6c3e9", "f5f5", "f5 xx", "(;GM[Othello]B[f5]",
                                      "(;GM[Chess]B[e4];)", "   "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        error[0] = '\0';
        ck_assert_msg(!octuple_set_game(octuple, bad[i], error, sizeof error), "'%s' loaded",
                      bad[i]);
        ck_assert_msg(error[0] != '\0', "'%s': no error", bad[i]);
        octuple_board(octuple, other);
        ck_assert_str_eq(board, other);
        ck_assert_int_eq(octuple_ply(octuple), 5);
    }
    ck_assert(!octuple_set_game(octuple, NULL, error, sizeof error));
    /* a message quoting its input stays one line of UTF-8, cut only between characters */
    char tiny[25]; /* "move string: bad move '" and half of the first character */
    ck_assert(!octuple_set_game(octuple, "f5 \xc3\xa9\xc3\xa9", tiny, sizeof tiny));
    ck_assert_str_eq(tiny, "move string: bad move '");
    ck_assert(!octuple_set_option(octuple, "bad\nname\xff", "1", error, sizeof error));
    ck_assert_msg(strstr(error, "'bad?name?'") != NULL, "%s", error);
    /* no room: refused rather than cut */
    char small[16];
    ck_assert(!octuple_get_game(octuple, small, sizeof small, error, sizeof error));
    ck_assert_msg(strstr(error, "bytes") != NULL, "%s", error);
    ck_assert(!octuple_get_game(octuple, NULL, 0, error, sizeof error));

    /* refused while a search runs */
    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    ck_assert(octuple_think_start(octuple, NULL, error, sizeof error));
    ck_assert(!octuple_set_game(octuple, "f5", error, sizeof error));
    ck_assert_msg(strstr(error, "search is running") != NULL, "%s", error);
    ck_assert(octuple_get_game(octuple, again, sizeof again, error, sizeof error));
    octuple_stop(octuple);
    OctupleResult result;
    ck_assert_int_eq(octuple_wait(octuple, &result, 1, error, sizeof error), 1);
    ck_assert_int_eq(octuple_ply(octuple), 5);
    octuple_close(played);
    octuple_close(octuple);
}
END_TEST

/* The last move of a record, "MOVE/EVAL/TIME" with the parts it has, into `out`. */
static void last_move_text(const char *record, char *out, size_t size)
{
    const char *end = strstr(record, "];)");
    ck_assert_ptr_nonnull(end);
    const char *start = end;
    while (start > record && start[-1] != '[')
        --start;
    snprintf(out, size, "%.*s", (int)(end - start), start);
}

/* octuple_play of the move octuple_think just answered records its value and time, as
 * NBoard's play-back of the engine's answer does; another move, the answer played in
 * another position, or an answer stopped before any depth records no value. */
START_TEST(test_play_records_answer)
{
    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE], record[OCTUPLE_GAME_TEXT], text[64];
    ck_assert(octuple_set_option(octuple, "level", "4", error, sizeof error));
    ck_assert(octuple_set_game(octuple, "f5d6c3", error, sizeof error));
    OctupleResult result;
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    ck_assert(!result.forced && !result.stopped && result.depth >= 1);
    ck_assert(octuple_play(octuple, result.move, error, sizeof error));
    ck_assert(octuple_get_game(octuple, record, sizeof record, error, sizeof error));
    last_move_text(record, text, sizeof text);
    char *slash = strchr(text, '/');
    ck_assert_msg(slash && slash[1] != '/', "no value: %s", record);
    ck_assert_msg(fabs(strtod(slash + 1, NULL) - result.score) < 1e-9, "%s against %.4f",
                  text, result.score);
    ck_assert_msg(strchr(slash + 1, '/') != NULL, "no time: %s", text);

    /* another move than the answer: as played, no value */
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    int moves[64];
    int count = octuple_legal_moves(octuple, moves);
    ck_assert_int_ge(count, 2);
    int other = moves[0] == result.move ? moves[1] : moves[0];
    ck_assert(octuple_play(octuple, other, error, sizeof error));
    ck_assert(octuple_get_game(octuple, record, sizeof record, error, sizeof error));
    last_move_text(record, text, sizeof text);
    ck_assert_msg(!strchr(text, '/'), "a value for a move not answered: %s", text);

    /* the answer played in another position of the same ply (set_game keeps the answer:
     * only the position tells them apart) */
    ck_assert(octuple_set_game(octuple, "f5d6c3", error, sizeof error));
    char thought[OCTUPLE_BOARD_TEXT], board[OCTUPLE_BOARD_TEXT];
    octuple_board(octuple, thought);
    ck_assert_msg(octuple_think(octuple, NULL, &result, error, sizeof error), "%s", error);
    int answer = result.move;
    static const char *const others[] = {"f5f6e6", "f5f4e3", "f5d6c5", "f5d6c4", "f5f6d3",
                                          "e6f4c3", "d3c5f6", "c4e3f6"};
    bool tried = false;
    for (size_t i = 0; i < sizeof others / sizeof others[0] && !tried; ++i) {
        ck_assert(octuple_set_game(octuple, others[i], error, sizeof error));
        octuple_board(octuple, board);
        count = octuple_legal_moves(octuple, moves);
        for (int j = 0; j < count && !tried; ++j)
            tried = moves[j] == answer && strcmp(board, thought) != 0;
    }
    ck_assert_msg(tried, "no other position at this ply where the answer is legal");
    ck_assert(octuple_play(octuple, answer, error, sizeof error));
    ck_assert(octuple_get_game(octuple, record, sizeof record, error, sizeof error));
    last_move_text(record, text, sizeof text);
    ck_assert_msg(!strchr(text, '/'), "a value from another position: %s", text);

    /* stopped before any depth: score 0, and the move recorded with its time only */
    ck_assert(octuple_set_game(octuple, "f5d6c3", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    for (int round = 0; round < 20; ++round) {
        ck_assert(octuple_think_start(octuple, NULL, error, sizeof error));
        octuple_stop(octuple);
        ck_assert_int_eq(octuple_wait(octuple, &result, 1, error, sizeof error), 1);
        if (result.depth == 0)
            break;
    }
    ck_assert_int_eq(result.depth, 0);
    ck_assert(result.stopped);
    ck_assert(result.score == 0);
    ck_assert(octuple_play(octuple, result.move, error, sizeof error));
    ck_assert(octuple_get_game(octuple, record, sizeof record, error, sizeof error));
    last_move_text(record, text, sizeof text);
    ck_assert_msg(strstr(text, "//") != NULL, "want a time and no value: %s", text);
    octuple_close(octuple);
}
END_TEST

/* An analysis started without waiting: collected by its own call only, with room for
 * every position, and the same as the blocking call's. */
START_TEST(test_analyze_started)
{
    uint64_t rng = 4242;
    Octuple *octuple = open_in_random_game(10, &rng);
    char error[OCTUPLE_ERROR_SIZE];
    int first = octuple_ply(octuple) - 3;
    OctupleAnalysis blocking[8], started[8];
    ck_assert_int_eq(octuple_analyze(octuple, first, blocking, 8, error, sizeof error), 4);

    ck_assert(!octuple_analyze_start(octuple, -1, error, sizeof error));
    ck_assert(!octuple_analyze_start(octuple, octuple_ply(octuple) + 1, error, sizeof error));
    ck_assert_int_eq(octuple_wait_analysis(octuple, started, 8, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "no search") != NULL, "%s", error);
    ck_assert_msg(octuple_analyze_start(octuple, first, error, sizeof error), "%s", error);
    ck_assert(!octuple_analyze_start(octuple, first, error, sizeof error));
    int moves[64];
    ck_assert_int_gt(octuple_legal_moves(octuple, moves), 0);
    ck_assert(!octuple_play(octuple, moves[0], error, sizeof error));
    ck_assert_msg(strstr(error, "octuple_wait_analysis") != NULL, "%s", error);
    OctupleResult result;
    ck_assert_int_eq(octuple_wait(octuple, &result, 1, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "octuple_wait_analysis") != NULL, "%s", error);
    ck_assert_int_eq(octuple_wait_analysis(octuple, started, 3, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "room for 3") != NULL, "%s", error);
    ck_assert_int_eq(octuple_wait_analysis(octuple, started, 8, error, sizeof error), 4);
    for (int i = 0; i < 4; ++i) {
        ck_assert_int_eq(started[i].ply, blocking[i].ply);
        ck_assert_int_eq(started[i].played, blocking[i].played);
        ck_assert(started[i].best.score == blocking[i].best.score);
        ck_assert_int_eq(started[i].best.exact, blocking[i].best.exact);
    }
    ck_assert_int_eq(octuple_wait_analysis(octuple, started, 8, error, sizeof error), -1);

    /* a think is not collected as an analysis */
    ck_assert(octuple_think_start(octuple, NULL, error, sizeof error));
    ck_assert_int_eq(octuple_wait_analysis(octuple, started, 8, error, sizeof error), -1);
    ck_assert_msg(strstr(error, "octuple_wait") != NULL, "%s", error);
    ck_assert_int_eq(octuple_wait(octuple, &result, 1, error, sizeof error), 1);

    /* stopped at once: what it did, none of it made up */
    ck_assert(octuple_set_option(octuple, "exact", "0", error, sizeof error));
    ck_assert(octuple_set_option(octuple, "depth", "40", error, sizeof error));
    ck_assert(octuple_analyze_start(octuple, first, error, sizeof error));
    octuple_stop(octuple);
    int written = octuple_wait_analysis(octuple, started, 8, error, sizeof error);
    ck_assert_msg(written >= 0 && written <= 1, "%d positions after a stop", written);
    for (int i = 0; i < written; ++i)
        ck_assert(started[i].best.stopped);
    octuple_close(octuple);
}
END_TEST

static char *read_whole(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    static char text[1 << 16];
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    return text;
}

typedef struct Hammer {
    Octuple *octuple;
    atomic_bool running;
} Hammer;

/* Stops whatever runs, every 0.1 ms, until told to end. */
static void *stop_often(void *argument)
{
    Hammer *hammer = argument;
    struct timespec pause = {0, 100000};
    while (atomic_load(&hammer->running)) {
        octuple_stop(hammer->octuple);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* A finished game learned: recorded in the user's learned.ggf and added to the book, whose
 * next user finds its positions; an unfinished game is refused and writes nothing. */
START_TEST(test_learn)
{
    char home[] = "/tmp/octuple-check-api-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(home));
    setenv("XDG_DATA_HOME", home, 1);
    setenv("OCTUPLE_DATA_DIR", TOP_SRCDIR "/book", 1);
    char learned[256], book[256];
    snprintf(learned, sizeof learned, "%s/octuple/learned.ggf", home);
    snprintf(book, sizeof book, "%s/octuple/octuple.book", home);

    Octuple *octuple = open_engine();
    char error[OCTUPLE_ERROR_SIZE], value[512];
    ck_assert_msg(octuple_set_option(octuple, "book", "on", error, sizeof error), "%s", error);
    ck_assert(octuple_get_option(octuple, "book", value, sizeof value, error, sizeof error));
    ck_assert_msg(strcmp(value, "off") != 0, "no book in use: %s", value);
    uint64_t rng = 99;
    random_game(octuple, 40, &rng); /* 20 random moves: a line no book has */
    char opening[OCTUPLE_BOARD_TEXT];
    octuple_board(octuple, opening);
    OctupleResult hint[4];
    ck_assert(octuple_set_option(octuple, "depth", "2", error, sizeof error));
    ck_assert_int_ge(octuple_hint(octuple, 1, hint, error, sizeof error), 1);
    ck_assert(!hint[0].from_book);
    ck_assert(!octuple_learn(octuple, error, sizeof error));
    ck_assert_msg(strstr(error, "not over") != NULL, "%s", error);
    ck_assert(access(learned, F_OK) != 0 && access(book, F_OK) != 0);
    while (octuple_side_to_move(octuple) != OCTUPLE_EMPTY) {
        int moves[64];
        int count = octuple_legal_moves(octuple, moves);
        int move = count ? moves[rng_next(&rng) % (uint64_t)count] : OCTUPLE_PASS;
        ck_assert(octuple_play(octuple, move, error, sizeof error));
    }
    char final[OCTUPLE_BOARD_TEXT];
    octuple_board(octuple, final);
    /* stopped while the book's new positions are searched: nothing learned */
    Hammer hammer = {octuple, true};
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, stop_often, &hammer), 0);
    ck_assert(!octuple_learn(octuple, error, sizeof error));
    atomic_store(&hammer.running, false);
    pthread_join(thread, NULL);
    ck_assert_msg(strstr(error, "interrupted") != NULL, "%s", error);
    ck_assert(access(learned, F_OK) != 0 && access(book, F_OK) != 0);
    ck_assert_msg(octuple_learn(octuple, error, sizeof error), "%s", error);

    /* the record reads back as the game */
    char *text = read_whole(learned);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strncmp(text, "(;GM[Othello]", 13) == 0, "%s", text);
    Octuple *reader = open_engine();
    ck_assert_msg(octuple_set_game(reader, text, error, sizeof error), "%s", error);
    ck_assert_int_eq(octuple_ply(reader), octuple_ply(octuple));
    char board[OCTUPLE_BOARD_TEXT];
    octuple_board(reader, board);
    ck_assert_str_eq(board, final);

    /* the grown book is the user's, and a new handle plays from it */
    ck_assert_msg(access(book, R_OK) == 0, "no book at %s", book);
    ck_assert(octuple_set_option(reader, "book", "on", error, sizeof error));
    ck_assert(octuple_set_board(reader, opening, error, sizeof error));
    ck_assert_int_ge(octuple_hint(reader, 1, hint, error, sizeof error), 1);
    ck_assert_msg(hint[0].from_book, "the learned line is not in the book");
    octuple_close(reader);
    octuple_close(octuple);
    unlink(learned);
    unlink(book);
    char dir[256 + 8];
    snprintf(dir, sizeof dir, "%s.lock", learned); /* the appends' lock */
    unlink(dir);
    snprintf(dir, sizeof dir, "%s/octuple", home);
    rmdir(dir);
    rmdir(home);
    unsetenv("XDG_DATA_HOME");
    unsetenv("OCTUPLE_DATA_DIR");
}
END_TEST

#ifdef SHARED_LIBRARY
/* The shared copy, loaded as a binding loads it: the API resolves, the engine's own names
 * do not, and a search runs. */
START_TEST(test_shared_library)
{
    void *library = dlopen(SHARED_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(library != NULL, "%s", dlerror());
    ck_assert(dlsym(library, "board_init") == NULL);
    ck_assert(dlsym(library, "engine_create") == NULL);
    const char *(*version)(void) = (const char *(*)(void))dlsym(library, "octuple_version");
    Octuple *(*open_engine_at)(const char *, char *, size_t) =
        (Octuple *(*)(const char *, char *, size_t))dlsym(library, "octuple_open");
    bool (*set)(Octuple *, const char *, const char *, char *, size_t) =
        (bool (*)(Octuple *, const char *, const char *, char *, size_t))dlsym(
            library, "octuple_set_option");
    bool (*think)(Octuple *, const OctupleClock *, OctupleResult *, char *, size_t) =
        (bool (*)(Octuple *, const OctupleClock *, OctupleResult *, char *, size_t))dlsym(
            library, "octuple_think");
    void (*close_engine)(Octuple *) = (void (*)(Octuple *))dlsym(library, "octuple_close");
    ck_assert(version && open_engine_at && set && think && close_engine);
    ck_assert_str_eq(version(), octuple_version());

    char error[OCTUPLE_ERROR_SIZE];
    Octuple *octuple = open_engine_at(test_weights, error, sizeof error);
    ck_assert_msg(octuple != NULL, "%s", error);
    ck_assert(set(octuple, "book", "off", error, sizeof error));
    ck_assert(set(octuple, "threads", "1", error, sizeof error));
    ck_assert(set(octuple, "depth", "4", error, sizeof error));
    OctupleResult result;
    ck_assert_msg(think(octuple, NULL, &result, error, sizeof error), "%s", error);
    ck_assert_msg(result.move == 19 || result.move == 26 || result.move == 37
                  || result.move == 44, "%d is no opening move", result.move);
    ck_assert_int_eq(result.depth, 4);
    close_engine(octuple);
    ck_assert_int_eq(dlclose(library), 0);
}
END_TEST
#endif

static Suite *api_suite(void)
{
    Suite *suite = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_start_and_moves);
    tcase_add_test(tc, test_board_text);
    tcase_add_test(tc, test_move_names);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_open_errors);
    tcase_add_test(tc, test_think_exact_against_reference);
    tcase_add_test(tc, test_play_records_answer);
    tcase_add_test(tc, test_hint_against_reference);
    tcase_add_test(tc, test_game_over_and_forced);
    tcase_add_test(tc, test_stop_from_another_thread);
    tcase_add_test(tc, test_clock);
    tcase_add_test(tc, test_started_search);
    tcase_add_test(tc, test_analyze_against_reference);
    tcase_add_test(tc, test_game_records);
    tcase_add_test(tc, test_analyze_started);
    tcase_add_test(tc, test_learn);
#ifdef SHARED_LIBRARY
    tcase_add_test(tc, test_shared_library);
#endif
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(api_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

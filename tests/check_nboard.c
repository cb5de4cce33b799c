/* NBoard protocol sessions against the built binary through pipes, as the GUI drives it:
 * handshake, real game records, moves, go, hints, analyze, learn, pings during long
 * searches, passes and finished games, and bad input of every kind. Every line the engine
 * prints is checked against the formats the GUI parses. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/ggf.h"
#include "cli/input.h"
#include "core/notation.h"
#include "session.h"

enum { SKIPPED_SIZE = 1 << 16 };

static const char *const formats_example =
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]"
    "B[F5]W[F6]B[D3]W[C5];)";

/* A random game with two passes (plies 48 and 50), ending with a full board, written the
 * way NBoard writes records: evaluations and times on most moves. */
static const char *const passes_moves =
    "B[E6/-3.14]W[F6//1.633]B[F5/-1.56/1.81]W[D6/1.51]B[E7//0.197]W[F7/-5.84/2.51]B[D7/-2.89]"
    "W[G5//0.703]B[C5/5.95/1.41]W[F3/4.04]B[G4//1.429]W[C7/1.67/0.45]B[E8/1.62]W[D8//2.604]"
    "B[C6/0.28/2.22]W[B7/2.06]B[G8//0.192]W[B6/3.10/1.77]B[C8/-2.38]W[H5//0.093]"
    "B[A6/4.39/1.42]W[G6/2.63]B[B4//2.636]W[G7/2.57/2.76]B[H7/-1.26]W[A5//2.403]"
    "B[H3/-0.66/2.81]W[F4/4.55]B[A4//0.292]W[F8/-4.37/0.65]B[C3/5.59]W[H8//1.308]"
    "B[D3/1.52/0.90]W[B5/0.09]B[G2//1.158]W[H1/-1.79/1.76]B[E2/1.01]W[D1//2.713]"
    "B[F1/2.18/2.79]W[A8/4.28]B[E3//2.973]W[H6/2.06/0.49]B[G3/4.33]W[C4//2.894]"
    "B[A7/4.86/1.71]W[B8/2.57]B[H4//0.633]W[A3/3.98/1.72]B[PA]W[H2//0.855]B[PA]"
    "W[B3/-5.24]B[C2//2.562]W[B1/5.88/0.27]B[D2/3.61]W[F2//1.231]B[G1/-4.19/0.88]"
    "W[E1/3.23]B[B2//2.618]W[A2/-5.47/1.84]B[A1/-5.46]W[C1//2.155]";
static const char *const record_head =
    "(;GM[Othello]PC[NBoard]DT[2014-03-01 10:00:00 GMT]PB[Human]PW[Edax]RE[?]TI[5:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]";

/* The first `plies` moves of the passes game as a GGF record. */
static char *passes_record(int plies)
{
    char *out = malloc(8192);
    strcpy(out, record_head);
    const char *p = passes_moves;
    for (int i = 0; i < plies && *p; ++i) {
        const char *end = strchr(p, ']') + 1;
        strncat(out, p, (size_t)(end - p));
        p = end;
    }
    strcat(out, ";)");
    return out;
}

static bool is_number(const char *text, bool allow_sign)
{
    const char *p = text;
    if (allow_sign && (*p == '+' || *p == '-'))
        ++p;
    bool digits = false, point = false;
    for (; *p; ++p) {
        if (isdigit((unsigned char)*p))
            digits = true;
        else if (*p == '.' && !point)
            point = true;
        else
            return false;
    }
    return digits;
}

static bool is_move(const char *text, size_t length)
{
    if (length != 2)
        return false;
    if (!strncasecmp(text, "pa", 2))
        return true;
    char col = (char)tolower((unsigned char)text[0]);
    return col >= 'a' && col <= 'h' && text[1] >= '1' && text[1] <= '8';
}

/* `MOVE[/EVAL[/TIME]]` */
static bool valid_mli(const char *text)
{
    char copy[128];
    snprintf(copy, sizeof copy, "%s", text);
    char *fields[4] = {copy, NULL, NULL, NULL};
    int count = 1;
    for (char *c = copy; *c; ++c)
        if (*c == '/') {
            if (count == 3)
                return false;
            *c = '\0';
            fields[count++] = c + 1;
        }
    if (!is_move(fields[0], strlen(fields[0])))
        return false;
    if (count >= 2 && fields[1][0] && !is_number(fields[1], true))
        return false;
    if (count == 3 && !is_number(fields[2], false))
        return false;
    return !(count == 2 && !fields[1][0]);
}

/* True when `line` is a line the GUI knows, well formed. */
static bool valid_line(const char *line)
{
    char words[8][128] = {{0}};
    int count = 0;
    const char *p = line;
    while (*p && count < 8) {
        while (*p == ' ')
            ++p;
        size_t length = strcspn(p, " ");
        if (!length)
            break;
        snprintf(words[count++], sizeof words[0], "%.*s", (int)length, p);
        p += length;
    }
    if (count == 0)
        return false;
    const char *w = words[0];
    if (!strcmp(w, "status"))
        return true;
    if (!strcmp(w, "learned"))
        return count == 1;
    if (!strcmp(w, "pong")) {
        if (count != 2)
            return false;
        const char *n = words[1] + (words[1][0] == '-');
        return *n && strspn(n, "0123456789") == strlen(n);
    }
    if (!strcmp(w, "==="))
        return count == 2 && valid_mli(words[1]);
    if (!strcmp(w, "set")) {
        if (count != 3 || strcmp(words[1], "myname"))
            return false;
        for (const char *c = words[2]; *c; ++c)
            if (!isalnum((unsigned char)*c))
                return false;
        return true;
    }
    if (!strcmp(w, "search") || !strcmp(w, "book")) {
        if (count < 5)
            return false;
        size_t length = strlen(words[1]);
        if (length == 0 || length % 2)
            return false;
        for (size_t i = 0; i < length; i += 2)
            if (!is_move(words[1] + i, 2))
                return false;
        /* GAMES: 0 for a search, a count of games for the book */
        if (!is_number(words[2], true) || (!strcmp(w, "search") && strcmp(words[3], "0"))
            || strspn(words[3], "0123456789") != strlen(words[3]) || !words[3][0])
            return false;
        const char *d = words[4];
        size_t digits = strspn(d, "0123456789");
        if (digits > 0 && d[digits] == '@') { /* a probable solve: 24@73% */
            size_t percent = strspn(d + digits + 1, "0123456789");
            return percent > 0 && !strcmp(d + digits + 1 + percent, "%");
        }
        return digits > 0 && (!d[digits] || !strcmp(d + digits, "%") || !strcmp(d + digits, "%W"));
    }
    if (!strcmp(w, "nodestats"))
        return count == 3 && strspn(words[1], "0123456789") == strlen(words[1]) &&
               is_number(words[2], false);
    if (!strcmp(w, "analysis"))
        return count == 3 && strspn(words[1], "0123456789") == strlen(words[1]) &&
               is_number(words[2], true);
    return false;
}

static bool start(Child *child)
{
    /* searches are what these tests check: the book would answer the openings */
    static const char *const args[] = {"--nboard", "--threads", "1", "--hash", "16",
                                       "--no-book", NULL};
    return child_start(child, args, false);
}

/* Reads lines up to one starting with `prefix`, checking every line; returns it. */
static char *expect(Child *child, const char *prefix, double seconds, char *skipped)
{
    char local[SKIPPED_SIZE] = "";
    char *into = skipped ? skipped : local;
    size_t before = strlen(into);
    char *line = child_expect(child, prefix, seconds, into, SKIPPED_SIZE);
    ck_assert_msg(line != NULL, "no line starting '%s' within %.0f s; got:\n%s", prefix, seconds,
                  into + before);
    ck_assert_msg(valid_line(line), "malformed line: '%s'", line);
    for (char *p = into + before; *p;) {
        char *end = strchr(p, '\n');
        *end = '\0';
        ck_assert_msg(valid_line(p), "malformed or unknown line: '%s'", p);
        *end = '\n';
        p = end + 1;
    }
    return line;
}

/* Reads up to `pong N` (the ping was sent with a request). */
/* Reads lines up to the empty `status` that ends a search (the others go to `skipped`). */
static void expect_search_end(Child *child, double seconds, char *skipped)
{
    for (;;) {
        char *line = expect(child, "status", seconds, skipped);
        bool end = !strcmp(line, "status");
        free(line);
        if (end)
            return;
    }
}

static void expect_pong(Child *child, int number, char *skipped)
{
    char want[32];
    snprintf(want, sizeof want, "pong %d", number);
    char *line = expect(child, "pong", 60, skipped);
    ck_assert_str_eq(line, want);
    free(line);
}

/* Sends `ping N` and reads up to its pong. */
static void sync_ping(Child *child, int number, char *skipped)
{
    char text[32];
    snprintf(text, sizeof text, "ping %d\n", number);
    child_send(child, text);
    expect_pong(child, number, skipped);
}

static int count_lines(const char *text, const char *prefix)
{
    int count = 0;
    for (const char *p = text; *p;) {
        if (!strncmp(p, prefix, strlen(prefix)))
            ++count;
        const char *end = strchr(p, '\n');
        if (!end)
            break;
        p = end + 1;
    }
    return count;
}

/* The move of an `=== MLI` line, checked legal in `game` (which gets it appended). */
static int check_answer(const char *line, Game *game)
{
    ck_assert_msg(!strncmp(line, "=== ", 4), "not an answer: %s", line);
    size_t used;
    int move = move_parse(line + 4, &used);
    ck_assert_int_ge(move, 0);
    Game copy = *game;
    OctError error;
    ck_assert_msg(game_append(&copy, move, &error), "illegal answer %s: %s", line, error.message);
    return move;
}

static Game parse_game(const char *ggf)
{
    GgfRecord record;
    OctError error;
    ck_assert_msg(ggf_parse(ggf, &record, NULL, &error), "%s", error.message);
    return record.game;
}

START_TEST(test_handshake_and_depth)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\n");
    char *line = expect(&child, "set myname", 30, NULL);
    ck_assert_str_eq(line, "set myname Octuple7");
    free(line);
    /* at once, unasked: the GUI shows "Loading" until a status line comes */
    line = child_read_line(&child, 30);
    ck_assert_ptr_nonnull(line);
    ck_assert_str_eq(line, "status");
    free(line);
    child_send(&child, "set depth 4\n");
    line = expect(&child, "set myname", 30, NULL);
    ck_assert_str_eq(line, "set myname Octuple4");
    free(line);
    child_send(&child, "nboard 1\n"); /* version 1 is accepted too */
    line = expect(&child, "set myname", 30, NULL);
    ck_assert_str_eq(line, "set myname Octuple4");
    free(line);
    sync_ping(&child, 1, NULL);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* `settings`, the formats example as the game, then `go`, up to the pong before it, where no
 * status line may have come (every setting was taken). */
static void example_go(Child *child, const char *settings)
{
    char text[4096];
    snprintf(text, sizeof text, "nboard 2\n%sset game %s\nping 1\ngo\n", settings,
             formats_example);
    child_send(child, text);
    char skipped[SKIPPED_SIZE] = "";
    expect_pong(child, 1, skipped);
    /* the handshake's empty status only */
    ck_assert_msg(count_lines(skipped, "status ") == 0, "%s", skipped);
}

/* Settings beyond the protocol's own, for GUIs of one's own, are taken without a status
 * line; `set time` limits each `go` (a search to depth 60 and an exact solve from 60
 * empties, which would never end, answers); bad values get one status line each. */
START_TEST(test_extra_settings)
{
    Child child;
    ck_assert(start(&child));
    example_go(&child, "set depth 60\nset exact 60\nset time 0.2\nset threads 1\nset hash 16\n"
                       "set wld 0\nset book-randomness 0\n");
    char text[4096], skipped[SKIPPED_SIZE] = "";
    char *line = expect(&child, "===", 60, NULL);
    Game game = parse_game(formats_example);
    check_answer(line, &game);
    free(line);
    static const char *const bad[] = {"set time x", "set time -1", "set exact 61", "set hash 0",
                                      "set threads 0", "set wld x", "set verbose 2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(text, sizeof text, "%s\nping %zu\n", bad[i], i + 2);
        child_send(&child, text);
        skipped[0] = '\0';
        expect_pong(&child, (int)i + 2, skipped);
        ck_assert_msg(count_lines(skipped, "status set") == 1 && count_lines(skipped, "") == 1,
                      "'%s' gave:\n%s", bad[i], skipped);
    }
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_formats_example_go)
{
    Child child;
    ck_assert(start(&child));
    example_go(&child, "set depth 4\nset contempt 0\n");
    char skipped[SKIPPED_SIZE] = "";
    char *line = expect(&child, "===", 60, skipped);
    Game game = parse_game(formats_example);
    check_answer(line, &game);
    /* the capture's order: status Thinking, search lines, nodestats, status, === */
    ck_assert_ptr_nonnull(strstr(skipped, "status Thinking\n"));
    ck_assert_int_ge(count_lines(skipped, "search "), 1);
    ck_assert_int_eq(count_lines(skipped, "nodestats "), 1);
    ck_assert_ptr_nonnull(strstr(skipped, "\nstatus\n"));
    /* the answer carries eval and time: MOVE/EVAL/TIME */
    ck_assert_msg(strchr(line + 4, '/') && strchr(strchr(line + 4, '/') + 1, '/'), "%s", line);
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_passes_record_move_hint)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 3\n");
    expect_search_end(&child, 30, NULL); /* the handshake's empty status */
    /* up to the first pass, with white's reply after it played with `move` */
    char *ggf = passes_record(49); /* ... W[A3] B[PA] */
    Game game = parse_game(ggf);
    ck_assert_int_eq(game.moves[48], MOVE_PASS);
    char text[8192];
    snprintf(text, sizeof text, "set game %s\n", ggf);
    child_send(&child, text);
    child_send(&child, "move H2//0.855\n");
    OctError error;
    ck_assert(game_append(&game, move_parse("h2", NULL), &error));
    char skipped[SKIPPED_SIZE] = "";
    sync_ping(&child, 1, skipped);
    ck_assert_int_eq(count_lines(skipped, "status"), 0);
    /* black must pass again here */
    child_send(&child, "go\n");
    char *line = expect(&child, "===", 60, NULL);
    ck_assert_str_eq(line, "=== PA");
    free(line);
    child_send(&child, "move PA\nmove B3/-5.24\nping 2\nhint 4\n");
    ck_assert(game_append(&game, MOVE_PASS, &error));
    ck_assert(game_append(&game, move_parse("b3", NULL), &error));
    skipped[0] = '\0';
    expect_pong(&child, 2, skipped);
    ck_assert_int_eq(count_lines(skipped, "status"), 0);
    skipped[0] = '\0';
    /* the hint ends with an empty status; its last depth has 4 different moves */
    expect_search_end(&child, 60, skipped);
    Board board;
    game_position(&game, game.move_count, &board, NULL);
    int legal = __builtin_popcountll(board_legal(&board));
    int wanted = legal < 4 ? legal : 4;
    char last_depth[16] = "";
    int at_last = 0;
    uint64_t seen = 0;
    for (char *p = skipped; (p = strstr(p, "search ")); ++p) {
        char pv[128], eval[32], zero[8], depth[16];
        ck_assert_int_eq(sscanf(p, "search %127s %31s %7s %15s", pv, eval, zero, depth), 4);
        if (strcmp(depth, last_depth)) {
            snprintf(last_depth, sizeof last_depth, "%s", depth);
            at_last = 0;
            seen = 0;
        }
        int move = move_parse(pv, NULL);
        ck_assert_msg(move >= 0 && (board_legal(&board) >> move & 1), "hint %s not legal", pv);
        ck_assert_msg(!(seen >> move & 1), "move %s twice at one depth", pv);
        seen |= 1ULL << move;
        ++at_last;
    }
    ck_assert_int_eq(at_last, wanted);
    free(ggf);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* With --wld, positions above the exact threshold are solved for win, draw or loss only:
 * the hints say so with the protocol's 100%W and give every move +1.00, 0.00 or -1.00, and
 * `go` plays a move of the best outcome. */
START_TEST(test_wld_hints_and_go)
{
    Child child;
    static const char *const args[] = {"--nboard", "--threads", "2", "--hash", "16", "--wld",
                                       "30", "--no-book", NULL};
    ck_assert(child_start(&child, args, false));
    child_send(&child, "nboard 2\nset depth 3\n"); /* exact solves from 12 empties */
    expect_search_end(&child, 30, NULL); /* the handshake's empty status */
    char *ggf = passes_record(44); /* 16 empties */
    char text[8192];
    snprintf(text, sizeof text, "set game %s\nhint 64\n", ggf);
    child_send(&child, text);
    char skipped[SKIPPED_SIZE] = "";
    expect_search_end(&child, 120, skipped);
    Game game = parse_game(ggf);
    Board board;
    game_position(&game, game.move_count, &board, NULL);
    int legal = __builtin_popcountll(board_legal(&board));
    int solved = 0;
    double best = -2;
    for (char *p = skipped; (p = strstr(p, "search ")); ++p) {
        char pv[128], eval[32], zero[8], depth[16];
        ck_assert_int_eq(sscanf(p, "search %127s %31s %7s %15s", pv, eval, zero, depth), 4);
        if (strcmp(depth, "100%W"))
            continue; /* the midgame iterations before the solve */
        ck_assert_msg(!strcmp(eval, "+1.00") || !strcmp(eval, "+0.00") || !strcmp(eval, "-1.00"),
                      "a win/draw/loss hint scored %s", eval);
        if (solved == 0)
            best = atof(eval);
        ck_assert(atof(eval) <= best); /* best first */
        ++solved;
    }
    ck_assert_int_eq(solved, legal);
    child_send(&child, "go\n");
    char *line = expect(&child, "===", 120, NULL);
    char move[3], eval[32];
    ck_assert_int_eq(sscanf(line, "=== %2s/%31[^/]/", move, eval), 2);
    ck_assert(board_legal(&board) >> move_parse(move, NULL) & 1);
    ck_assert(atof(eval) == best);
    free(line);
    free(ggf);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_forced_positions)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 8\n");
    /* the finished game: go answers PA, hint answers only an empty status */
    char *ggf = passes_record(62);
    Game game = parse_game(ggf);
    ck_assert(game_is_over(&game));
    char text[8192];
    snprintf(text, sizeof text, "set game %s\nping 1\ngo\n", ggf);
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "===", 30, NULL);
    ck_assert_str_eq(line, "=== PA");
    free(line);
    child_send(&child, "ping 2\nhint 4\nping 3\n");
    expect_pong(&child, 2, NULL);
    char skipped[SKIPPED_SIZE] = "";
    expect_pong(&child, 3, skipped);
    ck_assert_str_eq(skipped, "status\n");
    free(ggf);
    /* a position with exactly one legal move is answered at once, without searching */
    int ply = -1;
    for (int i = 0; i < game.move_count && ply < 0; ++i) {
        Board board;
        game_position(&game, i, &board, NULL);
        if (__builtin_popcountll(board_legal(&board)) == 1)
            ply = i;
    }
    ck_assert_int_ge(ply, 0);
    ggf = passes_record(ply);
    snprintf(text, sizeof text, "set game %s\nping 4\ngo\n", ggf);
    child_send(&child, text);
    expect_pong(&child, 4, NULL);
    double begin = session_now();
    line = expect(&child, "===", 30, NULL);
    ck_assert_msg(session_now() - begin < 5, "one legal move took %.2f s", session_now() - begin);
    Game prefix = parse_game(ggf);
    ck_assert_int_eq(check_answer(line, &prefix), game.moves[ply]);
    free(line);
    free(ggf);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* Signs of life during a long search: `nodestats` while it runs (the endless search at the
 * start position never ends by itself, so any nodestats before the ping came during it), and
 * a solve's selective pass as a probable-solve hint (24@NN%) before the exact result. */
START_TEST(test_progress_during_search)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 60\nping 1\nhint 1\n");
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "nodestats", 60, NULL);
    free(line);
    child_send(&child, "ping 2\n");
    expect_pong(&child, 2, NULL);

    /* 24 empties; solved exactly from 24 at level 3 (with `set exact`), after a selective
     * pass */
    char *ggf = passes_record(36);
    char text[8192];
    snprintf(text, sizeof text, "set depth 3\nset exact 24\nset game %s\nping 3\nhint 1\n", ggf);
    free(ggf);
    child_send(&child, text);
    char skipped[SKIPPED_SIZE] = "";
    expect_pong(&child, 3, skipped);
    for (;;) {
        line = expect(&child, "search ", 120, skipped);
        char pv[128], eval[32], depth[16];
        ck_assert_int_eq(sscanf(line, "search %127s %31s 0 %15s", pv, eval, depth), 3);
        free(line);
        ck_assert_msg(strcmp(depth, "100%"), "the exact result came first");
        int empties, percent;
        char end;
        if (sscanf(depth, "%d@%d%%%c", &empties, &percent, &end) == 2) {
            ck_assert_int_eq(empties, 24);
            ck_assert(percent > 0 && percent < 100);
            break;
        }
    }
    child_send(&child, "ping 4\n"); /* the exact solve need not finish */
    expect_pong(&child, 4, NULL);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* The GUI pings before every request; a search in progress must stop and the pong come
 * first. Goal: under 50 ms; asserted: under 500 ms (a loaded 2-core machine). */
START_TEST(test_ping_stops_search)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 60\n"); /* depth 60 solves everything: endless */
    double worst = 0, total = 0;
    int samples = 0, ping = 1;
    for (int round = 0; round < 4; ++round) {
        bool think = round % 2 == 1;
        char text[64];
        snprintf(text, sizeof text, "ping %d\n%s\n", ping, think ? "go" : "hint 64");
        child_send(&child, text);
        expect_pong(&child, ping++, NULL);
        char *line = expect(&child, "status Thinking", 30, NULL);
        free(line);
        usleep(300 * 1000);
        snprintf(text, sizeof text, "ping %d\n", ping);
        double sent = session_now();
        child_send(&child, text);
        char skipped[SKIPPED_SIZE] = "";
        expect_pong(&child, ping++, skipped);
        double latency = session_now() - sent;
        worst = latency > worst ? latency : worst;
        total += latency;
        ++samples;
        /* what the interrupted search had came before the pong (stale, discarded) */
        ck_assert_ptr_nonnull(strstr(skipped, "status\n"));
        if (think)
            ck_assert_int_eq(count_lines(skipped, "=== "), 1);
        /* and nothing after it */
        snprintf(text, sizeof text, "ping %d\n", ping);
        child_send(&child, text);
        skipped[0] = '\0';
        expect_pong(&child, ping++, skipped);
        ck_assert_str_eq(skipped, "");
    }
    fprintf(stderr, "check_nboard: ping during search answered in %.1f ms on average, "
            "%.1f ms at worst (%d samples)\n", 1000 * total / samples, 1000 * worst, samples);
    ck_assert_msg(worst < 0.5, "pong took %.0f ms", worst * 1000);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_bad_input)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 2\n");
    char text[4096];
    snprintf(text, sizeof text, "set game %s\n", formats_example);
    child_send(&child, text);
    sync_ping(&child, 0, NULL);
    /* each gets exactly one status line and changes nothing */
    static const char *const bad[] = {
        "bogus", "xyzzy 1 2 3", "move", "move Z9", "move F5/abc", "move F5/1/2/3", "move A1",
        "move PA", "move F5 E6", "set", "set game", "set game garbage",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O----;)",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        "set depth 0", "set depth 61", "set depth x", "set depth", "set contempt x",
        "set contempt", "set contempt 201", "set contempt -201",
        "set colour red", "ping", "ping abc", "ping 1.5", "hint 0", "hint 65",
        "hint x", "nboard 3", "nboard", "\x01\x02\x7f move", "=== F5", "pong 3",
        "set game junk (;GM[Othello];)", "set game (;GM[Othello];) junk",
        "set game (;GM[Othello];)(;GM[Othello];)",
        /* a move longer than the parser's token: its tail must not be cut off unread */
        "move F5/1/1111111111111111111111111111111111111111111111111111111111abc",
        /* bytes that are not UTF-8, quoted back: the status line stays UTF-8 */
        "m\xe9ove F5", "set d\xeepth 3", "move H5\xff", "bogus \xed\xa0\x80 \xc0\xaf",
        "ping \xc2\x9b" "31m", /* a C1 control (CSI) */
        /* a right-to-left override, an isolate, a mark and a line separator */
        "ping \xe2\x80\xae" "1", "bogus \xe2\x81\xa7x\xe2\x80\x8f", "move F5\xe2\x80\xa8",
        /* a quote cut inside a two-byte character */
        "bogus \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
        "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
    };
    int ping = 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(text, sizeof text, "%s\nping %d\n", bad[i], ping);
        child_send(&child, text);
        char skipped[SKIPPED_SIZE] = "";
        expect_pong(&child, ping++, skipped);
        ck_assert_msg(count_lines(skipped, "status ") == 1, "'%s' gave:\n%s", bad[i], skipped);
        ck_assert_msg(count_lines(skipped, "") == 1, "'%s' gave more than a status line:\n%s",
                      bad[i], skipped);
        ck_assert_msg(session_text_clean(skipped), "'%s' gave a line that is not UTF-8:\n%s",
                      bad[i], skipped);
    }
    /* a NUL byte refuses its line whole, where it used to end the line early: the move
     * before it was played, and "ping 3<NUL>9" answered as ping 3 */
    static const char with_nul[][24] = {"move F5\0garbage", "\0move F5", "ping 3\0" "9"};
    static const size_t nul_lengths[] = {15, 8, 8};
    for (size_t i = 0; i < sizeof with_nul / sizeof with_nul[0]; ++i) {
        child_send_bytes(&child, with_nul[i], nul_lengths[i]);
        snprintf(text, sizeof text, "\nping %d\n", ping);
        child_send(&child, text);
        char skipped[SKIPPED_SIZE] = "";
        expect_pong(&child, ping++, skipped);
        ck_assert_msg(count_lines(skipped, "status ") == 1 && count_lines(skipped, "") == 1,
                      "line %zu with a NUL gave:\n%s", i, skipped);
    }
    /* a line one byte over the limit, arriving in one write, is refused as a longer one is */
    char *over = malloc(INPUT_MAX_LINE + 2);
    memset(over, ' ', INPUT_MAX_LINE + 1);
    memcpy(over, "ping 77", 7);
    over[INPUT_MAX_LINE + 1] = '\0';
    snprintf(text, sizeof text, "\nping %d\n", ping);
    size_t over_length = strlen(over);
    over = realloc(over, over_length + strlen(text) + 1);
    strcpy(over + over_length, text);
    child_send(&child, over);
    free(over);
    {
        char skipped[SKIPPED_SIZE] = "";
        expect_pong(&child, ping++, skipped);
        ck_assert_msg(count_lines(skipped, "status input line longer than") == 1
                      && count_lines(skipped, "") == 1, "%s", skipped);
    }
    /* blank lines are ignored silently; an over-long line is reported */
    child_send(&child, "\n   \n\r\n");
    char *huge = malloc(70001);
    memset(huge, 'x', 70000);
    huge[70000] = '\0';
    child_send(&child, "move ");
    child_send(&child, huge);
    free(huge);
    snprintf(text, sizeof text, "\nping %d\n", ping);
    child_send(&child, text);
    char skipped[SKIPPED_SIZE] = "";
    expect_pong(&child, ping++, skipped);
    ck_assert_int_eq(count_lines(skipped, "status "), 1);
    ck_assert_int_eq(count_lines(skipped, ""), 1);
    /* the position is still the example's: the engine answers a legal move in it */
    snprintf(text, sizeof text, "ping %d\ngo\n", ping);
    child_send(&child, text);
    expect_pong(&child, ping++, NULL);
    char *line = expect(&child, "===", 60, NULL);
    Game game = parse_game(formats_example);
    check_answer(line, &game);
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_analyze)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 2\n");
    char text[4096];
    snprintf(text, sizeof text, "set game %s\nping 1\nanalyze\n", formats_example);
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    /* one line per position from the end back to the start, then an empty status */
    for (int moves = 4; moves >= 0; --moves) {
        char *line = expect(&child, "analysis", 60, NULL);
        int made;
        double eval;
        ck_assert_int_eq(sscanf(line, "analysis %d %lf", &made, &eval), 2);
        ck_assert_int_eq(made, moves);
        ck_assert(fabs(eval) <= 64);
        free(line);
    }
    char *line = expect(&child, "status", 60, NULL);
    ck_assert_str_eq(line, "status");
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* Analyze Game on the game with two passes: NBoard plots every value on its Black-positive
 * graph, so each is Black's view. A forced pass and the only move left both keep the value,
 * which the side to move's view would flip. */
START_TEST(test_analyze_blacks_view)
{
    Child child;
    ck_assert(start(&child));
    char *record = passes_record(62);
    char text[8192];
    snprintf(text, sizeof text, "nboard 2\nset depth 2\nset game %s\nping 1\nanalyze\n", record);
    free(record);
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    double evals[63];
    for (int moves = 62; moves >= 44; --moves) {
        char *line = expect(&child, "analysis", 60, NULL);
        int made;
        ck_assert_int_eq(sscanf(line, "analysis %d %lf", &made, &evals[moves]), 2);
        ck_assert_int_eq(made, moves);
        free(line);
    }
    /* the final position: Black 12 discs, White 52 */
    ck_assert_double_eq_tol(evals[62], -40, 1e-9);
    ck_assert_double_eq_tol(evals[61], evals[62], 1e-9); /* White's only move, C1 */
    ck_assert_double_eq_tol(evals[48], evals[49], 1e-9); /* Black passes */
    ck_assert_double_eq_tol(evals[50], evals[51], 1e-9); /* Black passes again */
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

static int count_file_lines(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return 0;
    int count = 0, c;
    while ((c = fgetc(file)) != EOF)
        count += c == '\n';
    fclose(file);
    return count;
}

/* Self-play through the protocol: the test plays the GUI, the engine both sides. The game
 * is legal and finished, and `learn` stores it. */
START_TEST(test_self_play_and_learn)
{
    char learned[600];
    snprintf(learned, sizeof learned, "%s/data/octuple/learned.ggf", session_home());
    int before = count_file_lines(learned);
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 2\n");
    Game game;
    game_init(&game);
    char text[4096];
    snprintf(text, sizeof text, "set game %s\n", record_head);
    strcat(text, ";)\n");
    child_send(&child, text);
    /* learning an unfinished game: a reason, and `learned` all the same */
    child_send(&child, "ping 1\nlearn\n");
    expect_pong(&child, 1, NULL);
    char skipped[SKIPPED_SIZE] = "";
    char *line = expect(&child, "learned", 30, skipped);
    free(line);
    ck_assert_int_eq(count_lines(skipped, "status learn:"), 1);
    int ping = 2;
    while (!game_is_over(&game)) {
        snprintf(text, sizeof text, "ping %d\ngo\n", ping);
        child_send(&child, text);
        expect_pong(&child, ping++, NULL);
        line = expect(&child, "===", 60, NULL);
        int move = check_answer(line, &game);
        OctError error;
        ck_assert(game_append(&game, move, &error));
        char name[3];
        snprintf(text, sizeof text, "move %s\n", move_format(move, name));
        child_send(&child, text);
        free(line);
        ck_assert_int_le(game.move_count, GAME_MOVE_CAPACITY);
    }
    snprintf(text, sizeof text, "ping %d\nlearn\n", ping);
    child_send(&child, text);
    expect_pong(&child, ping++, NULL);
    skipped[0] = '\0';
    line = expect(&child, "learned", 30, skipped);
    free(line);
    ck_assert_str_eq(skipped, "");
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
    /* the learned file gained this game */
    ck_assert_int_eq(count_file_lines(learned), before + 1);
    GgfRecord *records;
    size_t count;
    OctError error;
    ck_assert_msg(ggf_read_file(learned, &records, &count, &error), "%s", error.message);
    const Game *stored = &records[count - 1].game;
    ck_assert(game_is_over(stored));
    ck_assert_int_eq(stored->move_count, game.move_count);
    ck_assert(!memcmp(stored->moves, game.moves, sizeof(int) * (size_t)game.move_count));
    /* every move was played back without a time: each has the engine's own, as its answer
     * gave it, so that a clock in the game is charged for it */
    for (int i = 0; i < stored->move_count; ++i)
        ck_assert_msg(!isnan(records[count - 1].times[i]), "move %d has no time", i + 1);
    char result[16];
    snprintf(result, sizeof result, "%+d", game_black_score(&game));
    ck_assert_str_eq(records[count - 1].result, result);
    free(records);
}
END_TEST

START_TEST(test_end_of_input_stops_search)
{
    Child child;
    ck_assert(start(&child));
    child_send(&child, "nboard 2\nset depth 60\nping 1\nhint 64\n");
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "status Thinking", 30, NULL);
    free(line);
    double begin = session_now();
    ck_assert_int_eq(child_finish(&child, 20), 0); /* closes the input */
    ck_assert_msg(session_now() - begin < 5, "took %.1f s to exit", session_now() - begin);
    free(child.output);
}
END_TEST

START_TEST(test_go_then_end_of_input_names_a_legal_move)
{
    /* the input ends right after go: the search is stopped before its first iteration,
     * and the answer must still be a legal move */
    char *output;
    static const char *const args[] = {"--nboard", "--threads", "1", "--hash", "16",
                                       "--no-book", NULL};
    int status = child_run(args, "nboard 2\nset game (;GM[Othello]BO[8 -------------------"
                           "--------O*------*O--------------------------- *]B[F5]W[F6]B[D3]"
                           "W[C5];)\ngo\n", &output, 30);
    ck_assert_int_eq(status, 0);
    const char *answer = strstr(output, "=== ");
    ck_assert_msg(answer, "no move in:\n%s", output);
    Game game;
    game_init(&game);
    OctError error;
    ck_assert(game_parse_moves(&game, "f5f6d3c5", &error));
    Board board;
    game_position(&game, game.move_count, &board, NULL);
    int move = move_parse(answer + 4, NULL);
    ck_assert_msg(move >= 0 && move < 64 && (board_legal(&board) >> move & 1),
                  "illegal answer: %.12s", answer);
    free(output);
}
END_TEST

START_TEST(test_blank_lines_keep_the_search)
{
    /* blank lines right after go say nothing: the search runs to its depth and the answer
     * carries its value (before, the first blank line stopped it, mostly before its first
     * iteration, and the answer was a bare legal square) */
    Child child;
    static const char *const args[] = {"--nboard", "--threads", "1", "--hash", "16",
                                       "--no-book", NULL};
    ck_assert(child_start(&child, args, false));
    child_send(&child, "nboard 2\nset depth 6\nset game (;GM[Othello]BO[8 -----------------"
               "----------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5];)\n"
               "ping 1\n");
    free(expect(&child, "pong 1", 30, NULL));
    child_send(&child, "go\n\n \r\n\n");
    char *line = expect(&child, "===", 60, NULL);
    char *value = strchr(line + 4, '/');
    ck_assert_msg(value && value[1] && value[1] != '/', "no value in '%s'", line);
    free(line);
    child_send(&child, "quit\n");
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* ---- random sessions ---- */

static uint64_t random_next(uint64_t *state)
{
    /* xorshift64*: the sessions depend on the seed alone */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545f4914f6cdd1dULL;
}

static const char *random_pick(uint64_t *state, const char *const *items, size_t count)
{
    return items[random_next(state) % count];
}

#define PICK(state, items) random_pick(state, items, sizeof items / sizeof items[0])

/* One request line, good or bad: the kinds a GUI sends, with numbers, moves and game records
 * that are often out of range, illegal or damaged. */
static void random_request(uint64_t *state, char *out, size_t size)
{
    static const char *const numbers[] = {"1", "2", "3", "0", "-1", "61", "x", "",
                                          "99999999999999999999", "2.5", "+2", "1e3"};
    static const char *const squares[] = {"F5", "f5", "D6", "C3", "c4", "E6", "A1", "h8",
                                          "PA", "pa", "Z9", "", "F5/1.50", "D3//0.25",
                                          "F5/x", "C4/1/2/3", "I1", "F55"};
    static const char *const hints[] = {"1", "2", "4", "64", "0", "-3", "x", ""};
    static const char *const contempts[] = {"0", "100", "-100", "200", "201", "x", ""};
    static const char *const junk[] = {"", "foo", "set", "set foo 1", "move", "hint",
                                       "set depth", "ping", "set game", "  go", "nboard 2",
                                       "set myname x", "GO", "learn"};
    switch (random_next(state) % 12) {
    case 0:
        snprintf(out, size, "set depth %s", PICK(state, numbers));
        break;
    case 1:
    case 2: {
        /* a record of the passes game cut anywhere, sometimes with one character changed */
        int plies = (int)(random_next(state) % 63); /* up to the finished game */
        char *record = passes_record(plies);
        size_t length = strlen(record);
        if (random_next(state) % 3 == 0) {
            static const char noise[] = "[];()BW*O-8 xZ";
            record[random_next(state) % length] = noise[random_next(state) % (sizeof noise - 1)];
        }
        snprintf(out, size, "set game %s", record);
        free(record);
        break;
    }
    case 3:
        snprintf(out, size, "set contempt %s", PICK(state, contempts));
        break;
    case 4:
    case 5:
        snprintf(out, size, "move %s", PICK(state, squares));
        break;
    case 6:
        snprintf(out, size, "hint %s", PICK(state, hints));
        break;
    case 7:
    case 8:
        snprintf(out, size, "go");
        break;
    case 9:
        snprintf(out, size, "analyze");
        break;
    default:
        snprintf(out, size, "%s", PICK(state, junk));
        break;
    }
}

/* Appends a request to the session's record for failure messages, while it fits. */
static void note_sent(char *sent, size_t size, const char *request)
{
    if (strlen(sent) + strlen(request) < size)
        strcat(sent, request);
}

/* Seeded random sessions of good and bad requests at random pace, pings among them (each
 * answered, every line before its pong checked), then the end of input: every line the
 * engine prints must be one the GUI parses, and the engine must exit cleanly. Bad input
 * never leaves it unable to answer. */
START_TEST(test_random_sessions)
{
    uint64_t state = 0x6f637475706c65ULL; /* fixed: a failure replays */
    char request[8192];
    for (int session = 0; session < 8; ++session) {
        Child child;
        ck_assert(start(&child));
        child_send(&child, "nboard 2\nset depth 2\n");
        int pings = 0;
        char sent[1 << 15] = "nboard 2\nset depth 2\n";
        for (int i = 0; i < 30; ++i) {
            random_request(&state, request, sizeof request - 1); /* room for the newline */
            strcat(request, "\n");
            note_sent(sent, sizeof sent, request);
            child_send(&child, request);
            if (random_next(&state) % 4 == 0)
                usleep((useconds_t)(random_next(&state) % 200) * 1000);
            if (random_next(&state) % 8 == 0) {
                char skipped[SKIPPED_SIZE] = "";
                snprintf(request, sizeof request, "ping %d\n", ++pings);
                child_send(&child, request);
                note_sent(sent, sizeof sent, request);
                char want[32];
                snprintf(want, sizeof want, "pong %d", pings);
                char *line = expect(&child, "pong", 60, skipped);
                ck_assert_msg(!strcmp(line, want), "session %d: '%s' where '%s' was due; "
                              "sent:\n%s", session, line, want, sent);
                free(line);
            }
        }
        snprintf(request, sizeof request, "ping %d\n", ++pings);
        child_send(&child, request);
        free(expect(&child, "pong", 60, NULL));
        ck_assert_msg(child_finish(&child, 30) == 0, "session %d did not exit cleanly; sent:\n%s",
                      session, sent);
        /* whatever came after the last pong too */
        for (char *p = child.output + child.line_start; *p;) {
            char *end = strchr(p, '\n');
            if (end)
                *end = '\0';
            ck_assert_msg(valid_line(p), "session %d: malformed line '%s'", session, p);
            if (!end)
                break;
            p = end + 1;
        }
        free(child.output);
    }
}
END_TEST

/* The shipped book answers the opening: `book` lines with game counts for every first
 * move, and `go` at once with the book's value. */
START_TEST(test_book_hints_and_go)
{
    Child child;
    static const char *const args[] = {"--nboard", "--threads", "1", "--hash", "16", NULL};
    ck_assert(child_start(&child, args, false));
    child_send(&child, "nboard 2\nset depth 7\nping 1\n");
    free(expect(&child, "pong 1", 30, NULL));
    child_send(&child, "hint 4\n");
    char skipped[SKIPPED_SIZE] = "";
    expect_search_end(&child, 30, skipped);
    int books = 0;
    for (const char *p = skipped; (p = strstr(p, "book ")); p += 5) {
        if (p != skipped && p[-1] != '\n')
            continue;
        char pv[200], eval[32], depth[16];
        unsigned long games;
        ck_assert_int_eq(sscanf(p, "book %199s %31s %lu %15s", pv, eval, &games, depth), 4);
        ck_assert_msg(games > 0, "a first move without games: %.80s", p);
        ++books;
    }
    ck_assert_msg(books == 4, "expected 4 book lines, got:\n%s", skipped);
    ck_assert_ptr_null(strstr(skipped, "\nsearch "));
    child_send(&child, "go\n");
    char *line = expect(&child, "===", 30, NULL);
    ck_assert_msg(strchr(line + 4, '/') != NULL, "no value in '%s'", line);
    free(line);
    /* a book line where White has 11 moves: hint 64 values every one of them (the book
     * alone knows only some), all at one depth */
    child_send(&child, "set depth 4\nset game (;GM[Othello]BO[8 ---------------------------"
               "O*------*O--------------------------- *]B[D3]W[C5]B[F6]W[F5]B[E6]W[E3]B[D6]"
               "W[F7]B[G6]W[F4]B[G5]W[C6]B[E7]W[F8]B[G4]W[C4]B[F3]W[H6]B[D8];)\nping 2\n");
    free(expect(&child, "pong 2", 30, NULL));
    skipped[0] = '\0';
    child_send(&child, "hint 64\n");
    expect_search_end(&child, 60, skipped);
    uint64_t valued = 0;
    for (const char *p = skipped; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
        if (strncmp(p, "search ", 7) && strncmp(p, "book ", 5))
            continue;
        const char *pv = strchr(p, ' ') + 1;
        int square = move_parse(pv, NULL);
        ck_assert_msg(square >= 0 && square < 64, "a hint line without a move: %.60s", p);
        valued |= 1ULL << square;
    }
    ck_assert_msg(__builtin_popcountll(valued) == 11, "%d moves valued:\n%s",
                  __builtin_popcountll(valued), skipped);
    child_send(&child, "quit\n");
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

START_TEST(test_quit_command)
{
    char *output;
    static const char *const args[] = {"--nboard", "--threads", "1", "--hash", "16", NULL};
    int status = child_run(args, "nboard 2\nping 7\nquit\nping 8\n", &output, 30);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(output, "pong 7\n"));
    ck_assert_ptr_null(strstr(output, "pong 8"));
    free(output);
}
END_TEST

/* The seconds an answer gives (=== MOVE/EVAL/TIME), -1 when it gives none. */
static double answer_seconds(const char *line)
{
    const char *time = strrchr(line, '/');
    return time && time - line > 6 ? atof(time + 1) : -1;
}

/* The game's clock caps `go`: at level 60, a search without end, black with 1 s left of
 * TI[0:03] answers, within that second by its own count (=== MOVE/EVAL/TIME), and so with
 * 1 s left of its own TB[0:03] beside TI[15:00]; a clock that
 * cannot be read is named in the status line, and the level alone rules. */
START_TEST(test_clock_caps_go)
{
    Child child;
    ck_assert(start(&child));
    const char *ggf = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0:03]TY[8]BO[8 "
                      "---------------------------O*------*O--------------------------- *]"
                      "B[F5//1.5]W[F6//1.25]B[E6//0.5]W[F4//2];)";
    char text[1024];
    snprintf(text, sizeof text, "nboard 2\nset depth 60\nset game %s\nping 1\ngo\n", ggf);
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "===", 120, NULL);
    Game game = parse_game(ggf);
    check_answer(line, &game);
    double seconds = answer_seconds(line);
    ck_assert_msg(seconds >= 0 && seconds < 1.0, "%s", line);
    free(line);

    /* GGS's per-side clock: black's TB[0:03] rules over TI[15:00] */
    const char *ggs = "(;GM[Othello]PC[GGS/os]PB[a]PW[b]RE[?]TI[15:00]TB[0:03]TY[8]BO[8 "
                      "---------------------------O*------*O--------------------------- *]"
                      "B[F5//1.5]W[F6//1.25]B[E6//0.5]W[F4//2];)";
    snprintf(text, sizeof text, "set game %s\nping 3\ngo\n", ggs);
    child_send(&child, text);
    expect_pong(&child, 3, NULL);
    line = expect(&child, "===", 120, NULL);
    check_answer(line, &game);
    seconds = answer_seconds(line);
    ck_assert_msg(seconds >= 0 && seconds < 1.0, "%s", line);
    free(line);

    snprintf(text, sizeof text,
             "set depth 2\nset game (;GM[Othello]TI[soon]BO[8 "
             "---------------------------O*------*O--------------------------- *];)\n"
             "ping 2\ngo\n");
    child_send(&child, text);
    expect_pong(&child, 2, NULL);
    line = expect(&child, "status", 30, NULL);
    ck_assert_msg(strstr(line, "clock TI[soon]") && strstr(line, "no time limit"), "%s", line);
    free(line);
    line = expect(&child, "===", 30, NULL);
    Game start;
    game_init(&start);
    check_answer(line, &start);
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

/* A refused line changes nothing, not even which answer a move plays back: after a `set game`
 * and a `move` that are refused, the engine's answer played back without a time still gets
 * the answer's time (the learned record shows it). */
START_TEST(test_refusals_keep_the_answer)
{
    char learned[600];
    snprintf(learned, sizeof learned, "%s/data/octuple/learned.ggf", session_home());
    Child child;
    ck_assert(start(&child));
    /* black to move on the last empty square, h8 */
    char text[1024];
    snprintf(text, sizeof text, "nboard 2\nset game (;GM[Othello]TY[8]BO[8 %.*sXOOOOOO- *];)\n"
             "ping 1\ngo\n", 56, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "===", 60, NULL);
    ck_assert_msg(!strncmp(line, "=== H8", 6), "%s", line);
    free(line);
    child_send(&child, "set game (;GM[Othello];\nmove A1\nmove H8\nping 2\nlearn\n");
    char skipped[SKIPPED_SIZE] = "";
    expect_pong(&child, 2, skipped);
    ck_assert_int_eq(count_lines(skipped, "status set game:"), 1);
    ck_assert_int_eq(count_lines(skipped, "status move rejected:"), 1);
    line = expect(&child, "learned", 30, NULL);
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
    GgfRecord *records;
    size_t count;
    OctError error;
    ck_assert_msg(ggf_read_file(learned, &records, &count, &error), "%s", error.message);
    const GgfRecord *last = &records[count - 1];
    ck_assert_int_eq(last->game.move_count, 1);
    ck_assert_int_eq(last->game.moves[0], 63);
    ck_assert_msg(!isnan(last->times[0]), "the played-back answer lost its time");
    free(records);
}
END_TEST

/* The engine's own time for a move played back without one belongs to that answer only: in
 * a new game, the same move without a time costs nothing. Here an answer of 2 s, then a new
 * game on TI[3] where the human plays that move: black's clock still holds 3 s, a share of
 * 0.11 s at 58 empties (0.03 s if the old 2 s were charged). */
START_TEST(test_clock_after_new_game)
{
    Child child;
    ck_assert(start(&child));
    const char *start_board =
        "BO[8 ---------------------------O*------*O--------------------------- *]";
    char text[1024];
    snprintf(text, sizeof text,
             "nboard 2\nset depth 60\nset time 2\nset game (;GM[Othello]%s;)\nping 1\ngo\n",
             start_board);
    child_send(&child, text);
    expect_pong(&child, 1, NULL);
    char *line = expect(&child, "===", 60, NULL);
    Game game;
    game_init(&game);
    int first = check_answer(line, &game);
    free(line);
    OctError error;
    ck_assert(game_append(&game, first, &error));
    Board board;
    game_position(&game, 1, &board, NULL);
    int reply = __builtin_ctzll(board_legal(&board));
    char first_name[3], reply_name[3];
    snprintf(text, sizeof text,
             "set time 0\nset game (;GM[Othello]TI[3]%s;)\nmove %s\nmove %s//0\nping 2\ngo\n",
             start_board, move_format(first, first_name), move_format(reply, reply_name));
    child_send(&child, text);
    expect_pong(&child, 2, NULL);
    line = expect(&child, "===", 60, NULL);
    ck_assert_msg(answer_seconds(line) > 0.08, "%s", line);
    free(line);
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
}
END_TEST

int main(void)
{
    session_home();
    Suite *suite = suite_create("nboard");
    TCase *tc = tcase_create("protocol");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_handshake_and_depth);
    tcase_add_test(tc, test_formats_example_go);
    tcase_add_test(tc, test_extra_settings);
    tcase_add_test(tc, test_passes_record_move_hint);
    tcase_add_test(tc, test_wld_hints_and_go);
    tcase_add_test(tc, test_forced_positions);
    tcase_add_test(tc, test_clock_caps_go);
    tcase_add_test(tc, test_clock_after_new_game);
    tcase_add_test(tc, test_ping_stops_search);
    tcase_add_test(tc, test_progress_during_search);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_refusals_keep_the_answer);
    tcase_add_test(tc, test_analyze);
    tcase_add_test(tc, test_analyze_blacks_view);
    tcase_add_test(tc, test_self_play_and_learn);
    tcase_add_test(tc, test_end_of_input_stops_search);
    tcase_add_test(tc, test_book_hints_and_go);
    tcase_add_test(tc, test_go_then_end_of_input_names_a_legal_move);
    tcase_add_test(tc, test_blank_lines_keep_the_search);
    tcase_add_test(tc, test_quit_command);
    tcase_add_test(tc, test_random_sessions);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

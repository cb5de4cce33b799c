/* Unit tests of the file formats: OBF, GGF, WTHOR, logbook. Fixtures are built here (strings or
 * files in a fresh temporary directory); nothing is read from the shared data. */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/gameclock.h"
#include "core/ggf.h"
#include "core/logbook.h"
#include "core/notation.h"
#include "core/obf.h"
#include "core/wthor.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static char test_dir[PATH_MAX];

static void make_dir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(test_dir, sizeof test_dir, "%s/octuple-formats-XXXXXX", base && *base ? base : "/tmp");
    ck_assert_msg(mkdtemp(test_dir) != NULL, "mkdtemp failed");
}

static void remove_dir(void)
{
    DIR *dir = opendir(test_dir);
    if (!dir)
        return;
    struct dirent *entry;
    char path[PATH_MAX + 256];
    while ((entry = readdir(dir))) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", test_dir, entry->d_name);
        unlink(path);
    }
    closedir(dir);
    rmdir(test_dir);
}

/* Path of `name` inside the test directory (a static buffer per call slot). */
static const char *path_of(const char *name)
{
    static char paths[4][PATH_MAX + 64];
    static int slot;
    char *path = paths[slot++ % 4];
    snprintf(path, PATH_MAX + 64, "%s/%s", test_dir, name);
    return path;
}

static const char *write_bytes(const char *name, const void *bytes, size_t size)
{
    const char *path = path_of(name);
    FILE *file = fopen(path, "wb");
    ck_assert_msg(file != NULL, "cannot create %s", path);
    ck_assert_uint_eq(fwrite(bytes, 1, size, file), size);
    fclose(file);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    return write_bytes(name, text, strlen(text));
}

static int count_dir_entries(void)
{
    DIR *dir = opendir(test_dir);
    ck_assert(dir != NULL);
    int n = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)))
        if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
            ++n;
    closedir(dir);
    return n;
}

#define ck_assert_error_has(error, text)                                                     \
    ck_assert_msg(strstr((error).message, (text)) != NULL, "error '%s' lacks '%s'",          \
                  (error).message, (text))

static int square_of(const char *name)
{
    int square = move_parse(name, NULL);
    ck_assert_int_ge(square, 0);
    return square;
}

/* A deterministic pseudo-random complete game from the standard start. */
static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16;
}

static void random_game(Game *game, unsigned seed)
{
    unsigned state = seed;
    game_init(game);
    for (;;) {
        Board board;
        game_position(game, game->move_count, &board, NULL);
        if (board_is_over(&board))
            break;
        uint64_t legal = board_legal(&board);
        int move = MOVE_PASS;
        if (legal) {
            int pick = (int)(next_random(&state) % (unsigned)__builtin_popcountll(legal));
            while (pick-- > 0)
                legal &= legal - 1;
            move = __builtin_ctzll(legal);
        }
        ck_assert(game_append(game, move, NULL));
    }
}

static bool game_has_pass(const Game *game)
{
    for (int i = 0; i < game->move_count; ++i)
        if (game->moves[i] == MOVE_PASS)
            return true;
    return false;
}

/* A complete random game that contains a pass. */
static void random_game_with_pass(Game *game)
{
    for (unsigned seed = 1; seed < 100000; ++seed) {
        random_game(game, seed);
        if (game_has_pass(game))
            return;
    }
    ck_abort_msg("no random game with a pass found");
}

static void assert_games_equal(const Game *a, const Game *b)
{
    ck_assert(board_equal(&a->start, &b->start));
    ck_assert_int_eq(a->start_side, b->start_side);
    ck_assert_int_eq(a->move_count, b->move_count);
    for (int i = 0; i < a->move_count; ++i)
        ck_assert_int_eq(a->moves[i], b->moves[i]);
}

/* ---- OBF -------------------------------------------------------------------------------- */

#define ROW "--------"
#define ROWS3 ROW ROW ROW
/* The standard start, a1..h8, in GGF's letters (`*` black) and OBF's (X black). */
#define START_BO ROWS3 "---O*---" "---*O---" ROWS3
#define START_SQUARES ROWS3 "---OX---" "---XO---" ROWS3

static const char *FFO40 =
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

START_TEST(obf_reads_position)
{
    ObfPosition p;
    OctError e;
    ck_assert_int_eq(obf_parse_line(FFO40, &p, &e), OBF_POSITION);
    ck_assert_int_eq(p.side, COLOR_BLACK);
    ck_assert_int_eq(board_count_empties(&p.board), 20);
    ck_assert_int_eq(p.move_count, 2);
    ck_assert_int_eq(p.moves[0], square_of("a2"));
    ck_assert_int_eq(p.scores[0], 38);
    ck_assert_int_eq(p.moves[1], square_of("c7"));
    ck_assert_int_eq(p.scores[1], 36);
    /* a0 is X for black, so a1 (index 0) is white: 'O' */
    ck_assert(p.board.opponent & 1);

    /* No pairs, lower case, trailing newline and CR, last pair without ';' */
    ck_assert_int_eq(obf_parse_line(ROWS3 "---xo---" "---ox---" ROWS3 " o;\r\n", &p, &e),
                     OBF_POSITION);
    ck_assert_int_eq(p.side, COLOR_WHITE);
    ck_assert_int_eq(p.move_count, 0);
    ck_assert_int_eq(obf_parse_line(START_SQUARES " X; F5:+0; E6:-0\n", &p, &e), OBF_POSITION);
    ck_assert_int_eq(p.move_count, 2);
    ck_assert_int_eq(p.scores[1], 0);

    /* pairs out of order are read best first (ties keep the file's order), so that the
     * first pair is the best for `--solve` and the trainer */
    ck_assert_int_eq(obf_parse_line(START_SQUARES " X; F5:-2; D3:+4; C4:-2; E6:+6;", &p, &e),
                     OBF_POSITION);
    ck_assert_int_eq(p.move_count, 4);
    const char *const order[] = {"e6", "d3", "f5", "c4"};
    const int scores[] = {6, 4, -2, -2};
    for (int i = 0; i < 4; ++i) {
        ck_assert_int_eq(p.moves[i], square_of(order[i]));
        ck_assert_int_eq(p.scores[i], scores[i]);
    }
}
END_TEST

START_TEST(obf_skips_comments_and_blank_lines)
{
    ObfPosition p;
    OctError e;
    ck_assert_int_eq(obf_parse_line("% FForum 40-59", &p, &e), OBF_NOT_POSITION);
    ck_assert_int_eq(obf_parse_line("   %indented comment\n", &p, &e), OBF_NOT_POSITION);
    ck_assert_int_eq(obf_parse_line("", &p, &e), OBF_NOT_POSITION);
    ck_assert_int_eq(obf_parse_line("  \r\n", &p, &e), OBF_NOT_POSITION);
}
END_TEST

START_TEST(obf_round_trip)
{
    ObfPosition p, q;
    OctError e;
    char line[OBF_LINE_SIZE];
    ck_assert_int_eq(obf_parse_line(FFO40, &p, &e), OBF_POSITION);
    ck_assert_msg(obf_format_line(&p, line, sizeof line, &e), "%s", e.message);
    ck_assert_str_eq(line, FFO40);
    ck_assert_int_eq(obf_parse_line(line, &q, &e), OBF_POSITION);
    ck_assert(board_equal(&p.board, &q.board));
    ck_assert_int_eq(p.side, q.side);
    ck_assert_int_eq(q.move_count, p.move_count);
    for (int i = 0; i < p.move_count; ++i) {
        ck_assert_int_eq(p.moves[i], q.moves[i]);
        ck_assert_int_eq(p.scores[i], q.scores[i]);
    }
    /* Too small a buffer is refused, not overrun. */
    ck_assert(!obf_format_line(&p, line, 40, &e));
    ck_assert_error_has(e, "buffer");
}
END_TEST

static void assert_obf_error(const char *line, const char *expected)
{
    ObfPosition p;
    OctError e;
    p.move_count = -7; /* untouched on error */
    ck_assert_msg(obf_parse_line(line, &p, &e) == OBF_ERROR, "accepted: %s", line);
    ck_assert_error_has(e, expected);
    ck_assert_int_eq(p.move_count, -7);
}

START_TEST(obf_rejects_bad_lines)
{
    const char *board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    char line[256];
    snprintf(line, sizeof line, "%s Z; A2:+38;", board);
    assert_obf_error(line, "side to move");
    snprintf(line, sizeof line, "%.63s X; A2:+38;", board); /* too few squares */
    assert_obf_error(line, "64 squares");
    snprintf(line, sizeof line, "%sO X;", board); /* too many */
    assert_obf_error(line, "64 squares");
    snprintf(line, sizeof line, "%s X", board); /* no ';' */
    assert_obf_error(line, "missing ';'");
    snprintf(line, sizeof line, "%.63s? X;", board);
    assert_obf_error(line, "unexpected character '?'");
    snprintf(line, sizeof line, "%s X; Z9:+38;", board);
    assert_obf_error(line, "bad move 'Z9:+38'");
    snprintf(line, sizeof line, "%s X; H8:+38;", board); /* not legal here */
    assert_obf_error(line, "move 1 (h8): not legal");
    snprintf(line, sizeof line, "%s X; A2:+38; A2:+38;", board);
    assert_obf_error(line, "move 2 (a2): listed twice");
    snprintf(line, sizeof line, "%s X; A2:+3x;", board);
    assert_obf_error(line, "move 1 (a2): expected ';'");
    snprintf(line, sizeof line, "%s X; A2:x38;", board);
    assert_obf_error(line, "bad score 'x38'");
    snprintf(line, sizeof line, "%s X; A2:+66;", board);
    assert_obf_error(line, "bad score");
    snprintf(line, sizeof line, "%s X; A2:+1000;", board);
    assert_obf_error(line, "bad score");
    snprintf(line, sizeof line, "%s X; A2 +38;", board);
    assert_obf_error(line, "expected ':'");
    snprintf(line, sizeof line, "%s X; A2:;", board);
    assert_obf_error(line, "bad score");
}
END_TEST

START_TEST(obf_reads_file)
{
    char text[1024];
    snprintf(text, sizeof text,
             "%% test set\n\n%s\n"
             "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X; H4:+0;\n",
             FFO40);
    const char *path = write_text("set.obf", text);
    ObfPosition *positions = NULL;
    size_t count = 0;
    OctError e;
    ck_assert_msg(obf_read_file(path, &positions, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 2);
    ck_assert_int_eq(positions[1].moves[0], square_of("h4"));
    ck_assert_int_eq(positions[1].scores[0], 0);
    free(positions);

    snprintf(text, sizeof text, "%% bad side on line 3\n%s\n%.64s Q;\n", FFO40, FFO40);
    path = write_text("bad.obf", text);
    positions = (ObfPosition *)&e; /* sentinel: untouched on error */
    count = 99;
    ck_assert(!obf_read_file(path, &positions, &count, &e));
    ck_assert_error_has(e, "bad.obf: line 3: ");
    ck_assert_error_has(e, "side to move 'Q'");
    ck_assert_ptr_eq(positions, (ObfPosition *)&e);
    ck_assert_uint_eq(count, 99);

    ck_assert(!obf_read_file(path_of("missing.obf"), &positions, &count, &e));
    ck_assert_error_has(e, "missing.obf: cannot open");

    /* a NUL byte would end its line early (trailing junk accepted) or hide a whole line:
     * refused with its line; a line over the limit names its number */
    char bytes[256];
    int length = snprintf(bytes, sizeof bytes, "%% one\n%s junk\n", FFO40);
    bytes[strlen("% one\n") + strlen(FFO40)] = '\0';
    path = write_bytes("nul.obf", bytes, (size_t)length);
    ck_assert(!obf_read_file(path, &positions, &count, &e));
    ck_assert_error_has(e, "nul.obf: line 2: a NUL byte");
    char *long_text = malloc(10000);
    ck_assert_ptr_nonnull(long_text);
    memset(long_text, ' ', 9998);
    memcpy(long_text, "% two\n% three\n", 14);
    long_text[9998] = '\n';
    long_text[9999] = '\0';
    path = write_text("long.obf", long_text);
    free(long_text);
    ck_assert(!obf_read_file(path, &positions, &count, &e));
    ck_assert_error_has(e, "long.obf: line 3: longer than");
}
END_TEST

/* ---- GGF -------------------------------------------------------------------------------- */

static const char *NBOARD_GAME =
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]"
    "BO[8 " START_BO " *]"
    "B[F5]W[F6]B[D3]W[C5];)";

/* Black a1 empty ... white to pass: black b1 white a1, black to move has no move. */
static const char *PASS_BOARD =
    "O*------ -------- -------- -------- -------- -------- -------- -------- *";

START_TEST(ggf_reads_nboard_record)
{
    GgfRecord r;
    OctError e;
    const char *end;
    ck_assert_msg(ggf_parse(NBOARD_GAME, &r, &end, &e), "%s", e.message);
    ck_assert_ptr_eq(end, NBOARD_GAME + strlen(NBOARD_GAME));
    ck_assert_str_eq(r.place, "NBoard");
    ck_assert_str_eq(r.date, "2014-02-21 20:52:27 GMT");
    ck_assert_str_eq(r.black, "a");
    ck_assert_str_eq(r.white, "b");
    ck_assert_str_eq(r.result, "?");
    ck_assert_str_eq(r.clock, "15:00");
    ck_assert_str_eq(r.type, "8");
    Game expected;
    game_init(&expected);
    ck_assert(game_parse_moves(&expected, "f5f6d3c5", NULL));
    assert_games_equal(&r.game, &expected);
    for (int i = 0; i < 4; ++i) {
        ck_assert(isnan(r.evals[i]));
        ck_assert(isnan(r.times[i]));
    }
}
END_TEST

START_TEST(ggf_reads_evals_times_and_lenient_syntax)
{
    const char *text =
        "junk before (; GM[othello] PB[black \\] player] CO[a comment with \\] inside]\n"
        "RB[1800.3] KM[0] XY[unknown tag]\n"
        "BO[8 --------\n--------\n--------\n---O*---\n---*O---\n--------\n--------\n"
        "-------- *]\n"
        "B[F5//24.779] W[d6/0.48] B[c3] W[D3/25.00/0.1] B[pass-not] ;)";
    GgfRecord r;
    OctError e;
    /* "pass-not" is not a move */
    ck_assert(!ggf_parse(text, &r, NULL, &e));
    ck_assert_error_has(e, "B[pass-not]: bad move");

    text = "junk before (; GM[othello] PB[black \\] player] CO[a comment with \\] inside]\n"
           "RB[1800.3] KM[0] XY[unknown tag]\n"
           "BO[8 --------\n--------\n--------\n---O*---\n---*O---\n--------\n--------\n"
           "-------- *]\n"
           "B[F5//24.779] W[d6/0.48] B[c3] W[D3/25.00/0.1] ;) trailing";
    ck_assert_msg(ggf_parse(text, &r, NULL, &e), "%s", e.message);
    ck_assert_str_eq(r.black, "black ] player");
    ck_assert_int_eq(r.game.move_count, 4);
    ck_assert_int_eq(r.game.moves[3], square_of("d3"));
    ck_assert(isnan(r.evals[0]));
    ck_assert_double_eq(r.times[0], 24.779);
    ck_assert_double_eq(r.evals[1], 0.48);
    ck_assert(isnan(r.times[1]));
    ck_assert(isnan(r.evals[2]) && isnan(r.times[2]));
    ck_assert_double_eq(r.evals[3], 25.0);
    ck_assert_double_eq(r.times[3], 0.1);
}
END_TEST

/* Whatever number the writer puts in a move, the reader takes back: an engine's evaluation
 * of 1e-320 (below the smallest normal double) was written, then refused on reading, which
 * stopped octuple-match --resume. */
START_TEST(ggf_reads_back_tiny_numbers)
{
    GgfRecord r, back;
    OctError e;
    ck_assert(ggf_parse("(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- "
                        "-------- -------- -------- *]B[F5/1.0/0.5];)", &r, NULL, &e));
    r.evals[0] = 1e-320;
    r.times[0] = 5e-324;
    char text[4096];
    ck_assert_msg(ggf_format(&r, text, sizeof text, &e), "%s", e.message);
    ck_assert_msg(ggf_parse(text, &back, NULL, &e), "%s: %s", text, e.message);
    ck_assert(back.evals[0] == r.evals[0]);
    ck_assert(back.times[0] == r.times[0]);
    /* an overflow stays an error */
    ck_assert(!ggf_parse("(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- "
                         "-------- -------- -------- *]B[F5/1e999];)", &back, NULL, &e));
}
END_TEST

START_TEST(ggf_handles_passes)
{
    char text[512];
    GgfRecord r;
    OctError e;
    /* Implicit: white plays while black, to move, has no move. */
    snprintf(text, sizeof text, "(;GM[Othello]BO[8 %s]W[C1/1.5];)", PASS_BOARD);
    ck_assert_msg(ggf_parse(text, &r, NULL, &e), "%s", e.message);
    ck_assert_int_eq(r.game.move_count, 2);
    ck_assert_int_eq(r.game.moves[0], MOVE_PASS);
    ck_assert_int_eq(r.game.moves[1], square_of("c1"));
    ck_assert(isnan(r.evals[0]));
    ck_assert_double_eq(r.evals[1], 1.5);
    ck_assert(game_is_over(&r.game));

    /* Explicit, any case. */
    const char *spellings[] = {"PA", "pa", "Pa", "pass"};
    for (int i = 0; i < 4; ++i) {
        snprintf(text, sizeof text, "(;GM[Othello]BO[8 %s]B[%s]W[c1];)", PASS_BOARD,
                 spellings[i]);
        ck_assert_msg(ggf_parse(text, &r, NULL, &e), "%s: %s", spellings[i], e.message);
        ck_assert_int_eq(r.game.move_count, 2);
        ck_assert_int_eq(r.game.moves[0], MOVE_PASS);
    }

    /* A pass while having a move, or the wrong colour while the side to move can play. */
    ck_assert(!ggf_parse("(;GM[Othello]B[PA];)", &r, NULL, &e));
    ck_assert_error_has(e, "cannot pass");
    ck_assert(!ggf_parse("(;GM[Othello]B[F5]B[D6];)", &r, NULL, &e));
    ck_assert_error_has(e, "move 2 (d6): played by black, but white is to move");
    /* The right colour but no legal move: not silently turned into the other colour's move. */
    snprintf(text, sizeof text, "(;GM[Othello]BO[8 %s]B[C1];)", PASS_BOARD);
    ck_assert(!ggf_parse(text, &r, NULL, &e));
    ck_assert_error_has(e, "illegal for black");
    /* Moves after the end. */
    snprintf(text, sizeof text, "(;GM[Othello]BO[8 %s]W[C1]B[D1];)", PASS_BOARD);
    ck_assert(!ggf_parse(text, &r, NULL, &e));
    ck_assert_error_has(e, "already over");
}
END_TEST

static void assert_records_equal(const GgfRecord *a, const GgfRecord *b)
{
    assert_games_equal(&a->game, &b->game);
    ck_assert_str_eq(a->black, b->black);
    ck_assert_str_eq(a->white, b->white);
    ck_assert_str_eq(a->place, b->place);
    ck_assert_str_eq(a->date, b->date);
    ck_assert_str_eq(a->result, b->result);
    ck_assert_str_eq(a->clock, b->clock);
    ck_assert_str_eq(a->type, b->type);
    for (int i = 0; i < a->game.move_count; ++i) {
        ck_assert(isnan(a->evals[i]) == isnan(b->evals[i]));
        ck_assert(isnan(a->times[i]) == isnan(b->times[i]));
        if (!isnan(a->evals[i]))
            ck_assert(a->evals[i] == b->evals[i]);
        if (!isnan(a->times[i]))
            ck_assert(a->times[i] == b->times[i]);
    }
}

START_TEST(ggf_round_trip)
{
    GgfRecord r, back;
    OctError e;
    ggf_init(&r);
    random_game_with_pass(&r.game);
    strcpy(r.black, "Black ] \\ name");
    strcpy(r.white, "white");
    strcpy(r.place, "GGS/os");
    strcpy(r.date, "2003.10.01_12:00:00.UTC");
    snprintf(r.result, sizeof r.result, "%+d", game_black_score(&r.game));
    strcpy(r.clock, "5:00//2:00");
    strcpy(r.type, "8");
    for (int i = 0; i < r.game.move_count; ++i) {
        if (r.game.moves[i] == MOVE_PASS)
            continue;
        if (i % 3 != 0)
            r.evals[i] = (i - 30) * 0.37;
        if (i % 2 == 0)
            r.times[i] = i * 0.1 + 1.0 / 3.0;
    }
    char text[GGF_LINE_SIZE], again[GGF_LINE_SIZE];
    ck_assert_msg(ggf_format(&r, text, sizeof text, &e), "%s", e.message);
    ck_assert_msg(ggf_parse(text, &back, NULL, &e), "%s in %s", e.message, text);
    assert_records_equal(&r, &back);
    ck_assert(ggf_format(&back, again, sizeof again, &e));
    ck_assert_str_eq(text, again);

    /* A non-standard start with white to move survives too. */
    Game opening;
    Board board;
    Color side;
    game_init(&opening);
    ck_assert(game_parse_moves(&opening, "f5d6c3", NULL));
    game_position(&opening, opening.move_count, &board, &side);
    ggf_init(&r);
    game_init_from(&r.game, &board, side);
    ck_assert(game_append(&r.game, square_of("d3"), NULL));
    ck_assert(ggf_format(&r, text, sizeof text, &e));
    ck_assert(ggf_parse(text, &back, NULL, &e));
    assert_records_equal(&r, &back);
    ck_assert_int_eq(back.game.start_side, COLOR_WHITE);

    ck_assert(!ggf_format(&r, text, 20, &e));
    ck_assert_error_has(e, "buffer");
}
END_TEST

START_TEST(ggf_truncates_long_metadata)
{
    char text[2048];
    char name[600];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    /* a 2-byte UTF-8 character straddling the cut must not be split */
    name[GGF_TEXT_SIZE - 2] = (char)0xC3;
    name[GGF_TEXT_SIZE - 1] = (char)0xA9;
    snprintf(text, sizeof text, "(;GM[Othello]PB[%s]PW[w];)", name);
    GgfRecord r;
    OctError e;
    ck_assert_msg(ggf_parse(text, &r, NULL, &e), "%s", e.message);
    ck_assert_uint_eq(strlen(r.black), GGF_TEXT_SIZE - 2);
    ck_assert_str_eq(r.white, "w");

    /* A comment longer than the value buffer is skipped whole. */
    char *huge = malloc(10000);
    ck_assert(huge != NULL);
    strcpy(huge, "(;GM[Othello]CO[");
    size_t n = strlen(huge);
    memset(huge + n, 'c', 9000);
    strcpy(huge + n + 9000, "]B[f5];)");
    ck_assert_msg(ggf_parse(huge, &r, NULL, &e), "%s", e.message);
    ck_assert_int_eq(r.game.move_count, 1);
    free(huge);
}
END_TEST

static void assert_ggf_error(const char *text, const char *expected)
{
    GgfRecord r;
    OctError e;
    r.game.move_count = -3;
    ck_assert_msg(!ggf_parse(text, &r, NULL, &e), "accepted: %s", text);
    ck_assert_error_has(e, expected);
    ck_assert_int_eq(r.game.move_count, -3);
}

START_TEST(ggf_rejects_malformed_records)
{
    assert_ggf_error("GM[Othello]B[F5];)", "'(;' not found");
    assert_ggf_error("(;GM[Othello]B[F5]", "';)' missing");
    assert_ggf_error("(;GM[Othello]B[F5] (;GM[Othello];)", "before the next '(;'");
    assert_ggf_error("(;GM[Othello]PB[abc;)", "PB: value not closed");
    assert_ggf_error("(;GM[Othello]PB[abc\\];)", "PB: value not closed");
    assert_ggf_error("(;GM[Chess];)", "not an Othello game");
    assert_ggf_error("(;GM[Othello]BO[8 " ROWS3 "---O*---" "---*O---" ROW ROW "------- *];)",
                     "BO: expected 64 squares");
    assert_ggf_error("(;GM[Othello]BO[8 " START_BO " * *];)", "BO: expected 64 squares");
    assert_ggf_error("(;GM[Othello]BO[8 " START_BO " ?];)", "BO: board: bad side to move '?'");
    assert_ggf_error("(;GM[Othello]BO[8 " ROWS3 "---Oz---" "---*O---" ROWS3 " *];)",
                     "BO: board: unexpected character 'z'");
    assert_ggf_error("(;GM[Othello]BO[10 ----];)", "board size 10 not supported");
    assert_ggf_error("(;GM[Othello]BO[];)", "board size missing");
    assert_ggf_error("(;GM[Othello]B[F5]BO[8 " START_BO " *];)", "after the first move");
    assert_ggf_error("(;GM[Othello]B[Z9];)", "B[Z9]: bad move");
    assert_ggf_error("(;GM[Othello]B[F55];)", "B[F55]: bad move");
    assert_ggf_error("(;GM[Othello]B[];)", "B[]: bad move");
    assert_ggf_error("(;GM[Othello]B[A1];)", "B[A1]: move 1 (a1): illegal for black");
    assert_ggf_error("(;GM[Othello]B[F5]W[F6/abc];)", "W[F6]: bad evaluation 'abc'");
    assert_ggf_error("(;GM[Othello]B[F5]W[F6/1/x];)", "W[F6]: bad time 'x'");
    assert_ggf_error("(;GM[Othello]B[F5]W[F6//0x10];)", "W[F6]: bad time '0x10'");
    assert_ggf_error("(;GM[Othello]B[F5]W[F6/1/2/3];)", "more than move/eval/time");
    assert_ggf_error("(;GM[Othello]B[F5]W F6];)", "tag W: expected '['");
    assert_ggf_error("(;GM[Othello]B[F5]1[F6];)", "unexpected character '1'");
    assert_ggf_error("(;GM[Othello]ABCDEFGHIJK[x];)", "too long");
}
END_TEST

static bool count_records(const GgfRecord *record, void *user)
{
    (void)record;
    ++*(int *)user;
    return true;
}

START_TEST(ggf_reads_files)
{
    char text[2048];
    snprintf(text, sizeof text,
             "%s\n"
             "(;GM[Othello]PB[x]\n BO[8 " ROWS3 "---O*---\n---*O---" ROWS3 "\n *]B[f5];)\n"
             "1 (;GM[Othello]PB[y]B[f5]W[d6];)\n",
             NBOARD_GAME);
    const char *path = write_text("games.ggf", text);
    GgfRecord *records = NULL;
    size_t count = 0;
    OctError e;
    ck_assert_msg(ggf_read_file(path, &records, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 3);
    ck_assert_str_eq(records[0].black, "a");
    ck_assert_str_eq(records[1].black, "x");
    ck_assert_int_eq(records[1].game.move_count, 1);
    ck_assert_str_eq(records[2].black, "y");
    ck_assert_int_eq(records[2].game.move_count, 2);
    free(records);

    int seen = 0;
    ck_assert(ggf_read_each(path, count_records, &seen, &e));
    ck_assert_int_eq(seen, 3);

    /* Record 2 starts on line 2 and fails on line 3. */
    snprintf(text, sizeof text,
             "%s\n(;GM[Othello]PB[x]\nB[f5]W[a1];)\n(;GM[Othello];)\n", NBOARD_GAME);
    path = write_text("bad.ggf", text);
    records = (GgfRecord *)&e;
    ck_assert(!ggf_read_file(path, &records, &count, &e));
    ck_assert_error_has(e, "bad.ggf: record 2, line 3: ");
    ck_assert_error_has(e, "illegal for white");
    ck_assert_ptr_eq(records, (GgfRecord *)&e);

    /* Truncated file: last record never closed. */
    path = write_text("cut.ggf", "(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5]W[");
    ck_assert(!ggf_read_file(path, &records, &count, &e));
    ck_assert_error_has(e, "cut.ggf: record 2, line 2: ");

    ck_assert(!ggf_read_file(path_of("none.ggf"), &records, &count, &e));
    ck_assert_error_has(e, "none.ggf: cannot open");

    /* a NUL byte would hide the records after it */
    static const char with_nul[] = "(;GM[Othello]B[f5];)\n\0(;GM[Chess];)\n";
    path = write_bytes("nul.ggf", with_nul, sizeof with_nul - 1);
    ck_assert(!ggf_read_file(path, &records, &count, &e));
    ck_assert_error_has(e, "nul.ggf: line 2: a NUL byte");
}
END_TEST

/* ---- WTHOR ------------------------------------------------------------------------------ */

static WthorHeader test_header(void)
{
    WthorHeader h;
    memset(&h, 0, sizeof h);
    h.century = 20;
    h.year = 24;
    h.month = 5;
    h.day = 17;
    h.game_year = 2024;
    h.board_size = 8;
    h.depth = 22;
    return h;
}

/* A hand-made .wtb: header plus `n` records, each 0-terminated after `moves`. */
static size_t build_wtb(unsigned char *bytes, unsigned games_in_header, int n,
                        const unsigned char *moves, int move_count)
{
    memset(bytes, 0, 16 + 68 * (size_t)n);
    bytes[0] = 20;
    bytes[1] = 5;
    bytes[2] = 10;
    bytes[3] = 8;
    bytes[4] = (unsigned char)(games_in_header & 0xFF);
    bytes[5] = (unsigned char)(games_in_header >> 8);
    bytes[10] = 0xCF; /* 1999 */
    bytes[11] = 0x07;
    bytes[12] = 8;
    bytes[14] = 24;
    for (int g = 0; g < n; ++g) {
        unsigned char *r = bytes + 16 + 68 * g;
        r[0] = 0x76; /* tournament 118 */
        r[2] = 0x53; /* black 83 */
        r[4] = 0x88;
        r[5] = 0x01; /* white 392 */
        r[6] = 12;
        r[7] = 30;
        memcpy(r + 8, moves, (size_t)move_count);
    }
    return 16 + 68 * (size_t)n;
}

static const unsigned char OPENING[] = {56, 64, 33, 34, 43}; /* f5 d6 c3 d3 c4 */

START_TEST(wthor_reads_handmade_file)
{
    unsigned char bytes[16 + 68 * 2];
    size_t size = build_wtb(bytes, 2, 2, OPENING, 5);
    const char *path = write_bytes("WTH_1999.wtb", bytes, size);
    WthorHeader h;
    WthorGame *games = NULL;
    size_t count = 0;
    OctError e;
    ck_assert_msg(wthor_read_games(path, &h, &games, &count, &e), "%s", e.message);
    ck_assert_int_eq(h.century, 20);
    ck_assert_int_eq(h.year, 5);
    ck_assert_int_eq(h.month, 10);
    ck_assert_int_eq(h.day, 8);
    ck_assert_uint_eq(h.game_count, 2);
    ck_assert_uint_eq(h.game_year, 1999);
    ck_assert_int_eq(h.board_size, 8);
    ck_assert_int_eq(h.depth, 24);
    ck_assert_uint_eq(count, 2);
    ck_assert_int_eq(games[1].tournament, 118);
    ck_assert_int_eq(games[1].black, 83);
    ck_assert_int_eq(games[1].white, 392);
    ck_assert_int_eq(games[1].real_score, 12);
    ck_assert_int_eq(games[1].theoretical_score, 30);
    Game expected;
    game_init(&expected);
    ck_assert(game_parse_moves(&expected, "f5d6c3d3c4", NULL));
    assert_games_equal(&games[1].game, &expected);
    free(games);

    /* An empty database is fine. */
    size = build_wtb(bytes, 0, 0, OPENING, 0);
    path = write_bytes("empty.wtb", bytes, size);
    ck_assert_msg(wthor_read_games(path, &h, &games, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 0);
    free(games);
}
END_TEST

START_TEST(wthor_round_trip_games)
{
    enum { N = 40 };
    WthorGame games[N];
    int passes = 0;
    for (int i = 0; i < N; ++i) {
        random_game(&games[i].game, (unsigned)i * 7919u + 1);
        passes += game_has_pass(&games[i].game);
        games[i].tournament = i * 3;
        games[i].black = 1000 + i;
        games[i].white = 65535 - i;
        games[i].real_score = (64 + game_black_score(&games[i].game)) / 2;
        games[i].theoretical_score = i;
    }
    random_game_with_pass(&games[N - 1].game); /* make sure passes are exercised */
    games[N - 1].real_score = (64 + game_black_score(&games[N - 1].game)) / 2;
    ++passes;
    WthorHeader h = test_header();
    const char *path = path_of("WTH_2024.wtb");
    OctError e;
    ck_assert_msg(wthor_write_games(path, &h, games, N, &e), "%s", e.message);
    struct stat info;
    ck_assert_int_eq(stat(path, &info), 0);
    ck_assert_int_eq(info.st_size, 16 + 68 * N);
    ck_assert_int_eq(count_dir_entries(), 1); /* no temporary file left behind */

    WthorHeader back;
    WthorGame *read = NULL;
    size_t count = 0;
    ck_assert_msg(wthor_read_games(path, &back, &read, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, N);
    ck_assert_uint_eq(back.game_count, N);
    ck_assert_int_eq(back.century, 20);
    ck_assert_int_eq(back.year, 24);
    ck_assert_int_eq(back.month, 5);
    ck_assert_int_eq(back.day, 17);
    ck_assert_uint_eq(back.game_year, 2024);
    ck_assert_int_eq(back.depth, 22);
    ck_assert_int_gt(passes, 0);
    for (int i = 0; i < N; ++i) {
        assert_games_equal(&read[i].game, &games[i].game);
        ck_assert_int_eq(read[i].tournament, games[i].tournament);
        ck_assert_int_eq(read[i].black, games[i].black);
        ck_assert_int_eq(read[i].white, games[i].white);
        ck_assert_int_eq(read[i].real_score, games[i].real_score);
        ck_assert_int_eq(read[i].theoretical_score, games[i].theoretical_score);
    }
    free(read);

    /* Overwriting replaces the file in one step; a refused write leaves it as it was. */
    ck_assert(wthor_write_games(path, &h, games, 3, &e));
    ck_assert_int_eq(stat(path, &info), 0);
    ck_assert_int_eq(info.st_size, 16 + 68 * 3);
    WthorGame odd = games[0];
    game_init_from(&odd.game, &games[0].game.start, COLOR_WHITE);
    ck_assert(!wthor_write_games(path, &h, &odd, 1, &e));
    ck_assert_error_has(e, "WTH_2024.wtb: game 1: does not start from the standard position");
    games[1].black = 70000;
    ck_assert(!wthor_write_games(path, &h, games, 2, &e));
    ck_assert_error_has(e, "game 2: black player index 70000 out of range");
    h.month = 300;
    ck_assert(!wthor_write_games(path, &h, games, 1, &e));
    ck_assert_error_has(e, "month 300");
    ck_assert_int_eq(stat(path, &info), 0);
    ck_assert_int_eq(info.st_size, 16 + 68 * 3);
    ck_assert_int_eq(count_dir_entries(), 1);

    ck_assert(!wthor_write_games(path_of("no/such/dir.wtb"), &h, games, 1, &e));
}
END_TEST

START_TEST(wthor_reads_a_directory)
{
    /* every WTH_*.wtb of a directory, by name: the 1999 file comes before the 2024 one */
    WthorGame games[3];
    for (int i = 0; i < 3; ++i) {
        random_game(&games[i].game, (unsigned)i * 31u + 5);
        games[i].tournament = games[i].black = games[i].white = 0;
        games[i].real_score = (64 + game_black_score(&games[i].game)) / 2;
        games[i].theoretical_score = 32;
    }
    WthorHeader h = test_header();
    OctError e;
    ck_assert_msg(wthor_write_games(path_of("WTH_2024.wtb"), &h, games + 2, 1, &e), "%s", e.message);
    WthorHeader deeper = h; /* each file's games keep its own solving depth */
    deeper.depth = 24;
    ck_assert(wthor_write_games(path_of("WTH_1999.wtb"), &deeper, games, 2, &e));
    ck_assert(wthor_write_games(path_of("other.wtb"), &h, games, 1, &e)); /* not WTH_ */
    /* a file of no games adds none (its empty array was once copied from a null pointer) */
    ck_assert_msg(wthor_write_games(path_of("WTH_2010.wtb"), &h, games, 0, &e), "%s", e.message);
    WthorGame *read = NULL;
    size_t count = 0;
    ck_assert_msg(wthor_read_directory(test_dir, &read, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 3);
    for (int i = 0; i < 3; ++i) {
        assert_games_equal(&read[i].game, &games[i].game);
        ck_assert_int_eq(read[i].depth, i < 2 ? 24 : 22);
    }
    free(read);
    /* a broken file fails the whole directory, naming the file */
    FILE *broken = fopen(path_of("WTH_2000.wtb"), "wb");
    ck_assert_ptr_nonnull(broken);
    fputs("short", broken);
    fclose(broken);
    read = NULL;
    ck_assert(!wthor_read_directory(test_dir, &read, &count, &e));
    ck_assert_error_has(e, "WTH_2000.wtb");
    ck_assert_ptr_null(read);
    ck_assert(!wthor_read_directory(path_of("missing"), &read, &count, &e));
    ck_assert_error_has(e, "cannot open the directory");
}
END_TEST

START_TEST(wthor_round_trip_names)
{
    WthorName players[3];
    strcpy(players[0].text, "Tastet Marc");
    strcpy(players[1].text, "12345678901234567890"); /* exactly 20 bytes */
    strcpy(players[2].text, "Caf\xe9 Latin-1");
    WthorHeader h = test_header();
    OctError e;
    const char *path = path_of("WTHOR.JOU");
    ck_assert_msg(wthor_write_players(path, &h, players, 3, &e), "%s", e.message);
    WthorHeader back;
    WthorName *names = NULL;
    size_t count = 0;
    ck_assert_msg(wthor_read_players(path, &back, &names, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 3);
    ck_assert_uint_eq(back.record_count, 3);
    ck_assert_uint_eq(back.game_count, 0);
    for (int i = 0; i < 3; ++i)
        ck_assert_str_eq(names[i].text, players[i].text);
    free(names);

    WthorName tournaments[2];
    strcpy(tournaments[0].text, "Championnat du Monde");
    strcpy(tournaments[1].text, "12345678901234567890123456"); /* 26 bytes */
    path = path_of("WTHOR.TRN");
    ck_assert_msg(wthor_write_tournaments(path, &h, tournaments, 2, &e), "%s", e.message);
    ck_assert_msg(wthor_read_tournaments(path, &back, &names, &count, &e), "%s", e.message);
    ck_assert_uint_eq(count, 2);
    ck_assert_str_eq(names[1].text, tournaments[1].text);
    free(names);

    /* A name too long for .jou is refused and nothing is written. */
    int before = count_dir_entries();
    ck_assert(!wthor_write_players(path_of("long.jou"), &h, tournaments, 2, &e));
    ck_assert_error_has(e, "long.jou: player 2: name '12345678901234567890123456' longer than 20");
    ck_assert_int_eq(count_dir_entries(), before);

    /* Reading a .trn as .jou fails on the size. */
    names = (WthorName *)&e;
    ck_assert(!wthor_read_players(path_of("WTHOR.TRN"), &back, &names, &count, &e));
    ck_assert_error_has(e, "WTHOR.TRN: file size");
    ck_assert_ptr_eq(names, (WthorName *)&e);
}
END_TEST

static void assert_wtb_error(const char *name, const unsigned char *bytes, size_t size,
                             const char *expected)
{
    const char *path = write_bytes(name, bytes, size);
    WthorHeader h;
    h.depth = -5;
    WthorGame *games = (WthorGame *)&h; /* sentinel: untouched on error */
    size_t count = 77;
    OctError e;
    ck_assert_msg(!wthor_read_games(path, &h, &games, &count, &e), "accepted %s", name);
    ck_assert_error_has(e, name);
    ck_assert_error_has(e, expected);
    ck_assert_ptr_eq(games, (WthorGame *)&h);
    ck_assert_uint_eq(count, 77);
    ck_assert_int_eq(h.depth, -5);
}

START_TEST(wthor_rejects_bad_files)
{
    unsigned char bytes[16 + 68 * 4];
    size_t size = build_wtb(bytes, 3, 3, OPENING, 5);
    /* Truncated last record. */
    assert_wtb_error("cut.wtb", bytes, size - 30, ": record 3: truncated");
    /* Header announces more games than present. */
    size = build_wtb(bytes, 4, 3, OPENING, 5);
    assert_wtb_error("short.wtb", bytes, size, ": record 4: truncated");
    /* Extra bytes. */
    size = build_wtb(bytes, 2, 3, OPENING, 5);
    assert_wtb_error("long.wtb", bytes, size, ": file size 220 does not match");
    /* Truncated header. */
    assert_wtb_error("tiny.wtb", bytes, 10, ": truncated header");
    /* Huge game count in the header: refused on size, nothing allocated. */
    size = build_wtb(bytes, 1, 1, OPENING, 5);
    bytes[7] = 0xFF;
    assert_wtb_error("huge.wtb", bytes, size, ": record 2: truncated");
    /* Board size. */
    size = build_wtb(bytes, 1, 1, OPENING, 5);
    bytes[12] = 10;
    assert_wtb_error("ten.wtb", bytes, size, "board size 10 not supported");

    /* Bad move byte in record 2. */
    size = build_wtb(bytes, 3, 3, OPENING, 5);
    bytes[16 + 68 + 8 + 2] = 99;
    assert_wtb_error("byte.wtb", bytes, size, ": record 2: move byte 3: bad value 99");
    size = build_wtb(bytes, 3, 3, OPENING, 5);
    bytes[16 + 68 * 2 + 8 + 4] = 19; /* column 9 */
    assert_wtb_error("col.wtb", bytes, size, ": record 3: move byte 5: bad value 19");
    size = build_wtb(bytes, 3, 3, OPENING, 5);
    bytes[16 + 8 + 40] = 44; /* data after the end marker */
    assert_wtb_error("tail.wtb", bytes, size, ": record 1: move byte 41: 44 after the end");

    /* Illegal move: record 2, fourth move a1. */
    size = build_wtb(bytes, 3, 3, OPENING, 5);
    bytes[16 + 68 + 8 + 3] = 11;
    assert_wtb_error("WTH_1999.wtb", bytes, size, "WTH_1999.wtb: record 2: move 4 (a1): "
                     "illegal for white");
    /* Repeated square. */
    size = build_wtb(bytes, 1, 1, OPENING, 5);
    bytes[16 + 8 + 2] = 56;
    assert_wtb_error("again.wtb", bytes, size, ": record 1: move 3 (f5): illegal for black");

    WthorHeader h;
    WthorGame *games;
    size_t count;
    OctError e;
    ck_assert(!wthor_read_games(path_of("absent.wtb"), &h, &games, &count, &e));
    ck_assert_error_has(e, "absent.wtb: cannot open");
    ck_assert(!wthor_read_games(test_dir, &h, &games, &count, &e));
    ck_assert_error_has(e, "not a regular file");
}
END_TEST

/* ---- logbook ---------------------------------------------------------------------------- */

START_TEST(logbook_reads_line)
{
    LogbookGame g;
    OctError e;
    ck_assert_msg(logbook_parse_line("+f5-d6+c3-d3+c4: +00 10\n", &g, &e), "%s", e.message);
    Game expected;
    game_init(&expected);
    ck_assert(game_parse_moves(&expected, "f5d6c3d3c4", NULL));
    assert_games_equal(&g.game, &expected);
    ck_assert_int_eq(g.score, 0);
    ck_assert_msg(logbook_parse_line("+F5-D6: -04", &g, &e), "%s", e.message);
    ck_assert_int_eq(g.score, -4);
    ck_assert_int_eq(g.game.move_count, 2);
}
END_TEST

START_TEST(logbook_round_trip)
{
    OctError e;
    char line[LOGBOOK_LINE_SIZE];
    for (unsigned seed = 1; seed < 60; ++seed) {
        LogbookGame g, back;
        random_game(&g.game, seed);
        g.score = logbook_final_score(&g.game);
        ck_assert_msg(logbook_format_line(&g, line, sizeof line, &e), "%s", e.message);
        ck_assert_msg(logbook_parse_line(line, &back, &e), "%s: %s", line, e.message);
        assert_games_equal(&g.game, &back.game);
        ck_assert_int_eq(back.score, g.score);
    }
    /* Passes appear as a repeated sign. */
    LogbookGame g, back;
    random_game_with_pass(&g.game);
    g.score = logbook_final_score(&g.game);
    ck_assert(logbook_format_line(&g, line, sizeof line, &e));
    bool repeated = false;
    for (size_t i = 3; i + 3 < strlen(line) && line[i] != ':'; i += 3)
        repeated |= line[i] == line[i - 3];
    ck_assert_msg(repeated, "no repeated sign in %s", line);
    ck_assert(logbook_parse_line(line, &back, &e));
    assert_games_equal(&g.game, &back.game);

    ck_assert(!logbook_format_line(&g, line, 10, &e));
    ck_assert_error_has(e, "buffer");
}
END_TEST

static void assert_logbook_error(const char *line, const char *expected)
{
    LogbookGame g;
    OctError e;
    g.score = 1234;
    ck_assert_msg(!logbook_parse_line(line, &g, &e), "accepted: %s", line);
    ck_assert_error_has(e, expected);
    ck_assert_int_eq(g.score, 1234);
}

START_TEST(logbook_rejects_bad_lines)
{
    assert_logbook_error("+f5*d6: +00 10", "column 4: bad token '*d6'");
    assert_logbook_error("+f5-z9: +00 10", "column 4: bad token 2 '-z9'");
    assert_logbook_error("+f5-d", "column 4: bad token 2 '-d'");
    assert_logbook_error("+f5-d6", "missing ':'");
    assert_logbook_error("+f5-d6: x 10", "bad score 'x 10'");
    assert_logbook_error("+f5-d6: +99 10", "bad score");
    assert_logbook_error("+f5-d6: ", "bad score");
    assert_logbook_error("+f5-d6+a1: +00 10", "column 7: move 3 (a1): illegal for black");
    assert_logbook_error("+f5+d6: +00 10", "move 2 (d6): played by black, but white is to move and cannot pass");
    /* Score mismatch in a finished game. */
    LogbookGame g;
    OctError e;
    char line[LOGBOOK_LINE_SIZE];
    random_game(&g.game, 5);
    g.score = logbook_final_score(&g.game) + 2;
    ck_assert(logbook_format_line(&g, line, sizeof line, &e));
    char expected[64];
    snprintf(expected, sizeof expected, "stated score %+d, but the game ends ", g.score);
    assert_logbook_error(line, expected);
    snprintf(expected, sizeof expected, " (%+d)", g.score - 2);
    assert_logbook_error(line, expected);
}
END_TEST

/* The stated score is the raw disc difference: empties are not given to the winner. */
START_TEST(logbook_score_leaves_empties_out)
{
    LogbookGame g, back;
    OctError e;
    char line[LOGBOOK_LINE_SIZE];
    unsigned seed = 1;
    for (;; ++seed) {
        ck_assert_uint_lt(seed, 100000);
        random_game(&g.game, seed);
        if (logbook_final_score(&g.game) != game_black_score(&g.game))
            break;
    }
    Board board;
    game_position(&g.game, g.game.move_count, &board, NULL);
    ck_assert_int_gt(board_count_empties(&board), 0);
    g.score = logbook_final_score(&g.game);
    ck_assert(logbook_format_line(&g, line, sizeof line, &e));
    ck_assert_msg(logbook_parse_line(line, &back, &e), "%s: %s", line, e.message);
    ck_assert_int_eq(back.score, g.score);
    /* The empties-to-the-winner score is refused. */
    g.score = game_black_score(&g.game);
    ck_assert(logbook_format_line(&g, line, sizeof line, &e));
    ck_assert(!logbook_parse_line(line, &back, &e));
    ck_assert_error_has(e, "stated score");
}
END_TEST

static const char *write_gzip(const char *name, const char *text)
{
    const char *path = path_of(name);
    gzFile file = gzopen(path, "wb");
    ck_assert(file != NULL);
    ck_assert_int_eq(gzputs(file, text), (int)strlen(text));
    ck_assert_int_eq(gzclose(file), Z_OK);
    return path;
}

typedef struct Seen {
    int games;
    LogbookGame last;
} Seen;

static bool remember(const LogbookGame *game, void *user)
{
    Seen *seen = user;
    ++seen->games;
    seen->last = *game;
    return true;
}

/* Three finished games and a blank line. */
static void logbook_text(char *text, size_t size)
{
    size_t used = 0;
    for (unsigned seed = 10; seed < 13; ++seed) {
        LogbookGame g;
        random_game(&g.game, seed);
        g.score = logbook_final_score(&g.game);
        ck_assert(logbook_format_line(&g, text + used, size - used, NULL));
        used += strlen(text + used);
        used += (size_t)snprintf(text + used, size - used, seed == 11 ? "\n\n" : "\n");
    }
}

START_TEST(logbook_reads_plain_and_gzip_files)
{
    char text[2048];
    logbook_text(text, sizeof text);
    const char *paths[2] = {write_text("logbook.gam", text), write_gzip("logbook.gam.gz", text)};
    LogbookGame expected;
    random_game(&expected.game, 12);
    for (int i = 0; i < 2; ++i) {
        Seen seen = {0};
        OctError e;
        ck_assert_msg(logbook_read_file(paths[i], remember, &seen, &e), "%s", e.message);
        ck_assert_int_eq(seen.games, 3);
        assert_games_equal(&seen.last.game, &expected.game);
        ck_assert_int_eq(seen.last.score, logbook_final_score(&expected.game));
    }
    /* The gzip file really is compressed (magic bytes). */
    FILE *file = fopen(paths[1], "rb");
    ck_assert(file != NULL);
    ck_assert_int_eq(fgetc(file), 0x1f);
    ck_assert_int_eq(fgetc(file), 0x8b);
    fclose(file);
}
END_TEST

START_TEST(logbook_reports_errors_by_line)
{
    char text[4096];
    logbook_text(text, sizeof text);
    strcat(text, "+f5-d6+zz: +00 10\n+f5-d6: +00 10\n");
    const char *path = write_gzip("bad.gam.gz", text);
    OctError e;
    Seen seen = {0};
    /* Line 3 is blank, so the bad line is line 5. */
    ck_assert(!logbook_read_file(path, remember, &seen, &e));
    ck_assert_error_has(e, "bad.gam.gz: line 5: column 7: bad token 3 '+zz'");
    ck_assert_int_eq(seen.games, 3);

    /* The iterator goes on after a bad line. */
    LogbookReader *reader = logbook_open(path, &e);
    ck_assert(reader != NULL);
    LogbookGame g;
    int games = 0, errors = 0;
    LogbookStatus status;
    while ((status = logbook_next(reader, &g, &e)) != LOGBOOK_END) {
        if (status == LOGBOOK_GAME)
            ++games;
        else
            ++errors;
    }
    ck_assert_int_eq(games, 4);
    ck_assert_int_eq(errors, 1);
    ck_assert_int_eq(logbook_line_number(reader), 6);
    logbook_close(reader);

    /* A truncated gzip stream is a read error, not a silent end. */
    const char *big_path = path_of("big.gam.gz");
    gzFile out = gzopen(big_path, "wb");
    for (int i = 0; i < 2000; ++i)
        gzprintf(out, "+f5-d6+c3-d3+c4: +00 %d\n", i);
    gzclose(out);
    FILE *file = fopen(big_path, "rb");
    unsigned char buffer[65536];
    size_t size = fread(buffer, 1, sizeof buffer, file);
    fclose(file);
    ck_assert_uint_gt(size, 100);
    path = write_bytes("cut.gam.gz", buffer, size / 2);
    seen.games = 0;
    ck_assert(!logbook_read_file(path, remember, &seen, &e));
    ck_assert_error_has(e, "cut.gam.gz: line ");
    ck_assert_error_has(e, "read error");
    /* cut anywhere in a file of whole games, it says so, never that a token is bad */
    out = gzopen(big_path, "wb");
    char lines[2048];
    logbook_text(lines, sizeof lines);
    for (int i = 0; i < 300; ++i)
        gzputs(out, lines);
    gzclose(out);
    file = fopen(big_path, "rb");
    size = fread(buffer, 1, sizeof buffer, file);
    fclose(file);
    for (int part = 1; part < 8; ++part) {
        path = write_bytes("cut.gam.gz", buffer, size * (size_t)part / 8);
        ck_assert(!logbook_read_file(path, remember, &seen, &e));
        ck_assert_msg(strstr(e.message, "read error") || strstr(e.message, "breaks off"), "%s",
                      e.message);
        ck_assert_msg(!strstr(e.message, "bad token"), "%s", e.message);
    }

    /* Overlong line. */
    char *huge = malloc(5000);
    memset(huge, '+', 4998);
    huge[4998] = '\n';
    huge[4999] = '\0';
    path = write_text("long.gam", huge);
    free(huge);
    ck_assert(!logbook_read_file(path, remember, &seen, &e));
    ck_assert_error_has(e, "long.gam: line 1: longer than");

    ck_assert(logbook_open(path_of("nothing.gam"), &e) == NULL);
    ck_assert_error_has(e, "nothing.gam: cannot open");
}
END_TEST

/* ---- game clocks ------------------------------------------------------------------------ */

START_TEST(gameclock_reads_ggf_times)
{
    GgfClock c;
    OctError e;
    ck_assert(gameclock_parse_ggf("15:00", &c, &e));
    ck_assert_double_eq(c.main, 900);
    ck_assert_double_eq(c.increment, 0);
    ck_assert(gameclock_parse_ggf("5:00//2:00", &c, &e));
    ck_assert(c.main == 300 && c.increment == 0 && c.grace == 120);
    ck_assert(gameclock_parse_ggf("1:00:00/10/", &c, &e));
    ck_assert(c.main == 3600 && c.increment == 10 && c.grace == 0);
    ck_assert(gameclock_parse_ggf(" 90 ", &c, &e));
    ck_assert_double_eq(c.main, 90);
    ck_assert(gameclock_parse_ggf("0:30.5", &c, &e));
    ck_assert_double_eq_tol(c.main, 30.5, 1e-9);
    /* GGS's modifiers are skipped; an empty field is 0 */
    ck_assert(gameclock_parse_ggf("5:00,N20/0/2:00", &c, &e));
    ck_assert(c.main == 300 && c.increment == 0 && c.grace == 120);
    ck_assert(gameclock_parse_ggf("15:00,10", &c, &e));
    ck_assert_double_eq(c.main, 900);
    ck_assert(gameclock_parse_ggf("/0:05", &c, &e));
    ck_assert(c.main == 0 && c.increment == 5);
    ck_assert(gameclock_parse_ggf("00000000000000000000000000000005:00", &c, &e));
    ck_assert_double_eq(c.main, 300);
    static const char *const bad[] = {"5:x", "x", "1/2/3/4", "1:2:3:4", ":30", "5:", "1.5:00",
                                      "0.", "-5", "1 : 30", "1:30,x!", "2 2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        c = (GgfClock){-1, -1, -1};
        ck_assert_msg(!gameclock_parse_ggf(bad[i], &c, &e), "read '%s'", bad[i]);
        ck_assert_msg(strstr(e.message, "clock TI[") != NULL, "%s", e.message);
        ck_assert(c.main == -1 && c.increment == -1 && c.grace == -1); /* untouched */
    }
}
END_TEST

/* A side's clock: TI's main time less that side's move times, plus its increments; the
 * other side's times and the passes do not count, TI[0] and no TI are no clock. */
START_TEST(gameclock_from_records)
{
    const char *text =
        "(;GM[Othello]TI[1:00/2]BO[8 ---------------------------O*------*O---------------------"
        "------ *]B[F5//10.5]W[f6//3]B[e6]W[f4//4]B[e3//0];)";
    GgfRecord r;
    OctError e;
    ck_assert_msg(ggf_parse(text, &r, NULL, &e), "%s", e.message);
    GameClock clock;
    bool present = false;
    ck_assert(gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert(present);
    /* e6 has no time: played before the clock ran (an opening), it earns nothing */
    ck_assert_double_eq_tol(clock.left, 60 - 10.5 + 2 * 2, 1e-9);
    ck_assert(clock.moves == 0 && clock.increment == 2);
    ck_assert(gameclock_from_record(&r, COLOR_WHITE, &clock, &present, &e));
    ck_assert_double_eq_tol(clock.left, 60 - 7 + 2 * 2, 1e-9);
    /* the main time spent: the grace is left */
    snprintf(r.clock, sizeof r.clock, "0:05//1:00");
    ck_assert(gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert_double_eq_tol(clock.left, 5 - 10.5 + 60, 1e-9);

    snprintf(r.clock, sizeof r.clock, "0");
    present = true;
    ck_assert(gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert(!present);
    r.clock[0] = '\0';
    present = true;
    ck_assert(gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert(!present);
    snprintf(r.clock, sizeof r.clock, "15:0O");
    present = true;
    ck_assert(!gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert_error_has(e, "clock TI[15:0O]");

    /* GGS's own clocks for each side (TB, TW) come before TI, and are written back */
    const char *ggs =
        "(;GM[Othello]TI[1:00]TB[2:00/1]TW[0:30]BO[8 ------------------------"
        "---O*------*O--------------------------- *]B[F5//10.5]W[f6//3]B[e6//1];)";
    ck_assert_msg(ggf_parse(ggs, &r, NULL, &e), "%s", e.message);
    ck_assert_str_eq(r.black_clock, "2:00/1");
    ck_assert_str_eq(r.white_clock, "0:30");
    ck_assert(gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert(present);
    ck_assert_double_eq_tol(clock.left, 120 - 10.5 - 1 + 2 * 1, 1e-9);
    ck_assert(clock.increment == 1);
    ck_assert(gameclock_from_record(&r, COLOR_WHITE, &clock, &present, &e));
    ck_assert_double_eq_tol(clock.left, 30 - 3, 1e-9);
    r.white_clock[0] = '\0'; /* white falls back on TI */
    ck_assert(gameclock_from_record(&r, COLOR_WHITE, &clock, &present, &e));
    ck_assert_double_eq_tol(clock.left, 60 - 3, 1e-9);
    snprintf(r.black_clock, sizeof r.black_clock, "2:0x");
    ck_assert(!gameclock_from_record(&r, COLOR_BLACK, &clock, &present, &e));
    ck_assert_error_has(e, "clock TB[2:0x]");
    ck_assert_msg(ggf_parse(ggs, &r, NULL, &e), "%s", e.message);
    char line[GGF_LINE_SIZE];
    ck_assert_msg(ggf_format(&r, line, sizeof line, &e), "%s", e.message);
    ck_assert_msg(strstr(line, "TI[1:00]TB[2:00/1]TW[0:30]"), "%s", line);
}
END_TEST

/* The share of a move: within what the clock holds, larger with fewer moves to go, the
 * increment spent ahead only when the clock covers it, overtime's share once the main time
 * is nearly spent. */
START_TEST(gameclock_budgets)
{
    GameClock clock = {60, 0, 0, 0, 0};
    double opening = gameclock_budget(&clock, 60);
    double solve = gameclock_budget(&clock, 20);
    double last = gameclock_budget(&clock, 2);
    ck_assert(opening > 0 && opening < solve && solve < last);
    ck_assert(last <= 30); /* never more than half of the clock */
    ck_assert(opening * 26 <= 60);
    for (int empties = 0; empties <= 60; ++empties) { /* the whole game fits the clock */
        GameClock run = {60, 0, 0, 0, 0};
        double spent = 0;
        for (int e = empties; e >= 0; e -= 2) {
            double share = gameclock_budget(&run, e);
            spent += share;
            run.left -= share;
        }
        ck_assert_msg(spent < 60, "%d empties: %.2f s", empties, spent);
    }
    clock = (GameClock){0.1, 0, 0, 0, 0}; /* nothing left: the minimum, never 0 */
    ck_assert(gameclock_budget(&clock, 30) > 0);
    ck_assert(gameclock_budget(&clock, 30) < 0.1);
    clock = (GameClock){-3, 0, 0, 0, 0}; /* overspent */
    ck_assert(gameclock_budget(&clock, 30) > 0);
    clock = (GameClock){10, 5, 0, 0, 0}; /* in a period: 10 s for 5 moves */
    double share = gameclock_budget(&clock, 40);
    ck_assert(share > 1.5 && share < 2);
    clock = (GameClock){60, 0, 10, 0, 0}; /* an increment is spent ahead */
    ck_assert(gameclock_budget(&clock, 40) > gameclock_budget(&(GameClock){60, 0, 0, 0, 0}, 40) + 8);
    clock = (GameClock){1, 0, 10, 0, 0}; /* but not beyond what the clock holds now */
    ck_assert(gameclock_budget(&clock, 40) < 1);
    clock = (GameClock){0.5, 0, 0, 30, 10}; /* main time nearly spent, overtime next */
    share = gameclock_budget(&clock, 40);
    ck_assert(share > 2 && share < 3);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------ */

static Suite *formats_suite(void)
{
    Suite *suite = suite_create("formats");
    TCase *obf = tcase_create("obf");
    tcase_add_checked_fixture(obf, make_dir, remove_dir);
    tcase_add_test(obf, obf_reads_position);
    tcase_add_test(obf, obf_skips_comments_and_blank_lines);
    tcase_add_test(obf, obf_round_trip);
    tcase_add_test(obf, obf_rejects_bad_lines);
    tcase_add_test(obf, obf_reads_file);
    suite_add_tcase(suite, obf);

    TCase *ggf = tcase_create("ggf");
    tcase_add_checked_fixture(ggf, make_dir, remove_dir);
    tcase_add_test(ggf, ggf_reads_nboard_record);
    tcase_add_test(ggf, ggf_reads_evals_times_and_lenient_syntax);
    tcase_add_test(ggf, ggf_reads_back_tiny_numbers);
    tcase_add_test(ggf, ggf_handles_passes);
    tcase_add_test(ggf, ggf_round_trip);
    tcase_add_test(ggf, ggf_truncates_long_metadata);
    tcase_add_test(ggf, ggf_rejects_malformed_records);
    tcase_add_test(ggf, ggf_reads_files);
    suite_add_tcase(suite, ggf);

    TCase *gameclock = tcase_create("gameclock");
    tcase_add_test(gameclock, gameclock_reads_ggf_times);
    tcase_add_test(gameclock, gameclock_from_records);
    tcase_add_test(gameclock, gameclock_budgets);
    suite_add_tcase(suite, gameclock);

    TCase *wthor = tcase_create("wthor");
    tcase_add_checked_fixture(wthor, make_dir, remove_dir);
    tcase_add_test(wthor, wthor_reads_handmade_file);
    tcase_add_test(wthor, wthor_round_trip_games);
    tcase_add_test(wthor, wthor_reads_a_directory);
    tcase_add_test(wthor, wthor_round_trip_names);
    tcase_add_test(wthor, wthor_rejects_bad_files);
    suite_add_tcase(suite, wthor);

    TCase *logbook = tcase_create("logbook");
    tcase_add_checked_fixture(logbook, make_dir, remove_dir);
    tcase_add_test(logbook, logbook_reads_line);
    tcase_add_test(logbook, logbook_round_trip);
    tcase_add_test(logbook, logbook_rejects_bad_lines);
    tcase_add_test(logbook, logbook_score_leaves_empties_out);
    tcase_add_test(logbook, logbook_reads_plain_and_gzip_files);
    tcase_add_test(logbook, logbook_reports_errors_by_line);
    suite_add_tcase(suite, logbook);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(formats_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

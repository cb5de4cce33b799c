/* Squares, move strings, board text and diagrams, games built from move strings. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "testutil.h"

/* A message too long for its buffer keeps its start and its end (the reason after a long
 * path), cut at character boundaries; error_prefix does the same. */
START_TEST(test_error_long_messages)
{
    char path[2001];
    memset(path, 'p', 2000);
    path[0] = '/';
    memcpy(path + 1691, "\xc3\xa9", 2); /* a 2-byte character where the end's cut falls */
    path[2000] = '\0';
    OctError error;
    ck_assert(!error_set(&error, "%s: cannot open: No such file or directory", path));
    size_t length = strlen(error.message);
    ck_assert_uint_lt(length, ERROR_MESSAGE_SIZE);
    ck_assert_uint_gt(length, ERROR_MESSAGE_SIZE - 8);
    ck_assert(!strncmp(error.message, "/ppp", 4));
    ck_assert_ptr_null(strchr(error.message, '\xa9')); /* the character went whole */
    ck_assert_ptr_nonnull(strstr(error.message, "pp...pp"));
    const char *reason = ": cannot open: No such file or directory";
    ck_assert_str_eq(error.message + length - strlen(reason), reason);
    ck_assert(!error_prefix(&error, "game %d: ", 3));
    ck_assert(!strncmp(error.message, "game 3: /ppp", 12));
    ck_assert_str_eq(error.message + strlen(error.message) - strlen(reason), reason);
    /* a cut never splits a character: the message is still UTF-8 */
    ck_assert(!error_set(&error, "%.159s\xc3\xa9\xc3\xa9%s", path, path + 200));
    for (const unsigned char *c = (const unsigned char *)error.message; *c; ++c)
        if (*c >= 0x80) {
            ck_assert_uint_eq(c[0], 0xc3);
            ck_assert_uint_eq(c[1], 0xa9);
            ++c;
        }
    /* a long prefix keeps its end too, and the message after it */
    ck_assert(!error_set(&error, "inner reason"));
    ck_assert(!error_prefix(&error, "%s: game %d: ", path, 7));
    ck_assert_msg(strstr(error.message, "pp: game 7: inner reason"), "%s", error.message);
    /* bytes that only look like the middle of characters (not UTF-8) cost at most three
     * bytes at each cut */
    char latin[1001];
    memset(latin, 0x85, 1000);
    latin[1000] = '\0';
    ck_assert(!error_set(&error, "%s: the reason", latin));
    ck_assert_uint_ge(strlen(error.message), ERROR_MESSAGE_SIZE - 7);
    ck_assert_str_eq(error.message + strlen(error.message) - 12, ": the reason");
    /* quoted input stays one line of UTF-8: control characters and bytes that are not
     * UTF-8 turn into '?', well-formed characters stay */
    ck_assert(!error_set(&error, "bad '%s' here", "a\nb\r\x01\x7f\xc3\xa9\xc3(\xff\xe2\x82\xac"
                                                 "\xed\xa0\x80\xf0\x9f\x98\x80\xc3"));
    ck_assert_str_eq(error.message, "bad 'a?b???\xc3\xa9?(?\xe2\x82\xac???\xf0\x9f\x98\x80?' here");
    /* overlong forms and code points past U+10FFFF are not UTF-8; a character cut by the
     * end of the text is not either */
    ck_assert(!error_set(&error, "%s", "\xc0\x80|\xc1\xbf|\xe0\x80\x80|\xf0\x80\x80\x80|"
                                       "\xf4\x90\x80\x80|\xf5\x80|\xf4\x8f\xbf\xbf|\xe2\x82"));
    ck_assert_str_eq(error.message, "??|??|???|????|????|??|\xf4\x8f\xbf\xbf|??");
    ck_assert(!error_prefix(&error, "line %s: ", "\t1"));
    ck_assert_str_eq(error.message, "line ?1: ??|??|???|????|????|??|\xf4\x8f\xbf\xbf|??");
    /* a short one is kept whole */
    ck_assert(!error_set(&error, "%s", "short"));
    ck_assert_str_eq(error.message, "short");
}
END_TEST

START_TEST(test_move_round_trip)
{
    char text[3];
    for (int square = 0; square < 64; ++square) {
        size_t used = 0;
        ck_assert_int_eq(move_parse(move_format(square, text), &used), square);
        ck_assert_uint_eq(used, 2);
    }
    ck_assert_str_eq(move_format(0, text), "a1");
    ck_assert_str_eq(move_format(63, text), "h8");
    ck_assert_str_eq(move_format(7, text), "h1");
    ck_assert_str_eq(move_format(56, text), "a8");
    ck_assert_str_eq(move_format_colored(37, COLOR_BLACK, text), "F5");
    ck_assert_str_eq(move_format_colored(37, COLOR_WHITE, text), "f5");
    ck_assert_str_eq(move_format_colored(MOVE_PASS, COLOR_WHITE, text), "PA");
    ck_assert_int_eq(move_parse("F5", NULL), 37);
    size_t used;
    ck_assert_int_eq(move_parse("PA", &used), MOVE_PASS);
    ck_assert_uint_eq(used, 2);
    ck_assert_int_eq(move_parse("pass", &used), MOVE_PASS);
    ck_assert_uint_eq(used, 4);
    ck_assert_int_eq(move_parse("--", NULL), MOVE_PASS);
    ck_assert_str_eq(move_format(MOVE_PASS, text), "pa");
}
END_TEST

START_TEST(test_move_parse_rejects)
{
    const char *bad[] = {"", "i1", "a0", "a9", "z", "1a", "a", "@4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        ck_assert_int_eq(move_parse(bad[i], NULL), -1);
}
END_TEST

START_TEST(test_board_text_round_trip)
{
    TestRandom random = {5};
    Board positions[128];
    int count = test_random_game(&random, positions, 128);
    for (int i = 0; i < count; ++i) {
        for (int side = 0; side < 2; ++side) {
            char text[BOARD_TEXT_SIZE];
            board_format(&positions[i], (Color)side, text);
            ck_assert_uint_eq(strlen(text), 66);
            Board back;
            Color back_side;
            OctError error;
            ck_assert_msg(board_parse(text, &back, &back_side, &error), "%s", error.message);
            ck_assert(board_equal(&back, &positions[i]));
            ck_assert_int_eq(back_side, side);
        }
    }
    Board start;
    board_init(&start);
    char text[BOARD_TEXT_SIZE];
    ck_assert_str_eq(board_format(&start, COLOR_BLACK, text),
                     "---------------------------OX------XO--------------------------- X");
}
END_TEST

START_TEST(test_board_parse_lenient_and_errors)
{
    Board board;
    Color side;
    OctError error;
    /* rows separated by spaces, other square letters, side as '*' */
    ck_assert(board_parse("-------- -------- -------- ---wb--- ---BW--- -------- -------- ........ *",
                          &board, &side, &error));
    Board start;
    board_init(&start);
    ck_assert(board_equal(&board, &start));
    ck_assert_int_eq(side, COLOR_BLACK);
    ck_assert(!board_parse("---------------------------OX------XO---------", &board, &side, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "only 46 of 64"));
    ck_assert(!board_parse("---------------------------OX------XO--------------------------- Z",
                           &board, &side, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "side to move"));
    ck_assert(!board_parse("------?--------------------OX------XO--------------------------- X",
                           &board, &side, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "'?' at square 7"));
    ck_assert(!board_parse("---------------------------OX------XO---------------------------",
                           &board, &side, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "missing"));
    ck_assert(board_equal(&board, &start)); /* failures leave the output alone */
}
END_TEST

START_TEST(test_diagram)
{
    Board board;
    board_init(&board);
    char diagram[BOARD_DIAGRAM_SIZE];
    board_diagram(&board, COLOR_BLACK, diagram);
    ck_assert_ptr_nonnull(strstr(diagram, "4 - - . O * - - - 4"));
    ck_assert_ptr_nonnull(strstr(diagram, "black to move (4 moves)"));
    ck_assert_ptr_nonnull(strstr(diagram, "* black:  2"));
}
END_TEST

START_TEST(test_game_moves_with_implicit_passes)
{
    /* Random games: their move strings written without passes parse back to the same game. */
    TestRandom random = {31337};
    int games_with_pass = 0;
    for (int round = 0; round < 300; ++round) {
        Game game;
        game_init(&game);
        Board board;
        board_init(&board);
        while (!board_is_over(&board)) {
            int move = test_random_move(&random, &board);
            OctError error;
            ck_assert_msg(game_append(&game, move, &error), "%s", error.message);
            board_play(&board, move);
        }
        ck_assert(game_is_over(&game));
        char text[2 * GAME_MOVE_CAPACITY + 1], implicit[2 * GAME_MOVE_CAPACITY + 1];
        ck_assert(game_format_moves(&game, text, sizeof text));
        int has_pass = 0;
        size_t w = 0;
        for (size_t r = 0; text[r]; r += 2) {
            if (text[r] == 'p') {
                has_pass = 1;
                continue;
            }
            implicit[w++] = text[r];
            implicit[w++] = text[r + 1];
        }
        implicit[w] = '\0';
        games_with_pass += has_pass;
        Game back;
        game_init(&back);
        OctError error;
        ck_assert_msg(game_parse_moves(&back, implicit, &error), "%s", error.message);
        ck_assert_int_eq(back.move_count, game.move_count);
        ck_assert_mem_eq(back.moves, game.moves, sizeof(int) * (size_t)game.move_count);
        ck_assert_int_eq(game_black_score(&back), game_black_score(&game));
    }
    ck_assert_int_gt(games_with_pass, 0);
}
END_TEST

START_TEST(test_game_parse_errors_leave_game_unchanged)
{
    Game game;
    game_init(&game);
    OctError error;
    ck_assert(game_parse_moves(&game, "f5 D6", &error));
    ck_assert_int_eq(game.move_count, 2);
    ck_assert(!game_parse_moves(&game, "c3e4", &error)); /* c3 fine, e4 occupied */
    ck_assert_ptr_nonnull(strstr(error.message, "move 4 (e4): illegal for white"));
    ck_assert_int_eq(game.move_count, 2);
    ck_assert(!game_parse_moves(&game, "c3x9", &error));
    ck_assert_ptr_nonnull(strstr(error.message, "bad move 'x9' at character 3"));
    ck_assert(!game_parse_moves(&game, "pa", &error));
    ck_assert_ptr_nonnull(strstr(error.message, "cannot pass"));
    ck_assert_int_eq(game.move_count, 2);
    Board board;
    Color side;
    game_position(&game, 99, &board, &side);
    ck_assert_int_eq(side, COLOR_BLACK);
    ck_assert_int_eq(board_count_empties(&board), 58);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("notation");
    TCase *moves = tcase_create("moves");
    tcase_add_test(moves, test_move_round_trip);
    tcase_add_test(moves, test_error_long_messages);
    tcase_add_test(moves, test_move_parse_rejects);
    suite_add_tcase(suite, moves);
    TCase *boards = tcase_create("boards");
    tcase_add_test(boards, test_board_text_round_trip);
    tcase_add_test(boards, test_board_parse_lenient_and_errors);
    tcase_add_test(boards, test_diagram);
    suite_add_tcase(suite, boards);
    TCase *games = tcase_create("games");
    tcase_add_test(games, test_game_moves_with_implicit_passes);
    tcase_add_test(games, test_game_parse_errors_leave_game_unchanged);
    suite_add_tcase(suite, games);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

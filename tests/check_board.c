/* Rules core against the naive reference, symmetries, hashing and perft counts. */
#include <check.h>
#include <stdlib.h>

#include "core/board.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "reference.h"
#include "testutil.h"

enum { GAME_POSITIONS = 128 };

START_TEST(test_start_position)
{
    Board board;
    board_init(&board);
    ck_assert_uint_eq(board_legal(&board), (1ULL << 19) | (1ULL << 26) | (1ULL << 37) | (1ULL << 44));
    ck_assert_int_eq(board_count_player(&board), 2);
    ck_assert_int_eq(board_count_empties(&board), 60);
    ck_assert(!board_is_over(&board));
}
END_TEST

/* Over 100,000 positions of random games: moves, flips of every empty square, and the
 * position after every legal move agree with the square-by-square reference. */
START_TEST(test_moves_and_flips_match_reference)
{
    TestRandom random = {12345};
    Board positions[GAME_POSITIONS];
    long checked = 0, passes = 0;
    while (checked < 100000) {
        int count = test_random_game(&random, positions, GAME_POSITIONS);
        for (int i = 0; i < count; ++i) {
            const Board *board = &positions[i];
            RefBoard ref;
            ref_from_bits(&ref, board->player, board->opponent);
            uint64_t moves = board_legal(board);
            ck_assert_uint_eq(moves, ref_moves(&ref));
            passes += moves == 0;
            uint64_t empty = ~(board->player | board->opponent);
            for (int s = 0; s < 64; ++s) {
                if (!(empty >> s & 1))
                    continue;
                uint64_t flips = board_flips(board->player, board->opponent, s);
                ck_assert_msg(flips == ref_flips(&ref, s), "flips differ at square %d", s);
                if (flips) {
                    Board next = *board;
                    board_play(&next, s);
                    ck_assert_uint_eq(next.opponent, board->player | flips | (1ULL << s));
                    ck_assert_uint_eq(next.player, board->opponent & ~flips);
                }
            }
            ++checked;
        }
    }
    ck_assert_int_gt(passes, 0); /* the sample includes pass positions */
}
END_TEST

START_TEST(test_last_flip_count_matches_flips)
{
    /* full boards with one empty square, random and from the ends of random games: the
     * line-table count must equal the flips the general code finds, for both sides */
    TestRandom random = {9191};
    for (int trial = 0; trial < 200000; ++trial) {
        int square = test_random_below(&random, 64);
        uint64_t player = test_random_next(&random) & ~(1ULL << square);
        if (trial & 1) /* sparse or dense boards reach the rarer line patterns */
            player &= test_random_next(&random);
        else
            player |= test_random_next(&random) & ~(1ULL << square);
        uint64_t opponent = ~player & ~(1ULL << square);
        ck_assert_int_eq(movegen_count_last_flips(player, square),
                         __builtin_popcountll(board_flips(player, opponent, square)));
        ck_assert_int_eq(movegen_count_last_flips(opponent, square),
                         __builtin_popcountll(board_flips(opponent, player, square)));
    }
}
END_TEST

START_TEST(test_try_play_rejects_illegal)
{
    Board board, before;
    board_init(&board);
    before = board;
    ck_assert(!board_try_play(&board, 0));          /* a1: no flips */
    ck_assert(!board_try_play(&board, 27));         /* d4: occupied */
    ck_assert(!board_try_play(&board, MOVE_PASS));  /* a move exists */
    ck_assert(!board_try_play(&board, -1));
    ck_assert(!board_try_play(&board, 99));
    ck_assert(board_equal(&board, &before));
    ck_assert(board_try_play(&board, 37));          /* f5 */
    ck_assert_int_eq(board_count_opponent(&board), 4);
}
END_TEST

START_TEST(test_pass_and_game_over)
{
    /* black a1, white b1, rest empty: black has c1? no: black moves only where it flanks. */
    Board board = {1ULL << 0, 1ULL << 1};
    ck_assert_uint_eq(board_legal(&board), 1ULL << 2); /* c1 flanks b1 */
    board_play(&board, 2);
    ck_assert(board_is_over(&board));
    ck_assert_int_eq(board_final_score(&board), -64); /* white to move, wiped out */
    Board stuck = {1ULL << 0, (1ULL << 1) | (1ULL << 8) | (1ULL << 9)};
    /* side to move can play c1, a3, c3; after swapping sides the other can't move */
    Board swapped = {stuck.opponent, stuck.player};
    ck_assert_uint_eq(board_legal(&swapped), 0);
    ck_assert(!board_is_over(&swapped));
    ck_assert(board_try_play(&swapped, MOVE_PASS));
    ck_assert(board_equal(&swapped, &stuck));
}
END_TEST

START_TEST(test_final_score_gives_empties_to_winner)
{
    Board board = {0x00000000000000ffULL, 0x000000000000ff00ULL | (1ULL << 16)};
    ck_assert_int_eq(board_final_score(&board), -(9 - 8 + 47));
    Board draw = {0xffULL, 0xff00ULL};
    ck_assert_int_eq(board_final_score(&draw), 0);
    Board win = {0xffffffffULL, 0xffff00000000ULL};
    ck_assert_int_eq(board_final_score(&win), 32 - 16 + 16);
}
END_TEST

/* Naive image of (row, col) under symmetry s, written independently of the bit tricks. */
static int naive_symmetry(int square, int s)
{
    int row = square / 8, col = square % 8;
    if (s & 4) {
        int t = row;
        row = col;
        col = t;
    }
    if (s & 1)
        col = 7 - col;
    if (s & 2)
        row = 7 - row;
    return row * 8 + col;
}

START_TEST(test_symmetries)
{
    for (int s = 0; s < SYMMETRY_COUNT; ++s)
        for (int square = 0; square < 64; ++square)
            ck_assert_int_eq(square_symmetry(square, s), naive_symmetry(square, s));

    TestRandom random = {777};
    Board positions[GAME_POSITIONS];
    int count = test_random_game(&random, positions, GAME_POSITIONS);
    for (int i = 0; i < count; ++i) {
        const Board *board = &positions[i];
        uint64_t moves = board_legal(board);
        for (int s = 0; s < SYMMETRY_COUNT; ++s) {
            Board image = board_symmetry(board, s);
            /* the rules commute with every symmetry */
            ck_assert_uint_eq(board_legal(&image), board_symmetry_bits(moves, s));
            for (uint64_t m = moves; m; m &= m - 1) {
                int square = __builtin_ctzll(m);
                ck_assert_uint_eq(board_flips(image.player, image.opponent, square_symmetry(square, s)),
                                  board_symmetry_bits(board_flips(board->player, board->opponent, square), s));
            }
            /* round trip: some symmetry maps the image back */
            bool back = false;
            for (int t = 0; t < SYMMETRY_COUNT; ++t) {
                Board again = board_symmetry(&image, t);
                back |= board_equal(&again, board);
            }
            ck_assert(back);
        }
    }
    /* the 8 images of an asymmetric pattern are distinct */
    uint64_t pattern = (1ULL << 1) | (1ULL << 2) | (1ULL << 10);
    for (int s = 0; s < SYMMETRY_COUNT; ++s)
        for (int t = s + 1; t < SYMMETRY_COUNT; ++t)
            ck_assert_uint_ne(board_symmetry_bits(pattern, s), board_symmetry_bits(pattern, t));
}
END_TEST

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(test_hash)
{
    /* Transpositions: among all 4-ply lines from the start, equal boards reached by
     * different lines must hash alike. */
    Board lines[256];
    int line_count = 0;
    Board start;
    board_init(&start);
    for (uint64_t m1 = board_legal(&start); m1; m1 &= m1 - 1) {
        Board b1 = start;
        board_play(&b1, __builtin_ctzll(m1));
        for (uint64_t m2 = board_legal(&b1); m2; m2 &= m2 - 1) {
            Board b2 = b1;
            board_play(&b2, __builtin_ctzll(m2));
            for (uint64_t m3 = board_legal(&b2); m3; m3 &= m3 - 1) {
                Board b3 = b2;
                board_play(&b3, __builtin_ctzll(m3));
                for (uint64_t m4 = board_legal(&b3); m4; m4 &= m4 - 1) {
                    Board b4 = b3;
                    board_play(&b4, __builtin_ctzll(m4));
                    lines[line_count++] = b4;
                }
            }
        }
    }
    ck_assert_int_eq(line_count, 244);
    int transpositions = 0;
    Board a = lines[0], b = lines[0];
    for (int i = 0; i < line_count; ++i)
        for (int j = i + 1; j < line_count; ++j)
            if (board_equal(&lines[i], &lines[j])) {
                ck_assert_uint_eq(board_hash(&lines[i]), board_hash(&lines[j]));
                a = lines[i];
                b = lines[j];
                ++transpositions;
            }
    ck_assert_int_gt(transpositions, 0);
    ck_assert(board_equal(&a, &b));
    ck_assert_uint_eq(board_hash(&a), board_hash(&b));
    Board swapped = {a.opponent, a.player};
    ck_assert_uint_ne(board_hash(&a), board_hash(&swapped));

    /* no collisions among many distinct positions */
    enum { SAMPLE = 20000 };
    Board *all = malloc(sizeof(Board) * SAMPLE);
    uint64_t *hashes = malloc(sizeof(uint64_t) * SAMPLE);
    TestRandom random = {99};
    Board positions[GAME_POSITIONS];
    int n = 0;
    while (n < SAMPLE) {
        int count = test_random_game(&random, positions, GAME_POSITIONS);
        for (int i = 20; i < count && n < SAMPLE; ++i)
            all[n++] = positions[i]; /* past move 20 random games rarely repeat positions */
    }
    int distinct = 0;
    for (int i = 0; i < n; ++i) {
        hashes[distinct++] = board_hash(&all[i]);
    }
    qsort(hashes, (size_t)distinct, sizeof *hashes, compare_u64);
    int duplicates = 0;
    for (int i = 1; i < distinct; ++i)
        duplicates += hashes[i] == hashes[i - 1];
    /* equal hashes must come from equal boards: count equal-board pairs the slow way */
    qsort(all, (size_t)n, sizeof *all, compare_u64); /* sorts by player bits (first member) */
    int equal_boards = 0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n && all[j].player == all[i].player; ++j)
            equal_boards += board_equal(&all[i], &all[j]);
    ck_assert_int_eq(duplicates, equal_boards);
    free(all);
    free(hashes);
}
END_TEST

START_TEST(test_perft_known_counts)
{
    static const uint64_t known[] = {1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
    Board board;
    board_init(&board);
    for (int depth = 0; depth <= 9; ++depth)
        ck_assert_uint_eq(perft_count(&board, depth), known[depth]);
}
END_TEST

START_TEST(test_perft_matches_reference)
{
    /* from midgame and endgame positions, passes and finished games included */
    TestRandom random = {4242};
    Board positions[GAME_POSITIONS];
    int tried = 0;
    for (int game = 0; game < 12; ++game) {
        int count = test_random_game(&random, positions, GAME_POSITIONS);
        for (int i = 10; i < count; i += 9) {
            RefBoard ref;
            ref_from_bits(&ref, positions[i].player, positions[i].opponent);
            int depth = i < 40 ? 3 : 5;
            ck_assert_uint_eq(perft_count(&positions[i], depth), ref_perft(&ref, depth));
            ++tried;
        }
    }
    ck_assert_int_gt(tried, 50);
}
END_TEST

static Suite *board_suite(void)
{
    Suite *suite = suite_create("board");
    TCase *rules = tcase_create("rules");
    tcase_set_timeout(rules, 120);
    tcase_add_test(rules, test_start_position);
    tcase_add_test(rules, test_moves_and_flips_match_reference);
    tcase_add_test(rules, test_last_flip_count_matches_flips);
    tcase_add_test(rules, test_try_play_rejects_illegal);
    tcase_add_test(rules, test_pass_and_game_over);
    tcase_add_test(rules, test_final_score_gives_empties_to_winner);
    suite_add_tcase(suite, rules);
    TCase *symmetry = tcase_create("symmetry_hash");
    tcase_add_test(symmetry, test_symmetries);
    tcase_add_test(symmetry, test_hash);
    suite_add_tcase(suite, symmetry);
    TCase *perft = tcase_create("perft");
    tcase_set_timeout(perft, 120);
    tcase_add_test(perft, test_perft_known_counts);
    tcase_add_test(perft, test_perft_matches_reference);
    suite_add_tcase(suite, perft);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(board_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The opening book against slow references: keys over the 8 symmetries, game counts, the
 * deviations' searches (plain minimax over the moves that leave the book), negamax values,
 * the moves offered in any orientation, files (round trip and every kind of damage), the
 * game lists `book add` reads, and the engine playing and hinting from a book. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/book.h"
#include "core/book_eval.h"
#include "engine/engine.h"
#include "core/eval.h"
#include "core/fileio.h"
#include "core/gamelist.h"
#include "core/notation.h"
#include "core/search.h"
#include "engine/settings.h"
#include "testutil.h"

enum { GAMES = 60, PLIES = 10, DEPTH = 3 };

/* Random games that share their first moves now and then, as opening lines do. */
static Game *random_games(uint64_t seed, int count)
{
    Game *games = malloc(sizeof *games * (size_t)count);
    ck_assert_ptr_nonnull(games);
    TestRandom random = {seed};
    for (int i = 0; i < count; ++i) {
        test_random_record(&random, &games[i]);
        if (i > 0 && test_random_below(&random, 2)) {
            /* replay a prefix of an earlier game, then go on at random */
            const Game *earlier = &games[test_random_below(&random, i)];
            int shared = 1 + test_random_below(&random, PLIES);
            Game game;
            game_init(&game);
            for (int m = 0; m < shared && m < earlier->move_count; ++m)
                ck_assert(game_append(&game, earlier->moves[m], NULL));
            Board board;
            game_position(&game, game.move_count, &board, NULL);
            while (!board_is_over(&board)) {
                ck_assert(game_append(&game, test_random_move(&random, &board), NULL));
                game_position(&game, game.move_count, &board, NULL);
            }
            games[i] = game;
        }
    }
    return games;
}

static Book *book_of(const Game *games, int count, int plies, int depth)
{
    Book *book = book_create(plies, depth);
    ck_assert_ptr_nonnull(book);
    OctError error;
    for (int i = 0; i < count; ++i)
        ck_assert_msg(book_add_game(book, &games[i], NULL, &error), "%s", error.message);
    return book;
}

/* A book of `count` random games, searched with a random network of `model_seed`
 * (returned in *model) on `threads` threads. */
static Book *searched_book(const Game *games, int count, uint64_t model_seed, int threads,
                           Model **model)
{
    Book *book = book_of(games, count, PLIES, DEPTH);
    *model = test_random_model(model_seed);
    ck_assert_ptr_nonnull(*model);
    OctError error;
    ck_assert_msg(book_evaluate(book, *model, threads, NULL, NULL, NULL, &error), "%s",
                  error.message);
    return book;
}

static bool same_position(const Board *a, const Board *b)
{
    for (int s = 0; s < SYMMETRY_COUNT; ++s) {
        Board image = board_symmetry(a, s);
        if (board_equal(&image, b))
            return true;
    }
    return false;
}

START_TEST(test_key_is_the_least_image)
{
    TestRandom random = {5};
    for (int round = 0; round < 200; ++round) {
        Board positions[128];
        int count = test_random_game(&random, positions, 128);
        const Board *board = &positions[test_random_below(&random, count)];
        int symmetry;
        Board key = book_key(board, &symmetry);
        Board mapped = board_symmetry(board, symmetry);
        ck_assert(board_equal(&mapped, &key));
        for (int s = 0; s < SYMMETRY_COUNT; ++s) {
            Board image = board_symmetry(board, s);
            Board other = book_key(&image, NULL);
            ck_assert(board_equal(&other, &key));
            ck_assert(image.player > key.player
                      || (image.player == key.player && image.opponent >= key.opponent));
        }
    }
}
END_TEST

/* Every position of every game up to the ply limit, with the number of games through it
 * counted by comparing positions one by one. */
START_TEST(test_games_are_counted_per_position)
{
    Game *games = random_games(11, GAMES);
    Book *book = book_of(games, GAMES, PLIES, DEPTH);
    Board *seen = malloc(sizeof *seen * GAMES * (PLIES + 1));
    int distinct = 0;
    for (int g = 0; g < GAMES; ++g) {
        for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
            Board board;
            game_position(&games[g], ply, &board, NULL);
            bool known = false;
            for (int i = 0; i < distinct && !known; ++i)
                known = same_position(&seen[i], &board);
            if (!known)
                seen[distinct++] = board;
        }
    }
    ck_assert_uint_eq(book_count(book), (size_t)distinct);
    for (int i = 0; i < distinct; ++i) {
        uint32_t through = 0;
        for (int g = 0; g < GAMES; ++g) {
            for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
                Board board;
                game_position(&games[g], ply, &board, NULL);
                if (same_position(&seen[i], &board)) {
                    ++through;
                    break;
                }
            }
        }
        /* the stored count is the same seen from any orientation */
        const BookEntry *entry = book_find(book, &seen[i]);
        Board image = board_symmetry(&seen[i], 5);
        ck_assert_ptr_nonnull(entry);
        ck_assert_ptr_eq(book_find(book, &image), entry);
        ck_assert_uint_eq(entry->games, through);
    }
    Board start;
    board_init(&start);
    ck_assert_uint_eq(book_find(book, &start)->games, GAMES);
    /* a position after the ply limit is not in the book */
    Board late;
    game_position(&games[0], PLIES + 2, &late, NULL);
    ck_assert_ptr_null(book_find(book, &late));
    /* pruning keeps exactly the positions with enough games, and the start */
    book_prune(book, 3);
    size_t kept = 0;
    for (int i = 0; i < distinct; ++i) {
        const BookEntry *entry = book_find(book, &seen[i]);
        if (entry) {
            ck_assert_uint_ge(entry->games, 3);
            ++kept;
        }
    }
    ck_assert_uint_eq(kept, book_count(book));
    ck_assert_ptr_nonnull(book_find(book, &start));
    free(seen);
    book_free(book);
    free(games);
}
END_TEST

/* The value of a position by plain recursion over the book, in the caller's orientation. */
static int reference_value(const Book *book, const Board *board)
{
    const BookEntry *entry = book_find(book, board);
    ck_assert_ptr_nonnull(entry);
    bool known = entry->leaf != BOOK_NO_LEAF;
    int best = known ? entry->leaf : 0;
    uint64_t legal = board_legal(board);
    if (!legal && !board_is_over(board)) {
        Board passed = {board->opponent, board->player};
        if (book_find(book, &passed)) {
            int value = -reference_value(book, &passed);
            if (!known || value > best)
                best = value, known = true;
        }
    }
    for (; legal; legal &= legal - 1) {
        Board next = *board;
        board_play(&next, __builtin_ctzll(legal));
        if (book_find(book, &next)) {
            int value = -reference_value(book, &next);
            if (!known || value > best)
                best = value, known = true;
        }
    }
    return best;
}

/* Evaluation units to whole discs, halves away from zero, within -64..64. */
static int round_discs(int units)
{
    double discs = (double)units / EVAL_DISC;
    int rounded = (int)(discs < 0 ? discs - 0.5 : discs + 0.5);
    return rounded < -64 ? -64 : rounded > 64 ? 64 : rounded;
}

/* The deviation of a position by minimax: the best move whose position is not in the book.
 * Searched in the key's orientation, as the book does: a network's tables need not be
 * exactly symmetric (a random one's are not), so a mirrored board may score differently. */
static int reference_leaf(const Model *model, const Book *book, const Board *original, int depth)
{
    Board key = book_key(original, NULL);
    const Board *board = &key;
    if (board_is_over(board))
        return board_final_score(board);
    uint64_t legal = board_legal(board);
    int best = -1000000;
    if (!legal) {
        Board passed = {board->opponent, board->player};
        if (book_find(book, &passed))
            return BOOK_NO_LEAF;
        best = test_minimax_depth(model, board, depth);
    }
    for (; legal; legal &= legal - 1) {
        Board next = *board;
        board_play(&next, __builtin_ctzll(legal));
        if (!book_find(book, &next)) {
            int value = -test_minimax_depth(model, &next, depth - 1);
            if (value > best)
                best = value;
        }
    }
    return best == -1000000 ? BOOK_NO_LEAF : round_discs(best);
}

START_TEST(test_deviations_and_values_match_references)
{
    Game *games = random_games(23, GAMES);
    Book *book = book_of(games, GAMES, PLIES, DEPTH);
    Model *model = test_random_model(7);
    ck_assert_ptr_nonnull(model);
    ck_assert_uint_eq(book_stale_count(book), book_count(book));
    OctError error;
    ck_assert_msg(book_evaluate(book, model, 2, NULL, NULL, NULL, &error), "%s", error.message);
    ck_assert_uint_eq(book_stale_count(book), 0);
    int checked = 0, deviations = 0;
    for (int g = 0; g < GAMES; ++g) {
        for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
            Board board;
            game_position(&games[g], ply, &board, NULL);
            const BookEntry *entry = book_find(book, &board);
            ck_assert_int_eq(entry->leaf, reference_leaf(model, book, &board, DEPTH));
            ck_assert_int_eq(entry->value, reference_value(book, &board));
            BookMove moves[BOOK_MAX_MOVES];
            int count = book_moves(book, &board, moves);
            ck_assert_int_gt(count, 0);
            ck_assert_int_eq(moves[0].value, entry->value);
            for (int i = 0; i < count; ++i) {
                Board next = board;
                ck_assert(board_try_play(&next, moves[i].move));
                ck_assert_int_eq(moves[i].in_book, book_find(book, &next) != NULL);
                if (i > 0)
                    ck_assert_int_ge(moves[i - 1].value, moves[i].value);
                if (!moves[i].in_book) {
                    /* the deviation's move is as good as its value says (in the key's
                     * orientation, where it was searched) */
                    int symmetry;
                    Board key = book_key(&board, &symmetry);
                    ck_assert_int_eq(moves[i].value, entry->leaf);
                    ck_assert_int_eq(square_symmetry(moves[i].move, symmetry), entry->leaf_move);
                    board_play(&key, entry->leaf_move);
                    ck_assert_int_eq(round_discs(-test_minimax_depth(model, &key, DEPTH - 1)),
                                     entry->leaf);
                    ++deviations;
                }
            }
            /* the same moves, mapped, from a mirrored board */
            for (int s = 1; s < SYMMETRY_COUNT; s += 3) {
                Board image = board_symmetry(&board, s);
                BookMove mapped[BOOK_MAX_MOVES];
                ck_assert_int_eq(book_moves(book, &image, mapped), count);
                /* each offered move leads to a position the other orientation's list also
                 * reaches with the same value (a symmetric position may offer another of
                 * its equivalent moves) */
                for (int j = 0; j < count; ++j) {
                    Board after_image = image;
                    board_play(&after_image, mapped[j].move);
                    bool found = false;
                    for (int i = 0; i < count && !found; ++i) {
                        Board after = board;
                        board_play(&after, moves[i].move);
                        found = mapped[j].value == moves[i].value
                                && same_position(&after, &after_image);
                    }
                    ck_assert(found);
                }
            }
            ++checked;
        }
    }
    ck_assert_int_gt(checked, 300);
    ck_assert_int_gt(deviations, 100);
    /* a new game: its positions are stale, and so is a parent whose deviation it plays */
    Game extra = games[0];
    Board board;
    game_position(&extra, 3, &board, NULL);
    const BookEntry *parent = book_find(book, &board);
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_moves(book, &board, moves);
    int leaving = MOVE_NONE;
    for (int i = 0; i < count; ++i)
        if (!moves[i].in_book)
            leaving = moves[i].move;
    if (leaving != MOVE_NONE) {
        extra.move_count = 3;
        ck_assert(game_append(&extra, leaving, NULL));
        int added;
        ck_assert(book_add_game(book, &extra, &added, &error));
        ck_assert_int_eq(added, 1);
        ck_assert_int_eq(parent->depth, BOOK_DEPTH_STALE);
        ck_assert_uint_ge(book_stale_count(book), 2);
        ck_assert(book_evaluate(book, model, 1, NULL, NULL, NULL, &error));
        ck_assert_int_eq(parent->leaf, reference_leaf(model, book, &board, DEPTH));
        ck_assert_int_eq(parent->value, reference_value(book, &board));
    }
    model_free(model);
    book_free(book);
    free(games);
}
END_TEST

START_TEST(test_the_search_leaves_out_excluded_moves)
{
    Model *model = test_random_model(3);
    Search search;
    OctError error;
    ck_assert(search_init(&search, 8, &error));
    search_set_model(&search, model);
    TestRandom random = {41};
    int tried = 0;
    while (tried < 40) {
        Board positions[128];
        int count = test_random_game(&random, positions, 128);
        Board board = positions[test_random_below(&random, count)];
        uint64_t legal = board_legal(&board);
        if (__builtin_popcountll(legal) < 2)
            continue;
        uint64_t exclude = 0;
        for (uint64_t m = legal; m; m &= m - 1)
            if (test_random_below(&random, 2))
                exclude |= m & -m;
        if (exclude == legal)
            exclude &= exclude - 1;
        SearchLimits limits = search_default_limits();
        limits.depth = 3;
        limits.exact_empties = 0;
        limits.exclude = exclude;
        SearchResult result;
        tt_clear(&search.tt);
        search_run(&search, &board, &limits, &result, NULL, NULL);
        int best = -1000000;
        for (uint64_t m = legal & ~exclude; m; m &= m - 1) {
            Board next = board;
            board_play(&next, __builtin_ctzll(m));
            int value = -test_minimax_depth(model, &next, 2);
            if (value > best)
                best = value;
        }
        ck_assert_int_eq(result.score, best);
        ck_assert(!(exclude >> result.move & 1));
        ck_assert(legal >> result.move & 1);
        /* every move left out: no move and no line */
        limits.exclude = legal;
        search_run(&search, &board, &limits, &result, NULL, NULL);
        ck_assert_int_eq(result.move, MOVE_NONE);
        ck_assert_int_eq(result.line_count, 0);
        ++tried;
    }
    search_free(&search);
    model_free(model);
}
END_TEST

START_TEST(test_choices_and_lines)
{
    Game *games = random_games(29, GAMES);
    Model *model;
    Book *book = searched_book(games, GAMES, 9, 1, &model);
    Board start;
    board_init(&start);
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_moves(book, &start, moves);
    ck_assert_int_ge(count, 1);
    uint64_t rng = 1;
    BookMove chosen;
    ck_assert_int_eq(book_choose(book, &start, 0, &rng, &chosen), moves[0].move);
    /* randomness 64: every book move is drawn some time, nothing else is (never the
     * deviation); a position whose deviation beats its book moves is left to a search */
    TestRandom random = {3};
    Board board = start;
    int steps = 0, searched = 0;
    for (int step = 0; step < 40 && board_legal(&board); ++step) {
        BookMove all[BOOK_MAX_MOVES];
        int total = book_moves(book, &board, all);
        count = 0;
        for (int i = 0; i < total; ++i)
            if (all[i].in_book)
                moves[count++] = all[i];
        if (count == 0)
            break;
        if (!all[0].in_book) {
            ck_assert_int_eq(book_choose(book, &board, 64, &rng, NULL), MOVE_NONE);
            ++searched;
        } else {
            bool drawn[BOOK_MAX_MOVES] = {false};
            for (int i = 0; i < 50 * count; ++i) {
                int move = book_choose(book, &board, 64, &rng, NULL);
                int j = 0;
                while (j < count && moves[j].move != move)
                    ++j;
                ck_assert_int_lt(j, count);
                drawn[j] = true;
            }
            for (int j = 0; j < count; ++j)
                ck_assert(drawn[j]);
            ++steps;
        }
        board_play(&board, moves[test_random_below(&random, count)].move);
        if (board_count_empties(&board) < 60 - PLIES + 1)
            board = start; /* back to the start for another line */
    }
    ck_assert_int_gt(steps, 10);
    /* a line follows the best book moves from the position after its first move */
    int pv[BOOK_PV_SIZE];
    count = book_moves(book, &start, moves);
    int length = book_line(book, &start, moves[0].move, pv, BOOK_PV_SIZE);
    ck_assert_int_ge(length, 1);
    Board position = start;
    for (int i = 0; i < length; ++i) {
        if (i > 0) {
            BookMove next[BOOK_MAX_MOVES];
            ck_assert_int_gt(book_moves(book, &position, next), 0);
            ck_assert_int_eq(next[0].move, pv[i]);
        }
        ck_assert(board_try_play(&position, pv[i]));
    }
    /* a position the book does not hold offers nothing */
    Board late;
    game_position(&games[1], PLIES + 1, &late, NULL);
    ck_assert_int_eq(book_moves(book, &late, moves), 0);
    ck_assert_int_eq(book_choose(book, &late, 0, &rng, NULL), MOVE_NONE);
    model_free(model);
    book_free(book);
    free(games);
}
END_TEST

static char *temp_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/octuple-check-book-%d-%s", (int)getpid(), name);
    return path;
}

/* Rewrites the file's checksum after a deliberate change, so the record checks are reached. */
static void fix_checksum(unsigned char *data, size_t size)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 < size; ++i)
        hash = (hash ^ data[i]) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i)
        data[size - 8 + (size_t)i] = (unsigned char)(hash >> (8 * i));
}

static void expect_load_error(const char *path, const void *data, size_t size, const char *words)
{
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_eq(fwrite(data, 1, size, file), size);
    fclose(file);
    Book *book = NULL;
    OctError error;
    ck_assert(!book_load(path, &book, &error));
    ck_assert_ptr_null(book);
    ck_assert_msg(strstr(error.message, path) && strstr(error.message, words), "%s",
                  error.message);
}

START_TEST(test_files_round_trip_and_refuse_damage)
{
    Game *games = random_games(31, 30);
    Model *model;
    Book *book = searched_book(games, 30, 5, 2, &model);
    OctError error;
    const char *path = temp_path("a.book");
    ck_assert_msg(book_save(book, path, &error), "%s", error.message);
    Book *loaded;
    ck_assert_msg(book_load(path, &loaded, &error), "%s", error.message);
    ck_assert_uint_eq(book_count(loaded), book_count(book));
    ck_assert_int_eq(book_plies(loaded), PLIES);
    ck_assert_int_eq(book_depth(loaded), DEPTH);
    for (int g = 0; g < 30; ++g) {
        for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
            Board board;
            game_position(&games[g], ply, &board, NULL);
            const BookEntry *a = book_find(book, &board), *b = book_find(loaded, &board);
            ck_assert_ptr_nonnull(b);
            /* field by field: the struct's padding bytes are not part of the entry */
            ck_assert(a->player == b->player && a->opponent == b->opponent);
            ck_assert(a->games == b->games && a->value == b->value && a->leaf == b->leaf);
            ck_assert(a->leaf_move == b->leaf_move && a->depth == b->depth);
            ck_assert(a->known == b->known);
        }
    }
    /* saving the loaded book gives the same bytes: the file does not depend on insertion */
    const char *again = temp_path("b.book");
    ck_assert(book_save(loaded, again, &error));
    char *first, *second;
    size_t first_size, second_size;
    ck_assert(file_read_all(path, 1 << 26, &first, &first_size, &error));
    ck_assert(file_read_all(again, 1 << 26, &second, &second_size, &error));
    ck_assert_uint_eq(first_size, second_size);
    ck_assert(memcmp(first, second, first_size) == 0);
    ck_assert_uint_eq(first_size, 32 + 24 * book_count(book) + 8);

    const char *bad = temp_path("bad.book");
    unsigned char *copy = malloc(first_size);
    memcpy(copy, first, first_size);
    copy[0] = 'X';
    expect_load_error(bad, copy, first_size, "not an Octuple book");
    expect_load_error(bad, first, first_size - 5, "truncated");
    memcpy(copy, first, first_size);
    copy[40] ^= 1;
    expect_load_error(bad, copy, first_size, "checksum");
    memcpy(copy, first, first_size);
    copy[8] = 9;
    fix_checksum(copy, first_size);
    expect_load_error(bad, copy, first_size, "version");
    memcpy(copy, first, first_size);
    copy[32 + 24 + 20] = 100; /* the second record's value */
    fix_checksum(copy, first_size);
    expect_load_error(bad, copy, first_size, "record 2: a value outside");
    memcpy(copy, first, first_size);
    memcpy(copy + 32 + 24, first + 32, 24); /* the first record twice */
    fix_checksum(copy, first_size);
    expect_load_error(bad, copy, first_size, "record 2: keys out of order");
    memcpy(copy, first, first_size);
    memcpy(copy + 32 + 8, copy + 32, 8); /* the opponent's discs on the mover's squares */
    fix_checksum(copy, first_size);
    expect_load_error(bad, copy, first_size, "record 1: a square holds discs of both sides");
    memcpy(copy, first, first_size);
    {
        /* the first record mirrored: a legal position, but not its key */
        Board key = {0, 0};
        for (int i = 0; i < 8; ++i) {
            key.player |= (uint64_t)(unsigned char)first[32 + i] << (8 * i);
            key.opponent |= (uint64_t)(unsigned char)first[40 + i] << (8 * i);
        }
        Board image = key;
        for (int s = 1; s < SYMMETRY_COUNT && board_equal(&image, &key); ++s)
            image = board_symmetry(&key, s);
        ck_assert(!board_equal(&image, &key));
        for (int i = 0; i < 8; ++i) {
            copy[32 + i] = (unsigned char)(image.player >> (8 * i));
            copy[40 + i] = (unsigned char)(image.opponent >> (8 * i));
        }
        fix_checksum(copy, first_size);
        expect_load_error(bad, copy, first_size, "record 1: the position is not in its key");
    }
    memcpy(copy, first, first_size);
    memset(copy + 32 + 16, 0, 4); /* no games */
    fix_checksum(copy, first_size);
    expect_load_error(bad, copy, first_size, "record 1: no games");
    {
        /* padded: the read stops one byte past the length the record count declares */
        unsigned char *padded = calloc(first_size + 100, 1);
        memcpy(padded, first, first_size);
        char expected[64];
        snprintf(expected, sizeof expected, "longer than the %zu bytes its header declares",
                 first_size);
        expect_load_error(bad, padded, first_size + 100, expected);
        /* a count beyond any file: the error gives the file's true size */
        memset(padded + 24, 0xff, 8);
        snprintf(expected, sizeof expected, "%zu bytes do not hold", first_size + 100);
        expect_load_error(bad, padded, first_size + 100, expected);
        free(padded);
    }
    Book *none = NULL;
    /* random bytes are refused by their first ones, not read to the 1 GB limit */
    ck_assert(!book_load("/dev/urandom", &none, &error));
    ck_assert_msg(strstr(error.message, "/dev/urandom: not an Octuple book"), "%s",
                  error.message);
    ck_assert(!book_load(temp_path("missing.book"), &none, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "missing.book"));
    /* a failed save leaves the old file whole */
    ck_assert(!book_save(book, "/nonexistent-dir/x.book", &error));
    unlink(path);
    unlink(again);
    unlink(bad);
    free(copy);
    free(first);
    free(second);
    book_free(loaded);
    model_free(model);
    book_free(book);
    free(games);
}
END_TEST

START_TEST(test_game_lists)
{
    const char *path = temp_path("games.txt");
    test_write_text(path, "# two games\nf5d6c3d3c4\n\n+f5-f6+e6-f4: +00 0\n");
    Game *games;
    size_t count;
    OctError error;
    ck_assert_msg(gamelist_read(path, &games, &count, &error), "%s", error.message);
    ck_assert_uint_eq(count, 2);
    ck_assert_int_eq(games[0].move_count, 5);
    ck_assert_int_eq(games[1].move_count, 4);
    ck_assert_int_eq(games[1].moves[3], move_parse("f4", NULL));
    free(games);
    test_write_text(path, "f5d6\nf5f5\n");
    ck_assert(!gamelist_read(path, &games, &count, &error));
    ck_assert_msg(strstr(error.message, ":2:"), "%s", error.message);
    test_write_text(path, "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 "
               "---------------------------O*------*O--------------------------- *]B[F5]W[d6];)\n");
    ck_assert_msg(gamelist_read(path, &games, &count, &error), "%s", error.message);
    ck_assert_uint_eq(count, 1);
    ck_assert_int_eq(games[0].move_count, 2);
    free(games);
    /* a NUL byte would end the list there: "f5d6" alone, the rest unread */
    FILE *file = fopen(path, "wb");
    ck_assert_ptr_nonnull(file);
    fwrite("f5d6\n\0garbage\nzz\n", 1, 17, file);
    fclose(file);
    ck_assert(!gamelist_read(path, &games, &count, &error));
    ck_assert_msg(strstr(error.message, "line 2: a NUL byte"), "%s", error.message);
    unlink(path);
}
END_TEST

/* ---- the engine ---- */

typedef struct Collected {
    EngineReport last;
    int positions;
} Collected;

static void collect(void *context, const EngineReport *report)
{
    Collected *collected = context;
    if (report->event == ENGINE_POSITION) {
        collected->last = *report;
        ++collected->positions;
    }
}

static Engine *book_engine(const char *book_path, bool use_book)
{
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.threads = 1;
    settings.hash_megabytes = 8;
    settings.depth = 2;
    strcpy(settings.weights, test_source_path("weights/jaskowski-all2.ow"));
    strcpy(settings.book, book_path);
    settings.use_book = use_book;
    Engine *engine;
    OctError error;
    ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
    return engine;
}

START_TEST(test_engine_plays_and_learns_from_the_book)
{
    char home[256];
    snprintf(home, sizeof home, "/tmp/octuple-check-book-%d-home", (int)getpid());
    setenv("XDG_DATA_HOME", home, 1);
    /* the shipped book, wherever the build tree is (a VPATH build's tests/ has no ../book) */
    setenv("OCTUPLE_DATA_DIR", TOP_SRCDIR "/book", 1);
    Game *games = random_games(37, 20);
    Model *model;
    Book *book = searched_book(games, 20, 5, 1, &model);
    OctError error;
    const char *path = temp_path("engine.book");
    ck_assert(book_save(book, path, &error));

    Engine *engine = book_engine(path, true);
    ck_assert_ptr_nonnull(engine_book(engine));
    ck_assert_str_eq(engine_book_path(engine), path);
    Board start;
    board_init(&start);
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_moves(book, &start, moves);
    EngineRequest think = {.task = ENGINE_THINK, .lines = 1};
    Collected collected = {0};
    ck_assert(engine_run(engine, &think, collect, &collected, &error));
    ck_assert(collected.last.from_book);
    ck_assert_int_eq(collected.last.result.move, moves[0].move);
    ck_assert_int_eq(collected.last.result.score, moves[0].value * EVAL_DISC);
    ck_assert_uint_eq(collected.last.nodes, 0);
    EngineRequest hint = {.task = ENGINE_HINT, .lines = 64};
    ck_assert(engine_run(engine, &hint, collect, &collected, &error));
    ck_assert(collected.last.from_book);
    ck_assert_int_eq(collected.last.book_count, count);
    for (int i = 0; i < count; ++i) {
        ck_assert_int_eq(collected.last.book_moves[i].move, moves[i].move);
        ck_assert_uint_eq(collected.last.book_moves[i].games, moves[i].games);
    }
    /* out of the book, the engine searches */
    for (int i = 0; i <= PLIES + 1 && i < games[0].move_count; ++i)
        ck_assert(engine_play(engine, games[0].moves[i], NAN, NAN, &error));
    ck_assert(engine_run(engine, &think, collect, &collected, &error));
    ck_assert(!collected.last.from_book);
    ck_assert_uint_gt(collected.last.nodes, 0);

    /* learning a finished game adds its opening to the user's book, which is used next */
    Engine *learner = book_engine(path, true);
    Game *fresh_list = random_games(99, 1);
    Game fresh = fresh_list[0];
    free(fresh_list);
    engine_set_game(learner, &fresh);
    Board after;
    game_position(&fresh, PLIES, &after, NULL);
    bool known = book_find(book, &after) != NULL;
    ck_assert(engine_learn(learner, NULL, 0, NULL, &error));
    /* a book named by the user is the file that grows */
    ck_assert_str_eq(engine_book_path(learner), path);
    Book *grown;
    ck_assert_msg(book_load(path, &grown, &error), "%s", error.message);
    ck_assert_ptr_nonnull(book_find(grown, &after));
    ck_assert_uint_ge(book_count(grown), book_count(book) + (known ? 0 : 1));
    ck_assert_uint_eq(book_stale_count(grown), 0);
    book_free(grown);
    engine_free(learner);
    /* the default book grows into the user's own file, never the shipped one */
    char user[512];
    ck_assert(engine_user_book_path(user, sizeof user, false, &error));
    Engine *shipped = book_engine("", true);
    const char *shipped_path = engine_book_path(shipped);
    ck_assert_msg(strstr(shipped_path, "book/octuple.book"), "%s", shipped_path);
    size_t shipped_count = book_count(engine_book(shipped));
    engine_set_game(shipped, &fresh);
    ck_assert_msg(engine_learn(shipped, NULL, 0, NULL, &error), "%s", error.message);
    ck_assert_str_eq(engine_book_path(shipped), user);
    ck_assert_msg(book_load(user, &grown, &error), "%s", error.message);
    ck_assert_uint_gt(book_count(grown), shipped_count);
    ck_assert_ptr_nonnull(book_find(grown, &after));
    book_free(grown);
    engine_free(shipped);
    /* a game from another start position is learned, but not into the book */
    Board custom;
    Color custom_side;
    game_position(&fresh, 6, &custom, &custom_side);
    Game other;
    game_init_from(&other, &custom, custom_side);
    for (int i = 6; i < fresh.move_count; ++i)
        ck_assert(game_append(&other, fresh.moves[i], NULL));
    Engine *custom_engine = book_engine(path, true);
    engine_set_game(custom_engine, &other);
    ck_assert_msg(engine_learn(custom_engine, NULL, 0, NULL, &error), "%s", error.message);
    ck_assert(!book_add_game((Book *)engine_book(custom_engine), &other, NULL, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "standard position"));
    /* a list with such a game is refused whole: the good game before it is not added */
    Game *unseen = random_games(123, 1); /* positions the book does not hold yet */
    Game pair[2] = {unseen[0], other};
    free(unseen);
    size_t before = book_count(engine_book(custom_engine));
    int added = -1;
    ck_assert(!engine_book_add(custom_engine, pair, 2, &added, NULL, &error));
    ck_assert_msg(strstr(error.message, "game 2: "), "%s", error.message);
    ck_assert_int_eq(added, 0);
    ck_assert_uint_eq(book_count(engine_book(custom_engine)), before);
    engine_free(custom_engine);

    /* a save that fails, or a Ctrl-C, leaves the book as it was, in memory and on disk,
     * and a learned game whose book cannot be saved is not recorded as learned either */
    Engine *failing = book_engine(path, true);
    Game *lone = random_games(321, 1);
    Board lone_after;
    game_position(&lone[0], PLIES, &lone_after, NULL);
    ck_assert_ptr_null(book_find(engine_book(failing), &lone_after));
    size_t failing_count = book_count(engine_book(failing));
    char *file_before, *file_after;
    size_t size_before, size_after;
    ck_assert(file_read_all(path, 1 << 26, &file_before, &size_before, &error));
    atomic_bool raised;
    atomic_init(&raised, true);
    ck_assert(!engine_book_add(failing, lone, 1, &added, &raised, &error));
    ck_assert_msg(strstr(error.message, "interrupted"), "%s", error.message);
    ck_assert_uint_eq(book_count(engine_book(failing)), failing_count);
    ck_assert_ptr_null(book_find(engine_book(failing), &lone_after));
    ck_assert(file_read_all(path, 1 << 26, &file_after, &size_after, &error));
    ck_assert(size_after == size_before && !memcmp(file_after, file_before, size_before));
    free(file_after);
    char failed_aside[300];
    snprintf(failed_aside, sizeof failed_aside, "%s.failed_aside", path);
    ck_assert_int_eq(rename(path, failed_aside), 0);
    ck_assert_int_eq(mkdir(path, 0700), 0); /* the save now meets a directory */
    ck_assert(!engine_book_add(failing, lone, 1, &added, NULL, &error));
    ck_assert_msg(strstr(error.message, "not a regular file"), "%s", error.message);
    ck_assert_uint_eq(book_count(engine_book(failing)), failing_count);
    ck_assert_ptr_null(book_find(engine_book(failing), &lone_after));
    char learned_file[512];
    ck_assert(engine_learned_path(learned_file, sizeof learned_file, true, &error));
    size_t learned_before = 0, learned_after = 0;
    char *text;
    if (file_read_all(learned_file, 1 << 26, &text, &learned_before, &error))
        free(text);
    engine_set_game(failing, &lone[0]);
    ck_assert(!engine_learn(failing, NULL, 0, NULL, &error));
    if (file_read_all(learned_file, 1 << 26, &text, &learned_after, &error))
        free(text);
    ck_assert_uint_eq(learned_after, learned_before);
    ck_assert_ptr_null(book_find(engine_book(failing), &lone_after));
    ck_assert_int_eq(rmdir(path), 0);
    ck_assert_int_eq(rename(failed_aside, path), 0);
    /* and the same game goes in once the file can be written */
    ck_assert_msg(engine_learn(failing, NULL, 0, NULL, &error), "%s", error.message);
    ck_assert_ptr_nonnull(book_find(engine_book(failing), &lone_after));
    if (file_read_all(learned_file, 1 << 26, &text, &learned_after, &error))
        free(text);
    ck_assert_uint_gt(learned_after, learned_before);
    free(file_before);
    free(lone);
    engine_free(failing);

    /* with the book off the same position is searched */
    Engine *off = book_engine(path, false);
    ck_assert_ptr_null(engine_book(off));
    ck_assert(engine_run(off, &think, collect, &collected, &error));
    ck_assert(!collected.last.from_book);
    engine_free(off);
    /* an explicit book that cannot be read is an error; nothing is created */
    Engine *broken = NULL;
    EngineSettings settings;
    settings_init(&settings, NULL);
    strcpy(settings.book, temp_path("missing.book"));
    ck_assert(!engine_create(&settings, &broken, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "missing.book"));

    /* a damaged learned book is said, and the shipped one is used instead */
    FILE *damaged = fopen(user, "w");
    ck_assert_ptr_nonnull(damaged);
    fputs("not a book\n", damaged);
    fclose(damaged);
    Engine *fallback = book_engine("", true);
    ck_assert_msg(strstr(engine_notice(fallback), "cannot load the learned opening book"), "%s",
                  engine_notice(fallback));
    ck_assert_msg(strstr(engine_book_path(fallback), "book/octuple.book"), "%s",
                  engine_book_path(fallback));
    ck_assert_ptr_nonnull(engine_book(fallback));
    engine_free(fallback);
    /* the damaged file is kept aside, not overwritten by the next game learned */
    char aside[600];
    snprintf(aside, sizeof aside, "%s.bad", user);
    ck_assert_int_eq(access(aside, F_OK), 0);
    ck_assert_int_ne(access(user, F_OK), 0);
    unlink(aside);
    unlink(user);
    char learned[512];
    ck_assert(engine_learned_path(learned, sizeof learned, false, &error));
    unlink(learned);
    unlink(path);
    engine_free(engine);
    model_free(model);
    book_free(book);
    free(games);
}
END_TEST

/* A book of `count` games searched to `depth` with the network of `model`. */
static Book *book_at_depth(const Game *games, int count, int depth, const Model *model)
{
    Book *book = book_of(games, count, PLIES, depth);
    OctError error;
    ck_assert_msg(book_evaluate(book, model, 1, NULL, NULL, NULL, &error), "%s", error.message);
    return book;
}

START_TEST(test_learned_book_takes_a_newer_shipped_one)
{
    char home[256], data[256], dir[300], user[400], shipped_path[400];
    snprintf(home, sizeof home, "/tmp/octuple-check-book-%d-merge-home", (int)getpid());
    snprintf(data, sizeof data, "/tmp/octuple-check-book-%d-merge-data", (int)getpid());
    snprintf(dir, sizeof dir, "%s/octuple", home);
    snprintf(user, sizeof user, "%s/octuple.book", dir);
    snprintf(shipped_path, sizeof shipped_path, "%s/octuple.book", data);
    ck_assert(mkdir(home, 0700) == 0 || errno == EEXIST);
    ck_assert(mkdir(dir, 0700) == 0 || errno == EEXIST);
    ck_assert(mkdir(data, 0700) == 0 || errno == EEXIST);
    setenv("XDG_DATA_HOME", home, 1);
    setenv("OCTUPLE_DATA_DIR", data, 1);

    /* the user's book: an old shipped book of 15 games, grown by one learned game; the new
     * shipped book: 30 games, searched a ply deeper */
    enum { OLD = 15, NEW = 30 };
    Game *games = random_games(71, NEW + 1);
    Game *learned = random_games(1234, 1); /* a line of its own */
    games[NEW] = learned[0];
    free(learned);
    Model *model = test_random_model(5);
    ck_assert_ptr_nonnull(model);
    Book *old = book_at_depth(games, OLD, DEPTH, model);
    Book *own = book_at_depth(games, OLD, DEPTH, model);
    OctError error;
    ck_assert(book_add_game(own, &games[NEW], NULL, &error));
    ck_assert_msg(book_evaluate(own, model, 1, NULL, NULL, NULL, &error), "%s", error.message);
    Book *fresh = book_at_depth(games, NEW, DEPTH + 1, model);
    ck_assert(book_save(own, user, &error));
    ck_assert(book_save(fresh, shipped_path, &error));

    /* merging the book it grew from changes nothing */
    size_t changed = 1;
    Book *copy;
    ck_assert(book_load(user, &copy, &error));
    ck_assert(book_merge(copy, old, &changed));
    ck_assert_uint_eq(changed, 0);
    ck_assert_uint_eq(book_count(copy), book_count(own));
    book_free(copy);

    Engine *engine = book_engine("", true);
    ck_assert_str_eq(engine_book_path(engine), user);
    const Book *merged = engine_book(engine);
    ck_assert_ptr_nonnull(merged);
    size_t positions = 0, deeper = 0;
    for (int g = 0; g <= NEW; ++g)
        for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
            Board board;
            game_position(&games[g], ply, &board, NULL);
            const BookEntry *a = book_find(own, &board), *b = book_find(fresh, &board);
            const BookEntry *m = book_find(merged, &board);
            ck_assert_msg(m != NULL, "game %d ply %d: not in the merged book", g, ply);
            ++positions;
            const BookEntry *deepest = !a ? b : !b ? a : b->depth > a->depth ? b : a;
            ck_assert_int_eq(m->depth, deepest->depth);
            ck_assert_int_eq(m->leaf, deepest->leaf);
            ck_assert_int_eq(m->leaf_move, deepest->leaf_move);
            uint32_t games_max = !a ? b->games : !b ? a->games
                               : a->games > b->games ? a->games : b->games;
            ck_assert_uint_eq(m->games, games_max);
            deeper += a && b && b->depth > a->depth;
        }
    ck_assert_uint_gt(deeper, 0);
    ck_assert_uint_gt(book_count(merged), book_count(own));
    ck_assert_uint_gt(book_count(merged), book_count(fresh));
    ck_assert_uint_ge(positions, book_count(merged)); /* every position comes from a game */
    /* the values are the merged book's own negamax: working them out again changes none */
    const char *saved = temp_path("merged.book");
    ck_assert(book_save(merged, saved, &error));
    Book *again;
    ck_assert(book_load(saved, &again, &error));
    ck_assert(book_negamax(again));
    for (int g = 0; g <= NEW; ++g)
        for (int ply = 0; ply <= PLIES && ply <= games[g].move_count; ++ply) {
            Board board;
            game_position(&games[g], ply, &board, NULL);
            ck_assert_int_eq(book_find(again, &board)->value, book_find(merged, &board)->value);
        }
    book_free(again);
    unlink(saved);
    /* nothing was written: the user's file is as it was */
    Book *file;
    ck_assert(book_load(user, &file, &error));
    ck_assert_uint_eq(book_count(file), book_count(own));
    book_free(file);
    engine_free(engine);

    /* a book the user names is used as it is */
    Engine *named = book_engine(user, true);
    ck_assert_uint_eq(book_count(engine_book(named)), book_count(own));
    engine_free(named);

    unlink(user);
    unlink(shipped_path);
    rmdir(dir);
    rmdir(home);
    rmdir(data);
    book_free(old);
    book_free(own);
    book_free(fresh);
    model_free(model);
    free(games);
}
END_TEST

static Suite *book_suite(void)
{
    Suite *suite = suite_create("book");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 300);
    tcase_add_test(core, test_key_is_the_least_image);
    tcase_add_test(core, test_games_are_counted_per_position);
    tcase_add_test(core, test_deviations_and_values_match_references);
    tcase_add_test(core, test_the_search_leaves_out_excluded_moves);
    tcase_add_test(core, test_choices_and_lines);
    tcase_add_test(core, test_files_round_trip_and_refuse_damage);
    tcase_add_test(core, test_game_lists);
    suite_add_tcase(suite, core);
    TCase *engine = tcase_create("engine");
    tcase_set_timeout(engine, 300);
    tcase_add_test(engine, test_engine_plays_and_learns_from_the_book);
    tcase_add_test(engine, test_learned_book_takes_a_newer_shipped_one);
    suite_add_tcase(suite, engine);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(book_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The 1-ply learners' parts: float networks, 1-ply players, the League measure (checked on
 * Jaskowski's Figure 7 network against the paper's figure), TD(0) self-play. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "train/coevolve.h"
#include "core/eval.h"
#include "train/evolve.h"
#include "train/fnet.h"
#include "train/greedy.h"
#include "core/league.h"
#include "core/shapefile.h"
#include "train/shapega.h"
#include "core/shapes.h"
#include "train/tdl.h"
#include "testutil.h"
#include "train/trainset.h"

static Model *figure7(void)
{
    Model *model;
    OctError error;
    ck_assert_msg(model_import_league(test_source_path("weights/jaskowski-all2.txt"), &model, &error),
                  "%s", error.message);
    return model;
}

/* A network of Lucas's snakes with random entries in [-1, 1]. */
static void random_net(FloatNet *net, ModelPerspective perspective, uint64_t seed)
{
    Shape shape;
    OctError error;
    ck_assert_msg(shapes_snakes(12, 0, seed, &shape, &error), "%s", error.message);
    ck_assert_msg(fnet_create(net, &shape, perspective, &error), "%s", error.message);
    shape_free(&shape);
    TestRandom random = {seed};
    for (uint32_t i = 0; i < net->shape.table_size; ++i)
        net->values[i] = (float)(test_random_below(&random, 2001) - 1000) / 1000.0f;
}

typedef struct Position {
    Board board;
    Color to_move;
} Position;

/* Positions with a legal move from random games, with the colour to move. */
static int random_positions(uint64_t seed, Position *out, int capacity)
{
    TestRandom random = {seed};
    int count = 0;
    while (count < capacity) {
        Board board;
        board_init(&board);
        Color to_move = COLOR_BLACK;
        while (count < capacity && !board_is_over(&board)) {
            if (!board_can_move(&board)) {
                board_pass(&board);
                to_move = to_move == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
                continue;
            }
            out[count++] = (Position){board, to_move};
            board_play(&board, test_random_move(&random, &board));
            to_move = to_move == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
        }
    }
    return count;
}

/* The position's discs by colour. */
static void position_colors(const Position *p, uint64_t *black, uint64_t *white)
{
    bool white_to_move = p->to_move == COLOR_WHITE;
    *black = white_to_move ? p->board.opponent : p->board.player;
    *white = white_to_move ? p->board.player : p->board.opponent;
}

/* A model's value of the position after a move, for the player who made it: minus its raw
 * sum for the opponent, who is to move there. */
static double model_after_value(const Model *model, const Position *p, uint64_t black,
                                uint64_t white)
{
    bool black_moved = p->to_move == COLOR_BLACK;
    Board child = black_moved ? (Board){white, black} : (Board){black, white};
    EvalState state;
    eval_set_color(&state, model, &child, black_moved ? COLOR_WHITE : COLOR_BLACK);
    return -(double)eval_sum(&state, model);
}

static void after_move(const Position *p, int square, uint64_t *black, uint64_t *white)
{
    uint64_t flips = board_flips(p->board.player, p->board.opponent, square);
    uint64_t mover = p->board.player | flips | (1ULL << square);
    uint64_t rest = p->board.opponent & ~flips;
    *black = p->to_move == COLOR_BLACK ? mover : rest;
    *white = p->to_move == COLOR_BLACK ? rest : mover;
}

/* The entry instance i of tuple t reads, square by square with no tables: the slow
 * reference. */
static uint32_t slow_entry(const FloatNet *net, int t, int i, uint64_t black, uint64_t white,
                           Color viewer)
{
    bool white_view = net->perspective == PERSPECTIVE_INVERSION && viewer == COLOR_WHITE;
    const Tuple *tuple = &net->shape.tuples[t];
    uint32_t index = 0, power = 1;
    for (int j = 0; j < tuple->size; ++j, power *= 3) {
        int square = tuple->squares[i][j];
        bool own = (white_view ? white : black) >> square & 1;
        bool other = (white_view ? black : white) >> square & 1;
        index += power * (own ? 2u : other ? 0u : 1u);
    }
    return net->shape.tuple_offsets[t] + index;
}

static double slow_fnet_value(const FloatNet *net, uint64_t black, uint64_t white, Color color)
{
    double sum = 0;
    for (int t = 0; t < net->shape.tuple_count; ++t)
        for (int i = 0; i < net->shape.tuples[t].instance_count; ++i)
            sum += net->values[slow_entry(net, t, i, black, white, color)];
    return net->perspective == PERSPECTIVE_NEGATION && color == COLOR_WHITE ? -sum : sum;
}

START_TEST(test_fnet_values_match_the_slow_reading)
{
    Position positions[300];
    int count = random_positions(11, positions, 300);
    for (int p = 0; p < 2; ++p) {
        FloatNet net;
        random_net(&net, p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION, 5 + (uint64_t)p);
        for (int i = 0; i < count; ++i) {
            uint64_t black, white;
            position_colors(&positions[i], &black, &white);
            for (int c = 0; c < 2; ++c) {
                double fast = fnet_value(&net, black, white, (Color)c);
                double slow = slow_fnet_value(&net, black, white, (Color)c);
                ck_assert_msg(fabs(fast - slow) < 1e-6, "position %d colour %d: %f against %f",
                              i, c, fast, slow);
            }
        }
        fnet_free(&net);
    }
}
END_TEST

/* A 1-ply player's move is one of the moves of best value, whatever the player type, and
 * the engine model made from a float network values every candidate as the network does. */
START_TEST(test_greedy_moves_are_best_and_models_agree)
{
    Position positions[400];
    int count = random_positions(3, positions, 400);
    uint64_t rng = 99;
    for (int p = 0; p < 2; ++p) {
        FloatNet net;
        random_net(&net, p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION, 21 + (uint64_t)p);
        Model *model;
        OctError error;
        ck_assert_msg(fnet_to_model(&net, "test", 16.0, &model, &error), "%s", error.message);
        double scale = 16.0 * 128.0 * (double)(1 << model->shift);
        GreedyPlayer as_net = {GREEDY_FNET, &net}, as_model = {GREEDY_MODEL, model};
        for (int i = 0; i < count; ++i) {
            const Position *pos = &positions[i];
            double best = -INFINITY;
            uint64_t moves = board_legal(&pos->board);
            for (uint64_t m = moves; m; m &= m - 1) {
                uint64_t black, white;
                after_move(pos, __builtin_ctzll(m), &black, &white);
                double value = slow_fnet_value(&net, black, white, pos->to_move);
                best = value > best ? value : best;
                double from_model = model_after_value(model, pos, black, white) / scale;
                ck_assert_msg(fabs(from_model - value)
                                  <= net.shape.instance_count * 0.5 / scale + 1e-9,
                              "position %d: model %f, network %f", i, from_model, value);
            }
            uint64_t black, white;
            int move = greedy_move(&as_net, &pos->board, pos->to_move, 0, &rng, NULL);
            ck_assert(moves >> move & 1);
            after_move(pos, move, &black, &white);
            ck_assert(slow_fnet_value(&net, black, white, pos->to_move) == best);
            move = greedy_move(&as_model, &pos->board, pos->to_move, 0, &rng, NULL);
            ck_assert(moves >> move & 1);
            after_move(pos, move, &black, &white);
            ck_assert(slow_fnet_value(&net, black, white, pos->to_move)
                      >= best - 2 * net.shape.instance_count * 0.5 / scale);
        }
        model_free(model);
        fnet_free(&net);
    }
}
END_TEST

/* Ties are broken at random, and epsilon = 1 plays every legal move. */
START_TEST(test_greedy_ties_and_random_moves)
{
    Board board;
    board_init(&board);
    GreedyPlayer random_player = {GREEDY_RANDOM, NULL};
    GreedyPlayer swh = {GREEDY_WPC, wpc_swh()};
    uint64_t rng = 1, seen = 0, seen_swh = 0;
    for (int i = 0; i < 400; ++i) {
        bool forced;
        seen |= 1ULL << greedy_move(&random_player, &board, COLOR_BLACK, 0, &rng, &forced);
        ck_assert(forced);
        /* the four opening moves are symmetric: SWH values them alike */
        seen_swh |= 1ULL << greedy_move(&swh, &board, COLOR_BLACK, 0, &rng, &forced);
        ck_assert(!forced);
    }
    ck_assert_uint_eq(seen, board_legal(&board));
    ck_assert_uint_eq(seen_swh, board_legal(&board));
}
END_TEST

/* Jaskowski, Figure 7: 0.9584 +- 0.0012 over 50,000 double games. 3,000 double games put
 * the mean within about +-0.005 of it; a wrong index, perspective or rule moves it far. */
START_TEST(test_league_measure_of_figure_7)
{
    Model *model = figure7();
    GreedyPlayer player = {GREEDY_MODEL, model}, swh = {GREEDY_WPC, wpc_swh()};
    LeagueScore score;
    greedy_league(&player, &swh, 3000, GREEDY_EPSILON, 7, &score);
    ck_assert_int_eq(score.wins + score.draws + score.losses, 6000);
    ck_assert_msg(score.mean > 0.945 && score.mean < 0.972, "Figure 7 scored %.4f", score.mean);
    ck_assert(score.half_width > 0.002 && score.half_width < 0.01);
    LeagueScore again;
    greedy_league(&player, &swh, 3000, GREEDY_EPSILON, 7, &again);
    ck_assert_int_eq(again.wins, score.wins);
    ck_assert_int_eq(again.draws, score.draws);
    /* two threads play the same games and sum them the same way */
    greedy_league_threads(&player, &swh, 3000, GREEDY_EPSILON, 7, 2, &again);
    ck_assert_int_eq(again.wins, score.wins);
    ck_assert_int_eq(again.losses, score.losses);
    ck_assert(again.mean == score.mean && again.half_width == score.half_width);
    /* with no forced random moves two deterministic players repeat their games */
    greedy_league(&player, &swh, 50, 0, 7, &again);
    ck_assert(again.half_width == 0);
    model_free(model);
}
END_TEST

/* A player against itself scores a half, and SWH beats the random player. */
START_TEST(test_league_symmetry_and_baselines)
{
    GreedyPlayer swh = {GREEDY_WPC, wpc_swh()}, random_player = {GREEDY_RANDOM, NULL};
    LeagueScore score;
    greedy_league(&swh, &swh, 2000, GREEDY_EPSILON, 3, &score);
    ck_assert_msg(fabs(score.mean - 0.5) < 0.03, "SWH against itself: %.4f", score.mean);
    greedy_league(&swh, &random_player, 1000, GREEDY_EPSILON, 3, &score);
    ck_assert_msg(score.mean > 0.7, "SWH against random: %.4f", score.mean);
    greedy_league(&random_player, &swh, 1000, GREEDY_EPSILON, 3, &score);
    ck_assert_msg(score.mean < 0.3, "random against SWH: %.4f", score.mean);
}
END_TEST

/* A network written in League text reads back (League import) as the same player. */
START_TEST(test_fnet_league_text_round_trip)
{
    char path[] = "/tmp/octuple-league-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    Position positions[200];
    int count = random_positions(17, positions, 200);
    for (int p = 0; p < 2; ++p) {
        ModelPerspective perspective = p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION;
        FloatNet net;
        random_net(&net, perspective, 31 + (uint64_t)p);
        OctError error;
        ck_assert_msg(fnet_save_league(&net, path, &error), "%s", error.message);
        Model *model;
        ck_assert_msg(league_import(path, perspective, &model, &error), "%s", error.message);
        double scale = (double)(1 << model->shift) * 128.0 / 163.84;
        for (int i = 0; i < count; ++i) {
            const Position *pos = &positions[i];
            for (uint64_t m = board_legal(&pos->board); m; m &= m - 1) {
                uint64_t black, white;
                after_move(pos, __builtin_ctzll(m), &black, &white);
                double read = model_after_value(model, pos, black, white) / scale;
                double value = slow_fnet_value(&net, black, white, pos->to_move);
                ck_assert_msg(fabs(read - value) <= net.shape.instance_count * 0.5 / scale + 1e-9,
                              "position %d: read back %f, network %f", i, read, value);
            }
        }
        model_free(model);
        fnet_free(&net);
    }
    unlink(path);
}
END_TEST

/* No update after a forced random move; with none forced, one per move. */
START_TEST(test_td_updates_only_chosen_moves)
{
    FloatNet net;
    random_net(&net, PERSPECTIVE_NEGATION, 41);
    for (uint32_t i = 0; i < net.shape.table_size; ++i)
        net.values[i] = 0;
    uint64_t rng = 5;
    long updates = 0;
    td_game(&net, 0.01, 1.0, &rng, &updates);
    ck_assert_int_eq(updates, 0);
    for (uint32_t i = 0; i < net.shape.table_size; ++i)
        ck_assert(net.values[i] == 0);
    for (int g = 0; g < 20; ++g) {
        updates = 0;
        int diff = td_game(&net, 0.01, 0, &rng, &updates);
        ck_assert(updates >= 9 && updates <= 60); /* the shortest game has 9 moves */
        ck_assert(diff >= -64 && diff <= 64);
    }
    bool moved = false;
    for (uint32_t i = 0; i < net.shape.table_size; ++i)
        moved |= net.values[i] != 0;
    ck_assert(moved);
    fnet_free(&net);
}
END_TEST

/* Adds `delta` to the entries `black`/`white` reads for `viewer`, found the slow way. */
static void slow_add(FloatNet *net, uint64_t black, uint64_t white, Color viewer, float delta)
{
    for (int t = 0; t < net->shape.tuple_count; ++t)
        for (int i = 0; i < net->shape.tuples[t].instance_count; ++i)
            net->values[slow_entry(net, t, i, black, white, viewer)] += delta;
}

/* A game of TD(0) written out move by move with the slow reading: every board's value
 * (black's under negation, its last mover's under inversion) moves towards the next
 * board's value in the same player's terms, the board before the last move towards the
 * result. With epsilon 0 the moves are the network's own, so both runs play one game. */
START_TEST(test_td_matches_a_slow_reference)
{
    const double alpha = 0.01;
    for (int p = 0; p < 2; ++p) {
        FloatNet net, reference;
        random_net(&net, p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION, 61 + (uint64_t)p);
        random_net(&reference, net.perspective, 61 + (uint64_t)p);
        for (uint32_t i = 0; i < net.shape.table_size; ++i)
            net.values[i] = reference.values[i] *= 0.1f;
        for (int g = 0; g < 10; ++g) {
            uint64_t rng = 3;
            long updates = 0;
            int diff = td_game(&net, alpha, 0, &rng, &updates);
            uint64_t black = 0x0000000810000000ULL, white = 0x0000001008000000ULL;
            Color to_move = COLOR_BLACK, last_mover = COLOR_WHITE;
            long moves = 0;
            for (;;) {
                uint64_t own = to_move == COLOR_BLACK ? black : white;
                uint64_t other = to_move == COLOR_BLACK ? white : black;
                Position here = {{own, other}, to_move};
                double best = -INFINITY;
                uint64_t next_black = 0, next_white = 0;
                for (uint64_t m = board_legal(&here.board); m; m &= m - 1) {
                    uint64_t b, w;
                    after_move(&here, __builtin_ctzll(m), &b, &w);
                    double value = slow_fnet_value(&reference, b, w, to_move);
                    if (value > best) {
                        best = value;
                        next_black = b;
                        next_white = w;
                    }
                }
                Color viewer = p ? last_mover : COLOR_BLACK;
                double v = tanh(slow_fnet_value(&reference, black, white, viewer));
                uint64_t before_black = black, before_white = white;
                black = next_black;
                white = next_white;
                last_mover = to_move;
                to_move = to_move == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
                Board next = to_move == COLOR_BLACK ? (Board){black, white}
                                                    : (Board){white, black};
                bool over = false;
                if (!board_can_move(&next)) {
                    to_move = last_mover;
                    Board back = {next.opponent, next.player};
                    over = !board_can_move(&back);
                }
                double target;
                if (over) {
                    int d = __builtin_popcountll(black) - __builtin_popcountll(white);
                    double result = d > 0 ? 1 : d < 0 ? -1 : 0;
                    target = viewer == COLOR_BLACK ? result : -result;
                } else {
                    Color next_viewer = p ? last_mover : COLOR_BLACK;
                    /* the next board in the viewer's terms: the game is zero-sum */
                    target = tanh(slow_fnet_value(&reference, black, white, next_viewer))
                           * (next_viewer == viewer ? 1 : -1);
                }
                slow_add(&reference, before_black, before_white, viewer,
                         (float)(alpha * (target - v) * (1 - v * v)));
                ++moves;
                if (over) {
                    int d = __builtin_popcountll(black) - __builtin_popcountll(white);
                    int empties = 64 - __builtin_popcountll(black | white);
                    ck_assert_int_eq(diff, d > 0 ? d + empties : d < 0 ? d - empties : 0);
                    break;
                }
            }
            ck_assert_int_eq(updates, moves);
            for (uint32_t i = 0; i < net.shape.table_size; ++i)
                ck_assert_msg(fabsf(net.values[i] - reference.values[i]) < 1e-6f,
                              "perspective %d game %d entry %u: %g against %g", p, g, i,
                              (double)net.values[i], (double)reference.values[i]);
        }
        fnet_free(&net);
        fnet_free(&reference);
    }
}
END_TEST

/* A weighted piece counter as a linear network: 64 one-square tables tied as (-w, 0, w).
 * Its value is the sum of w over own discs less w over the other's; TD moves w by the
 * gradient (+1 own, -1 other), so the tables stay tied; fnet_tie projects free tables. */
START_TEST(test_linear_networks_are_piece_counters)
{
    Tuple tuples[SQUARE_COUNT];
    OctError error;
    for (int q = 0; q < SQUARE_COUNT; ++q) {
        uint8_t square = (uint8_t)q;
        ck_assert(tuple_explicit(&square, 1, 1, &tuples[q], &error));
    }
    Shape shape;
    ck_assert(shape_build(&shape, "wpc", tuples, SQUARE_COUNT, &error));
    ck_assert(fnet_can_be_linear(&shape));
    for (int p = 0; p < 2; ++p) {
        FloatNet net;
        ck_assert(fnet_create(&net, &shape, p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION,
                              &error));
        net.linear = true;
        TestRandom random = {71};
        for (uint32_t i = 0; i < net.shape.table_size; ++i)
            net.values[i] = (float)(test_random_below(&random, 2001) - 1000) / 1000.0f;
        fnet_tie(&net, net.values);
        uint64_t rng = 9;
        long updates = 0;
        for (int g = 0; g < 30; ++g)
            td_game(&net, 0.01, 0.1, &rng, &updates);
        ck_assert(updates > 0);
        Position positions[100];
        int count = random_positions(13, positions, 100);
        for (int q = 0; q < SQUARE_COUNT; ++q) {
            ck_assert(net.values[3 * q + 1] == 0);
            ck_assert(net.values[3 * q] == -net.values[3 * q + 2]);
        }
        for (int i = 0; i < count; ++i) {
            uint64_t black, white;
            position_colors(&positions[i], &black, &white);
            double counter = 0;
            for (int q = 0; q < SQUARE_COUNT; ++q)
                counter += net.values[3 * q + 2]
                         * (double)((int)(black >> q & 1) - (int)(white >> q & 1));
            ck_assert(fabs(fnet_value(&net, black, white, COLOR_BLACK) - counter) < 1e-4);
            ck_assert(fabs(fnet_value(&net, black, white, COLOR_WHITE) + counter) < 1e-4);
        }
        fnet_free(&net);
    }
    float free_values[3] = {0.5f, 0.25f, -0.5f};
    FloatNet one = {0};
    one.linear = true;
    one.shape.table_size = 3;
    fnet_tie(&one, free_values);
    ck_assert(free_values[0] == 0.5f && free_values[1] == 0 && free_values[2] == -0.5f);
    shape_free(&shape);
}
END_TEST

/* Lucas, "Learning to Play Othello with N-Tuple Systems", 2008: TD self-play from zero
 * weights soon beats SWH at 1 ply. 2,000 games of 30 snakes take the League score from
 * about 0.15 (a random-tie player) past 0.4. */
START_TEST(test_td_learns_to_beat_its_start)
{
    for (int p = 0; p < 2; ++p) {
        Shape shape;
        OctError error;
        ck_assert(shapes_snakes(30, 0, 1, &shape, &error));
        FloatNet net;
        ck_assert(fnet_create(&net, &shape, p ? PERSPECTIVE_INVERSION : PERSPECTIVE_NEGATION,
                              &error));
        shape_free(&shape);
        GreedyPlayer player = {GREEDY_FNET, &net}, swh = {GREEDY_WPC, wpc_swh()};
        LeagueScore before, after;
        greedy_league(&player, &swh, 300, GREEDY_EPSILON, 9, &before);
        TdOptions options = {2000, 0.001, GREEDY_EPSILON, 1, 0, 0};
        TdReport report;
        ck_assert(td_train(&net, &options, NULL, &report, &error));
        ck_assert_int_eq(report.games, 2000);
        greedy_league(&player, &swh, 500, GREEDY_EPSILON, 9, &after);
        ck_assert_msg(before.mean < 0.3 && after.mean > 0.4,
                      "perspective %d: %.4f before, %.4f after", p, before.mean, after.mean);
        fnet_free(&net);
    }
}
END_TEST

static void zero_net(FloatNet *net, int all_n, ModelPerspective perspective)
{
    Shape shape;
    OctError error;
    ck_assert(shapes_all_n(all_n, &shape, &error));
    ck_assert(fnet_create(net, &shape, perspective, &error));
    shape_free(&shape);
}

static double league_of(const FloatNet *net, int double_games, uint64_t seed)
{
    GreedyPlayer player = {GREEDY_FNET, net}, swh = {GREEDY_WPC, wpc_swh()};
    LeagueScore score;
    greedy_league(&player, &swh, double_games, GREEDY_EPSILON, seed, &score);
    return score.mean;
}

/* The same run on one thread and on two gives the same network; the evolved network beats
 * what the first random parents play like. */
START_TEST(test_evolve_repeats_and_improves)
{
    EvolveOptions options = {3, 9, 8, 1.0, 0.1, 40, GREEDY_EPSILON, 4, 1};
    FloatNet one, two, start;
    zero_net(&one, 1, PERSPECTIVE_INVERSION);
    zero_net(&two, 1, PERSPECTIVE_INVERSION);
    zero_net(&start, 1, PERSPECTIVE_INVERSION);
    EvolveReport report, report2;
    OctError error;
    ck_assert_msg(evolve_run(&one, &options, 0, NULL, &report, &error), "%s", error.message);
    options.threads = 2;
    ck_assert(evolve_run(&two, &options, 0, NULL, &report2, &error));
    ck_assert_int_eq(report.generations, 8);
    ck_assert_int_eq(report.games, 8L * 12 * 40 * 2);
    for (uint32_t i = 0; i < one.shape.table_size; ++i)
        ck_assert(one.values[i] == two.values[i]);
    ck_assert(report.best_fitness == report2.best_fitness);
    /* no generation: the best of the first random parents, unmeasured */
    options.generations = 0;
    ck_assert(evolve_run(&start, &options, 0, NULL, &report2, &error));
    double before = league_of(&start, 400, 77), after = league_of(&one, 400, 77);
    ck_assert_msg(after > before + 0.1, "evolved %.4f, random parent %.4f", after, before);
    options.mu = 0;
    ck_assert(!evolve_run(&start, &options, 0, NULL, &report2, &error));
    fnet_free(&one);
    fnet_free(&two);
    fnet_free(&start);
}
END_TEST

/* Games counted as the round robin, the TD phases and the archive play them; threads
 * change nothing; without TD every entry stays inside the clip. */
START_TEST(test_coevolve_counts_repeats_and_clips)
{
    CoevolveOptions options = {8, 6, 2, 0.01, GREEDY_EPSILON, 3, 0.2, 0.5, 0.3, 3, 0.2, 5, 1};
    FloatNet one, two;
    zero_net(&one, 2, PERSPECTIVE_NEGATION);
    zero_net(&two, 2, PERSPECTIVE_NEGATION);
    CoevolveReport report, report2;
    OctError error;
    ck_assert_msg(coevolve_run(&one, &options, 0, 0, NULL, &report, &error), "%s",
                  error.message);
    options.threads = 2;
    ck_assert(coevolve_run(&two, &options, 0, 0, NULL, &report2, &error));
    long expected = 0;
    for (int g = 1; g <= 6; ++g) {
        int archive = g - 1 < 3 ? g - 1 : 3; /* members before this generation's best */
        expected += 8L * 2 + 8L * 8 + 8L * archive; /* TD, every pair both ways, archive */
    }
    ck_assert_int_eq(report.games, expected);
    ck_assert_int_eq(report2.games, expected);
    ck_assert_int_eq(report.best_points, report2.best_points);
    for (uint32_t i = 0; i < one.shape.table_size; ++i)
        ck_assert(one.values[i] == two.values[i]);
    options.td_games = 0;
    options.generations = 4;
    ck_assert(coevolve_run(&one, &options, 0, 0, NULL, &report, &error));
    bool moved = false;
    for (uint32_t i = 0; i < one.shape.table_size; ++i) {
        ck_assert(fabsf(one.values[i]) <= 0.3f);
        moved |= one.values[i] != 0;
    }
    ck_assert(moved);
    options.population = 1;
    ck_assert(!coevolve_run(&one, &options, 0, 0, NULL, &report, &error));
    fnet_free(&one);
    fnet_free(&two);
}
END_TEST

/* Coevolution learns from nothing: from all-zero networks (which play as the random player
 * does), the best of the last generation beats the random player most of the time, with
 * TD phases and without (0.74 and 0.72 over 300 double games when written). */
START_TEST(test_coevolution_learns)
{
    for (int td = 0; td < 2; ++td) {
        CoevolveOptions options = {10, 20, td, 0.001, GREEDY_EPSILON, 3, 0.03, 0.25, 1.0, 10,
                                   0.2, 3, 2};
        FloatNet net;
        zero_net(&net, 2, PERSPECTIVE_NEGATION);
        GreedyPlayer player = {GREEDY_FNET, &net}, random_player = {GREEDY_RANDOM, NULL};
        LeagueScore before, after;
        greedy_league(&player, &random_player, 300, GREEDY_EPSILON, 5, &before);
        CoevolveReport report;
        OctError error;
        ck_assert(coevolve_run(&net, &options, 0, 0, NULL, &report, &error));
        greedy_league(&player, &random_player, 300, GREEDY_EPSILON, 5, &after);
        ck_assert_msg(fabs(before.mean - 0.5) < 0.08 && after.mean > 0.65,
                      "TD games %d: %.4f before, %.4f after", td, before.mean, after.mean);
        fnet_free(&net);
    }
}
END_TEST

static void small_search(ShapeGaOptions *o)
{
    shapega_defaults(o);
    o->island_count = 3;
    o->moves[0] = 16;
    o->moves[1] = 20;
    o->moves[2] = 24;
    o->population = 8;
    o->elite = 2;
    o->mutants = 3;
    o->migration_interval = 2;
    o->migration_size = 2;
    o->generations = 4;
    o->tuple_count = 4;
    o->sizes[0] = 6;
    o->sizes[1] = 5;
    o->sizes[2] = 4;
    o->sizes[3] = 3;
    o->epochs = 1;
    o->seed = 3;
}

/* Decoded tuples have the asked sizes within a1..h3 (their first instance; the others are
 * its symmetric images); a search repeats exactly, whatever the number of threads; scores
 * are finite losses; bad options are refused. */
START_TEST(test_shape_search_decodes_and_repeats)
{
    TrainSet set;
    test_random_trainset(&set, 1500, 8);
    ShapeGaOptions o;
    small_search(&o);
    ShapeGaResult first[SHAPEGA_MAX_ISLANDS] = {0}, second[SHAPEGA_MAX_ISLANDS] = {0};
    OctError error;
    ck_assert_msg(shapega_run(&set, &o, 0, NULL, first, &error), "%s", error.message);
    o.threads = 2;
    ck_assert(shapega_run(&set, &o, 0, NULL, second, &error));
    for (int k = 0; k < o.island_count; ++k) {
        const Shape *a = &first[k].best, *b = &second[k].best;
        ck_assert_int_eq(first[k].move, o.moves[k]);
        ck_assert_int_eq(a->tuple_count, 4);
        for (int t = 0; t < 4; ++t) {
            const Tuple *tuple = &a->tuples[t];
            ck_assert_int_eq(tuple->size, o.sizes[t]);
            ck_assert(tuple_is_symmetric(tuple));
            for (int j = 0; j < tuple->size; ++j) {
                ck_assert(tuple->squares[0][j] < SHAPEGA_REGION);
                if (j)
                    ck_assert(tuple->squares[0][j] > tuple->squares[0][j - 1]);
            }
        }
        ck_assert(shape_equal(a, b));
        ck_assert(first[k].fitness == second[k].fitness);
        ck_assert(isfinite(first[k].fitness) && first[k].fitness > 0);
        ck_assert(isfinite(first[k].test_score) && first[k].test_score > 0);
        ck_assert(isfinite(first[k].edax_score) && first[k].edax_score > 0);
        double again;
        ck_assert(shapega_test_score(&set, &o, a, o.moves[k], &again, &error));
        ck_assert(again == first[k].test_score);
        shape_free(&first[k].best);
        shape_free(&second[k].best);
    }
    o.elite = 6; /* elite + mutants not below the population */
    ck_assert(!shapega_check(&o, &error));
    small_search(&o);
    o.moves[1] = 60;
    ck_assert(!shapega_check(&o, &error));
    small_search(&o);
    trainset_free(&set);
    test_random_trainset(&set, 6, 8); /* too few positions to fit: said so */
    ck_assert(!shapega_run(&set, &o, 0, NULL, first, &error));
    trainset_free(&set);
}
END_TEST

/* The fit behind the fitness learns: a shape's test score beats predicting the mean
 * result, whose loss is the labels' variance (all-3 at move 52 of random games: 191 against
 * 339 when written). */
START_TEST(test_shape_fit_beats_the_mean)
{
    TrainSet set;
    test_random_trainset(&set, 3000, 9);
    ShapeGaOptions o;
    small_search(&o);
    o.epochs = 4;
    Shape edax;
    OctError error;
    ck_assert(shapes_all_n(3, &edax, &error));
    int move = 52;
    double score;
    ck_assert(shapega_test_score(&set, &o, &edax, move, &score, &error));
    double sum = 0, squares = 0;
    int count = 0;
    for (size_t i = 0; i < set.count; ++i)
        if (set.positions[i].move_number == move) {
            sum += set.positions[i].target;
            squares += (double)set.positions[i].target * set.positions[i].target;
            ++count;
        }
    double variance = squares / count - (sum / count) * (sum / count);
    ck_assert_msg(score < 0.75 * variance, "test score %.2f, label variance %.2f", score,
                  variance);
    shape_free(&edax);
    trainset_free(&set);
}
END_TEST

/* The shipped shapes of `make weights-shapes` read back as the search makes them: Edax's
 * tuple sizes, each tuple's first instance within a1..h3, all 8 images. */
START_TEST(test_shipped_stage_shapes)
{
    static const int moves[] = {30, 34, 38, 42, 46};
    ShapeGaOptions o;
    shapega_defaults(&o);
    for (int m = 0; m < 5; ++m) {
        char relative[64];
        snprintf(relative, sizeof relative, "weights/shapes/move-%d.shape", moves[m]);
        Shape shape;
        OctError error;
        ck_assert_msg(shape_read(test_source_path(relative), &shape, &error), "%s", error.message);
        ck_assert_int_eq(shape.tuple_count, o.tuple_count);
        for (int t = 0; t < shape.tuple_count; ++t) {
            const Tuple *tuple = &shape.tuples[t];
            ck_assert_int_eq(tuple->size, o.sizes[t]);
            ck_assert(tuple_is_symmetric(tuple));
            for (int j = 0; j < tuple->size; ++j)
                ck_assert(tuple->squares[0][j] < SHAPEGA_REGION);
        }
        shape_free(&shape);
    }
}
END_TEST

static Suite *learn_suite(void)
{
    Suite *suite = suite_create("learn");
    TCase *players = tcase_create("players");
    tcase_set_timeout(players, 120);
    tcase_add_test(players, test_fnet_values_match_the_slow_reading);
    tcase_add_test(players, test_greedy_moves_are_best_and_models_agree);
    tcase_add_test(players, test_greedy_ties_and_random_moves);
    tcase_add_test(players, test_league_measure_of_figure_7);
    tcase_add_test(players, test_league_symmetry_and_baselines);
    tcase_add_test(players, test_fnet_league_text_round_trip);
    suite_add_tcase(suite, players);
    TCase *td = tcase_create("td");
    tcase_set_timeout(td, 300);
    tcase_add_test(td, test_td_updates_only_chosen_moves);
    tcase_add_test(td, test_td_matches_a_slow_reference);
    tcase_add_test(td, test_linear_networks_are_piece_counters);
    tcase_add_test(td, test_td_learns_to_beat_its_start);
    suite_add_tcase(suite, td);
    TCase *evolution = tcase_create("evolution");
    tcase_set_timeout(evolution, 300);
    tcase_add_test(evolution, test_evolve_repeats_and_improves);
    tcase_add_test(evolution, test_coevolve_counts_repeats_and_clips);
    tcase_add_test(evolution, test_coevolution_learns);
    suite_add_tcase(suite, evolution);
    TCase *shapes = tcase_create("shapes");
    tcase_set_timeout(shapes, 300);
    tcase_add_test(shapes, test_shape_search_decodes_and_repeats);
    tcase_add_test(shapes, test_shape_fit_beats_the_mean);
    tcase_add_test(shapes, test_shipped_stage_shapes);
    suite_add_tcase(suite, shapes);
    return suite;
}

int main(void)
{
    SRunner *runner = srunner_create(learn_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

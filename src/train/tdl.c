/* TD(0) self-play of float n-tuple networks. */
#include "train/tdl.h"

#include <math.h>

#include "core/rng.h"
#include "core/timing.h"

static Color color_other(Color color)
{
    return color == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
}

/* The player whose value a board carries: black under negation, else the last mover. */
static Color viewer_of(const FloatNet *net, Color last_mover)
{
    return net->perspective == PERSPECTIVE_NEGATION ? COLOR_BLACK : last_mover;
}

int td_game(FloatNet *net, double alpha, double epsilon, uint64_t *rng, long *updates)
{
    GreedyPlayer self = {GREEDY_FNET, net};
    Board board;
    board_init(&board);
    Color to_move = COLOR_BLACK, last_mover = COLOR_WHITE;
    uint32_t entries[SHAPE_MAX_INSTANCES];
    for (;;) {
        bool random_move;
        int square = greedy_move(&self, &board, to_move, epsilon, rng, &random_move);
        Board before = board;
        Color before_viewer = viewer_of(net, last_mover);
        Color before_to_move = to_move;
        board_play(&board, square);
        last_mover = to_move;
        to_move = color_other(to_move);
        bool over = false;
        if (!board_can_move(&board)) {
            board_pass(&board);
            to_move = color_other(to_move);
            over = !board_can_move(&board);
        }
        if (!random_move) {
            uint64_t black = before_to_move == COLOR_BLACK ? before.player : before.opponent;
            uint64_t white = before_to_move == COLOR_BLACK ? before.opponent : before.player;
            int count = fnet_entries(net, black, white, before_viewer, entries);
            double v = tanh(fnet_sum(net, entries, count));
            uint64_t next_black = to_move == COLOR_BLACK ? board.player : board.opponent;
            uint64_t next_white = to_move == COLOR_BLACK ? board.opponent : board.player;
            double target;
            if (over) {
                int diff = __builtin_popcountll(next_black) - __builtin_popcountll(next_white);
                target = diff > 0 ? 1.0 : diff < 0 ? -1.0 : 0.0; /* black's result */
                if (before_viewer == COLOR_WHITE)
                    target = -target;
            } else {
                /* fnet_value is the next viewer's value; the other player's is its negation */
                Color next_viewer = viewer_of(net, last_mover);
                target = tanh(fnet_value(net, next_black, next_white, next_viewer));
                if (next_viewer != before_viewer)
                    target = -target;
            }
            fnet_add(net, entries, count, (float)(alpha * (target - v) * (1.0 - v * v)));
            ++*updates;
        }
        if (over) {
            int score = board_final_score(&board);
            return to_move == COLOR_BLACK ? score : -score;
        }
    }
}

static void measure(const FloatNet *net, const TdOptions *options, int games, FILE *log,
                    TdReport *report)
{
    GreedyPlayer player = {GREEDY_FNET, net}, swh = {GREEDY_WPC, wpc_swh()};
    greedy_league(&player, &swh, options->measure_games, GREEDY_EPSILON,
                  options->seed ^ 0x5eedULL, &report->league);
    if (log) {
        const LeagueScore *s = &report->league;
        fprintf(log, "games %d: against SWH %.4f +- %.4f (%d won, %d drawn, %d lost), "
                     "%.0f games/s\n",
                games, s->mean, s->half_width, s->wins, s->draws, s->losses,
                report->seconds > 0 ? games / report->seconds : 0.0);
        fflush(log);
    }
}

bool td_train(FloatNet *net, const TdOptions *options, FILE *log, TdReport *report,
              OctError *error)
{
    if (options->games < 0 || !(options->alpha > 0) || options->epsilon < 0
        || options->epsilon > 1 || options->measure_every < 0 || options->measure_games < 0)
        return error_set(error, "td: games >= 0, alpha > 0, epsilon in [0, 1] and measures "
                                ">= 0 are needed");
    *report = (TdReport){0};
    uint64_t rng = board_mix64(options->seed + 1);
    for (int g = 1; g <= options->games; ++g) {
        double start = monotonic_seconds();
        td_game(net, options->alpha, options->epsilon, &rng, &report->updates);
        report->seconds += monotonic_seconds() - start;
        report->games = g;
        bool due = options->measure_every ? g % options->measure_every == 0
                                          : g == options->games;
        if (options->measure_games && due)
            measure(net, options, g, log, report);
    }
    if (options->measure_games && options->measure_every
        && options->games % options->measure_every != 0)
        measure(net, options, options->games, log, report);
    return true;
}

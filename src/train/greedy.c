/* One-ply players, epsilon-Othello games, the League measure. */
#include "train/greedy.h"

#include <math.h>
#include <stdlib.h>

#include "core/eval.h"
#include "core/pool.h"
#include "core/rng.h"

static int nth_square(uint64_t moves, int n)
{
    while (n-- > 0)
        moves &= moves - 1;
    return __builtin_ctzll(moves);
}

int greedy_move(const GreedyPlayer *player, const Board *board, Color to_move, double epsilon,
                uint64_t *rng, bool *random_move)
{
    uint64_t moves = board_legal(board);
    int count = __builtin_popcountll(moves);
    bool forced = player->kind == GREEDY_RANDOM || (epsilon > 0 && rng_unit(rng) < epsilon);
    if (random_move)
        *random_move = forced;
    if (forced || count == 1)
        return nth_square(moves, count == 1 ? 0 : (int)(rng_next(rng) % (uint64_t)count));
    EvalState state, child;
    const Model *model = player->kind == GREEDY_MODEL ? player->object : NULL;
    if (model)
        eval_set_color(&state, model, board, to_move);
    double best = -INFINITY;
    int best_move = MOVE_NONE, ties = 0;
    for (uint64_t m = moves; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        uint64_t flips = board_flips(board->player, board->opponent, square);
        uint64_t mover = board->player | flips | (1ULL << square);
        uint64_t rest = board->opponent & ~flips;
        uint64_t black = to_move == COLOR_BLACK ? mover : rest;
        uint64_t white = to_move == COLOR_BLACK ? rest : mover;
        double value;
        switch (player->kind) {
        case GREEDY_WPC:
            value = wpc_value(player->object, black, white) * (to_move == COLOR_BLACK ? 1 : -1);
            break;
        case GREEDY_MODEL:
            /* the child belongs to the opponent: its score is minus the mover's */
            eval_copy(&child, &state);
            eval_play(&child, model, square, flips);
            value = -(double)eval_sum(&child, model);
            break;
        case GREEDY_FNET:
            value = fnet_value(player->object, black, white, to_move);
            break;
        default:
            value = 0;
            break;
        }
        /* ties at random: the k-th equal best replaces the kept one with probability 1/k */
        if (value > best) {
            best = value;
            best_move = square;
            ties = 1;
        } else if (value == best && rng_next(rng) % (uint64_t)++ties == 0) {
            best_move = square;
        }
    }
    /* values that all compare false (NaN) leave no best: any legal move then */
    return best_move != MOVE_NONE ? best_move : __builtin_ctzll(moves);
}

int greedy_game(const GreedyPlayer *black, const GreedyPlayer *white, double epsilon,
                uint64_t *rng)
{
    Board board;
    board_init(&board);
    Color to_move = COLOR_BLACK;
    for (;;) {
        if (!board_can_move(&board)) {
            board_pass(&board);
            to_move = to_move == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
            if (!board_can_move(&board))
                break;
        }
        const GreedyPlayer *player = to_move == COLOR_BLACK ? black : white;
        board_play(&board, greedy_move(player, &board, to_move, epsilon, rng, NULL));
        to_move = to_move == COLOR_BLACK ? COLOR_WHITE : COLOR_BLACK;
    }
    int score = board_final_score(&board);
    return to_move == COLOR_BLACK ? score : -score;
}

static double points(int black_score)
{
    return black_score > 0 ? 1.0 : black_score == 0 ? 0.5 : 0.0;
}

/* The points of double game i: its own seed makes it the same on any thread. */
static void double_game(const GreedyPlayer *player, const GreedyPlayer *opponent, int i,
                        double epsilon, uint64_t seed, uint8_t *halves)
{
    uint64_t rng = board_mix64(seed ^ board_mix64((uint64_t)i + 1));
    double first = points(greedy_game(player, opponent, epsilon, &rng));
    double second = 1.0 - points(greedy_game(opponent, player, epsilon, &rng));
    halves[0] = (uint8_t)(2 * first);
    halves[1] = (uint8_t)(2 * second);
}

typedef struct LeagueJob {
    const GreedyPlayer *player, *opponent;
    double epsilon;
    uint64_t seed;
    int count, chunk;
    uint8_t *halves; /* per double game, the two games' points in halves (0, 1, 2) */
} LeagueJob;

static void league_chunk(void *context, int c)
{
    LeagueJob *job = context;
    int end = (c + 1) * job->chunk < job->count ? (c + 1) * job->chunk : job->count;
    for (int i = c * job->chunk; i < end; ++i)
        double_game(job->player, job->opponent, i, job->epsilon, job->seed, job->halves + 2 * i);
}

void greedy_league(const GreedyPlayer *player, const GreedyPlayer *opponent, int double_games,
                   double epsilon, uint64_t seed, LeagueScore *out)
{
    greedy_league_threads(player, opponent, double_games, epsilon, seed, 1, out);
}

void greedy_league_threads(const GreedyPlayer *player, const GreedyPlayer *opponent,
                           int double_games, double epsilon, uint64_t seed, int threads,
                           LeagueScore *out)
{
    *out = (LeagueScore){.double_games = double_games};
    if (double_games < 1)
        return;
    uint8_t *halves = threads > 1 ? malloc(2 * (size_t)double_games) : NULL;
    double sum = 0, squares = 0;
    if (halves) {
        LeagueJob job = {player, opponent, epsilon, seed, double_games, 64, halves};
        pool_run((double_games + job.chunk - 1) / job.chunk, threads, league_chunk, &job);
    }
    /* the sums run in game order whoever played the games, so every count of threads
     * gives the same figures (without memory for the list, one game after another) */
    for (int i = 0; i < double_games; ++i) {
        uint8_t own[2];
        if (halves) {
            own[0] = halves[2 * i];
            own[1] = halves[2 * i + 1];
        } else {
            double_game(player, opponent, i, epsilon, seed, own);
        }
        for (int g = 0; g < 2; ++g) {
            out->wins += own[g] == 2;
            out->draws += own[g] == 1;
            out->losses += own[g] == 0;
        }
        double pair = (own[0] + own[1]) / 4.0;
        sum += pair;
        squares += pair * pair;
    }
    free(halves);
    out->mean = sum / double_games;
    if (double_games > 1) {
        double variance = (squares - sum * sum / double_games) / (double_games - 1);
        out->half_width = 1.96 * sqrt(variance > 0 ? variance : 0) / sqrt(double_games);
    }
}

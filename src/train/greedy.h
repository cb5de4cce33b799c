/* One-ply players and the Othello League measure (Jaskowski, "Systematic N-tuple Networks
 * for Position Evaluation: Exceeding 90% in the Othello League", 2014; Szubert, Jaskowski
 * and Krawiec, "Coevolutionary Temporal Difference Learning for Othello", 2009; Lucas,
 * "Learning to Play Othello with N-Tuple Systems", 2008).
 *
 * A 1-ply player scores the position after each of its legal moves, from its own view, and
 * plays one of the best, ties broken at random. In epsilon-Othello each player instead
 * plays a uniformly random legal move with probability epsilon (0.1 in the papers), which
 * makes games between deterministic players differ. The League measure (Jaskowski 2014) is the
 * score of a player against SWH in epsilon-Othello over double games (one game with each
 * colour; win 1, draw 0.5), as a mean with a 95% confidence interval. */
#ifndef OCTUPLE_GREEDY_H
#define OCTUPLE_GREEDY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "train/fnet.h"
#include "core/model.h"
#include "core/wpc.h"

typedef enum GreedyKind {
    GREEDY_RANDOM, /* every move scores the same: a uniformly random player */
    GREEDY_WPC,    /* a weighted piece counter (SWH: wpc_swh) */
    GREEDY_MODEL,  /* an engine model, by its raw sum (eval_sum), whatever its perspective */
    GREEDY_FNET    /* a float network (fnet.h) */
} GreedyKind;

typedef struct GreedyPlayer {
    GreedyKind kind;
    const void *object; /* the Wpc, Model or FloatNet; NULL for GREEDY_RANDOM */
} GreedyPlayer;

enum { GREEDY_DEFAULT_DOUBLE_GAMES = 5000 };
#define GREEDY_EPSILON 0.1

/* The move of `player` on `board` (side to move of colour `to_move`), which must have a
 * legal move. `random_move` (may be NULL) tells whether it was a forced random one. */
int greedy_move(const GreedyPlayer *player, const Board *board, Color to_move, double epsilon,
                uint64_t *rng, bool *random_move);

/* One game from the standard start: the final disc difference from black's view, empty
 * squares going to the winner. */
int greedy_game(const GreedyPlayer *black, const GreedyPlayer *white, double epsilon,
                uint64_t *rng);

typedef struct LeagueScore {
    int double_games;
    int wins, draws, losses; /* over the 2 * double_games games, from the player's view */
    double mean;             /* points per game */
    double half_width;       /* of the 95% interval, from the spread of the double games */
} LeagueScore;

/* `player` against `opponent`. Double game i is played from its own seed (`seed` mixed
 * with i), so the same arguments give the same score on any machine. */
void greedy_league(const GreedyPlayer *player, const GreedyPlayer *opponent, int double_games,
                   double epsilon, uint64_t seed, LeagueScore *out);
/* The same on up to `threads` threads, with the same figures: the players must be safe to
 * share (every GreedyPlayer kind is: they only read their tables). */
void greedy_league_threads(const GreedyPlayer *player, const GreedyPlayer *opponent,
                           int double_games, double epsilon, uint64_t seed, int threads,
                           LeagueScore *out);

#endif

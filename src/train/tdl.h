/* Temporal difference learning by self-play (Lucas, "Learning to Play Othello with N-Tuple
 * Systems", 2008; the TDL of Szubert, Jaskowski and Krawiec, "Coevolutionary Temporal
 * Difference Learning for Othello", 2009).
 *
 * The network plays both sides at 1 ply, with a forced random move at probability
 * epsilon. After each move from board x to board x', x's value v(x) = tanh(f(x)) moves
 * towards v(x'), or towards the result r (+1 win, 0 draw, -1 loss) when x' ends the game:
 * every entry x reads gains alpha * (target - v(x)) * (1 - v(x)^2), gradient-descent TD(0).
 * A forced random move brings no update.
 *
 * Whose value. Under output negation every value is black's (Lucas's setting). Under board
 * inversion a board is valued by the player who made the last move into it (at the start,
 * white), the view in which a 1-ply player scores its candidate moves; the target then
 * changes sign when x' was made by the other player (zero-sum), and keeps it after a pass. */
#ifndef OCTUPLE_TDL_H
#define OCTUPLE_TDL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "train/fnet.h"
#include "train/greedy.h"

typedef struct TdOptions {
    int games;          /* self-play games */
    double alpha;       /* learning rate: 0.001 in Lucas 2008, 0.01 in Szubert et al. 2009 */
    double epsilon;     /* forced random moves: 0.1 */
    uint64_t seed;
    int measure_every;  /* games between League measures against SWH; 0: at the end only */
    int measure_games;  /* double games per measure; 0: none */
} TdOptions;

typedef struct TdReport {
    int games;
    long updates;
    LeagueScore league; /* the last measure (double_games 0 when none ran) */
    double seconds;     /* of self-play alone, measures left out */
} TdReport;

/* One self-play game with its updates; returns the final disc difference for black. */
int td_game(FloatNet *net, double alpha, double epsilon, uint64_t *rng, long *updates);

/* `options->games` games on `net` (usually all zero at first), a line on `log` (may be NULL)
 * per measure. */
bool td_train(FloatNet *net, const TdOptions *options, FILE *log, TdReport *report,
              OctError *error);

#endif

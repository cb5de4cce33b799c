/* Weighted piece counters (Jaskowski, "Systematic N-tuple Networks for Position Evaluation:
 * Exceeding 90% in the Othello League", 2014; Szubert, Jaskowski and Krawiec,
 * "Coevolutionary Temporal Difference Learning for Othello", 2009) and the standard
 * heuristic SWH (Jaskowski 2014, Table I): f(b) = sum of w[square] * b[square], b = +1
 * black, -1 white, 0 empty.
 *
 * The two ways a single function can play both colours (Jaskowski 2014, II.F):
 * - output negation: f is black's value; black maximises f, white minimises it, so the
 *   value for `color` is f(b) for black and -f(b) for white;
 * - board inversion: the player reads its own discs as black, so its value is f of the
 *   colour-swapped board when it plays white.
 * For a WPC both give the same number (f is linear and odd in b); they differ for n-tuple
 * networks, whose tables need not be odd (model.h, PERSPECTIVE_*). */
#ifndef OCTUPLE_WPC_H
#define OCTUPLE_WPC_H

#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/model.h"

typedef struct Wpc {
    double weights[SQUARE_COUNT]; /* a1 = 0, h1 = 7, a8 = 56 */
} Wpc;

/* SWH, Table I of Jaskowski 2014 (Yoshioka et al.); symmetric, corners 1.0. */
const Wpc *wpc_swh(void);

/* f(b) from black's view. */
double wpc_value(const Wpc *wpc, uint64_t black, uint64_t white);
/* The value of `board` (side to move relative; `to_move` its colour) for `color`. */
double wpc_negation(const Wpc *wpc, const Board *board, Color to_move, Color color);
double wpc_inversion(const Wpc *wpc, const Board *board, Color to_move, Color color);

/* The WPC as a model of 64 one-square tuples (board inversion, origin WPC) so the search
 * can use it: weight 1.0 = one disc, stored in units of 1/32 engine unit (1/4096 disc). */
bool wpc_model(const Wpc *wpc, const char *name, Model **out, OctError *error);

#endif

/* Import of n-tuple networks in the Othello League text format (Figure 7 of Jaskowski,
 * "Systematic N-tuple Networks for Position Evaluation: Exceeding 90% in the Othello
 * League", 2014):
 *
 *     { T  { n m { s1 .. sn } x m  { w0 .. w(3^n - 1) } } x T }
 *
 * T tuples; per tuple its size n, its number of instances m, each instance's squares
 * (0..63 row by row: a1 = 0, h1 = 7, a8 = 56, the engine's own numbering), then the 3^n
 * table values. An instance's index reads its squares as base-3 digits, the first square
 * least significant, with the evaluating player's discs = 2, empty = 1, the other discs = 0.
 * Instances are taken exactly as listed (Figure 7 lists every pair in ascending square
 * order, so its network is not exactly symmetric; model_is_symmetric says so).
 *
 * Perspective. A League network is a 1-ply player: it scores the position AFTER its own
 * move. With board inversion (Figure 7) it reads that position from its own view, so the
 * value V belongs to the player who has just moved. The engine scores positions for the
 * side to move, hence the import stores, for every table,
 *
 *     entry[i] = -round(c * w[3^n - 1 - i])         (c = 100, see below)
 *
 * which makes eval_sum = -c * V(board seen by the player who just moved) exactly: reversing
 * the index swaps the two players' digits, the minus sign hands the value to the side to
 * move. A 1-ply League player therefore picks the move whose resulting position has the
 * SMALLEST eval_sum. With output negation (tables valued for black, black maximising) the
 * tables are stored as c * w and the model is marked PERSPECTIVE_NEGATION.
 *
 * Scale. The League value has no unit (no tanh is applied: tanh is odd and increasing, so
 * leaving it out changes no 1-ply or minimax decision). Entries are stored as c * w with
 * c = 100, exact for Figure 7's two decimals; the model's shift is LEAGUE_SHIFT, so
 *
 *     eval_score = round(-100 * V / 2^LEAGUE_SHIFT)  engine units (1/128 disc),
 *
 * i.e. one disc per 2^LEAGUE_SHIFT * 128 / 100 = 163.84 League units. With this factor the
 * Figure 7 network's side-to-move values over 120,000 random-game positions (eval_sum / 100
 * from -5402 to +3148, median -1303: the network carries a large constant) stay inside +-64
 * discs, so no score is clamped and the order of positions is kept. c is 100 times the
 * largest power of two (from 2^-7 to 2^8, the shift moving with it, which keeps the disc
 * mapping) at which every value fits int16: 100 for Figure 7, whose values reach 284.39;
 * more for networks of small values, whose precision 0.01 would lose. */
#ifndef OCTUPLE_LEAGUE_H
#define OCTUPLE_LEAGUE_H

#include <stdbool.h>

#include "core/error.h"
#include "core/model.h"

enum { LEAGUE_SHIFT = 7 };

/* `source` names the text in messages. */
bool league_parse(const char *text, const char *source, ModelPerspective perspective,
                  Model **out, OctError *error);
bool league_import(const char *path, ModelPerspective perspective, Model **out,
                   OctError *error);
/* Board inversion, as Figure 7. */
bool model_import_league(const char *path, Model **out, OctError *error);

#endif

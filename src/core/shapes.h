/* Network shapes from the papers: systematic straight all-n (Jaskowski, "Systematic N-tuple
 * Networks for Position Evaluation: Exceeding 90% in the Othello League", 2014), random
 * snakes (Lucas, "Learning to Play Othello with N-Tuple Systems", 2008, and the rand-m x n
 * networks of Jaskowski 2014), and the Edax pattern set (docs/formats.md). Every generated
 * tuple is expanded in the 8 symmetries. */
#ifndef OCTUPLE_SHAPES_H
#define OCTUPLE_SHAPES_H

#include <stdint.h>

#include "core/error.h"
#include "core/ntuple.h"

/* all-n: every horizontal, vertical and diagonal line of n consecutive squares, one tuple
 * per class of lines equal under symmetry. n = 1..4 give 10, 32, 24 and 21 tuples. */
bool shapes_all_n(int n, Shape *out, OctError *error);

/* `count` random snakes. length > 0: random walks over the 8 neighbours until `length`
 * distinct squares are collected (rand-count x length). length == 0: Lucas's walks of 6
 * steps keeping the distinct squares (2 to 7 of them). Same seed, same shape. */
bool shapes_snakes(int count, int length, uint64_t seed, Shape *out, OctError *error);

/* The Edax-like set of docs/formats.md: corner 3x3, corner + two edges, edge + 2 X-squares,
 * edge block, lines 2-4, the diagonals of 8..4 squares; 12 tuples, 46 instances. */
bool shapes_edax(Shape *out, OctError *error);

/* Edax 4's own set, as the issue describes it: the 2x5 corner block (8 images) replaces the
 * corner + two edges and edge block tuples; 11 tuples, 46 instances. */
bool shapes_edax_2x5(Shape *out, OctError *error);

#endif

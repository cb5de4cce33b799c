/* Float n-tuple networks for the papers' 1-ply learners (TD self-play of Lucas, "Learning to
 * Play Othello with N-Tuple Systems", 2008, and the other learners of Jaskowski, "Systematic
 * N-tuple Networks for Position Evaluation: Exceeding 90% in the Othello League", 2014, and
 * of Szubert, Jaskowski and Krawiec, "Coevolutionary Temporal Difference Learning for
 * Othello", 2009): one shape, one float table per tuple, one weight set for the whole game,
 * no bias. The raw value f(x) is the sum of the table entries the position reads; the
 * learners put it through tanh, the players compare raw sums (tanh is increasing, so no
 * choice changes).
 *
 * Perspective (model.h names the two ways):
 * - PERSPECTIVE_NEGATION (Lucas): every index reads black's discs as 2, white's as 0, so
 *   f is black's value and white's is -f;
 * - PERSPECTIVE_INVERSION (Jaskowski): the indices read the evaluating player's discs as
 *   2, so each player has its own f.
 * A 1-ply player scores the position after its own candidate move, for itself
 * (fnet_value with `color` = the mover). */
#ifndef OCTUPLE_FNET_H
#define OCTUPLE_FNET_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/model.h"
#include "core/ntuple.h"

typedef struct FloatNet {
    Shape shape;
    float *values; /* shape.table_size entries; tuple t at shape.tuple_offsets[t] */
    ModelPerspective perspective;
    /* A weighted piece counter (Jaskowski 2014, Szubert et al. 2009): every tuple one
     * square, its table tied to one weight w as (-w, 0, w) for (other, empty, own), so
     * f = sum of w * (+1, 0, -1). */
    bool linear;
} FloatNet;

/* A copy of `shape` with every entry zero, not linear. On failure `net` holds nothing to
 * free. */
bool fnet_create(FloatNet *net, const Shape *shape, ModelPerspective perspective,
                 OctError *error);
void fnet_free(FloatNet *net);

/* The entries the position reads for `color` (black whatever `color` is under
 * NEGATION): shape.instance_count of them, written to `entries`. */
int fnet_entries(const FloatNet *net, uint64_t black, uint64_t white, Color color,
                 uint32_t *entries);
double fnet_sum(const FloatNet *net, const uint32_t *entries, int count);
/* f for `color`: its own sum under INVERSION, black's sum negated for white under NEGATION. */
double fnet_value(const FloatNet *net, uint64_t black, uint64_t white, Color color);
/* Adds `delta` to each listed entry (an entry listed twice moves twice, as the gradient of
 * the sum asks). A linear network moves the weight behind the entry instead: by `delta`
 * for an own disc, by -delta for the other's, not at all for an empty square. */
void fnet_add(FloatNet *net, const uint32_t *entries, int count, float delta);
/* Ties the tables `values` of a linear network of `net`'s shape again after operators that
 * change its weights, the own-disc entries (every third): other = -own, empty = 0. Other
 * networks: nothing. */
void fnet_tie(const FloatNet *net, float *values);
/* Whether every tuple of `shape` is a single square: a shape a linear network can have. */
bool fnet_can_be_linear(const Shape *shape);

/* The engine's model of the network: the side to move's score is minus the value of the
 * player who has just moved (as league.h converts League networks), with f = 1 worth
 * `discs_per_unit` discs; the largest shift that keeps every entry in int16 is used. */
bool fnet_to_model(const FloatNet *net, const char *name, double discs_per_unit, Model **out,
                   OctError *error);

/* The network in the Othello League text format (league.h), written atomically. League
 * readers take its instances as listed and its values as raw sums. */
bool fnet_save_league(const FloatNet *net, const char *path, OctError *error);

#endif

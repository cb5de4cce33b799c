/* The genetic search over network shapes of Kuramitsu, Suzuki and Matsuzawa, "N-tuple
 * network search in Othello using genetic algorithms", 2025 (the phase-shape paper): a
 * distributed GA whose island k looks for the shape that best predicts the final disc
 * difference at move t_k.
 *
 * An individual is a network of fixed tuple sizes (Edax's: 9, 10, 10, 10, 8, 8, 8, 8, 7, 6,
 * 5, 4) whose tuples lie in the 24 squares of the three rows next to an edge (a1..h3), each
 * tuple expanded in the 8 symmetries. Its gene holds 24 random keys per tuple, in [0, 1);
 * tuple i takes the sizes[i] squares with the smallest keys (the decoder). Each island is a
 * biased random-key GA (BRKGA): of `population` individuals the `elite` best pass on
 * unchanged, `mutants` new random ones come in, and each of the others crosses a random
 * elite parent with a random other one, every key from the elite parent with probability
 * `inherit`. Every `migration_interval` generations each island takes copies of its
 * neighbours' best (`migration_size` in all, half from each of two neighbours) in place of
 * random mutants.
 *
 * Fitness. The games are split once: `test_fraction` of them (20%) are kept apart for the
 * test score; of the others, each generation draws a fresh 20% for validation and trains on
 * the rest. An individual's fitness is the mean squared error (discs^2) on the validation
 * positions at move t_k of a network trained from zero weights on the training positions
 * at t_k (stochastic gradient descent, `epochs` passes, as `regress` fits). Lower is
 * better. The test score of a shape (the paper's Table 2) trains on every non-test game's
 * position at t and measures the test games'. */
#ifndef OCTUPLE_SHAPEGA_H
#define OCTUPLE_SHAPEGA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/ntuple.h"
#include "train/trainset.h"

enum {
    SHAPEGA_MAX_ISLANDS = 16,
    SHAPEGA_MAX_TUPLES = 16,
    SHAPEGA_REGION = 24 /* a1..h3 */
};

typedef struct ShapeGaOptions {
    int island_count;
    int moves[SHAPEGA_MAX_ISLANDS]; /* t_k, move numbers 1..59 */
    int population, elite, mutants;
    double inherit;
    int migration_interval, migration_size;
    int generations;
    int tuple_count;
    int sizes[SHAPEGA_MAX_TUPLES];
    int epochs;
    double rate;
    double test_fraction;
    uint64_t seed;
    int threads;
} ShapeGaOptions;

/* The paper's settings with Edax's tuple sizes; `generations` is left to the caller. */
void shapega_defaults(ShapeGaOptions *options);

typedef struct ShapeGaResult {
    int move;
    Shape best;          /* the best shape of the last generation (shape_free it) */
    double fitness;      /* its validation loss in that generation */
    double test_score;   /* its test score at `move` */
    double edax_score;   /* the Edax shape's test score at `move`, for comparison */
} ShapeGaResult;

/* The options' consistency, with a message naming what is wrong. */
bool shapega_check(const ShapeGaOptions *options, OctError *error);

/* Runs the search on the positions of `set` (one game database; positions carry their
 * game's index). `results` gets one entry per island. A line per generation on `log`
 * (may be NULL), with test scores every `measure_every` generations (0: at the end). */
bool shapega_run(const TrainSet *set, const ShapeGaOptions *options, int measure_every,
                 FILE *log, ShapeGaResult *results, OctError *error);

/* The test score of `shape` at move `move` under `options`' split (tests, tables). */
bool shapega_test_score(const TrainSet *set, const ShapeGaOptions *options, const Shape *shape,
                        int move, double *score, OctError *error);

#endif

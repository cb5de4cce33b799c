/* An evaluation model: network shapes, weight sets, and a phase table that picks the shape
 * and the weight set by move number (Jaskowski, "Systematic N-tuple Networks for Position
 * Evaluation: Exceeding 90% in the Othello League", 2014; Kuramitsu, Suzuki and Matsuzawa,
 * "N-tuple network search in Othello using genetic algorithms", 2025; Lucas, "Learning to
 * Play Othello with N-Tuple Systems", 2008).
 *
 * Units and perspective (Jaskowski 2014 warns that this is where bugs hide):
 * - A model scores a position for the SIDE TO MOVE. eval_score (eval.h) returns that score
 *   in engine units of 1/EVAL_DISC = 1/128 of a disc; positive is good for the side to move.
 * - Weight table entries are int16 "weight units" of 2^-shift engine units. The raw score
 *   of a position is the weight set's bias plus one table entry per tuple instance
 *   (eval_sum); eval_score rounds it to engine units (divides by 2^shift) and clamps it
 *   strictly inside the exact-score range (+-64 discs).
 * - PERSPECTIVE_INVERSION (board inversion, the default): an instance's index reads the
 *   side to move's discs as digit 2, empty as 1, the opponent's discs as 0, and the tables
 *   give the side to move's value directly. Colour does not matter.
 * - PERSPECTIVE_NEGATION (output negation, a baseline of Jaskowski 2014): indices read black's
 *   discs as 2 and white's as 0 whoever is to move, the tables give black's value, and the
 *   side to move's score is that value negated when white is to move.
 * - Models imported from the Othello League format (league.h) were trained as 1-ply players,
 *   which score the position after their own move from their own view. The import converts
 *   them to the side-to-move convention above; league.h documents the exact mapping.
 * - The move number is the number of discs on the board minus 4 (0..60), so passes do not
 *   change it.
 *
 * A Model is immutable once built or loaded and may be shared read-only between threads.
 * Trainers build one with model_create and write its weight tables before sharing it. */
#ifndef OCTUPLE_MODEL_H
#define OCTUPLE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/probcut.h"
#include "core/ntuple.h"

enum {
    MODEL_MOVES = 61,      /* move numbers 0..60 */
    MODEL_MAX_SHAPES = 16,
    MODEL_MAX_SETS = MODEL_MOVES,
    MODEL_MAX_SHIFT = 15,
    MODEL_NAME_SIZE = 64
};

typedef enum ModelPerspective {
    PERSPECTIVE_INVERSION = 0,
    PERSPECTIVE_NEGATION = 1
} ModelPerspective;

/* Where the weights came from; informative (model_dump), it changes no arithmetic. */
typedef enum ModelOrigin {
    ORIGIN_NATIVE = 0, /* trained or built here; disc-scaled (regression on disc difference) */
    ORIGIN_LEAGUE = 1, /* imported Othello League 1-ply network, converted (league.h) */
    ORIGIN_WPC = 2     /* a weighted piece counter written as 1-square tuples (wpc.h) */
} ModelOrigin;

/* Move number -> (shape, weight set). Weight sets are numbered 0..n-1, each used by at
 * least one move and always with the same shape. */
typedef struct PhaseTable {
    uint8_t shape[MODEL_MOVES];
    uint8_t set[MODEL_MOVES];
} PhaseTable;

typedef struct WeightSet {
    int shape;
    int32_t bias;     /* weight units, added once */
    int16_t *values;  /* the shape's table_size entries; tuple t at shape.tuple_offsets[t] */
} WeightSet;

typedef struct Model {
    char name[MODEL_NAME_SIZE];
    ModelPerspective perspective;
    ModelOrigin origin;
    int shift;           /* eval_score = round(eval_sum / 2^shift) */
    int shape_count;
    Shape *shapes;
    int set_count;
    WeightSet *sets;
    PhaseTable phase;
    void *storage;       /* one block holding every set's values */
    Probcut probcut;     /* the solver's probability-cut model fitted to these weights
                            (FILE.mpc beside FILE.ow); disabled when there is none */
} Model;

/* One shape, one weight set for every move (the papers' 1-ply players). */
void phase_single(PhaseTable *phase);
/* One shape, a weight set per bucket of `width` moves (width 1: per move, like Edax). */
void phase_buckets(PhaseTable *phase, int width);
/* A shape per game stage and a weight set per move (the phase-shape paper's Table 3 agent:
 * first_moves {0, 33, 37, 41, 45}). Stage s uses shape s from move first_moves[s] up to the
 * next stage; first_moves must start at 0 and increase. */
void phase_stages(PhaseTable *phase, const int *first_moves, int stage_count);
/* Checks the rules above for `shape_count` shapes; gives the number of weight sets. */
bool phase_check(const PhaseTable *phase, int shape_count, int *set_count, OctError *error);

/* A model with copies of `shapes`, the sets the phase table names, all weights and biases
 * zero, shift 0, board inversion, native origin. */
bool model_create(const Shape *shapes, int shape_count, const PhaseTable *phase,
                  Model **out, OctError *error);
void model_free(Model *model);

static inline const WeightSet *model_weights(const Model *model, int move_number)
{
    return &model->sets[model->phase.set[move_number]];
}

/* Total table entries over all weight sets (the layout weights_save_float expects). */
size_t model_weight_count(const Model *model);

/* True when every tuple is a symmetric expansion and every table is invariant under its
 * tuple's stabilizer permutations: then all 8 images of a position score the same. */
bool model_is_symmetric(const Model *model);
/* Averages every table over its tuple's stabilizer permutations (rounding half away from
 * zero), which makes a model of symmetric expansions symmetric. */
void model_symmetrize(Model *model);
/* Uniform random weights in [-amplitude, amplitude], biases zero (tests, benchmarks,
 * initial populations). Same seed, same weights. */
void model_fill_random(Model *model, uint64_t seed, int amplitude);

#endif

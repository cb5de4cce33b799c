/* Position evaluation with incremental n-tuple indices.
 *
 * Scores are for the SIDE TO MOVE in units of 1/EVAL_DISC of a disc (model.h explains the
 * perspective conventions). A search keeps one EvalState per line of play:
 *
 *     eval_set(&state, model, &board);                  from scratch at the root
 *     EvalState saved; eval_copy(&saved, &state);       undo by copy (only the used part)
 *     eval_play(&state, model, square, flips);          after board_play(&board, square)
 *     int score = eval_score(&state, model);            for the new side to move
 *     eval_copy(&state, &saved);                        or eval_undo(&state, model, square, flips)
 *
 * The state holds the instance indices of the shape the phase table gives for its move
 * number, read from one fixed side's view; a move adds the precomputed powers of its
 * squares (Shape.square_powers: square -> power of 3 in every instance) to the indices,
 * 16 lanes per vector addition, and the side to move is a flag, so no index needs
 * rewriting when the turn changes. When a move crosses into a move number with another
 * shape, the indices are rebuilt from the board the state keeps.
 *
 * A NULL model is the disc count: the state then only follows the board, and eval_score
 * gives the disc difference (just under a disc per disc, so it never equals an exact score). */
#ifndef OCTUPLE_EVAL_H
#define OCTUPLE_EVAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/board.h"
#include "core/model.h"
#include "core/scale.h"

typedef struct EvalState {
    Board board;                  /* the position, side to move relative */
    uint8_t move_number;          /* discs on the board - 4 */
    uint8_t shape;                /* the shape whose indices `index` holds */
    uint8_t reference_to_move;    /* 1: indices read from the side to move's view */
    uint8_t reference_black;      /* the reference side is black (output negation only) */
    uint16_t instance_count;
    /* the shape's lane_count entries are kept (padding lanes stay 0) */
    _Alignas(32) uint16_t index[SHAPE_MAX_INSTANCES];
} EvalState;

_Static_assert(offsetof(EvalState, index) == 32, "eval_copy copies 32-byte blocks");

/* From scratch. The side to move is taken as black; only PERSPECTIVE_NEGATION models care,
 * and they need eval_set_color. */
void eval_set(EvalState *state, const Model *model, const Board *board);
void eval_set_color(EvalState *state, const Model *model, const Board *board, Color to_move);

/* The side to move played `square`, flipping `flips` (board_flips); the state then belongs
 * to the other side, like board_play. */
void eval_play(EvalState *state, const Model *model, int square, uint64_t flips);
/* Takes back eval_play(state, model, square, flips). */
void eval_undo(EvalState *state, const Model *model, int square, uint64_t flips);
void eval_pass(EvalState *state);

/* Raw sum in weight units (bias + one entry per instance), exact; for 1-ply players and
 * tests. Positive is good for the side to move. */
int32_t eval_sum(const EvalState *state, const Model *model);
/* The side to move's score in engine units, |score| < EVAL_LIMIT. */
int eval_score(const EvalState *state, const Model *model);

/* For trainers: the positions within the current weight set's values (model_weights) of
 * the entries the position reads, one per instance, with the perspective applied; returns
 * their count. eval_sum = eval_sign * (bias + sum of values[entries[k]]). */
int eval_entries(const EvalState *state, const Model *model, uint32_t *entries);
/* -1 for an output-negation model with white to move, +1 otherwise. */
int eval_sign(const EvalState *state, const Model *model);

/* From scratch, for tests and benchmarks (side to move black for negation models). */
int eval_board(const Model *model, const Board *board);

/* Copies the header and the used lanes only: 128 bytes for an Edax-size shape, as whole
 * 32-byte blocks, which compilers turn into a few vector moves rather than a call. */
static inline void eval_copy(EvalState *copy, const EvalState *state)
{
    int blocks = 1 + (state->instance_count + SHAPE_LANE_BLOCK - 1) / SHAPE_LANE_BLOCK;
    unsigned char *to = (unsigned char *)copy;
    const unsigned char *from = (const unsigned char *)state;
    for (int b = 0; b < blocks; ++b)
        memcpy(to + 32 * b, from + 32 * b, 32);
}

#endif

/* The engine's score scale, shared by every layer that reads or writes scores: evaluations
 * (eval.h), ProbCut's parameters (probcut.h, stored in discs and used in engine units), the
 * search and the trainers. Scores are for the side to move (model.h explains the
 * perspective conventions). */
#ifndef OCTUPLE_SCALE_H
#define OCTUPLE_SCALE_H

enum {
    EVAL_DISC = 128,            /* engine units per disc */
    EVAL_LIMIT = 64 * EVAL_DISC /* |eval_score| < EVAL_LIMIT: below any exact +-64 */
};

#endif

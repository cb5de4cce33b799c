/* Fits the midgame Multi-ProbCut parameters: positions of real games are searched by
 * iterative deepening to a depth, and for each depth d the score at d is regressed on the
 * score at probcut_mid_shallow(d): v_d = a * v_shallow + b, with the residual's spread as
 * sigma, per depth and band of empties. */
#ifndef OCTUPLE_MPC_FIT_H
#define OCTUPLE_MPC_FIT_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/model.h"
#include "core/probcut.h"
#include "train/trainset.h"

enum {
    MPC_FIT_BAND = 4,       /* empties per fitted band */
    MPC_FIT_MIN_SAMPLES = 20 /* a band with fewer pairs gets no parameters */
};

typedef struct MpcFitOptions {
    int min_empties;   /* positions with this many empties ... */
    int max_empties;   /* ... up to this many */
    int per_empties;   /* positions sampled at each count of empties */
    int max_depth;     /* deepest search measured (PROBCUT_MID_MIN_DEPTH..) */
    uint64_t seed;
} MpcFitOptions;

/* Whether the options can be fitted, said in `error` when not (before any work). */
bool mpc_fit_check(const MpcFitOptions *options, OctError *error);

/* Measures and fits into the midgame part of `out` (its endgame part is left alone); the
 * table of fitted parameters goes to `log` (may be NULL). */
bool mpc_fit(const TrainSet *set, const Model *model, const MpcFitOptions *options,
             Probcut *out, FILE *log, OctError *error);

#endif

/* Fits the probability-cut error model: positions of real games are solved exactly and
 * searched shallowly at several depths; the spread of (exact - shallow) per empties and
 * depth is measured and a plane sigma = base + per_empty * E + per_depth * d fitted to it. */
#ifndef OCTUPLE_PROBCUT_FIT_H
#define OCTUPLE_PROBCUT_FIT_H

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/model.h"
#include "core/probcut.h"
#include "train/trainset.h"

enum { PROBCUT_FIT_MAX_DEPTH = 8, PROBCUT_FIT_MAX_EMPTIES = 30 };

typedef struct ProbcutFitOptions {
    int min_empties;   /* positions with this many empties ... */
    int max_empties;   /* ... up to this many */
    int per_empties;   /* positions sampled at each count of empties */
    uint64_t seed;
} ProbcutFitOptions;

/* Whether the options can be fitted, said in `error` when not (before any work). */
bool probcut_fit_check(const ProbcutFitOptions *options, OctError *error);

/* Measures and fits; the table of measured sigmas goes to `log` (may be NULL). */
bool probcut_fit(const TrainSet *set, const Model *model, const ProbcutFitOptions *options,
                 Probcut *out, FILE *log, OctError *error);

#endif

/* How far a network's static evaluation and its shallow searches are from exact scores, by
 * number of empties: the measure networks are judged by (mean absolute error in discs). */
#ifndef OCTUPLE_EVALERROR_H
#define OCTUPLE_EVALERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/board.h"
#include "core/error.h"
#include "core/model.h"

enum { EVALERROR_MAX_DEPTH = 8 };

typedef struct ExactPosition {
    Board board;
    int score; /* exact final disc difference, side to move's view */
} ExactPosition;

typedef struct EvalErrorOptions {
    int per_empties;   /* at most this many positions at each count of empties (seeded) */
    int max_depth;     /* searches of 1..max_depth plies besides the static evaluation */
    int threads;
    uint64_t seed;
    bool search_labels; /* also positions labelled by a deep search where no exact score is
                           known (the stages no solve reaches) */
} EvalErrorOptions;

typedef struct EvalErrorTable {
    int count[61];
    double absolute[61][EVALERROR_MAX_DEPTH + 1]; /* sums of |error| in discs; [e][0] static */
} EvalErrorTable;

/* Samples and measures; the searches go to depth d without exact solving, each from an empty
 * table, with the model's Multi-ProbCut as in play. */
bool evalerror_measure(const Model *model, const ExactPosition *positions, size_t count,
                       const EvalErrorOptions *options, EvalErrorTable *table, OctError *error);

/* The table as text: a row per count of empties with positions, mean absolute errors. */
void evalerror_print(FILE *out, const EvalErrorTable *table, int max_depth);

#endif

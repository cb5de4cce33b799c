/* Probability cuts in the endgame (Buro's ProbCut, as Multi-ProbCut applies it): far from
 * the end, a shallow search of the evaluation predicts the exact score well enough that a
 * node whose prediction lies far outside the window is cut without being solved. How far is
 * "far" is t standard deviations of the prediction error; the error model (sigma by
 * empties and shallow depth) is fitted by `octuple-train probcut` and loaded from a file.
 * A search at level l < PROBCUT_LEVELS uses t = probcut_t(l); each level's results order the
 * next, and the last, exact search (TT_LEVEL_FULL) cuts nothing. */
#ifndef OCTUPLE_PROBCUT_H
#define OCTUPLE_PROBCUT_H

#include <stdbool.h>

#include "error.h"

enum {
    PROBCUT_LEVELS = 1,       /* selective passes searched before the exact one */
    PROBCUT_MIN_EMPTIES = 10, /* fewer empties: solving is cheaper than predicting */
    /* the shallow search's depth: measured (octuple-train probcut), deeper searches predict
     * the exact score hardly better than two plies, and cost far more */
    PROBCUT_DEPTH = 2
};

typedef struct Probcut {
    bool enabled;
    /* sigma (discs) = base + per_empty * empties + per_depth * depth */
    double base;
    double per_empty;
    double per_depth;
} Probcut;

/* Cut width in standard deviations at a level (0 .. PROBCUT_LEVELS - 1). */
double probcut_t(int level);
/* Predicted error (discs) of a `depth` search at `empties` empties. */
double probcut_sigma(const Probcut *probcut, int empties, int depth);

/* Text file: a header line "octuple-probcut 1", then "sigma BASE PER_EMPTY PER_DEPTH";
 * '#' starts a comment. On error `probcut` is unchanged. */
bool probcut_load(Probcut *probcut, const char *path, OctError *error);
/* Written to a temporary file, then renamed. `comment` (may be NULL) goes in as comments. */
bool probcut_save(const Probcut *probcut, const char *path, const char *comment,
                  OctError *error);

#endif

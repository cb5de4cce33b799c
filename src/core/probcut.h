/* Probability cuts (Buro's ProbCut and Multi-ProbCut), in two places.
 * - The endgame: far from the end, a shallow search of the evaluation predicts the exact
 *   score well enough that a node whose prediction lies far outside the window is cut
 *   without being solved. How far is "far" is t standard deviations of the prediction error;
 *   the error model (sigma by empties and shallow depth) is fitted by `octuple-train probcut`.
 *   A search at level l < PROBCUT_LEVELS uses t = probcut_t(l); each level's results order the
 *   next, and the last, exact search (TT_LEVEL_FULL) cuts nothing.
 * - The midgame: a search of depth d is predicted from one of depth probcut_mid_shallow(d) by
 *   v_d = a * v_shallow + b, error sigma, with a, b and sigma fitted per depth and empties by
 *   `octuple-train mpc`; a node is cut when the prediction lies PROBCUT_MID_T sigmas beyond
 *   the window.
 * Both models live in one file (FILE.mpc beside FILE.ow); each part is off when absent. */
#ifndef OCTUPLE_PROBCUT_H
#define OCTUPLE_PROBCUT_H

#include <stdbool.h>

#include "core/error.h"

enum {
    PROBCUT_LEVELS = 2,       /* selective passes searched before the exact one, at most */
    PROBCUT_MIN_EMPTIES = 10, /* fewer empties: solving is cheaper than predicting */
    /* the shallow search's depth: measured (octuple-train probcut), deeper searches predict
     * the exact score hardly better than two plies, and cost far more */
    PROBCUT_DEPTH = 2,
    PROBCUT_MID_MIN_DEPTH = 3,  /* shallower midgame nodes are never cut */
    PROBCUT_MID_ROOT_DEPTH = 9, /* nor the nodes of searches shallower than this */
    PROBCUT_MID_MAX_DEPTH = 30, /* deeper nodes use this depth's parameters */
    PROBCUT_MID_MAX_EMPTIES = 60
};

/* Width of a midgame cut in sigmas (Buro's Othello program used 1.5). */
#define PROBCUT_MID_T 1.5

/* v_deep = a * v_shallow + b (evaluation units), error sigma (evaluation units). A sigma
 * of 0 marks a cell without parameters. */
typedef struct ProbcutPair {
    float a, b, sigma;
} ProbcutPair;

typedef struct Probcut {
    bool enabled;      /* the endgame part */
    /* sigma (discs) = base + per_empty * empties + per_depth * depth */
    double base;
    double per_empty;
    double per_depth;
    bool mid_enabled;  /* the midgame part: at least one cell below has parameters */
    int mid_deepest[2]; /* the deepest fitted depth of each parity (0: none) */
    ProbcutPair mid[PROBCUT_MID_MAX_DEPTH + 1][PROBCUT_MID_MAX_EMPTIES + 1]; /* [depth][empties] */
} Probcut;

/* Cut width in standard deviations at a level (0 .. PROBCUT_LEVELS - 1). */
double probcut_t(int level);
/* Predicted error (discs) of a `depth` search at `empties` empties. */
double probcut_sigma(const Probcut *probcut, int empties, int depth);

/* The depth of the search that predicts a midgame search of `depth`: about half, with the
 * same parity, since the evaluation of the side to move and of the side that just moved
 * differ systematically. */
int probcut_mid_shallow(int depth);
/* The parameters for a midgame node, or NULL when it is never cut. Depths beyond the
 * deepest fitted one take that depth's parameters (of the same parity when fitted). */
const ProbcutPair *probcut_mid(const Probcut *probcut, int depth, int empties);

/* Text file: a header line "octuple-probcut 2", then an optional endgame line
 * "sigma BASE PER_EMPTY PER_DEPTH" and any number of midgame lines
 * "mid DEPTH MIN_EMPTIES MAX_EMPTIES A B SIGMA" (B and SIGMA in discs), and last the end
 * line "end LINES CHECKSUM": the number of sigma and mid lines, and the CRC-32 (zlib's) of
 * every byte before the end line in 8 hex digits. '#' starts a comment. At least one part
 * must be there. A file cut short or changed is refused, as is version 1 (no end line). On
 * error `probcut` is unchanged. */
bool probcut_load(Probcut *probcut, const char *path, OctError *error);
/* Written to a temporary file, then renamed. `comment` (may be NULL) goes in as comments. */
bool probcut_save(const Probcut *probcut, const char *path, const char *comment,
                  OctError *error);
/* Converts a version-1 file at `path` into version 2 at `out` (which may be the same
 * path): the same bytes with the header's version changed and the end line added, after
 * reading it as the engine would have. */
bool probcut_upgrade(const char *path, const char *out, OctError *error);

#endif

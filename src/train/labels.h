/* Training labels for positions of database games: exact solves, or searches of a network.
 * Game results are poor labels for positions of human games (a later blunder decides them),
 * and a network trained only on one engine's games misjudges the positions people reach;
 * solved positions of many games fix both where solving is cheap. Where it is not, a search
 * of the current network labels them for the next one (Novello's bootstrap: the labels of
 * network k fit network k+1). The output is an OBF file (the best move and its score), which
 * `regress --labels` reads. */
#ifndef OCTUPLE_LABELS_H
#define OCTUPLE_LABELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/game.h"
#include "core/model.h"

enum {
    LABELS_MAX_EMPTIES = 16,
    LABELS_MAX_EXACT_EMPTIES = 36 /* exact solves beyond this are out of reach */
};

typedef struct LabelOptions {
    int empties[LABELS_MAX_EMPTIES]; /* positions with these counts of empties, one each per game */
    int empties_count;
    size_t limit;      /* at most this many games (a seeded sample); 0: all */
    uint64_t seed;
    size_t hash_megabytes;
    int depth;         /* 0: exact solves; else a search of this depth (exact where it reaches
                          the end), which needs a model */
} LabelOptions;

/* Solves (or searches) the positions and writes them to `path` (temporary file, then rename). Progress
 * lines go to `log` (may be NULL); `model` (may be NULL) orders the solver's moves. */
bool labels_make(const Game *games, size_t count, const LabelOptions *options,
                 const Model *model, const char *path, FILE *log, OctError *error);

#endif

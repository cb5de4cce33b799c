/* Self-play games for training data: each game opens with a random number of random moves,
 * then the engine plays both sides at a fixed depth and solves exactly from a number of
 * empties, so every position from the solve on carries its exact score. Game k of a seed is
 * the same whatever the number of threads, the order the games finish in, or where a run was
 * interrupted: its random choices come from (seed, k) alone and each game starts its search
 * from an empty table. */
#ifndef OCTUPLE_SELFPLAY_H
#define OCTUPLE_SELFPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/model.h"
#include "train/posfile.h"

typedef struct SelfplayOptions {
    uint64_t seed;
    uint64_t first_game;  /* shards: games first_game .. first_game + games - 1 */
    uint64_t games;
    int min_random;       /* random opening moves, uniform in min_random .. max_random */
    int max_random;
    int depth;            /* midgame search depth of the moves played */
    int exact_empties;    /* exact solving from this many empties */
    double random_rate;   /* chance of a random move later, above exact_empties */
    int label_depth;      /* > 0: each position also gets a search score of this depth */
    int threads;
    size_t hash_megabytes; /* each thread's table */
    double progress_seconds; /* between progress lines (0: none) */
} SelfplayOptions;

/* The defaults: 8..50 random moves, depth 7, exact from 20 empties, no later random moves,
 * no search labels, one thread. */
SelfplayOptions selfplay_defaults(void);
bool selfplay_check(const SelfplayOptions *options, OctError *error);

/* Plays game `number` of `options->seed` into `game`, with `search` (whose table it
 * clears). */
struct Search;
void selfplay_game(struct Search *search, const SelfplayOptions *options, uint64_t number,
                   PosGame *game);

/* A hash of what decides the games: the options that shape them and the network's
 * contents with its error model. A resumed file must have been made with the same. */
uint32_t selfplay_settings_hash(const SelfplayOptions *options, const Model *model);

/* Generates the games into `path`: a new file, or the continuation of one an interrupted
 * run left (its cut-short last game is dropped and replayed). Progress lines (games,
 * positions, rate, time left) go to `log`. */
bool selfplay_run(const SelfplayOptions *options, const Model *model, const char *path,
                  FILE *log, OctError *error);

#endif

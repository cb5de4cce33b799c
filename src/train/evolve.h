/* The (mu + lambda) evolution strategy of Jaskowski, "Systematic N-tuple Networks for
 * Position Evaluation: Exceeding 90% in the Othello League", 2014: 1-ply networks evolved
 * against SWH, the fitness of each being its Othello League score (greedy.h).
 *
 * The parents start with entries uniform in [-init, init]. Each generation parent k % mu
 * begets offspring k (k < lambda), a copy with N(0, sigma^2) added to every entry; then
 * parents and offspring alike play `fitness_games` double games against SWH, all of them
 * on the same seeds of that generation (common random numbers: a parent's lucky score of
 * an earlier generation does not keep it alive), and the mu best become the parents. The
 * paper runs (10 + 90) for 5,000 generations with sigma 1, init 0.1 and 1,000 double games. */
#ifndef OCTUPLE_EVOLVE_H
#define OCTUPLE_EVOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "train/fnet.h"

typedef struct EvolveOptions {
    int mu, lambda;
    int generations;
    double sigma;       /* mutation: standard deviation added to every entry */
    double init;        /* first parents: entries uniform in [-init, init] */
    int fitness_games;  /* double games against SWH per fitness */
    double epsilon;     /* forced random moves in the fitness games */
    uint64_t seed;
    int threads;
} EvolveOptions;

typedef struct EvolveReport {
    int generations;
    double best_fitness; /* of the returned network, in its last generation */
    long games;          /* fitness games played (double games count two) */
    double seconds;
} EvolveReport;

/* Evolves networks of `net`'s shape and perspective; `net` receives the best parent of the
 * last generation. A line on `log` (may be NULL) every `log_every` generations. */
bool evolve_run(FloatNet *net, const EvolveOptions *options, int log_every, FILE *log,
                EvolveReport *report, OctError *error);

#endif

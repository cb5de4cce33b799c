/* Coevolution, with or without TD learning and a Hall of Fame (Szubert, Jaskowski and
 * Krawiec, "Coevolutionary Temporal Difference Learning for Othello", 2009: CEL, CEL + HoF,
 * TDL + CEL, TDL + CEL + HoF).
 *
 * A population of 1-ply networks, all entries zero at first. Each generation:
 * - TD phase (td_games > 0): every individual plays td_games games of TD(0) self-play
 *   (tdl.h) on its own network;
 * - evaluation: every individual plays one game against every individual, itself
 *   included (population^2 games, as the paper's 50 x 50), and with a Hall of Fame one
 *   game against each of archive_games archive members drawn at random (all of them while
 *   the archive is smaller); each game counts for the individual it is played for, 3
 *   points a win and 1 a draw. The paper does not say the colours: the individual takes
 *   black against its even-numbered opponents and white against the others. Every game
 *   has forced random moves (epsilon);
 * - the individual with the most points joins the archive;
 * - a whole new population (no elitism): each child crosses two parents drawn by
 *   tournaments of `tournament` individuals on points, each parent first mutated (every
 *   weight with probability mutation_rate by N(0, sigma^2), kept within +-clip); with a
 *   Hall of Fame the first parent is, with probability archive_parent, an archive member
 *   as it is. The crossover takes the weights before a random point from the first parent
 *   and the rest from the second, the point falling strictly inside the weight list.
 * The paper evolves weighted piece counters (population 50, tournament 5, mutation 0.03
 * and 0.25, clip 1, archive 50 games and 0.2, TD alpha 0.01, 4.5 million games a run);
 * here any shape can evolve (octuple-train's `wpc` is that piece counter, a linear
 * network whose weights are its own-disc entries: fnet.h). */
#ifndef OCTUPLE_COEVOLVE_H
#define OCTUPLE_COEVOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "train/fnet.h"

typedef struct CoevolveOptions {
    int population;
    int generations;
    int td_games;          /* per individual and generation; 0: coevolution alone */
    double alpha;          /* TD learning rate */
    double epsilon;        /* forced random moves, in every game */
    int tournament;
    double mutation_rate;
    double sigma;
    double clip;
    int archive_games;     /* 0: no Hall of Fame */
    double archive_parent; /* the first parent from the archive with this probability */
    uint64_t seed;
    int threads;
} CoevolveOptions;

typedef struct CoevolveReport {
    int generations;
    long games;      /* every game played, TD self-play included */
    int best_points; /* of the returned network, in its last generation */
    double seconds;
} CoevolveReport;

/* Evolves networks of `net`'s shape and perspective; `net` receives the individual with
 * the most points in the last generation (before it breeds). `measure_games` > 0: every
 * `log_every` generations that individual's League score against SWH is logged too. */
bool coevolve_run(FloatNet *net, const CoevolveOptions *options, int log_every,
                  int measure_games, FILE *log, CoevolveReport *report, OctError *error);

#endif

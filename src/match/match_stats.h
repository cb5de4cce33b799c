/* octuple-match: results of a match and their statistics, always from the first engine's
 * view (engine index 0 against engine index 1).
 *
 * Elo from a score rate p is 400 * log10(p / (1 - p)). The two games of an opening (colours
 * swapped) are correlated, so the uncertainty is computed over opening pairs: each opening
 * with games played is one unit whose score is the mean of its games' scores; the standard
 * error of the score rate is the sample standard deviation of the unit scores (n - 1
 * denominator) divided by sqrt(n). The 95% interval of the score rate, p +- 1.96 SE clamped
 * to [0, 1], is mapped to Elo endpoint by endpoint (the Elo curve is increasing, so this is
 * the interval of the Elo difference; no delta-method linearisation). The disc difference
 * gets the same treatment without the mapping. Fewer than two units give no interval. When
 * all units score alike (SE 0), the half-width is the rule of three's: 3/n times the
 * distance from the mean to the far end of its range. */
#ifndef OCTUPLE_MATCH_STATS_H
#define OCTUPLE_MATCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { MATCH_ENGINES = 2 };

/* One finished game. */
typedef struct MatchResult {
    int opening;                    /* index of the opening (pair unit) */
    int black;                      /* engine index that played black */
    int discs;                      /* final disc difference, engine 0 minus engine 1 */
    int forfeit;                    /* engine index that forfeited, -1 for none */
    long moves[MATCH_ENGINES];      /* moves searched by each engine (passes excluded) */
    double seconds[MATCH_ENGINES];  /* their wall-clock seconds, measured by the runner */
} MatchResult;

typedef struct MatchStats {
    size_t openings;     /* units available */
    double *unit_score;  /* per opening: sum of engine 0's game scores (1, 1/2, 0) */
    double *unit_discs;  /* per opening: sum of disc differences */
    int *unit_games;     /* per opening: games played */
    int games;
    int wins, draws, losses;                /* engine 0's view */
    int color_wins[2], color_draws[2], color_losses[2]; /* engine 0 as black [0], white [1] */
    long disc_sum;
    int forfeits[MATCH_ENGINES];
    long moves[MATCH_ENGINES];
    double seconds[MATCH_ENGINES];
} MatchStats;

bool match_stats_init(MatchStats *stats, size_t openings);
void match_stats_free(MatchStats *stats);
void match_stats_add(MatchStats *stats, const MatchResult *result);

typedef struct MatchSummary {
    int games, wins, draws, losses;
    int units;               /* openings with at least one game */
    double score;            /* (W + D/2) / N; NAN without games */
    double score_se;         /* over units; NAN with fewer than two */
    double score_low, score_high;
    double elo, elo_low, elo_high; /* +-INFINITY at a score of 1 or 0; NAN when undefined */
    double discs, discs_low, discs_high;
} MatchSummary;

void match_stats_summarize(const MatchStats *stats, MatchSummary *summary);
double match_elo(double score);

/* A one-line progress text: "12/100 games  +5 =2 -5  50.0%  Elo +0 [-95, +95]". */
void match_stats_progress(const MatchStats *stats, char *out, size_t size);

/* The final table; `names` are the engines' names. */
void match_stats_print(const MatchStats *stats, const char *const names[MATCH_ENGINES],
                       FILE *out);

#endif

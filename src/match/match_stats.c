#include "match/match_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double Z95 = 1.959963984540054; /* two-sided 95% normal quantile */

/* The two-sided 95% quantile of Student's t with `df` degrees of freedom: a mean over a few
 * opening pairs has an estimated spread, and 1.96 of its standard errors would give an
 * interval far too narrow (with 2 pairs the factor is 12.71). Exact to 6 decimals up to 30,
 * then the Cornish-Fisher series around the normal quantile to its fifth term (an error
 * of 3e-8 at 31, less beyond). */
static double t95(int df)
{
    static const double table[30] = {
        12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
        2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
        2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
        2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272};
    if (df < 1)
        return NAN;
    if (df <= 30)
        return table[df - 1];
    double z = Z95, v = df, z2 = z * z;
    return z + z * (z2 + 1) / (4 * v) + z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v)
         + z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v)
         + z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / (92160 * v * v * v * v);
}

bool match_stats_init(MatchStats *stats, size_t openings)
{
    memset(stats, 0, sizeof *stats);
    stats->openings = openings;
    stats->unit_score = calloc(openings ? openings : 1, sizeof *stats->unit_score);
    stats->unit_discs = calloc(openings ? openings : 1, sizeof *stats->unit_discs);
    stats->unit_games = calloc(openings ? openings : 1, sizeof *stats->unit_games);
    if (!stats->unit_score || !stats->unit_discs || !stats->unit_games) {
        match_stats_free(stats);
        return false;
    }
    return true;
}

void match_stats_free(MatchStats *stats)
{
    free(stats->unit_score);
    free(stats->unit_discs);
    free(stats->unit_games);
    stats->unit_score = NULL;
    stats->unit_discs = NULL;
    stats->unit_games = NULL;
}

void match_stats_add(MatchStats *stats, const MatchResult *result)
{
    double score = result->discs > 0 ? 1.0 : result->discs < 0 ? 0.0 : 0.5;
    int color = result->black == 0 ? 0 : 1; /* engine 0's colour */
    ++stats->games;
    if (result->discs > 0) {
        ++stats->wins;
        ++stats->color_wins[color];
    } else if (result->discs < 0) {
        ++stats->losses;
        ++stats->color_losses[color];
    } else {
        ++stats->draws;
        ++stats->color_draws[color];
    }
    stats->disc_sum += result->discs;
    if (result->forfeit >= 0 && result->forfeit < MATCH_ENGINES)
        ++stats->forfeits[result->forfeit];
    for (int e = 0; e < MATCH_ENGINES; ++e) {
        stats->moves[e] += result->moves[e];
        stats->seconds[e] += result->seconds[e];
    }
    if (result->opening >= 0 && (size_t)result->opening < stats->openings) {
        stats->unit_score[result->opening] += score;
        stats->unit_discs[result->opening] += result->discs;
        ++stats->unit_games[result->opening];
    }
}

double match_elo(double score)
{
    if (!(score >= 0 && score <= 1))
        return NAN;
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return 400.0 * log10(score / (1.0 - score));
}

/* Mean and standard error over the units of per-unit means of `sums`. */
static void unit_error(const MatchStats *stats, const double *sums, double *se, int *units)
{
    int n = 0;
    double mean = 0;
    for (size_t i = 0; i < stats->openings; ++i)
        if (stats->unit_games[i]) {
            mean += sums[i] / stats->unit_games[i];
            ++n;
        }
    *units = n;
    if (n < 2) {
        *se = NAN;
        return;
    }
    mean /= n;
    double squares = 0;
    for (size_t i = 0; i < stats->openings; ++i)
        if (stats->unit_games[i]) {
            double d = sums[i] / stats->unit_games[i] - mean;
            squares += d * d;
        }
    *se = sqrt(squares / (n - 1) / n);
}

void match_stats_summarize(const MatchStats *stats, MatchSummary *s)
{
    s->games = stats->games;
    s->wins = stats->wins;
    s->draws = stats->draws;
    s->losses = stats->losses;
    s->score = s->discs = NAN;
    s->score_se = s->score_low = s->score_high = NAN;
    s->elo = s->elo_low = s->elo_high = NAN;
    s->discs_low = s->discs_high = NAN;
    s->units = 0;
    if (!stats->games)
        return;
    s->score = (stats->wins + 0.5 * stats->draws) / stats->games;
    s->discs = (double)stats->disc_sum / stats->games;
    s->elo = match_elo(s->score);
    double discs_se;
    unit_error(stats, stats->unit_score, &s->score_se, &s->units);
    unit_error(stats, stats->unit_discs, &discs_se, &s->units);
    if (isnan(s->score_se))
        return;
    double t = t95(s->units - 1);
    double score_half = t * s->score_se, discs_half = t * discs_se;
    /* Every opening scored alike (deterministic engines often split each pair): the sample
     * says nothing of the openings not played, and p +- t SE would be a point. By the rule
     * of three, under 3/n of all openings score otherwise (95%), each moving the mean by at
     * most the distance to the far end of the range. */
    if (score_half == 0)
        score_half = fmax(s->score, 1 - s->score) * 3.0 / s->units;
    if (discs_half == 0)
        discs_half = (64 + fabs(s->discs)) * 3.0 / s->units;
    s->score_low = fmax(0.0, s->score - score_half);
    s->score_high = fmin(1.0, s->score + score_half);
    s->elo_low = match_elo(s->score_low);
    s->elo_high = match_elo(s->score_high);
    s->discs_low = fmax(-64.0, s->discs - discs_half);
    s->discs_high = fmin(64.0, s->discs + discs_half);
}

/* "+123", "-inf", "?" */
static const char *format_elo(double elo, char *out, size_t size)
{
    if (isnan(elo))
        snprintf(out, size, "?");
    else if (isinf(elo))
        snprintf(out, size, "%sinf", elo > 0 ? "+" : "-");
    else
        snprintf(out, size, "%+.0f", elo);
    return out;
}

void match_stats_progress(const MatchStats *stats, char *out, size_t size)
{
    MatchSummary s;
    match_stats_summarize(stats, &s);
    char elo[16], low[16], high[16];
    if (!s.games) {
        snprintf(out, size, "0 games");
        return;
    }
    int n = snprintf(out, size, "%d games  +%d =%d -%d  %.1f%%  Elo %s", s.games, s.wins,
                     s.draws, s.losses, 100 * s.score, format_elo(s.elo, elo, sizeof elo));
    if (n > 0 && (size_t)n < size && !isnan(s.elo_low))
        snprintf(out + n, size - (size_t)n, " [%s, %s]", format_elo(s.elo_low, low, sizeof low),
                 format_elo(s.elo_high, high, sizeof high));
}

/* A value that prints as 0.00 printed as +0.00, not -0.00. */
static double unsigned_zero(double value)
{
    return fabs(value) < 0.005 ? 0.0 : value;
}

void match_stats_print(const MatchStats *stats, const char *const names[MATCH_ENGINES],
                       FILE *out)
{
    MatchSummary s;
    match_stats_summarize(stats, &s);
    int width = 6;
    for (int e = 0; e < MATCH_ENGINES; ++e)
        if ((int)strlen(names[e]) + 2 > width)
            width = (int)strlen(names[e]) + 2;
    fprintf(out, "%-*s %6s %6s %6s %6s %7s %8s %9s %8s\n", width, "engine", "games", "wins",
            "draws", "losses", "score", "discs", "s/move", "forfeits");
    for (int e = 0; e < MATCH_ENGINES; ++e) {
        /* engine 1's counts mirror engine 0's */
        int wins = e == 0 ? stats->wins : stats->losses;
        int losses = e == 0 ? stats->losses : stats->wins;
        double score = stats->games ? (wins + 0.5 * stats->draws) / stats->games : NAN;
        double discs = stats->games ? (e == 0 ? 1 : -1) * (double)stats->disc_sum / stats->games
                                    : NAN;
        double per_move = stats->moves[e] ? stats->seconds[e] / stats->moves[e] : NAN;
        char seconds[32];
        if (isnan(per_move))
            snprintf(seconds, sizeof seconds, "-");
        else
            snprintf(seconds, sizeof seconds, "%.4f", per_move);
        fprintf(out, "%-*s %6d %6d %6d %6d %6.1f%% %+8.2f %9s %8d\n", width, names[e],
                stats->games, wins, stats->draws, losses, 100 * score, discs, seconds,
                stats->forfeits[e]);
        for (int color = 0; color < 2; ++color) {
            /* engine 1 plays `color` when engine 0 plays the other one */
            int c0 = e == 0 ? color : 1 - color;
            int w = e == 0 ? stats->color_wins[c0] : stats->color_losses[c0];
            int l = e == 0 ? stats->color_losses[c0] : stats->color_wins[c0];
            int d = stats->color_draws[c0];
            int n = w + d + l;
            char label[32];
            snprintf(label, sizeof label, "  as %s", color == 0 ? "black" : "white");
            fprintf(out, "%-*s %6d %6d %6d %6d", width, label, n, w, d, l);
            if (n)
                fprintf(out, " %6.1f%%", 100 * (w + 0.5 * d) / n);
            fputc('\n', out);
        }
    }
    char elo[16], low[16], high[16];
    fprintf(out, "Elo difference (%s - %s): %s", names[0], names[1],
            format_elo(s.elo, elo, sizeof elo));
    if (!isnan(s.elo_low))
        fprintf(out, ", 95%% interval [%s, %s]", format_elo(s.elo_low, low, sizeof low),
                format_elo(s.elo_high, high, sizeof high));
    else
        fprintf(out, ", no interval (fewer than 2 openings)");
    fprintf(out, "\n");
    if (!isnan(s.score_se))
        fprintf(out, "Score rate %.4f +- %.4f (standard error over %d opening pairs); "
                "mean disc difference %+.2f, 95%% interval [%+.2f, %+.2f]\n",
                s.score, s.score_se, s.units, unsigned_zero(s.discs), unsigned_zero(s.discs_low),
                unsigned_zero(s.discs_high));
}

/* Measuring and fitting the midgame Multi-ProbCut parameters. */
#include "train/mpc_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/eval.h"
#include "core/search.h"

enum { MPC_FIT_HASH_MB = 64 };

/* Sums for one least-squares line y = a x + b. */
typedef struct Line {
    double n, x, y, xx, xy, yy;
} Line;

typedef struct Scores {
    int value[SEARCH_MAX_DEPTH + 1]; /* score of the completed iteration at each depth */
    int deepest;
} Scores;

static void keep_score(void *context, const SearchResult *result)
{
    Scores *scores = context;
    if (!result->exact && !result->running && !result->probable && result->depth >= 1 && result->depth <= SEARCH_MAX_DEPTH) {
        scores->value[result->depth] = result->score;
        scores->deepest = result->depth;
    }
}

/* a, b and sigma of one band at one depth; false when too few pairs or no spread. */
static bool line_fit(const Line *line, ProbcutPair *pair)
{
    if (line->n < MPC_FIT_MIN_SAMPLES)
        return false;
    double mx = line->x / line->n, my = line->y / line->n;
    double vxx = line->xx / line->n - mx * mx;
    double vxy = line->xy / line->n - mx * my;
    double vyy = line->yy / line->n - my * my;
    if (vxx <= 0)
        return false;
    double a = vxy / vxx;
    if (a < 0.1 || a > 10)
        return false;
    double b = my - a * mx;
    double residual = vyy - a * vxy; /* the spread left after the line */
    double sigma = sqrt(residual > 0 ? residual : 0);
    if (sigma < 0.01 * EVAL_DISC)
        sigma = 0.01 * EVAL_DISC;
    *pair = (ProbcutPair){(float)a, (float)b, (float)sigma};
    return true;
}

bool mpc_fit_check(const MpcFitOptions *options, OctError *error)
{
    int low = options->min_empties, high = options->max_empties;
    if (low < 1 || high > PROBCUT_MID_MAX_EMPTIES || high < low)
        return error_set(error, "--min-empties %d and --max-empties %d: need 1 <= min <= max "
                         "<= %d", low, high, PROBCUT_MID_MAX_EMPTIES);
    if (options->per_empties < 1)
        return error_set(error, "--per-empties %d: need at least 1", options->per_empties);
    if (options->max_depth < PROBCUT_MID_MIN_DEPTH || options->max_depth > PROBCUT_MID_MAX_DEPTH)
        return error_set(error, "--max-depth %d: need %d..%d", options->max_depth,
                         PROBCUT_MID_MIN_DEPTH, PROBCUT_MID_MAX_DEPTH);
    return true;
}

bool mpc_fit(const TrainSet *set, const Model *model, const MpcFitOptions *options,
             Probcut *out, FILE *log, OctError *error)
{
    int low = options->min_empties, high = options->max_empties;
    int max_depth = options->max_depth;
    if (!mpc_fit_check(options, error))
        return false;
    int bands = (high - low) / MPC_FIT_BAND + 1;
    Line (*lines)[PROBCUT_MID_MAX_DEPTH + 1] = calloc((size_t)bands, sizeof *lines);
    size_t total = 0;
    size_t *sample = trainset_sample_empties(set, low, high, options->per_empties,
                                             options->seed, &total);
    Search *search = malloc(sizeof *search);
    OctError search_error;
    bool have_search = search && search_init(search, MPC_FIT_HASH_MB, &search_error);
    if (!lines || !sample || !have_search) {
        free(lines);
        free(sample);
        if (have_search)
            search_free(search);
        free(search);
        return error_set(error, "mpc fit: out of memory");
    }
    /* the searches measured are plain ones: no cuts of a model being replaced */
    search_set_model(search, model);
    search_set_probcut(search, NULL);
    SearchLimits limits = search_default_limits();
    limits.exact_empties = 0;
    limits.threads = 1;
    for (size_t k = 0; k < total; ++k) {
        const Board *board = &set->positions[sample[k]].board;
        int empties = board_count_empties(board);
        Scores scores = {{0}, 0};
        limits.depth = max_depth < empties ? max_depth : empties;
        tt_clear(&search->tt); /* each position measured alike, whatever came before */
        SearchResult result;
        search_run(search, board, &limits, &result, keep_score, &scores);
        Line *band = lines[(empties - low) / MPC_FIT_BAND];
        for (int d = PROBCUT_MID_MIN_DEPTH; d <= scores.deepest; ++d) {
            int shallow = probcut_mid_shallow(d);
            double x = scores.value[shallow], y = scores.value[d];
            Line *line = &band[d];
            line->n += 1;
            line->x += x;
            line->y += y;
            line->xx += x * x;
            line->xy += x * y;
            line->yy += y * y;
        }
    }
    Probcut *fitted = malloc(sizeof *fitted);
    if (!fitted) {
        free(lines);
        free(sample);
        search_free(search);
        free(search);
        return error_set(error, "mpc fit: out of memory");
    }
    *fitted = *out;
    memset(fitted->mid, 0, sizeof fitted->mid);
    fitted->mid_enabled = false;
    fitted->mid_deepest[0] = fitted->mid_deepest[1] = 0;
    if (log)
        fprintf(log, "depth shallow empties      n      a       b  sigma (discs)\n");
    for (int d = PROBCUT_MID_MIN_DEPTH; d <= max_depth; ++d)
        for (int i = 0; i < bands; ++i) {
            ProbcutPair pair;
            int first = low + i * MPC_FIT_BAND;
            int last = first + MPC_FIT_BAND - 1 > high ? high : first + MPC_FIT_BAND - 1;
            if (!line_fit(&lines[i][d], &pair))
                continue;
            for (int e = first; e <= last; ++e)
                fitted->mid[d][e] = pair;
            fitted->mid_enabled = true;
            if (d > fitted->mid_deepest[d & 1])
                fitted->mid_deepest[d & 1] = d;
            if (log)
                fprintf(log, "%5d %7d %3d-%-3d %6.0f %6.3f %7.2f %6.2f\n", d, probcut_mid_shallow(d),
                        first, last, lines[i][d].n, pair.a, pair.b / EVAL_DISC,
                        pair.sigma / EVAL_DISC);
        }
    bool ok = fitted->mid_enabled;
    if (ok)
        *out = *fitted;
    else
        error_set(error, "mpc fit: too few positions to fit (found %zu)", total);
    free(fitted);
    free(lines);
    free(sample);
    search_free(search);
    free(search);
    return ok;
}

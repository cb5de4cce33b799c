/* Measuring and fitting the probability-cut error model. */
#include "train/probcut_fit.h"

#include <math.h>
#include <stdlib.h>

#include "core/endgame.h"
#include "core/eval.h"

enum { FIT_HASH_MB = 64 };

typedef struct Cell {
    double count, sum, squares;
} Cell;

/* Least squares of sigma over (1, E, d), each cell weighted by its sample count. */
static bool plane_fit(Cell cells[][PROBCUT_FIT_MAX_DEPTH + 1], int min_empties, int max_empties,
                      Probcut *out)
{
    double a[3][4] = {{0}};
    for (int e = min_empties; e <= max_empties; ++e)
        for (int d = 0; d <= PROBCUT_FIT_MAX_DEPTH; ++d) {
            const Cell *cell = &cells[e - min_empties][d];
            if (cell->count < 2)
                continue;
            double mean = cell->sum / cell->count;
            double sigma = sqrt(fmax(0.0, cell->squares / cell->count - mean * mean));
            double x[3] = {1.0, e, d};
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j)
                    a[i][j] += cell->count * x[i] * x[j];
                a[i][3] += cell->count * x[i] * sigma;
            }
        }
    for (int i = 0; i < 3; ++i) { /* Gauss-Jordan with partial pivoting */
        int pivot = i;
        for (int r = i + 1; r < 3; ++r)
            if (fabs(a[r][i]) > fabs(a[pivot][i]))
                pivot = r;
        if (fabs(a[pivot][i]) < 1e-9)
            return false;
        for (int c = 0; c < 4; ++c) {
            double t = a[i][c];
            a[i][c] = a[pivot][c];
            a[pivot][c] = t;
        }
        for (int r = 0; r < 3; ++r) {
            if (r == i)
                continue;
            double f = a[r][i] / a[i][i];
            for (int c = i; c < 4; ++c)
                a[r][c] -= f * a[i][c];
        }
    }
    out->enabled = true;
    out->base = a[0][3] / a[0][0];
    out->per_empty = a[1][3] / a[1][1];
    out->per_depth = a[2][3] / a[2][2];
    return true;
}

bool probcut_fit_check(const ProbcutFitOptions *options, OctError *error)
{
    int low = options->min_empties, high = options->max_empties;
    if (low < PROBCUT_MIN_EMPTIES || high > PROBCUT_FIT_MAX_EMPTIES || high < low)
        return error_set(error, "--min-empties %d and --max-empties %d: need %d <= min <= max "
                         "<= %d", low, high, PROBCUT_MIN_EMPTIES, PROBCUT_FIT_MAX_EMPTIES);
    if (options->per_empties < 2)
        return error_set(error, "--per-empties %d: need at least 2", options->per_empties);
    return true;
}

bool probcut_fit(const TrainSet *set, const Model *model, const ProbcutFitOptions *options,
                 Probcut *out, FILE *log, OctError *error)
{
    int low = options->min_empties, high = options->max_empties;
    if (!probcut_fit_check(options, error))
        return false;
    int span = high - low + 1;
    Cell (*cells)[PROBCUT_FIT_MAX_DEPTH + 1] = calloc((size_t)span, sizeof *cells);
    int *taken = calloc((size_t)span, sizeof *taken);
    size_t total = 0;
    size_t *sample = trainset_sample_empties(set, low, high, options->per_empties,
                                             options->seed, &total);
    Tt tt;
    bool have_tt = tt_init(&tt, FIT_HASH_MB);
    if (!cells || !taken || !sample || !have_tt) {
        free(cells);
        free(taken);
        free(sample);
        if (have_tt)
            tt_free(&tt);
        return error_set(error, "probcut fit: out of memory");
    }
    Solver solver;
    solver_init(&solver, &tt, NULL);
    solver_local_alloc(&solver); /* optional: it only makes the solves faster */
    solver.model = model;
    for (size_t k = 0; k < total; ++k) {
        const Board *board = &set->positions[sample[k]].board;
        int empties = board_count_empties(board);
        ++taken[empties - low];
        tt_new_search(&tt);
        int exact = endgame_solve(&solver, board, false).score;
        for (int d = 0; d <= PROBCUT_FIT_MAX_DEPTH && d < empties; ++d) {
            int value = endgame_shallow(&solver, board, d, -EVAL_LIMIT - 64 * EVAL_DISC,
                                        EVAL_LIMIT + 64 * EVAL_DISC);
            double residual = exact - (double)value / EVAL_DISC;
            Cell *cell = &cells[empties - low][d];
            cell->count += 1;
            cell->sum += residual;
            cell->squares += residual * residual;
        }
    }
    if (log) {
        fprintf(log, "empties  n   sigma (discs) of exact - shallow at depth 0..%d\n",
                PROBCUT_FIT_MAX_DEPTH);
        for (int e = low; e <= high; ++e) {
            fprintf(log, "%7d %3d", e, taken[e - low]);
            for (int d = 0; d <= PROBCUT_FIT_MAX_DEPTH; ++d) {
                const Cell *cell = &cells[e - low][d];
                if (cell->count < 2) {
                    fprintf(log, "      -");
                    continue;
                }
                double mean = cell->sum / cell->count;
                fprintf(log, " %6.2f", sqrt(fmax(0.0, cell->squares / cell->count - mean * mean)));
            }
            fprintf(log, "\n");
        }
    }
    bool ok = plane_fit(cells, low, high, out);
    if (!ok)
        error_set(error, "probcut fit: too few positions to fit (found %zu)", total);
    solver_local_free(&solver);
    free(cells);
    free(taken);
    free(sample);
    tt_free(&tt);
    return ok;
}

/* Mean absolute errors of a network against exact scores, by empties and search depth. */
#include "train/evalerror.h"

#include <stdlib.h>
#include <string.h>

#include "core/eval.h"
#include "core/pool.h"
#include "core/rng.h"
#include "core/search.h"

enum { EVALERROR_HASH_MB = 16 };

typedef struct Job {
    const Model *model;
    const ExactPosition *positions;
    const size_t *chosen;
    size_t count;
    int threads;
    int max_depth;
    EvalErrorTable *tables; /* one per thread, added at the end */
    bool *failed;
} Job;

static void job_run(void *context, int index)
{
    Job *job = context;
    EvalErrorTable *table = &job->tables[index];
    Search search;
    OctError error;
    if (!search_init(&search, EVALERROR_HASH_MB, &error)) {
        job->failed[index] = true;
        return;
    }
    search_set_model(&search, job->model);
    SearchLimits limits = search_default_limits();
    limits.exact_empties = 0;
    for (size_t i = (size_t)index; i < job->count; i += (size_t)job->threads) {
        const ExactPosition *position = &job->positions[job->chosen[i]];
        int empties = board_count_empties(&position->board);
        table->count[empties]++;
        double value = eval_board(job->model, &position->board) / (double)EVAL_DISC;
        double miss = value - position->score;
        table->absolute[empties][0] += miss < 0 ? -miss : miss;
        for (int d = 1; d <= job->max_depth; ++d) {
            tt_clear(&search.tt); /* each search on its own: the table holds no deeper one */
            limits.depth = d;
            SearchResult result;
            search_run(&search, &position->board, &limits, &result, NULL, NULL);
            miss = result.score / (double)EVAL_DISC - position->score;
            table->absolute[empties][d] += miss < 0 ? -miss : miss;
        }
    }
    search_free(&search);
}

bool evalerror_measure(const Model *model, const ExactPosition *positions, size_t count,
                       const EvalErrorOptions *options, EvalErrorTable *table, OctError *error)
{
    memset(table, 0, sizeof *table);
    size_t *order = malloc(sizeof *order * (count ? count : 1));
    size_t *chosen = malloc(sizeof *chosen * (count ? count : 1));
    int threads = options->threads < 1 ? 1 : options->threads > 64 ? 64 : options->threads;
    EvalErrorTable *tables = calloc((size_t)threads, sizeof *tables);
    bool failed[64] = {false};
    if (!order || !chosen || !tables) {
        free(order);
        free(chosen);
        free(tables);
        return error_set(error, "out of memory for %zu positions", count);
    }
    uint64_t state = options->seed;
    rng_shuffle_indices(order, count, &state);
    int taken[61] = {0};
    size_t selected = 0;
    for (size_t i = 0; i < count; ++i) {
        int empties = board_count_empties(&positions[order[i]].board);
        if (taken[empties] < options->per_empties) {
            ++taken[empties];
            chosen[selected++] = order[i];
        }
    }
    Job job = {model, positions, chosen, selected, threads, options->max_depth, tables, failed};
    pool_run(threads, threads, job_run, &job);
    bool ok = true;
    for (int t = 0; t < threads; ++t) {
        ok = ok && !failed[t];
        for (int e = 0; e <= 60; ++e) {
            table->count[e] += tables[t].count[e];
            for (int d = 0; d <= EVALERROR_MAX_DEPTH; ++d)
                table->absolute[e][d] += tables[t].absolute[e][d];
        }
    }
    free(order);
    free(chosen);
    free(tables);
    return ok || error_set(error, "cannot allocate the searches' tables");
}

void evalerror_print(FILE *out, const EvalErrorTable *table, int max_depth)
{
    fprintf(out, "mean absolute error in discs against exact scores\nempties positions  static");
    for (int d = 1; d <= max_depth; ++d)
        fprintf(out, "  %d ply", d);
    fprintf(out, "\n");
    for (int e = 0; e <= 60; ++e) {
        if (!table->count[e])
            continue;
        fprintf(out, "%7d %9d %7.2f", e, table->count[e], table->absolute[e][0] / table->count[e]);
        for (int d = 1; d <= max_depth; ++d)
            fprintf(out, " %6.2f", table->absolute[e][d] / table->count[e]);
        fprintf(out, "\n");
    }
}

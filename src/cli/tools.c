#include "cli/tools.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "core/endgame.h"
#include "core/notation.h"
#include "core/obf.h"
#include "core/perft.h"
#include "core/bench.h"
#include "core/eval.h"
#include "core/timing.h"
#include "engine/paths.h"
#include "core/search.h"
#include "core/tt.h"
#include "core/weights.h"

void interrupt_raise(Interrupt *interrupt)
{
    /* lock-free atomics only: this runs in a signal handler */
    atomic_store(&interrupt->raised, true);
    Search *search = atomic_load(&interrupt->search);
    if (search)
        search_stop(search);
}

static bool interrupted(Interrupt *interrupt)
{
    return interrupt && atomic_load(&interrupt->raised);
}

int tools_perft(const Options *options, FILE *out)
{
    char diagram[BOARD_DIAGRAM_SIZE];
    fputs(board_diagram(&options->board, options->side, diagram), out);
    return tools_perft_from(&options->board, options->perft_depth, NULL, out);
}

int tools_perft_from(const Board *board, int last_depth, Interrupt *interrupt, FILE *out)
{
    for (int depth = 1; depth <= last_depth; ++depth) {
        double start = monotonic_seconds();
        unsigned long long leaves =
            perft_count_until(board, depth, interrupt ? &interrupt->raised : NULL);
        double elapsed = monotonic_seconds() - start;
        if (interrupted(interrupt)) {
            fprintf(out, "perft %2d: interrupted after %.3f s\n", depth, elapsed);
            fflush(out);
            return 1;
        }
        fprintf(out, "perft %2d: %15llu leaves %10.3f s %12.0f leaves/s\n", depth, leaves,
                elapsed, elapsed > 0 ? (double)leaves / elapsed : 0.0);
        fflush(out);
    }
    return 0;
}

/* The file's score for `move`, or -SCORE_MAX - 1 when the file does not list it. */
static int listed_score(const ObfPosition *position, int move)
{
    for (int i = 0; i < position->move_count; ++i)
        if (position->moves[i] == move)
            return position->scores[i];
    return -SCORE_MAX - 1;
}

static int sign(int value)
{
    return (value > 0) - (value < 0);
}

/* Solves one position: through the full search when a model is loaded (its evaluation
 * orders the moves), else with the bare solver. With `wld` only the outcome is proven:
 * `score` is then 1, 0 or -1. */
static void solve_one(Search *search, int threads, const Board *board, bool wld, int *move,
                      int *score, uint64_t *nodes)
{
    if (search->model) {
        SearchLimits limits = search_default_limits();
        limits.exact_empties = wld ? 0 : 64;
        limits.wld_empties = wld ? 64 : 0;
        limits.threads = threads;
        SearchResult result;
        search_run(search, board, &limits, &result, NULL, NULL);
        *move = result.move;
        /* a position without moves for either side is scored exactly even here */
        *score = wld ? sign(result.score) : result.score / EVAL_DISC;
        *nodes = result.nodes;
        return;
    }
    Solver solver;
    solver_init(&solver, &search->tt, &search->stop); /* Ctrl-C in the console */
    solver_local_alloc(&solver); /* optional: the solve is right without it */
    SolveResult result = endgame_solve(&solver, board, wld);
    solver_local_free(&solver);
    *move = result.move;
    *score = wld ? sign(result.score) : result.score;
    *nodes = solver.nodes;
}

/* A score for the score column: the disc difference, or the outcome alone. */
static const char *format_solved(int score, bool wld, char *out, size_t size)
{
    if (wld)
        snprintf(out, size, "%s", search_outcome(score));
    else
        snprintf(out, size, "%+d", score);
    return out;
}

/* The model given by --weights, else the default weights the engine would load (their
 * evaluation orders the solver's moves) into *model. Without any: an error and 2 when the
 * action needs them (`required`), else a warning, NULL and 0. Weights that fail to load: an
 * error and 2. */
static int tools_model(const Options *options, FILE *err, bool required, Model **model)
{
    static const char *const names[] = {"octuple.ow", "jaskowski-all2.ow"};
    OctError error;
    char path[SETTINGS_PATH_SIZE];
    const char *weights = options->settings.weights;
    *model = NULL;
    if (!weights[0]) {
        if (!paths_find_data(options->settings.program, names, 2, path, sizeof path, NULL, 0)) {
            if (required) {
                fprintf(err, "octuple: error: no weights found (give --weights FILE)\n");
                return 2;
            }
            fprintf(err, "octuple: warning: no default weights found; the solver orders its "
                    "moves by mobility alone\n");
            return 0;
        }
        weights = path;
    }
    if (!model_load(weights, model, &error)) {
        fprintf(err, "octuple: error: %s\n", error.message);
        return 2;
    }
    return 0;
}

int tools_bench(const Options *options, FILE *out, FILE *err)
{
    Model *model;
    if (tools_model(options, err, true, &model))
        return 2;
    BenchTotals totals;
    bool ok = bench_run(model, (size_t)options->settings.hash_megabytes, BENCH_POSITIONS, out,
                        err, &totals);
    model_free(model);
    return ok ? 0 : 2;
}

int tools_solve(const Options *options, const char *path, FILE *out, FILE *err)
{
    Model *model;
    if (tools_model(options, err, false, &model))
        return 2;
    int status = tools_solve_with(path, model, (size_t)options->settings.hash_megabytes,
                                  options->settings.threads, options->settings.wld, NULL, NULL,
                                  out, err);
    model_free(model);
    return status;
}

/* User and system time of the whole process, all its threads, in seconds. */
static double cpu_seconds(void)
{
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0;
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_stime.tv_sec
         + ((double)usage.ru_utime.tv_usec + (double)usage.ru_stime.tv_usec) * 1e-6;
}

int tools_solve_with(const char *path, const Model *model, size_t hash_megabytes, int threads,
                     int wld, const char *who, Interrupt *interrupt, FILE *out, FILE *err)
{
    ObfPosition *positions;
    size_t count;
    OctError error;
    /* the console names its command, the command line the program, as its other errors do */
    char prefix[64];
    if (who)
        snprintf(prefix, sizeof prefix, "error: %s: ", who);
    else
        snprintf(prefix, sizeof prefix, "octuple: error: ");
    if (!obf_read_file(path, &positions, &count, &error)) {
        fprintf(err, "%s%s\n", prefix, error.message);
        return 2;
    }
    if (!count) { /* a report of no solves would pass for a clean run */
        fprintf(err, "%s%s: no position in the file\n", prefix, path);
        free(positions);
        return 2;
    }
    Search search;
    if (!search_init(&search, hash_megabytes, &error)) {
        fprintf(err, "%s%s\n", prefix, error.message);
        free(positions);
        return 2;
    }
    search_set_model(&search, model);
    fprintf(out, "  #  empties  move  score  expected      time          nodes\n");
    int wrong_scores = 0, wrong_moves = 0;
    double total_time = 0;
    uint64_t total_nodes = 0;
    if (interrupt)
        atomic_store(&interrupt->search, &search);
    size_t solved_count = 0;
    double total_cpu = 0;
    for (size_t i = 0; i < count && !interrupted(interrupt); ++i) {
        const ObfPosition *position = &positions[i];
        tt_clear(&search.tt);
        double start = monotonic_seconds(), cpu_start = cpu_seconds();
        int move, score;
        uint64_t nodes;
        bool outcome = wld > 0 && board_count_empties(&position->board) <= wld;
        solve_one(&search, threads, &position->board, outcome, &move, &score, &nodes);
        if (interrupted(interrupt)) /* a stopped solve proves nothing */
            break;
        ++solved_count;
        double elapsed = monotonic_seconds() - start;
        total_time += elapsed;
        total_cpu += cpu_seconds() - cpu_start;
        total_nodes += nodes;
        char name[3], expected[8] = "?", solved[8];
        if (position->move_count > 0) {
            int best = position->scores[0];
            snprintf(expected, sizeof expected, "%+d", best);
            /* an unlisted move is judged by its own score, which the search proved */
            int listed = listed_score(position, move);
            int played = listed >= -SCORE_MAX ? listed : score;
            if (outcome) { /* the outcome is all that was asked */
                best = sign(best);
                played = sign(played);
            }
            wrong_scores += score != best;
            wrong_moves += played < best;
        }
        fprintf(out, "%3zu  %7d  %4s  %5s  %8s  %8.3f s  %13llu\n", i + 1,
                board_count_empties(&position->board),
                move_format_colored(move, position->side, name),
                format_solved(score, outcome, solved, sizeof solved), expected, elapsed,
                (unsigned long long)nodes);
        fflush(out);
    }
    bool stopped = solved_count < count;
    if (interrupt)
        atomic_store(&interrupt->search, NULL);
    /* the wall time also counts time the core gave to other processes; the processor time
     * of the process's threads does not, so the two apart show a shared core */
    fprintf(out, "processor time of the solves: %.3f s, all threads\n", total_cpu);
    if (stopped)
        fprintf(out, "interrupted: %zu of %zu positions solved\n", solved_count, count);
    fprintf(out, "solved %zu positions: %d wrong scores, %d wrong moves, %.3f s, %llu nodes, "
            "%.0f nodes/s\n", solved_count, wrong_scores, wrong_moves, total_time,
            (unsigned long long)total_nodes, total_time > 0 ? (double)total_nodes / total_time : 0.0);
    search_free(&search);
    free(positions);
    return wrong_scores || stopped ? 1 : 0;
}

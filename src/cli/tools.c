#include "cli/tools.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "core/notation.h"
#include "core/obf.h"
#include "core/perft.h"
#include "core/timing.h"

void interrupt_raise(Interrupt *interrupt)
{
    /* lock-free atomics only: this runs in a signal handler */
    atomic_store(&interrupt->raised, true);
    Engine *engine = atomic_load(&interrupt->engine);
    if (engine)
        engine_interrupt(engine);
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

enum { NOT_LISTED = -65 }; /* below every disc difference */

/* The file's score for `move`, or NOT_LISTED when the file does not list it. */
static int listed_score(const ObfPosition *position, int move)
{
    for (int i = 0; i < position->move_count; ++i)
        if (position->moves[i] == move)
            return position->scores[i];
    return NOT_LISTED;
}

static int sign(int value)
{
    return (value > 0) - (value < 0);
}

/* A score for the score column: the disc difference, or the outcome alone. */
static const char *format_solved(int score, bool wld, char *out, size_t size)
{
    if (wld)
        snprintf(out, size, "%s", score > 0 ? "win" : score == 0 ? "draw" : "loss");
    else
        snprintf(out, size, "%+d", score);
    return out;
}

/* An engine for a batch command: the settings of the command line, no book. Without a
 * network found (the engine's built-in fallback): an error, NULL and 2 when the action
 * needs one (`required`), else a warning and *bare set (the bare solver orders its moves
 * by mobility). Weights that fail to load: an error and 2. */
static int tools_engine(const Options *options, FILE *err, bool required, Engine **engine,
                        bool *bare)
{
    EngineSettings settings = options->settings;
    settings.use_book = false;
    OctError error;
    if (!engine_create(&settings, engine, &error)) {
        fprintf(err, "octuple: error: %s\n", error.message);
        return 2;
    }
    *bare = !engine_weights_path(*engine)[0];
    if (*bare && required) {
        fprintf(err, "octuple: error: no weights found (give --weights FILE)\n");
        engine_free(*engine);
        *engine = NULL;
        return 2;
    }
    if (*bare)
        fprintf(err, "octuple: warning: no default weights found; the solver orders its "
                "moves by mobility alone\n");
    return 0;
}

int tools_bench(const Options *options, FILE *out, FILE *err)
{
    Engine *engine;
    bool bare;
    if (tools_engine(options, err, true, &engine, &bare))
        return 2;
    OctError error;
    bool ok = engine_bench(engine, out, NULL, &error);
    if (!ok)
        fprintf(err, "octuple: error: %s\n", error.message);
    engine_free(engine);
    return ok ? 0 : 2;
}

int tools_solve(const Options *options, const char *path, FILE *out, FILE *err)
{
    Engine *engine;
    bool bare;
    if (tools_engine(options, err, false, &engine, &bare))
        return 2;
    int status = tools_solve_with(engine, bare, path, NULL, NULL, out, err);
    engine_free(engine);
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

int tools_solve_with(Engine *engine, bool bare, const char *path, const char *who,
                     Interrupt *interrupt, FILE *out, FILE *err)
{
    int wld = engine_settings(engine)->wld;
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
    fprintf(out, "  #  empties  move  score  expected      time          nodes\n");
    int wrong_scores = 0, wrong_moves = 0;
    double total_time = 0;
    uint64_t total_nodes = 0;
    if (interrupt)
        atomic_store(&interrupt->engine, engine);
    size_t solved_count = 0;
    double total_cpu = 0;
    for (size_t i = 0; i < count && !interrupted(interrupt); ++i) {
        const ObfPosition *position = &positions[i];
        double start = monotonic_seconds(), cpu_start = cpu_seconds();
        bool outcome = wld > 0 && board_count_empties(&position->board) <= wld;
        EngineSolve solved_one;
        if (!engine_solve(engine, &position->board, outcome, bare,
                          interrupt ? &interrupt->raised : NULL, &solved_one, &error)) {
            fprintf(err, "%s%s\n", prefix, error.message);
            break;
        }
        if (solved_one.stopped || interrupted(interrupt)) /* a stopped solve proves nothing */
            break;
        int move = solved_one.move, score = solved_one.score;
        uint64_t nodes = solved_one.nodes;
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
            int played = listed != NOT_LISTED ? listed : score;
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
        atomic_store(&interrupt->engine, NULL);
    /* the wall time also counts time the core gave to other processes; the processor time
     * of the process's threads does not, so the two apart show a shared core */
    fprintf(out, "processor time of the solves: %.3f s, all threads\n", total_cpu);
    if (stopped)
        fprintf(out, "interrupted: %zu of %zu positions solved\n", solved_count, count);
    fprintf(out, "solved %zu positions: %d wrong scores, %d wrong moves, %.3f s, %llu nodes, "
            "%.0f nodes/s\n", solved_count, wrong_scores, wrong_moves, total_time,
            (unsigned long long)total_nodes, total_time > 0 ? (double)total_nodes / total_time : 0.0);
    free(positions);
    return wrong_scores || stopped ? 1 : 0;
}

/* Coevolutionary learning with TD phases and a Hall of Fame. */
#include "train/coevolve.h"

#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "train/greedy.h"
#include "core/pool.h"
#include "core/rng.h"
#include "train/tdl.h"

enum { POINTS_WIN = 3, POINTS_DRAW = 1 };

typedef struct Generation {
    const CoevolveOptions *options;
    const FloatNet *net;   /* shape and perspective */
    float **people;        /* population entries */
    float **archive;
    int archive_count;
    int *points;           /* per individual */
    long *games;           /* per individual; -1: its archive games lacked memory */
    uint64_t seed;         /* of this generation */
} Generation;

static FloatNet view_of(const Generation *gen, float *values)
{
    FloatNet view = *gen->net;
    view.values = values;
    return view;
}

static uint64_t job_seed(uint64_t seed, int kind, int index)
{
    return board_mix64(seed ^ board_mix64(((uint64_t)kind << 32) + (uint64_t)index + 1));
}

static void td_phase_one(void *context, int i)
{
    Generation *gen = context;
    FloatNet view = view_of(gen, gen->people[i]);
    uint64_t rng = job_seed(gen->seed, 1, i);
    long updates = 0;
    for (int k = 0; k < gen->options->td_games; ++k)
        td_game(&view, gen->options->alpha, gen->options->epsilon, &rng, &updates);
}

/* The points of one game of `mine` against `theirs`, `mine` black when `black`. */
static int game_points(const Generation *gen, float *mine, float *theirs, bool black,
                       uint64_t *rng)
{
    FloatNet a = view_of(gen, mine), b = view_of(gen, theirs);
    GreedyPlayer me = {GREEDY_FNET, &a}, them = {GREEDY_FNET, &b};
    int diff = black ? greedy_game(&me, &them, gen->options->epsilon, rng)
                     : -greedy_game(&them, &me, gen->options->epsilon, rng);
    return diff > 0 ? POINTS_WIN : diff == 0 ? POINTS_DRAW : 0;
}

/* Individual i's games: the whole population, then its share of the archive. */
static void evaluate_one(void *context, int i)
{
    Generation *gen = context;
    const CoevolveOptions *o = gen->options;
    uint64_t rng = job_seed(gen->seed, 2, i);
    int points = 0;
    for (int j = 0; j < o->population; ++j)
        points += game_points(gen, gen->people[i], gen->people[j], j % 2 == 0, &rng);
    long games = o->population;
    int count = gen->archive_count;
    int played = count < o->archive_games ? count : o->archive_games;
    if (played > 0) {
        int *order = malloc(sizeof *order * (size_t)count);
        if (!order) {
            gen->games[i] = -1;
            return;
        }
        for (int k = 0; k < count; ++k)
            order[k] = k;
        for (int k = 0; k < played; ++k) { /* a partial shuffle: distinct members */
            int pick = k + (int)(rng_next(&rng) % (uint64_t)(count - k));
            int t = order[k];
            order[k] = order[pick];
            order[pick] = t;
            points += game_points(gen, gen->people[i], gen->archive[order[k]], k % 2 == 0,
                                  &rng);
        }
        games += played;
        free(order);
    }
    gen->points[i] = points;
    gen->games[i] = games;
}

static int tournament_pick(const int *points, int n, int size, uint64_t *rng)
{
    int best = (int)(rng_next(rng) % (uint64_t)n);
    for (int k = 1; k < size; ++k) {
        int other = (int)(rng_next(rng) % (uint64_t)n);
        if (points[other] > points[best])
            best = other;
    }
    return best;
}

/* A parent as it breeds: `from` with each weight mutated with the options' probability. A
 * linear network's weights are its own-disc entries (every third); the others follow. */
static void parent_mutate(const FloatNet *net, const CoevolveOptions *o, const float *from,
                          float *to, uint64_t *rng)
{
    size_t size = net->shape.table_size;
    memcpy(to, from, sizeof *to * size);
    size_t stride = net->linear ? 3 : 1, first = net->linear ? 2 : 0;
    for (size_t w = first; w < size; w += stride) {
        if (rng_unit(rng) >= o->mutation_rate)
            continue;
        double v = to[w] + o->sigma * rng_gaussian(rng);
        to[w] = (float)(v > o->clip ? o->clip : v < -o->clip ? -o->clip : v);
    }
    fnet_tie(net, to);
}

static bool options_check(const CoevolveOptions *o, OctError *error)
{
    if (o->population < 2 || o->generations < 0 || o->td_games < 0 || !(o->alpha > 0)
        || o->epsilon < 0 || o->epsilon > 1 || o->tournament < 1 || o->mutation_rate < 0
        || o->mutation_rate > 1 || !(o->sigma >= 0) || !(o->clip > 0) || o->archive_games < 0
        || o->archive_parent < 0 || o->archive_parent > 1 || o->threads < 1)
        return error_set(error, "coevolve: a population of 2 or more, tournaments of 1 or more, "
                                "probabilities in [0, 1], alpha and clip > 0 are needed");
    return true;
}

/* One line of progress: the best individual's points of the most it could take. */
static void progress(FILE *log, const CoevolveOptions *o, const FloatNet *net, int g,
                     int points, int archive_games, const CoevolveReport *report,
                     int measure_games)
{
    int most = POINTS_WIN * (o->population + archive_games);
    fprintf(log, "generation %d: best %d of %d points, %ld games, %.1f s", g, points, most,
            report->games, report->seconds);
    if (measure_games > 0) {
        GreedyPlayer player = {GREEDY_FNET, net}, swh = {GREEDY_WPC, wpc_swh()};
        LeagueScore score;
        greedy_league(&player, &swh, measure_games, GREEDY_EPSILON, o->seed ^ 0x5eedULL, &score);
        fprintf(log, "; against SWH %.4f +- %.4f", score.mean, score.half_width);
    }
    fprintf(log, "\n");
    fflush(log);
}

bool coevolve_run(FloatNet *net, const CoevolveOptions *o, int log_every, int measure_games,
                  FILE *log, CoevolveReport *report, OctError *error)
{
    if (!options_check(o, error))
        return false;
    size_t size = net->shape.table_size;
    int n = o->population;
    bool hof = o->archive_games > 0;
    float *storage = calloc(size * ((size_t)n * 2 + 2), sizeof *storage);
    float **people = malloc(sizeof *people * (size_t)n * 2);
    int *points = malloc(sizeof *points * (size_t)n);
    long *games = malloc(sizeof *games * (size_t)n);
    float **archive = NULL;
    int archive_count = 0, archive_capacity = 0;
    bool ok = storage && people && points && games;
    if (!ok)
        error_set(error, "out of memory for %d networks of %zu entries", 2 * n + 2, size);
    for (int i = 0; ok && i < 2 * n; ++i)
        people[i] = storage + size * (size_t)i;
    float **next = ok ? people + n : NULL;
    /* the two mutated parents of a child */
    float *first_parent = ok ? storage + size * (size_t)(2 * n) : NULL;
    float *second_parent = ok ? first_parent + size : NULL;
    uint64_t rng = board_mix64(o->seed + 0xc0ULL);
    *report = (CoevolveReport){0};
    double start = monotonic_seconds();
    for (int g = 1; ok && g <= o->generations; ++g) {
        Generation gen = {o, net, people, archive, archive_count, points, games,
                          board_mix64(o->seed ^ board_mix64((uint64_t)g))};
        int archive_games = archive_count < o->archive_games ? archive_count : o->archive_games;
        if (o->td_games > 0) {
            pool_run(n, o->threads, td_phase_one, &gen);
            report->games += (long)n * o->td_games;
        }
        pool_run(n, o->threads, evaluate_one, &gen);
        int best = 0;
        for (int i = 0; i < n; ++i) {
            if (games[i] < 0) {
                ok = error_set(error, "out of memory for the archive games");
                break;
            }
            report->games += games[i];
            if (points[i] > points[best])
                best = i;
        }
        if (!ok)
            break;
        memcpy(net->values, people[best], sizeof *net->values * size);
        report->generations = g;
        report->best_points = points[best];
        if (hof) {
            if (archive_count == archive_capacity) {
                int capacity = archive_capacity ? 2 * archive_capacity : 64;
                float **grown = realloc(archive, sizeof *grown * (size_t)capacity);
                if (!grown) {
                    ok = error_set(error, "out of memory for the archive");
                    break;
                }
                archive = grown;
                archive_capacity = capacity;
            }
            float *copy = malloc(sizeof *copy * size);
            if (!copy) {
                ok = error_set(error, "out of memory for the archive");
                break;
            }
            memcpy(copy, people[best], sizeof *copy * size);
            archive[archive_count++] = copy;
        }
        size_t stride = net->linear ? 3 : 1, genes = size / stride;
        for (int c = 0; c < n; ++c) {
            const float *first;
            if (hof && rng_unit(&rng) < o->archive_parent) {
                first = archive[rng_next(&rng) % (uint64_t)archive_count];
            } else {
                parent_mutate(net, o, people[tournament_pick(points, n, o->tournament, &rng)],
                              first_parent, &rng);
                first = first_parent;
            }
            parent_mutate(net, o, people[tournament_pick(points, n, o->tournament, &rng)],
                          second_parent, &rng);
            /* a point strictly inside the weights, so that both parents give some */
            size_t cut = genes > 1 ? stride * (1 + (size_t)(rng_next(&rng) % (genes - 1))) : 0;
            memcpy(next[c], first, sizeof *next[c] * cut);
            memcpy(next[c] + cut, second_parent + cut, sizeof *next[c] * (size - cut));
        }
        for (int c = 0; c < n; ++c) {
            float *t = people[c];
            people[c] = next[c];
            next[c] = t;
        }
        report->seconds = monotonic_seconds() - start;
        if (log && log_every > 0 && (g % log_every == 0 || g == o->generations))
            progress(log, o, net, g, report->best_points, archive_games, report, measure_games);
    }
    for (int k = 0; k < archive_count; ++k)
        free(archive[k]);
    free(archive);
    free(games);
    free(points);
    free(people);
    free(storage);
    return ok;
}

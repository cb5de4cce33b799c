/* Coevolutionary learning with TD phases and a Hall of Fame. */
#include "coevolve.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "greedy.h"
#include "pool.h"
#include "rng.h"
#include "tdl.h"

enum { POINTS_WIN = 3, POINTS_DRAW = 1 };

typedef struct Generation {
    const CoevolveOptions *options;
    const FloatNet *net;   /* shape and perspective */
    float **people;        /* population entries */
    float **archive;
    int archive_count;
    int *points;           /* per individual, from the archive games */
    int (*pair_points)[2]; /* per pair of individuals */
    long *games;           /* per individual (TD and archive games) or per pair */
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

static int game_points(int diff)
{
    return diff > 0 ? POINTS_WIN : diff == 0 ? POINTS_DRAW : 0;
}

/* A double game: `a` black first, then white; the points of each side. */
static void double_game(const Generation *gen, float *a, float *b, uint64_t *rng, int *pa,
                        int *pb)
{
    FloatNet first = view_of(gen, a), second = view_of(gen, b);
    GreedyPlayer pa_player = {GREEDY_FNET, &first}, pb_player = {GREEDY_FNET, &second};
    double epsilon = gen->options->epsilon;
    int d1 = greedy_game(&pa_player, &pb_player, epsilon, rng);
    int d2 = greedy_game(&pb_player, &pa_player, epsilon, rng);
    *pa = game_points(d1) + game_points(-d2);
    *pb = game_points(-d1) + game_points(d2);
}

/* Pair k of the round robin: i < j, row by row. */
static void pair_of(int k, int n, int *i, int *j)
{
    int row = 0;
    while (k >= n - 1 - row) {
        k -= n - 1 - row;
        ++row;
    }
    *i = row;
    *j = row + 1 + k;
}

static void round_robin_one(void *context, int k)
{
    Generation *gen = context;
    int i, j;
    pair_of(k, gen->options->population, &i, &j);
    uint64_t rng = job_seed(gen->seed, 2, k);
    double_game(gen, gen->people[i], gen->people[j], &rng, &gen->pair_points[k][0],
                &gen->pair_points[k][1]);
}

static void archive_one(void *context, int i)
{
    Generation *gen = context;
    uint64_t rng = job_seed(gen->seed, 3, i);
    int count = gen->archive_count, wanted = gen->options->archive_games;
    int *order = malloc(sizeof *order * (size_t)(count > 0 ? count : 1));
    if (!order) /* no games is a fair outcome for everyone only if all lack memory: rare */
        return;
    for (int k = 0; k < count; ++k)
        order[k] = k;
    int played = count < wanted ? count : wanted;
    for (int k = 0; k < played; ++k) { /* a partial shuffle: `played` distinct members */
        int pick = k + (int)(rng_next(&rng) % (uint64_t)(count - k));
        int t = order[k];
        order[k] = order[pick];
        order[pick] = t;
        int mine, theirs;
        double_game(gen, gen->people[i], gen->archive[order[k]], &rng, &mine, &theirs);
        gen->points[i] += mine;
    }
    gen->games[i] += 2L * played;
    free(order);
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

static double clock_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
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

bool coevolve_run(FloatNet *net, const CoevolveOptions *o, int log_every, int measure_games,
                  FILE *log, CoevolveReport *report, OctError *error)
{
    if (!options_check(o, error))
        return false;
    size_t size = net->shape.table_size;
    int n = o->population, pairs = n * (n - 1) / 2;
    bool hof = o->archive_games > 0;
    float *storage = calloc(size * (size_t)n * 2, sizeof *storage);
    float **people = malloc(sizeof *people * (size_t)n * 2);
    int *points = malloc(sizeof *points * (size_t)n);
    int (*pair_points)[2] = malloc(sizeof *pair_points * (size_t)(pairs > 0 ? pairs : 1));
    long *games = malloc(sizeof *games * (size_t)n);
    float **archive = NULL;
    int archive_count = 0, archive_capacity = 0;
    bool ok = storage && people && points && pair_points && games;
    if (!ok)
        error_set(error, "out of memory for %d networks of %zu entries", 2 * n, size);
    for (int i = 0; ok && i < 2 * n; ++i)
        people[i] = storage + size * (size_t)i;
    float **next = ok ? people + n : NULL;
    uint64_t rng = board_mix64(o->seed + 0xc0ULL);
    *report = (CoevolveReport){0};
    double start = clock_seconds();
    for (int g = 1; ok && g <= o->generations; ++g) {
        Generation gen = {o, net, people, archive, archive_count, points, pair_points, games,
                          board_mix64(o->seed ^ board_mix64((uint64_t)g))};
        memset(points, 0, sizeof *points * (size_t)n);
        memset(games, 0, sizeof *games * (size_t)n);
        if (o->td_games > 0) {
            pool_run(n, o->threads, td_phase_one, &gen);
            report->games += (long)n * o->td_games;
        }
        pool_run(pairs, o->threads, round_robin_one, &gen);
        if (hof)
            pool_run(n, o->threads, archive_one, &gen);
        for (int k = 0; k < pairs; ++k) {
            int i, j;
            pair_of(k, n, &i, &j);
            points[i] += pair_points[k][0];
            points[j] += pair_points[k][1];
        }
        report->games += 2L * pairs;
        for (int i = 0; i < n; ++i)
            report->games += games[i];
        int best = 0;
        for (int i = 1; i < n; ++i)
            if (points[i] > points[best])
                best = i;
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
        for (int c = 0; c < n; ++c) {
            const float *first = hof && rng_unit(&rng) < o->archive_parent
                ? archive[rng_next(&rng) % (uint64_t)archive_count]
                : people[tournament_pick(points, n, o->tournament, &rng)];
            const float *second = people[tournament_pick(points, n, o->tournament, &rng)];
            size_t cut = (size_t)(rng_next(&rng) % (uint64_t)(size + 1));
            float *child = next[c];
            memcpy(child, first, sizeof *child * cut);
            memcpy(child + cut, second + cut, sizeof *child * (size - cut));
            for (size_t w = 0; w < size; ++w) {
                if (rng_unit(&rng) >= o->mutation_rate)
                    continue;
                double v = child[w] + o->sigma * rng_gaussian(&rng);
                child[w] = (float)(v > o->clip ? o->clip : v < -o->clip ? -o->clip : v);
            }
            fnet_tie(net, child);
        }
        for (int c = 0; c < n; ++c) {
            float *t = people[c];
            people[c] = next[c];
            next[c] = t;
        }
        report->seconds = clock_seconds() - start;
        if (log && log_every > 0 && (g % log_every == 0 || g == o->generations)) {
            int most = 6 * (n - 1) + (hof ? 6 * (archive_count - 1 < o->archive_games
                                                  ? archive_count - 1 : o->archive_games)
                                          : 0);
            fprintf(log, "generation %d: best %d of %d points, %ld games, %.1f s", g,
                    points[best], most, report->games, report->seconds);
            if (measure_games > 0) {
                GreedyPlayer player = {GREEDY_FNET, net}, swh = {GREEDY_WPC, wpc_swh()};
                LeagueScore score;
                greedy_league(&player, &swh, measure_games, GREEDY_EPSILON, o->seed ^ 0x5eedULL,
                              &score);
                fprintf(log, "; against SWH %.4f +- %.4f", score.mean, score.half_width);
            }
            fprintf(log, "\n");
            fflush(log);
        }
    }
    for (int k = 0; k < archive_count; ++k)
        free(archive[k]);
    free(archive);
    free(games);
    free(pair_points);
    free(points);
    free(people);
    free(storage);
    return ok;
}

/* The island GA over network shapes (BRKGA islands, migration between neighbours). */
#include "train/shapega.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/endgame.h"
#include "core/pool.h"
#include "core/rng.h"
#include "core/shapes.h"
#include "core/timing.h"

enum { VALIDATION_PERCENT = 20 };

void shapega_defaults(ShapeGaOptions *o)
{
    static const int edax_sizes[] = {9, 10, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4};
    memset(o, 0, sizeof *o);
    o->island_count = 8;
    for (int k = 0; k < 8; ++k)
        o->moves[k] = 14 + 4 * (k + 1);
    o->population = 100;
    o->elite = 20;
    o->mutants = 20;
    o->inherit = 0.7;
    o->migration_interval = 25;
    o->migration_size = 10;
    o->tuple_count = 12;
    memcpy(o->sizes, edax_sizes, sizeof edax_sizes);
    o->epochs = 2;
    o->rate = 0.002;
    o->test_fraction = 0.2;
    o->seed = 1;
    o->threads = 1;
}

/* A game's share: a seeded hash of its index, uniform in [0, 1). */
static double game_draw(uint32_t game, uint64_t seed)
{
    uint64_t state = seed ^ ((uint64_t)game * 0x9e6c63d0676a9a99ULL);
    return rng_unit(&state);
}

typedef struct MoveData {
    int move;
    const TrainPosition **fit;  /* positions of the games outside the test share */
    size_t fit_count;
    const TrainPosition **test;
    size_t test_count;
    /* this generation's split of `fit` */
    const TrainPosition **train;
    size_t train_count;
    const TrainPosition **valid;
    size_t valid_count;
} MoveData;

static void move_data_free(MoveData *data)
{
    free(data->fit);
    free(data->test);
    free(data->train);
    free(data->valid);
    memset(data, 0, sizeof *data);
}

static bool move_data_make(const TrainSet *set, int move, const ShapeGaOptions *o,
                           MoveData *data, OctError *error)
{
    memset(data, 0, sizeof *data);
    data->move = move;
    size_t count = 0;
    for (size_t i = 0; i < set->count; ++i)
        count += set->positions[i].move_number == move;
    data->fit = malloc(sizeof *data->fit * (count + 1));
    data->test = malloc(sizeof *data->test * (count + 1));
    data->train = malloc(sizeof *data->train * (count + 1));
    data->valid = malloc(sizeof *data->valid * (count + 1));
    if (!data->fit || !data->test || !data->train || !data->valid) {
        move_data_free(data);
        return error_set(error, "out of memory for the positions at move %d", move);
    }
    for (size_t i = 0; i < set->count; ++i) {
        const TrainPosition *p = &set->positions[i];
        if (p->move_number != move)
            continue;
        if (game_draw(p->game, o->seed) < o->test_fraction)
            data->test[data->test_count++] = p;
        else
            data->fit[data->fit_count++] = p;
    }
    if (data->fit_count < 10 || data->test_count < 1) {
        move_data_free(data);
        return error_set(error, "too few positions at move %d (%zu to fit, %zu to test)", move,
                         data->fit_count, data->test_count);
    }
    return true;
}

/* This generation's train/validation split of the fitness games. */
static void move_data_split(MoveData *data, uint64_t seed)
{
    data->train_count = data->valid_count = 0;
    for (size_t i = 0; i < data->fit_count; ++i) {
        const TrainPosition *p = data->fit[i];
        if (game_draw(p->game, seed) * 100 < VALIDATION_PERCENT)
            data->valid[data->valid_count++] = p;
        else
            data->train[data->train_count++] = p;
    }
}

static int position_entries(const Shape *shape, const Board *board, uint32_t *entries)
{
    int k = 0;
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        for (int i = 0; i < tuple->instance_count; ++i)
            entries[k++] = shape->tuple_offsets[t]
                         + tuple_index(tuple->squares[i], tuple->size, board->player,
                                       board->opponent);
    }
    return k;
}

/* Trains from zero on `train` and returns the mean squared error on `check` (INFINITY when
 * the fit diverges or memory runs out). */
static double fit_loss(const Shape *shape, const TrainPosition **train, size_t train_count,
                       const TrainPosition **check, size_t check_count, int epochs, double rate,
                       uint64_t seed)
{
    float *weights = calloc(shape->table_size, sizeof *weights);
    size_t *order = malloc(sizeof *order * (train_count + 1));
    if (!weights || !order) {
        free(weights);
        free(order);
        return INFINITY;
    }
    uint32_t entries[SHAPE_MAX_INSTANCES];
    double bias = 0;
    uint64_t rng = seed;
    bool diverged = false;
    for (int epoch = 0; epoch < epochs && !diverged; ++epoch) {
        rng_shuffle_indices(order, train_count, &rng);
        /* as regress: the step shrinks over the second half of the epochs */
        double step = rate * (epoch < epochs / 2 ? 1.0
                      : 1.0 / (1 + 2.0 * (epoch - epochs / 2 + 1)));
        for (size_t i = 0; i < train_count; ++i) {
            const TrainPosition *p = train[order[i]];
            int count = position_entries(shape, &p->board, entries);
            double predicted = bias;
            for (int k = 0; k < count; ++k)
                predicted += weights[entries[k]];
            double delta = step * (p->target - predicted);
            if (!isfinite(delta)) {
                diverged = true;
                break;
            }
            for (int k = 0; k < count; ++k)
                weights[entries[k]] += (float)delta;
            bias += delta / 16;
        }
    }
    double loss = 0;
    for (size_t i = 0; i < check_count && !diverged; ++i) {
        int count = position_entries(shape, &check[i]->board, entries);
        double predicted = bias;
        for (int k = 0; k < count; ++k)
            predicted += weights[entries[k]];
        double e = check[i]->target - predicted;
        loss += e * e;
    }
    free(weights);
    free(order);
    return diverged || check_count == 0 ? INFINITY : loss / (double)check_count;
}

/* The decoder: tuple t takes the sizes[t] squares of a1..h3 with the smallest keys, in
 * square order, expanded in the 8 symmetries. */
static bool decode(const float *keys, const ShapeGaOptions *o, const char *name, Shape *out,
                   OctError *error)
{
    Tuple tuples[SHAPEGA_MAX_TUPLES];
    for (int t = 0; t < o->tuple_count; ++t) {
        const float *k = keys + SHAPEGA_REGION * t;
        int index[SHAPEGA_REGION];
        for (int j = 0; j < SHAPEGA_REGION; ++j) { /* insertion sort by key, ties by square */
            int at = j;
            while (at > 0 && k[index[at - 1]] > k[j]) {
                index[at] = index[at - 1];
                --at;
            }
            index[at] = j;
        }
        uint8_t squares[TUPLE_MAX_SIZE];
        int n = o->sizes[t];
        for (int j = 0; j < n; ++j) {
            int at = j;
            while (at > 0 && squares[at - 1] > index[j]) {
                squares[at] = squares[at - 1];
                --at;
            }
            squares[at] = (uint8_t)index[j];
        }
        if (!tuple_expand(squares, n, &tuples[t], error))
            return false;
    }
    return shape_build(out, name, tuples, o->tuple_count, error);
}

typedef struct Island {
    MoveData data;
    float *keys;      /* population x genes */
    double *fitness;
    int *rank;        /* individuals by fitness, best first */
    uint64_t rng;     /* breeding */
} Island;

typedef struct Search {
    const ShapeGaOptions *o;
    Island *islands;
    int genes;
    uint64_t generation_seed;
} Search;

static void fitness_job(void *context, int job)
{
    Search *search = context;
    const ShapeGaOptions *o = search->o;
    Island *island = &search->islands[job / o->population];
    int i = job % o->population;
    Shape shape;
    OctError error;
    if (!decode(island->keys + (size_t)search->genes * (size_t)i, o, "ga", &shape, &error)) {
        island->fitness[i] = INFINITY;
        return;
    }
    island->fitness[i] = fit_loss(&shape, island->data.train, island->data.train_count,
                                  island->data.valid, island->data.valid_count, o->epochs,
                                  o->rate, search->generation_seed ^ (uint64_t)job);
    shape_free(&shape);
}

/* Individuals by fitness, best first, ties by index (an insertion sort: a hundred of them). */
static void island_rank(Island *island, int population)
{
    const double *f = island->fitness;
    for (int i = 0; i < population; ++i) {
        int at = i;
        while (at > 0 && f[island->rank[at - 1]] > f[i]) {
            island->rank[at] = island->rank[at - 1];
            --at;
        }
        island->rank[at] = i;
    }
}

static void random_keys(float *keys, int genes, uint64_t *rng)
{
    for (int g = 0; g < genes; ++g)
        keys[g] = (float)rng_unit(rng);
}

/* The next generation in `next`: elites, crossovers, then mutants at the end. */
static void island_breed(Island *island, const ShapeGaOptions *o, int genes, float *next)
{
    size_t row = (size_t)genes;
    for (int e = 0; e < o->elite; ++e)
        memcpy(next + row * (size_t)e, island->keys + row * (size_t)island->rank[e],
               sizeof *next * row);
    int crossovers = o->population - o->elite - o->mutants;
    for (int c = 0; c < crossovers; ++c) {
        const float *elite = island->keys
            + row * (size_t)island->rank[rng_next(&island->rng) % (uint64_t)o->elite];
        const float *other = island->keys
            + row * (size_t)island->rank[o->elite + (int)(rng_next(&island->rng)
                                         % (uint64_t)(o->population - o->elite))];
        float *child = next + row * (size_t)(o->elite + c);
        for (int g = 0; g < genes; ++g)
            child[g] = rng_unit(&island->rng) < o->inherit ? elite[g] : other[g];
    }
    for (int m = 0; m < o->mutants; ++m)
        random_keys(next + row * (size_t)(o->population - o->mutants + m), genes, &island->rng);
    memcpy(island->keys, next, sizeof *next * row * (size_t)o->population);
}

/* Each island takes copies of its neighbours' best in place of random mutants (the
 * mutants are the last `mutants` rows after island_breed). `ranks` are the neighbours'
 * ranks of the generation just evaluated, `old` their keys then. */
static void islands_migrate(Search *search, float *const *old, int *const *ranks)
{
    const ShapeGaOptions *o = search->o;
    size_t row = (size_t)search->genes;
    for (int k = 0; k < o->island_count; ++k) {
        Island *island = &search->islands[k];
        int neighbours[2], count = 0;
        if (k > 0)
            neighbours[count++] = k - 1;
        if (k + 1 < o->island_count)
            neighbours[count++] = k + 1;
        if (count == 0)
            continue;
        int wanted = o->migration_size < o->mutants ? o->migration_size : o->mutants;
        int *slots = malloc(sizeof *slots * (size_t)(o->mutants > 0 ? o->mutants : 1));
        if (!slots)
            continue; /* no migration this time: the search goes on without it */
        for (int s = 0; s < o->mutants; ++s)
            slots[s] = o->population - o->mutants + s;
        int taken = 0;
        for (int n = 0; n < count; ++n) {
            int share = count == 1 ? wanted : (n == 0 ? wanted / 2 : wanted - wanted / 2);
            for (int b = 0; b < share && taken < o->mutants; ++b) {
                /* a partial shuffle: distinct mutant rows, drawn at random */
                int pick = taken + (int)(rng_next(&island->rng) % (uint64_t)(o->mutants - taken));
                int t = slots[taken];
                slots[taken] = slots[pick];
                slots[pick] = t;
                const float *from = old[neighbours[n]] + row * (size_t)ranks[neighbours[n]][b];
                memcpy(island->keys + row * (size_t)slots[taken], from, sizeof *from * row);
                ++taken;
            }
        }
        free(slots);
    }
}

bool shapega_test_score(const TrainSet *set, const ShapeGaOptions *o, const Shape *shape,
                        int move, double *score, OctError *error)
{
    MoveData data;
    if (!move_data_make(set, move, o, &data, error))
        return false;
    *score = fit_loss(shape, data.fit, data.fit_count, data.test, data.test_count, o->epochs,
                      o->rate, o->seed ^ 0x7e57ULL);
    move_data_free(&data);
    return true;
}

bool shapega_check(const ShapeGaOptions *o, OctError *error)
{
    if (o->island_count < 1 || o->island_count > SHAPEGA_MAX_ISLANDS)
        return error_set(error, "shape search: 1 to %d islands", SHAPEGA_MAX_ISLANDS);
    for (int k = 0; k < o->island_count; ++k) {
        if (o->moves[k] < 1 || o->moves[k] > 59)
            return error_set(error, "shape search: island move %d (1 to 59 allowed)", o->moves[k]);
        /* neighbours trade individuals: they must be the islands of the nearest moves */
        if (k > 0 && o->moves[k] <= o->moves[k - 1])
            return error_set(error, "shape search: island moves must rise without repeats "
                                    "(%d after %d)", o->moves[k], o->moves[k - 1]);
    }
    if (o->population < 3 || o->elite < 1 || o->mutants < 0
        || o->elite + o->mutants >= o->population || o->population > 100000)
        return error_set(error, "shape search: a population of 3 or more with elite >= 1 and "
                                "elite + mutants below it");
    if (o->migration_interval > 0 && o->island_count > 1 && o->migration_size > o->mutants)
        return error_set(error, "shape search: migrants replace mutants: a migration size of %d "
                                "needs as many mutants (%d)", o->migration_size, o->mutants);
    if (o->tuple_count < 1 || o->tuple_count > SHAPEGA_MAX_TUPLES)
        return error_set(error, "shape search: 1 to %d tuples", SHAPEGA_MAX_TUPLES);
    for (int t = 0; t < o->tuple_count; ++t)
        if (o->sizes[t] < 1 || o->sizes[t] > TUPLE_MAX_SIZE)
            return error_set(error, "shape search: tuple size %d (1 to %d allowed)", o->sizes[t],
                             TUPLE_MAX_SIZE);
    if (o->inherit < 0 || o->inherit > 1 || o->epochs < 1 || !(o->rate > 0)
        || o->test_fraction <= 0 || o->test_fraction >= 1 || o->generations < 1
        || o->migration_interval < 0 || o->migration_size < 0 || o->threads < 1)
        return error_set(error, "shape search: generations and epochs >= 1, rate > 0, inherit in "
                                "[0, 1], a test share in (0, 1)");
    return true;
}

bool shapega_run(const TrainSet *set, const ShapeGaOptions *o, int measure_every, FILE *log,
                 ShapeGaResult *results, OctError *error)
{
    if (!shapega_check(o, error))
        return false;
    int genes = SHAPEGA_REGION * o->tuple_count;
    size_t block = (size_t)genes * (size_t)o->population;
    Island *islands = calloc((size_t)o->island_count, sizeof *islands);
    float *next = malloc(sizeof *next * block);
    float **old = calloc((size_t)o->island_count, sizeof *old);
    int **ranks = calloc((size_t)o->island_count, sizeof *ranks);
    bool ok = islands && next && old && ranks;
    if (!ok)
        error_set(error, "out of memory");
    for (int k = 0; ok && k < o->island_count; ++k) {
        Island *island = &islands[k];
        island->keys = malloc(sizeof *island->keys * block);
        island->fitness = malloc(sizeof *island->fitness * (size_t)o->population);
        island->rank = malloc(sizeof *island->rank * (size_t)o->population);
        old[k] = malloc(sizeof *old[k] * block);
        ranks[k] = malloc(sizeof *ranks[k] * (size_t)o->population);
        if (!island->keys || !island->fitness || !island->rank || !old[k] || !ranks[k])
            ok = error_set(error, "out of memory");
        else
            ok = move_data_make(set, o->moves[k], o, &island->data, error);
        if (ok) {
            island->rng = board_mix64(o->seed ^ board_mix64(0x15a7dULL + (uint64_t)k));
            random_keys(island->keys, (int)block, &island->rng);
        }
    }
    Search search = {o, islands, genes, 0};
    double start = monotonic_seconds();
    for (int g = 1; ok && g <= o->generations; ++g) {
        search.generation_seed = board_mix64(o->seed ^ board_mix64(0x9e4ULL + (uint64_t)g));
        for (int k = 0; k < o->island_count; ++k)
            move_data_split(&islands[k].data, search.generation_seed);
        pool_run(o->island_count * o->population, o->threads, fitness_job, &search);
        for (int k = 0; k < o->island_count; ++k)
            island_rank(&islands[k], o->population);
        bool measure = g == o->generations || (measure_every > 0 && g % measure_every == 0);
        if (log) {
            fprintf(log, "generation %d (%.0f s): best validation loss", g,
                    monotonic_seconds() - start);
            for (int k = 0; k < o->island_count; ++k)
                fprintf(log, " %d:%.2f", o->moves[k], islands[k].fitness[islands[k].rank[0]]);
            fprintf(log, "\n");
        }
        if (measure) {
            for (int k = 0; ok && k < o->island_count; ++k) {
                Island *island = &islands[k];
                ShapeGaResult *r = &results[k];
                char name[SHAPE_NAME_SIZE];
                snprintf(name, sizeof name, "ga move %d generation %d", o->moves[k], g);
                ok = decode(island->keys + (size_t)genes * (size_t)island->rank[0], o, name,
                            &r->best, error);
                if (!ok)
                    break;
                r->move = o->moves[k];
                r->fitness = island->fitness[island->rank[0]];
                r->test_score = fit_loss(&r->best, island->data.fit, island->data.fit_count,
                                         island->data.test, island->data.test_count, o->epochs,
                                         o->rate, o->seed ^ 0x7e57ULL);
                if (log)
                    fprintf(log, "  move %d: test score %.2f\n", r->move, r->test_score);
                if (g != o->generations)
                    shape_free(&r->best);
            }
        }
        if (log)
            fflush(log);
        if (!ok || g == o->generations)
            break;
        bool migrate = o->migration_interval > 0 && g % o->migration_interval == 0;
        if (migrate)
            for (int k = 0; k < o->island_count; ++k) {
                memcpy(old[k], islands[k].keys, sizeof *old[k] * block);
                memcpy(ranks[k], islands[k].rank, sizeof *ranks[k] * (size_t)o->population);
            }
        for (int k = 0; k < o->island_count; ++k)
            island_breed(&islands[k], o, genes, next);
        if (migrate)
            islands_migrate(&search, old, ranks);
    }
    for (int k = 0; ok && k < o->island_count; ++k) {
        Shape edax;
        ok = shapes_edax(&edax, error);
        if (ok) {
            Island *island = &islands[k];
            results[k].edax_score = fit_loss(&edax, island->data.fit, island->data.fit_count,
                                              island->data.test, island->data.test_count,
                                              o->epochs, o->rate, o->seed ^ 0x7e57ULL);
            shape_free(&edax);
        }
    }
    for (int k = 0; islands && old && ranks && k < o->island_count; ++k) {
        free(islands[k].keys);
        free(islands[k].fitness);
        free(islands[k].rank);
        move_data_free(&islands[k].data);
        free(old[k]);
        free(ranks[k]);
    }
    free(islands);
    free(next);
    free(old);
    free(ranks);
    return ok;
}

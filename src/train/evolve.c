/* (mu + lambda) evolution of 1-ply networks against SWH. */
#include "train/evolve.h"

#include <stdlib.h>
#include <string.h>

#include "core/timing.h"
#include "train/greedy.h"
#include "core/pool.h"
#include "core/rng.h"

typedef struct Individual {
    float *values;
    double fitness;
    int born;   /* the generation that made it: ties go to the elder */
    int id;     /* then to the lower number: qsort alone is not stable */
} Individual;

typedef struct FitnessJob {
    const FloatNet *net;  /* shape and perspective */
    Individual *people;
    int games;
    double epsilon;
    uint64_t seed;
} FitnessJob;

static void fitness_one(void *context, int index)
{
    FitnessJob *job = context;
    FloatNet view = *job->net;
    view.values = job->people[index].values;
    GreedyPlayer player = {GREEDY_FNET, &view}, swh = {GREEDY_WPC, wpc_swh()};
    LeagueScore score;
    greedy_league(&player, &swh, job->games, job->epsilon, job->seed, &score);
    job->people[index].fitness = score.mean;
}

static int by_fitness(const void *a, const void *b)
{
    const Individual *x = a, *y = b;
    if (x->fitness != y->fitness)
        return x->fitness < y->fitness ? 1 : -1;
    if (x->born != y->born)
        return x->born < y->born ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

bool evolve_run(FloatNet *net, const EvolveOptions *o, int log_every, FILE *log,
                EvolveReport *report, OctError *error)
{
    if (o->mu < 1 || o->lambda < 1 || o->generations < 0 || !(o->sigma >= 0) || !(o->init >= 0)
        || o->fitness_games < 1 || o->epsilon < 0 || o->epsilon > 1 || o->threads < 1)
        return error_set(error, "evolve: mu, lambda, fitness games and threads >= 1, sigma and "
                                "init >= 0, epsilon in [0, 1] are needed");
    size_t size = net->shape.table_size;
    int total = o->mu + o->lambda;
    Individual *people = calloc((size_t)total, sizeof *people);
    float *storage = malloc(sizeof *storage * size * (size_t)total);
    if (!people || !storage) {
        free(people);
        free(storage);
        return error_set(error, "out of memory for %d networks of %zu entries", total, size);
    }
    for (int i = 0; i < total; ++i) {
        people[i].values = storage + size * (size_t)i;
        people[i].id = i;
    }
    uint64_t rng = board_mix64(o->seed + 0xe5ULL);
    /* a linear network's weights are its own-disc entries, every third (fnet.h) */
    size_t stride = net->linear ? 3 : 1, first = net->linear ? 2 : 0;
    for (int i = 0; i < o->mu; ++i) {
        memset(people[i].values, 0, sizeof *people[i].values * size);
        for (size_t w = first; w < size; w += stride)
            people[i].values[w] = (float)((2 * rng_unit(&rng) - 1) * o->init);
        fnet_tie(net, people[i].values);
    }
    *report = (EvolveReport){0};
    double start = monotonic_seconds();
    for (int g = 1; g <= o->generations; ++g) {
        for (int k = 0; k < o->lambda; ++k) {
            Individual *child = &people[o->mu + k];
            const float *parent = people[k % o->mu].values;
            memcpy(child->values, parent, sizeof *child->values * size);
            for (size_t w = first; w < size; w += stride)
                child->values[w] = (float)(parent[w] + o->sigma * rng_gaussian(&rng));
            fnet_tie(net, child->values);
            child->born = g;
            child->id = k;
        }
        FitnessJob job = {net, people, o->fitness_games, o->epsilon,
                          board_mix64(o->seed ^ board_mix64((uint64_t)g))};
        pool_run(total, o->threads, fitness_one, &job);
        report->games += 2L * o->fitness_games * total;
        /* sorting moves the pointers to the storage with the people: no copies */
        qsort(people, (size_t)total, sizeof *people, by_fitness);
        report->generations = g;
        report->best_fitness = people[0].fitness;
        report->seconds = monotonic_seconds() - start;
        if (log && log_every > 0 && (g % log_every == 0 || g == o->generations)) {
            double mean = 0;
            for (int i = 0; i < o->mu; ++i)
                mean += people[i].fitness;
            fprintf(log, "generation %d: best %.4f, parents' mean %.4f, %.1f s\n", g,
                    people[0].fitness, mean / o->mu, report->seconds);
            fflush(log);
        }
    }
    memcpy(net->values, people[0].values, sizeof *net->values * size);
    free(storage);
    free(people);
    return true;
}

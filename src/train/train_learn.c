/* octuple-train's 1-ply learners and their measure: td, evolve, coevolve, shapes, league. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/fileio.h"
#include "train/greedy.h"
#include "core/league.h"
#include "core/shapefile.h"
#include "core/weights.h"
#include "core/wpc.h"
#include "train/train.h"

/* --out and --league-out of a 1-ply learner. */
static bool outputs_ready(const char *command, const TrainArgs *args)
{
    return train_output_ready(command, args->out, false)
        && (!args->league_out || train_output_ready(command, args->league_out, false));
}

/* A zero network of --shape (or `default_shape`) and the perspective (or `fallback`), with
 * a line saying what it is: 0, or the exit status (2 for an unknown shape). */
static int network_make(const TrainArgs *args, const char *default_shape,
                        ModelPerspective fallback, const char *what, FloatNet *net)
{
    OctError error;
    Shape shape;
    const char *name = args->shape ? args->shape : default_shape;
    if (!train_shape_make(name, args->td.seed, &shape, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return train_shape_is_file(name) ? 1 : 2; /* an unreadable file, or an unknown name */
    }
    ModelPerspective perspective = args->perspective_given ? args->perspective : fallback;
    bool ok = fnet_create(net, &shape, perspective, &error);
    shape_free(&shape);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    /* wpc: a weighted piece counter, one weight a square; pst: the same squares untied */
    net->linear = !strcmp(net->shape.name, "wpc") && fnet_can_be_linear(&net->shape);
    printf("%s: %s, %d tuples, %d instances, %u %s, %s, seed %llu\n", what,
           net->shape.name, net->shape.tuple_count, net->shape.instance_count,
           net->linear ? net->shape.table_size / 3 : net->shape.table_size,
           net->linear ? "weights (a weighted piece counter)" : "weights",
           perspective == PERSPECTIVE_NEGATION ? "output negation" : "board inversion",
           (unsigned long long)args->td.seed);
    fflush(stdout);
    return 0;
}

/* The trained network: with `measure` its League score against SWH (--double-games), then
 * --out and --league-out. */
static bool network_finish(const TrainArgs *args, const FloatNet *net, bool measure,
                           OctError *error)
{
    if (measure && args->double_games > 0) {
        GreedyPlayer player = {GREEDY_FNET, net}, swh = {GREEDY_WPC, wpc_swh()};
        LeagueScore score;
        /* seeds apart from the ones the fitness games used */
        greedy_league_threads(&player, &swh, args->double_games, GREEDY_EPSILON,
                              board_mix64(args->td.seed ^ 0x6d656173ULL), args->evolve.threads,
                              &score);
        printf("against SWH: %.4f +- %.4f over %d double games (%d won, %d drawn, %d lost)\n",
               score.mean, score.half_width, score.double_games, score.wins, score.draws,
               score.losses);
    }
    char name[MODEL_NAME_SIZE];
    snprintf(name, sizeof name, "%s", args->name ? args->name : args->out);
    Model *model = NULL;
    /* f = 1 is worth 16 discs: tanh(1) = 0.76 already forecasts most of a win */
    bool ok = fnet_to_model(net, name, 16.0, &model, error)
           && model_save(model, args->out, error)
           && (!args->league_out || fnet_save_league(net, args->league_out, error));
    model_free(model);
    if (ok)
        printf("wrote %s%s%s%s\n", args->out, args->league_out ? " and " : "",
               args->league_out ? args->league_out : "",
               /* League text does not say its perspective; league reads inversion unless told */
               args->league_out && net->perspective == PERSPECTIVE_NEGATION
                   ? " (output negation: read it with league --perspective negation)" : "");
    return ok;
}

/* The common start of a 1-ply learner's command: --out given and writable, a zero network
 * made. 0 when it can go on, else the exit status. */
static int learner_start(const TrainArgs *args, const char *command, const char *default_shape,
                         ModelPerspective fallback, FloatNet *net)
{
    if (!args->out) {
        fprintf(stderr, "octuple-train %s: --out FILE.ow is required\n", command);
        return 2;
    }
    if (!outputs_ready(command, args))
        return 1;
    return network_make(args, default_shape, fallback, command, net);
}

/* The common end: the network measured (`measure`) and saved when the run went well, freed
 * in any case; the exit status. */
static int learner_end(const TrainArgs *args, FloatNet *net, bool ok, bool measure,
                       OctError *error)
{
    ok = ok && network_finish(args, net, measure, error);
    fnet_free(net);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error->message);
        return 1;
    }
    return 0;
}

int train_evolve(const TrainArgs *args)
{
    FloatNet net;
    int status = learner_start(args, "evolve", "all-2", PERSPECTIVE_INVERSION, &net);
    if (status)
        return status;
    const EvolveOptions *o = &args->evolve;
    printf("(%d + %d), sigma %g, init %g, %d generations, %d double games a fitness, "
           "epsilon %g, %d threads\n", o->mu, o->lambda, o->sigma, o->init, o->generations,
           o->fitness_games, o->epsilon, o->threads);
    EvolveReport report;
    OctError error;
    bool ok = evolve_run(&net, o, args->measure_every >= 0 ? args->measure_every : 1,
                         stdout, &report, &error);
    if (ok)
        printf("%d generations, %ld games in %.1f s; best fitness %.4f\n", report.generations,
               report.games, report.seconds, report.best_fitness);
    return learner_end(args, &net, ok, true, &error);
}

int train_coevolve(const TrainArgs *args)
{
    FloatNet net;
    int status = learner_start(args, "coevolve", "wpc", PERSPECTIVE_NEGATION, &net);
    if (status)
        return status;
    const CoevolveOptions *o = &args->coevolve;
    printf("population %d, %d generations, %d TD games each a generation (alpha %g), "
           "tournament %d, mutation %g x N(0, %g^2) clipped to %g, archive %d games and %g, "
           "epsilon %g, %d threads\n", o->population, o->generations, o->td_games, o->alpha,
           o->tournament, o->mutation_rate, o->sigma, o->clip, o->archive_games,
           o->archive_parent, o->epsilon, o->threads);
    CoevolveReport report;
    OctError error;
    bool ok = coevolve_run(&net, o, args->measure_every >= 0 ? args->measure_every : 10,
                           args->coevolve_measure, stdout, &report, &error);
    if (ok)
        printf("%d generations, %ld games in %.1f s\n", report.generations, report.games,
               report.seconds);
    return learner_end(args, &net, ok, true, &error);
}

int train_td(const TrainArgs *args)
{
    FloatNet net;
    int status = learner_start(args, "td", "lucas-30", PERSPECTIVE_NEGATION, &net);
    if (status)
        return status;
    printf("alpha %g, epsilon %g, %d games\n", args->td.alpha, args->td.epsilon, args->td.games);
    fflush(stdout);
    TdOptions options = args->td;
    if (args->measure_every >= 0)
        options.measure_every = args->measure_every;
    TdReport report;
    OctError error;
    bool ok = td_train(&net, &options, stdout, &report, &error);
    if (ok)
        printf("%d games, %ld updates in %.1f s of self-play (%.0f games/s)\n", report.games,
               report.updates, report.seconds,
               report.seconds > 0 ? report.games / report.seconds : 0.0);
    return learner_end(args, &net, ok, false, &error);
}

/* `shape` as DIR/move-T.shape, written whole or not at all. */
static bool shape_save(const char *dir, int move, const Shape *shape, OctError *error)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/move-%d.shape", dir, move);
    char *text = NULL;
    size_t size = 0;
    FILE *memory = open_memstream(&text, &size);
    if (!memory)
        return error_set(error, "%s: out of memory", path);
    bool written = shape_write(memory, shape);
    written = fclose(memory) == 0 && written;
    bool ok = written ? file_write_atomic(path, text, size, error)
                      : error_set(error, "%s: out of memory", path);
    free(text);
    return ok;
}

int train_shapes(const TrainArgs *args)
{
    if (!args->out_dir || (!args->logbook && !args->wthor)) {
        fprintf(stderr, "octuple-train shapes: give --out-dir and --logbook and/or --wthor\n");
        return 2;
    }
    OctError error;
    const ShapeGaOptions *o = &args->ga;
    if (!shapega_check(o, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 2;
    }
    if (!train_output_ready("shapes", args->out_dir, true))
        return 1;
    TrainSet set;
    trainset_init(&set);
    if (!train_games_add(&set, args, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        trainset_free(&set);
        return 1;
    }
    printf("data: %u games, %zu positions; %d islands (moves", set.games, set.count,
           o->island_count);
    for (int k = 0; k < o->island_count; ++k)
        printf(" %d", o->moves[k]);
    printf("), population %d (elite %d, mutants %d, inherit %g), migration %d every %d "
           "generations, %d generations, %d epochs at rate %g, %d threads, seed %llu\n",
           o->population, o->elite, o->mutants, o->inherit, o->migration_size,
           o->migration_interval, o->generations, o->epochs, o->rate, o->threads,
           (unsigned long long)o->seed);
    fflush(stdout);
    ShapeGaResult results[SHAPEGA_MAX_ISLANDS];
    memset(results, 0, sizeof results);
    bool ok = shapega_run(&set, o, args->measure_every >= 0 ? args->measure_every : 0, stdout,
                          results, &error);
    for (int k = 0; ok && k < o->island_count; ++k) {
        printf("move %d: validation %.2f, test score %.2f against %.2f for the Edax shape\n",
               results[k].move, results[k].fitness, results[k].test_score,
               results[k].edax_score);
        ok = shape_save(args->out_dir, results[k].move, &results[k].best, &error);
    }
    for (int k = 0; k < o->island_count; ++k)
        shape_free(&results[k].best);
    trainset_free(&set);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("wrote %d shapes to %s\n", o->island_count, args->out_dir);
    return 0;
}

/* The player named by --opponent: SWH, the random player, or a weights file (`model`). */
static bool opponent_make(const char *name, GreedyPlayer *player, Model **model)
{
    *model = NULL;
    if (!name || !strcmp(name, "swh")) {
        *player = (GreedyPlayer){GREEDY_WPC, wpc_swh()};
        return true;
    }
    if (!strcmp(name, "random")) {
        *player = (GreedyPlayer){GREEDY_RANDOM, NULL};
        return true;
    }
    if (!(*model = train_weights_load(name)))
        return false;
    *player = (GreedyPlayer){GREEDY_MODEL, *model};
    return true;
}

int train_league(const TrainArgs *args)
{
    if (args->double_games < 1) {
        fprintf(stderr, "octuple-train league: --double-games must be 1 or more\n");
        return 2;
    }
    if (!args->weights == !args->league_in) {
        fprintf(stderr, "octuple-train league: give one of --weights FILE.ow and --league "
                        "FILE.txt\n");
        return 2;
    }
    Model *model = NULL, *other = NULL;
    if (args->weights) {
        model = train_weights_load(args->weights);
    } else {
        OctError error;
        if (!league_import(args->league_in, args->perspective, &model, &error)) {
            fprintf(stderr, "octuple-train: %s\n", error.message);
            model = NULL;
        }
    }
    GreedyPlayer player = {GREEDY_MODEL, model}, opponent;
    if (!model || !opponent_make(args->opponent, &opponent, &other)) {
        model_free(model);
        return 1;
    }
    LeagueScore score;
    greedy_league_threads(&player, &opponent, args->double_games, args->epsilon, args->td.seed,
                          args->evolve.threads, &score);
    printf("%s against %s: %.4f +- %.4f over %d double games (epsilon %g, seed %llu): "
           "%d won, %d drawn, %d lost\n", model->name,
           args->opponent ? args->opponent : "swh", score.mean, score.half_width,
           score.double_games, args->epsilon, (unsigned long long)args->td.seed, score.wins,
           score.draws, score.losses);
    model_free(model);
    model_free(other);
    return 0;
}

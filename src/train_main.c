/* octuple-train: builds evaluation weights from data. One table of commands drives parsing
 * and help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "model.h"
#include "modeldump.h"
#include "labels.h"
#include "logbook.h"
#include "mpc_fit.h"
#include "probcut_fit.h"
#include "regress.h"
#include "shapes.h"
#include "trainset.h"
#include "weights.h"
#include "wthor.h"
#include "parse.h"

typedef struct TrainArgs {
    const char *logbook;
    const char *wthor;
    const char *shape;
    const char *out;
    const char *name;
    const char *file;      /* the one plain argument (dump) */
    const char *weights;   /* the model whose shallow searches a probcut fit measures */
    const char *labels;    /* regress: an OBF file of exactly labelled positions to add */
    int label_weight;      /* regress: visits of each labelled position per epoch */
    LabelOptions label;
    int phase_width;
    RegressOptions regress;
    ProbcutFitOptions fit;
    MpcFitOptions mpc;
    const char *base;      /* mpc: an existing .mpc whose endgame part is kept */
    double endgame_sigma;  /* mpc: > 0 writes a constant endgame error model of this many discs */
} TrainArgs;

typedef struct TrainCommand {
    const char *name;
    const char *usage;
    const char *help;
    int (*run)(const TrainArgs *args);
} TrainCommand;

static int command_regress(const TrainArgs *args);
static int command_dump(const TrainArgs *args);
static int command_probcut(const TrainArgs *args);
static int command_label(const TrainArgs *args);
static int command_mpc(const TrainArgs *args);

static const TrainCommand commands[] = {
    {"regress", "--out FILE [--logbook PATH] [--wthor DIR] [--labels FILE.obf] [--label-weight N] "
                "[--shape NAME] [--phase-width N] [--epochs N] [--rate R] [--test F] [--seed S] "
                "[--name TEXT]",
     "fit weights to the final disc difference of database games (squared error, SGD)",
     command_regress},
    {"probcut", "--weights FILE.ow --out FILE [--logbook PATH] [--wthor DIR] [--labels FILE.obf] "
                "[--min-empties N] [--max-empties N] [--per-empties N] [--seed S]",
     "fit the probability-cut error model of the exact solver: solve game positions, "
     "compare shallow searches",
     command_probcut},
    {"mpc", "--weights FILE.ow --out FILE.mpc [--logbook PATH] [--wthor DIR] [--base FILE.mpc | "
            "--endgame-sigma DISCS] [--min-empties N] [--max-empties N] [--per-empties N] "
            "[--max-depth N] [--seed S]",
     "fit the midgame Multi-ProbCut parameters: search game positions by iterative deepening, "
     "regress each depth's score on a shallower one's (--base keeps that file's endgame model; "
     "--endgame-sigma writes a constant one, which turns on the selective pass before solves)",
     command_mpc},
    {"label", "--out FILE.obf [--logbook PATH] [--wthor DIR] [--empties N,N,...] [--games N] "
              "[--weights FILE.ow] [--seed S]",
     "solve positions of database games exactly (one per game at each count of empties): "
     "labels for regress --labels",
     command_label},
    {"dump", "FILE.ow", "print a weights file's shapes, phase table and weight statistics",
     command_dump},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void usage(FILE *out)
{
    fprintf(out, "usage: octuple-train COMMAND [options]\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; ++i)
        fprintf(out, "  %s %s\n      %s\n", commands[i].name, commands[i].usage, commands[i].help);
    fprintf(out, "shapes: edax (default), edax-2x5, all-1, all-2, all-3, all-4\n");
}

/* The model at `path`, or NULL after saying why on standard error. */
static Model *weights_load(const char *path)
{
    Model *model;
    OctError error;
    if (!model_load(path, &model, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return NULL;
    }
    return model;
}

/* The games of --logbook and --wthor (labelled with their final results) into `set`. */
static bool games_add(TrainSet *set, const TrainArgs *args, OctError *error)
{
    return (!args->logbook || trainset_add_logbook(set, args->logbook, error))
        && (!args->wthor || trainset_add_wthor(set, args->wthor, WTHOR_TARGET_FINAL, error));
}

static int command_dump(const TrainArgs *args)
{
    if (!args->file) {
        fprintf(stderr, "octuple-train dump: name a weights file\n");
        return 2;
    }
    Model *model = weights_load(args->file);
    if (!model)
        return 1;
    model_dump(stdout, model);
    model_free(model);
    return 0;
}

static int command_probcut(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor && !args->labels)) {
        fprintf(stderr, "octuple-train probcut: give --weights, --out and --logbook, --wthor "
                        "and/or --labels\n");
        return 2;
    }
    Model *model = weights_load(args->weights);
    if (!model)
        return 1;
    OctError error;
    TrainSet set;
    trainset_init(&set);
    Probcut fitted = {0}; /* the fit sets the endgame part; no midgame part */
    bool ok = games_add(&set, args, &error)
           && (!args->labels || trainset_add_obf(&set, args->labels, 1, &error))
           && probcut_fit(&set, model, &args->fit, &fitted, stdout, &error);
    if (ok) {
        char comment[512];
        snprintf(comment, sizeof comment,
                 "fitted by octuple-train probcut on %s, %d..%d empties, %d positions each, "
                 "seed %llu", args->weights, args->fit.min_empties, args->fit.max_empties,
                 args->fit.per_empties, (unsigned long long)args->fit.seed);
        ok = probcut_save(&fitted, args->out, comment, &error);
    }
    trainset_free(&set);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("sigma = %.4f %+.4f * empties %+.4f * depth\nwrote %s\n", fitted.base,
           fitted.per_empty, fitted.per_depth, args->out);
    return 0;
}

static int command_mpc(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor)) {
        fprintf(stderr, "octuple-train mpc: give --weights, --out and --logbook and/or --wthor\n");
        return 2;
    }
    if (args->base && args->endgame_sigma > 0) {
        fprintf(stderr, "octuple-train mpc: --base and --endgame-sigma both set the endgame "
                        "model; give one\n");
        return 2;
    }
    Model *model = weights_load(args->weights);
    if (!model)
        return 1;
    OctError error;
    Probcut *fitted = calloc(1, sizeof *fitted);
    TrainSet set;
    trainset_init(&set);
    bool ok = fitted != NULL;
    if (!ok)
        error_set(&error, "out of memory");
    ok = ok && (!args->base || probcut_load(fitted, args->base, &error))
         && games_add(&set, args, &error) && mpc_fit(&set, model, &args->mpc, fitted, stdout, &error);
    if (ok) {
        char endgame[320] = "";
        if (args->base)
            snprintf(endgame, sizeof endgame, "; endgame part from %s", args->base);
        if (args->endgame_sigma > 0) {
            fitted->enabled = true;
            fitted->base = args->endgame_sigma;
            fitted->per_empty = fitted->per_depth = 0;
            snprintf(endgame, sizeof endgame, "; endgame sigma %g discs at every empties and depth",
                     args->endgame_sigma);
        }
        char comment[512];
        snprintf(comment, sizeof comment,
                 "midgame part fitted by octuple-train mpc on %s, %d..%d empties, %d positions "
                 "each, depths %d..%d, seed %llu%s", args->weights, args->mpc.min_empties,
                 args->mpc.max_empties, args->mpc.per_empties, PROBCUT_MID_MIN_DEPTH,
                 args->mpc.max_depth, (unsigned long long)args->mpc.seed, endgame);
        ok = probcut_save(fitted, args->out, comment, &error);
    }
    trainset_free(&set);
    model_free(model);
    free(fitted);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    printf("wrote %s\n", args->out);
    return 0;
}

/* Every finished game of the named databases, into one malloc'ed array. */
static bool collect_games(const TrainArgs *args, Game **out, size_t *count, OctError *error)
{
    Game *games = NULL;
    size_t n = 0, capacity = 0;
    if (args->wthor) {
        WthorGame *wthor;
        size_t wthor_count;
        if (!wthor_read_directory(args->wthor, &wthor, &wthor_count, NULL, error))
            return false;
        games = malloc(sizeof *games * (wthor_count + 1));
        if (!games) {
            free(wthor);
            return error_set(error, "out of memory");
        }
        for (size_t i = 0; i < wthor_count; ++i)
            games[n++] = wthor[i].game;
        capacity = wthor_count + 1;
        free(wthor);
    }
    if (args->logbook) {
        LogbookReader *reader = logbook_open(args->logbook, error);
        if (!reader) {
            free(games);
            return false;
        }
        LogbookGame game;
        LogbookStatus status;
        while ((status = logbook_next(reader, &game, error)) == LOGBOOK_GAME) {
            if (n == capacity) {
                capacity = capacity ? capacity * 2 : 1024;
                Game *grown = realloc(games, sizeof *games * capacity);
                if (!grown) {
                    status = LOGBOOK_ERROR;
                    error_set(error, "out of memory");
                    break;
                }
                games = grown;
            }
            games[n++] = game.game;
        }
        logbook_close(reader);
        if (status != LOGBOOK_END) {
            free(games);
            return false;
        }
    }
    *out = games;
    *count = n;
    return true;
}

static int command_label(const TrainArgs *args)
{
    if (!args->out || (!args->logbook && !args->wthor)) {
        fprintf(stderr, "octuple-train label: give --out and --logbook and/or --wthor\n");
        return 2;
    }
    Model *model = NULL;
    if (args->weights && !(model = weights_load(args->weights)))
        return 1;
    OctError error;
    Game *games = NULL;
    size_t count = 0;
    bool ok = collect_games(args, &games, &count, &error);
    if (ok) {
        printf("data: %zu games\n", count);
        ok = labels_make(games, count, &args->label, model, args->out, stdout, &error);
    }
    free(games);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    return 0;
}

/* "14,16": counts of empties, each 1..36. */
static bool parse_empties(const char *text, LabelOptions *label)
{
    label->empties_count = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long value = strtol(p, &end, 10);
        if (end == p || value < 1 || value > 36 || label->empties_count == LABELS_MAX_EMPTIES)
            return false;
        label->empties[label->empties_count++] = (int)value;
        if (*end == ',')
            ++end;
        else if (*end)
            return false;
        p = end;
    }
    return label->empties_count > 0;
}

static bool make_shape(const char *name, Shape *shape, OctError *error)
{
    if (!strcmp(name, "edax"))
        return shapes_edax(shape, error);
    if (!strcmp(name, "edax-2x5"))
        return shapes_edax_2x5(shape, error);
    if (!strncmp(name, "all-", 4) && name[4] >= '1' && name[4] <= '4' && !name[5])
        return shapes_all_n(name[4] - '0', shape, error);
    return error_set(error, "--shape: unknown shape '%s'", name);
}

static int command_regress(const TrainArgs *args)
{
    OctError error;
    if (!args->out) {
        fprintf(stderr, "octuple-train regress: --out FILE is required\n");
        return 2;
    }
    if (!args->logbook && !args->wthor && !args->labels) {
        fprintf(stderr, "octuple-train regress: give --logbook, --wthor and/or --labels\n");
        return 2;
    }
    TrainSet set;
    trainset_init(&set);
    if ((args->logbook && !trainset_add_logbook(&set, args->logbook, &error))
        || (args->wthor
            && !trainset_add_wthor(&set, args->wthor, WTHOR_TARGET_THEORETICAL, &error))
        || (args->labels
            && !trainset_add_obf(&set, args->labels, args->label_weight, &error))) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        trainset_free(&set);
        return 1;
    }
    printf("data: %u games, %zu positions\n", set.games, set.count);
    Shape shape;
    PhaseTable phase;
    Model *model = NULL;
    phase_buckets(&phase, args->phase_width);
    if (!make_shape(args->shape, &shape, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        trainset_free(&set);
        return 2;
    }
    bool ok = model_create(&shape, 1, &phase, &model, &error);
    shape_free(&shape);
    RegressReport report;
    if (ok) {
        snprintf(model->name, sizeof model->name, "%s", args->name ? args->name : args->out);
        ok = regress_train(model, &set, &args->regress, &report, stdout, &error)
          && model_save(model, args->out, &error);
    }
    trainset_free(&set);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        model_free(model);
        return 1;
    }
    printf("train positions %zu, test positions %zu\n", report.train_positions, report.test_positions);
    printf("final: train loss %.3f, test loss %.3f (discs^2)\n", report.train_loss, report.test_loss);
    printf("test loss by move number:");
    for (int m = 0; m < MODEL_MOVES; ++m)
        if (report.test_count_by_move[m])
            printf("%s%d:%.2f", m % 10 ? " " : "\n  ", m, report.test_loss_by_move[m]);
    printf("\nwrote %s\n", args->out);
    model_free(model);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("octuple-train (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
        return 0;
    }
    const TrainCommand *command = NULL;
    for (int i = 0; i < COMMAND_COUNT; ++i)
        if (!strcmp(argv[1], commands[i].name))
            command = &commands[i];
    if (!command) {
        fprintf(stderr, "octuple-train: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    TrainArgs args = {.shape = "edax", .phase_width = 1, .label_weight = 1,
                      .regress = {8, 0.002, 0.2, 1},
                      .fit = {PROBCUT_MIN_EMPTIES, 20, 40, 1},
                      .mpc = {14, 57, 24, 10, 1},
                      .label = {{16}, 1, 0, 1, 64}};
    for (int i = 2; i < argc; ++i) {
        const char *option = argv[i];
        if (strncmp(option, "--", 2) != 0 && !args.file) {
            args.file = option;
            continue;
        }
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        double number = 0;
        bool numeric = value && parse_double(value, -1e18, 1e18, &number);
        if (!value) {
            fprintf(stderr, "octuple-train: %s needs a value\n", option);
            return 2;
        }
        ++i;
        if (!strcmp(option, "--logbook")) args.logbook = value;
        else if (!strcmp(option, "--wthor")) args.wthor = value;
        else if (!strcmp(option, "--shape")) args.shape = value;
        else if (!strcmp(option, "--out")) args.out = value;
        else if (!strcmp(option, "--name")) args.name = value;
        else if (!strcmp(option, "--phase-width") && numeric && number >= 1 && number <= 61)
            args.phase_width = (int)number;
        else if (!strcmp(option, "--epochs") && numeric && number >= 1 && number <= 1000)
            args.regress.epochs = (int)number;
        else if (!strcmp(option, "--rate") && numeric && number > 0 && number < 1)
            args.regress.rate = number;
        else if (!strcmp(option, "--test") && numeric && number >= 0 && number <= 0.9)
            args.regress.test_fraction = number;
        else if (!strcmp(option, "--seed") && numeric && number >= 0)
            args.regress.seed = args.fit.seed = args.label.seed = args.mpc.seed
                = (uint64_t)number;
        else if (!strcmp(option, "--labels")) args.labels = value;
        else if (!strcmp(option, "--label-weight") && numeric && number >= 1 && number <= 255
                 && number == (int)number)
            args.label_weight = (int)number;
        else if (!strcmp(option, "--empties") && parse_empties(value, &args.label)) {}
        else if (!strcmp(option, "--games") && numeric && number >= 1)
            args.label.limit = (size_t)number;
        else if (!strcmp(option, "--weights")) args.weights = value;
        else if (!strcmp(option, "--min-empties") && numeric && number >= 0 && number <= 60)
            args.fit.min_empties = args.mpc.min_empties = (int)number;
        else if (!strcmp(option, "--max-empties") && numeric && number >= 0 && number <= 60)
            args.fit.max_empties = args.mpc.max_empties = (int)number;
        else if (!strcmp(option, "--per-empties") && numeric && number >= 1 && number <= 100000)
            args.fit.per_empties = args.mpc.per_empties = (int)number;
        else if (!strcmp(option, "--max-depth") && numeric && number >= PROBCUT_MID_MIN_DEPTH
                 && number <= PROBCUT_MID_MAX_DEPTH && number == (int)number)
            args.mpc.max_depth = (int)number;
        else if (!strcmp(option, "--base")) args.base = value;
        else if (!strcmp(option, "--endgame-sigma") && numeric && number >= 1 && number <= 64)
            args.endgame_sigma = number;
        else {
            fprintf(stderr, "octuple-train: bad option or value: %s %s\n", option, value);
            usage(stderr);
            return 2;
        }
    }
    return command->run(&args);
}

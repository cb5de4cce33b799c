/* octuple-train: builds evaluation weights from data. One table of commands drives parsing
 * and help. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "book.h"
#include "book_eval.h"
#include "coevolve.h"
#include "endgame.h"
#include "evolve.h"
#include "fileio.h"
#include "fnet.h"
#include "greedy.h"
#include "league.h"
#include "model.h"
#include "modeldump.h"
#include "labels.h"
#include "logbook.h"
#include "mpc_fit.h"
#include "probcut_fit.h"
#include "regress.h"
#include "shapefile.h"
#include "shapega.h"
#include "shapes.h"
#include "tdl.h"
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
    TdOptions td;
    ShapeGaOptions ga;
    const char *out_dir;    /* shapes: where the islands' shapes go */
    const char *stages;     /* regress: "0:SHAPE,33:SHAPE,...", a shape per game stage */
    EvolveOptions evolve;
    CoevolveOptions coevolve;
    ModelPerspective perspective; /* td, evolve, coevolve, and League text read by league */
    bool perspective_given;
    const char *league_out; /* td: the network in League text as well */
    const char *league_in;  /* league: a network in League text */
    const char *opponent;   /* league: swh, random or a weights file */
    int double_games;       /* league; evolve and coevolve: the final measure */
    int coevolve_measure;   /* coevolve: League games of the best at each progress line */
    int measure_every;      /* -1 until given: each command has its own default */
    bool phase_width_given;
    double epsilon;         /* league */
    int book_plies;         /* book: positions after at most this many moves */
    int book_min_games;     /* book: positions fewer games reached are left out */
    int book_depth;         /* book: search depth of the deviations */
    int threads;            /* book */
    const char *update;     /* book: the book to grow or finish instead of a new one */
    const char *given[64];  /* the options on the command line, each at most once */
    int given_count;
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
static int command_td(const TrainArgs *args);
static int command_league(const TrainArgs *args);
static int command_evolve(const TrainArgs *args);
static int command_coevolve(const TrainArgs *args);
static int command_shapes(const TrainArgs *args);
static int command_book(const TrainArgs *args);
static bool output_ready(const char *command, const char *path, bool directory);

static const TrainCommand commands[] = {
    {"regress", "--out FILE [--logbook PATH] [--wthor DIR] [--labels FILE.obf] [--label-weight N] "
                "[--shape NAME | --stages M:SHAPE,M:SHAPE,...] [--phase-width N] [--epochs N] "
                "[--rate R] [--test F] [--seed S] [--name TEXT]",
     "fit weights to the final disc difference of database games (squared error, SGD); "
     "--stages gives each game stage from move M its own shape and every move its own "
     "weights (the phase-shape paper's agent: 0:A,33:B,37:C,41:D,45:E)",
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
    {"td", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective negation|inversion] "
           "[--games N] [--alpha A] [--epsilon E] [--measure-every N] [--double-games N] "
           "[--seed S] [--name TEXT]",
     "train a 1-ply network by TD(0) self-play (Lucas; default shape lucas-30, output "
     "negation, alpha 0.001, epsilon 0.1), measuring it against SWH as it learns",
     command_td},
    {"evolve", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective P] "
               "[--generations N] [--mu N] [--lambda N] [--sigma S] [--init W] "
               "[--fitness-games N] [--epsilon E] [--threads N] [--measure-every N] "
               "[--double-games N] [--seed S] [--name TEXT]",
     "evolve 1-ply networks against SWH by a (mu + lambda) evolution strategy, fitness = "
     "League score (Jaskowski; default all-2, board inversion, (10 + 90), sigma 1, init 0.1, "
     "1,000 double games, 100 generations where the paper runs 5,000)",
     command_evolve},
    {"coevolve", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective P] "
                 "[--generations N] [--population N] [--td-games N] [--alpha A] "
                 "[--tournament N] [--mutation-rate P] [--sigma S] [--clip W] "
                 "[--archive-games N] [--archive-parent P] [--epsilon E] [--threads N] "
                 "[--measure-every N] [--progress-games N] [--double-games N] [--seed S] "
                 "[--name TEXT]",
     "coevolve a population of 1-ply networks by round robins, with TD self-play phases and "
     "a Hall of Fame (Szubert et al.: TDL + CEL + HoF by default; --td-games 0 for CEL, "
     "--archive-games 0 for no archive; default shape wpc, output negation, population 50)",
     command_coevolve},
    {"shapes", "--out-dir DIR [--logbook PATH] [--wthor DIR] [--generations N] "
               "[--islands N,N,...] [--population N] [--elite N] [--mutants N] [--inherit P] "
               "[--migration-interval N] [--migration-size N] [--epochs N] [--rate R] [--test F] "
               "[--threads N] [--measure-every N] [--seed S]",
     "search network shapes per game stage by an island GA (Kuramitsu et al.: islands at "
     "moves 18, 22, .., 46, BRKGA 100/20/20/0.7, migration 10 every 25 generations, Edax's "
     "tuple sizes in the 24 squares by an edge; fitness = validation loss of a fit from "
     "zero); writes DIR/move-T.shape per island",
     command_shapes},
    {"league", "--weights FILE.ow | --league FILE.txt [--perspective inversion|negation] "
               "[--opponent swh|random|FILE.ow] [--double-games N] [--epsilon E] [--threads N] "
               "[--seed S]",
     "the Othello League measure: 1-ply double games in epsilon-Othello against SWH (or "
     "another opponent), the score with its 95% interval",
     command_league},
    {"book", "--weights FILE.ow --out FILE.book [--logbook PATH] [--wthor DIR] [--plies N] "
             "[--min-games N] [--depth N] [--update FILE.book] [--threads N]",
     "build an opening book: the positions of the games' first --plies moves (default 30) "
     "that at least --min-games games reached (default 2), each with its best move outside "
     "the book by a --depth search (default 10), negamaxed; --update grows a book with more "
     "games or finishes one a Ctrl-C interrupted (its positions so far were saved)",
     command_book},
    {"dump", "FILE.ow", "print a weights file's shapes, phase table and weight statistics",
     command_dump},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void usage(FILE *out)
{
    fprintf(out, "usage: octuple-train COMMAND [options]\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; ++i)
        fprintf(out, "  %s %s\n      %s\n", commands[i].name, commands[i].usage, commands[i].help);
    fprintf(out, "shapes: edax (regress's default), edax-2x5, all-1 .. all-4, lucas-N (N of "
                 "Lucas's random snakes, td's default lucas-30), rand-MxN (M random snakes of N "
                 "squares), wpc (a weighted piece counter: 64 squares, no symmetry, coevolve's "
                 "default), pst (the same squares with own, empty and other values free), or a "
                 "shape file (a name with '/' or '.shape', as shapes writes); random shapes "
                 "follow --seed\n");
}

/* One command's usage and help. */
static void command_usage(FILE *out, const TrainCommand *command)
{
    fprintf(out, "usage: octuple-train %s %s\n  %s\n", command->name, command->usage,
            command->help);
}

/* Whether `option` ("--name") stands in `usage` as a whole word: the usage lines are also
 * the list of what each command takes, so the help and the parser cannot disagree. */
static bool usage_has(const char *usage, const char *option)
{
    size_t length = strlen(option);
    for (const char *p = strstr(usage, option); p; p = strstr(p + 1, option)) {
        bool starts = p == usage || p[-1] == ' ' || p[-1] == '[' || p[-1] == '|';
        char next = p[length];
        if (starts && (next == ' ' || next == ']' || next == '\0'))
            return true;
    }
    return false;
}

/* Whether the command takes a plain argument (its usage starts with one). */
static bool usage_takes_file(const TrainCommand *command)
{
    return strncmp(command->usage, "--", 2) != 0 && command->usage[0] != '[';
}

static bool args_given(const TrainArgs *args, const char *option)
{
    for (int i = 0; i < args->given_count; ++i)
        if (!strcmp(args->given[i], option))
            return true;
    return false;
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
    OctError error;
    if (!probcut_fit_check(&args->fit, &error)) {
        fprintf(stderr, "octuple-train probcut: %s\n", error.message);
        return 2;
    }
    if (!output_ready("probcut", args->out, false))
        return 1;
    Model *model = weights_load(args->weights);
    if (!model)
        return 1;
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
    OctError error;
    if (!mpc_fit_check(&args->mpc, &error)) {
        fprintf(stderr, "octuple-train mpc: %s\n", error.message);
        return 2;
    }
    if (!output_ready("mpc", args->out, false))
        return 1;
    Model *model = weights_load(args->weights);
    if (!model)
        return 1;
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
    if (!output_ready("label", args->out, false))
        return 1;
    Model *model = NULL;
    if (args->weights && !(model = weights_load(args->weights)))
        return 1;
    OctError error;
    Game *games = NULL;
    size_t count = 0;
    bool ok = collect_games(args, &games, &count, &error);
    if (ok && count == 0)
        ok = error_set(&error, "the data holds no finished game");
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

/* "14,16": counts of empties, each 1..36, each once. */
static bool parse_empties(const char *text, LabelOptions *label)
{
    label->empties_count = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long value = strtol(p, &end, 10);
        if (end == p || value < 1 || value > 36 || label->empties_count == LABELS_MAX_EMPTIES)
            return false;
        for (int i = 0; i < label->empties_count; ++i)
            if (label->empties[i] == value) /* each count once: no position twice */
                return false;
        label->empties[label->empties_count++] = (int)value;
        if (*end == ',' && end[1])
            ++end;
        else if (*end)
            return false;
        p = end;
    }
    return label->empties_count > 0;
}

/* "18,22,...": island moves, each 1..59, each once. */
static bool parse_islands(const char *text, ShapeGaOptions *ga)
{
    int count = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long value = strtol(p, &end, 10);
        if (end == p || value < 1 || value > 59 || count == SHAPEGA_MAX_ISLANDS)
            return false;
        for (int i = 0; i < count; ++i)
            if (ga->moves[i] == value)
                return false;
        ga->moves[count++] = (int)value;
        if (*end == ',' && end[1])
            ++end;
        else if (*end)
            return false;
        p = end;
    }
    ga->island_count = count;
    return count > 0;
}

/* A whole number in [low, high] at the start of `text`, `*end` just after it. */
static bool shape_number(const char *text, int low, int high, int *value, const char **end)
{
    char *stop;
    long n = strtol(text, &stop, 10);
    if (stop == text || *text == '-' || *text == '+' || n < low || n > high)
        return false;
    *value = (int)n;
    *end = stop;
    return true;
}

/* A --shape that names a shape file rather than a built-in shape. */
static bool shape_is_file(const char *name)
{
    return strchr(name, '/') || strstr(name, ".shape");
}

static bool make_shape(const char *name, uint64_t seed, Shape *shape, OctError *error)
{
    int count, length;
    const char *end;
    if (!strcmp(name, "edax"))
        return shapes_edax(shape, error);
    if (!strcmp(name, "edax-2x5"))
        return shapes_edax_2x5(shape, error);
    if (!strncmp(name, "all-", 4) && name[4] >= '1' && name[4] <= '4' && !name[5])
        return shapes_all_n(name[4] - '0', shape, error);
    if (shape_is_file(name))
        return shape_read(name, shape, error);
    if (!strcmp(name, "wpc") || !strcmp(name, "pst")) {
        Tuple tuples[SQUARE_COUNT];
        for (int q = 0; q < SQUARE_COUNT; ++q) {
            uint8_t square = (uint8_t)q;
            if (!tuple_explicit(&square, 1, 1, &tuples[q], error))
                return false;
        }
        return shape_build(shape, name, tuples, SQUARE_COUNT, error);
    }
    if (!strncmp(name, "lucas-", 6) && shape_number(name + 6, 1, 32, &count, &end) && !*end)
        return shapes_snakes(count, 0, seed, shape, error);
    if (!strncmp(name, "rand-", 5) && shape_number(name + 5, 1, 32, &count, &end)
        && *end == 'x' && shape_number(end + 1, 1, TUPLE_MAX_SIZE, &length, &end) && !*end)
        return shapes_snakes(count, length, seed, shape, error);
    return error_set(error, "--shape: unknown shape '%s' (edax, edax-2x5, all-1 .. all-4, "
                            "lucas-N or rand-MxN with N, M up to 32, wpc, pst, or a shape file "
                            "named with a '/' or '.shape')", name);
}

/* Whether files can be made at `path` (a directory when `directory`, else a file whose
 * directory must exist and take files), said on standard error when not: before hours of
 * training rather than after them. */
static bool output_ready(const char *command, const char *path, bool directory)
{
    char place[4096];
    const char *slash = strrchr(path, '/');
    if (directory)
        snprintf(place, sizeof place, "%s", path);
    else if (!slash)
        snprintf(place, sizeof place, ".");
    else
        snprintf(place, sizeof place, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(place, W_OK | X_OK) != 0) {
        fprintf(stderr, "octuple-train %s: cannot write into %s: %s\n", command, place,
                strerror(errno));
        return false;
    }
    return true;
}

/* --out and --league-out of a 1-ply learner. */
static bool outputs_ready(const char *command, const TrainArgs *args)
{
    return output_ready(command, args->out, false)
        && (!args->league_out || output_ready(command, args->league_out, false));
}

/* --out and --league-out must not name an input, nor each other: a slip would replace a
 * game database or a network with the result. Only book's --update may be its --out (the
 * book is read whole first). Said on standard error; false when they clash. */
static bool outputs_apart(const char *command, const TrainArgs *args)
{
    const char *inputs[] = {args->logbook, args->labels, args->weights, args->base,
                            args->league_in, args->opponent, args->shape,
                            strcmp(command, "book") ? args->update : NULL};
    const char *outputs[] = {args->out, args->league_out};
    for (size_t o = 0; o < sizeof outputs / sizeof outputs[0]; ++o) {
        if (!outputs[o])
            continue;
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; ++i)
            if (file_same(outputs[o], inputs[i])) {
                fprintf(stderr, "octuple-train %s: the output %s is the input %s; name another "
                        "file\n", command, outputs[o], inputs[i]);
                return false;
            }
    }
    if (args->out && args->league_out
        && (!strcmp(args->out, args->league_out) || file_same(args->out, args->league_out))) {
        fprintf(stderr, "octuple-train %s: --out and --league-out name the same file\n",
                command);
        return false;
    }
    return true;
}

/* A zero network of --shape (or `default_shape`) and the perspective (or `fallback`), with
 * a line saying what it is: 0, or the exit status (2 for an unknown shape). */
static int network_make(const TrainArgs *args, const char *default_shape,
                        ModelPerspective fallback, const char *what, FloatNet *net)
{
    OctError error;
    Shape shape;
    const char *name = args->shape ? args->shape : default_shape;
    if (!make_shape(name, args->td.seed, &shape, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return shape_is_file(name) ? 1 : 2; /* an unreadable file, or an unknown name */
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

static int command_evolve(const TrainArgs *args)
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

static int command_coevolve(const TrainArgs *args)
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

static int command_td(const TrainArgs *args)
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

static int command_shapes(const TrainArgs *args)
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
    if (!output_ready("shapes", args->out_dir, true))
        return 1;
    TrainSet set;
    trainset_init(&set);
    if (!games_add(&set, args, &error)) {
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
    if (!(*model = weights_load(name)))
        return false;
    *player = (GreedyPlayer){GREEDY_MODEL, *model};
    return true;
}

static int command_league(const TrainArgs *args)
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
        model = weights_load(args->weights);
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
    if (!output_ready("regress", args->out, false))
        return 1;
    Shape shapes[MODEL_MAX_SHAPES];
    int shape_count = 0;
    PhaseTable phase;
    Model *model = NULL;
    bool ok = true;
    if (args->stages && (args->shape || args->phase_width_given)) {
        fprintf(stderr, "octuple-train regress: --stages names the shapes and gives every move "
                        "its weights: leave out --shape and --phase-width\n");
        return 2;
    }
    if (args->stages && !*args->stages) {
        fprintf(stderr, "octuple-train regress: --stages is empty (M:SHAPE,M:SHAPE,...)\n");
        return 2;
    }
    bool file_failed = false;
    if (args->stages) {
        /* "M:SHAPE,M:SHAPE,...": stages in increasing first moves, the first at 0 */
        int first_moves[MODEL_MAX_SHAPES] = {0};
        const char *p = args->stages;
        while (ok && *p) {
            char *end;
            long move = strtol(p, &end, 10);
            const char *comma = strchr(end, ',');
            size_t length = comma ? (size_t)(comma - end - 1) : strlen(end) - 1;
            char name[1024];
            if (end == p || *end != ':' || move < 0 || move > 60 || length == 0
                || length >= sizeof name || shape_count == MODEL_MAX_SHAPES
                || (shape_count == 0 && move != 0)
                || (shape_count > 0 && move <= first_moves[shape_count - 1])) {
                ok = error_set(&error, "--stages: bad stage at '%s' (M:SHAPE,... with M from 0 "
                                       "rising, at most %d stages)", p, MODEL_MAX_SHAPES);
                break;
            }
            memcpy(name, end + 1, length);
            name[length] = '\0';
            /* random shapes of different stages differ: each stage its own seed */
            if (!make_shape(name, args->regress.seed + (uint64_t)shape_count,
                            &shapes[shape_count], &error)) {
                ok = false;
                file_failed = shape_is_file(name);
                break;
            }
            first_moves[shape_count++] = (int)move;
            p = comma ? comma + 1 : end + 1 + length;
            if (comma && !*p) {
                ok = error_set(&error, "--stages ends with a comma");
                break;
            }
        }
        if (ok)
            phase_stages(&phase, first_moves, shape_count);
    } else {
        phase_buckets(&phase, args->phase_width);
        const char *name = args->shape ? args->shape : "edax";
        ok = make_shape(name, args->regress.seed, &shapes[0], &error);
        file_failed = !ok && shape_is_file(name);
        shape_count = ok;
    }
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        for (int i = 0; i < shape_count; ++i)
            shape_free(&shapes[i]);
        return file_failed ? 1 : 2; /* an unreadable shape file, or a usage error */
    }
    ok = model_create(shapes, shape_count, &phase, &model, &error);
    for (int i = 0; i < shape_count; ++i)
        shape_free(&shapes[i]);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
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
        model_free(model);
        return 1;
    }
    printf("data: %u games, %zu positions", set.games, set.count);
    if (set.skipped) /* said, so that a short count is not a mystery */
        printf(" (%zu unfinished games or OBF lines without a scored move left out)", set.skipped);
    printf("\n");
    if (set.count == 0) {
        fprintf(stderr, "octuple-train regress: the data holds no position to fit\n");
        trainset_free(&set);
        model_free(model);
        return 1;
    }
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
    if (report.test_positions) {
        printf("final: train loss %.3f, test loss %.3f (discs^2)\n", report.train_loss,
               report.test_loss);
        printf("test loss by move number:");
        for (int m = 0; m < MODEL_MOVES; ++m)
            if (report.test_count_by_move[m])
                printf("%s%d:%.2f", m % 10 ? " " : "\n  ", m, report.test_loss_by_move[m]);
        printf("\n");
    } else {
        printf("final: train loss %.3f (discs^2); no test positions (--test 0, or too few "
               "games to hold some out)\n", report.train_loss);
    }
    printf("wrote %s\n", args->out);
    model_free(model);
    return 0;
}

typedef struct BookProgress {
    double start;
    size_t last_percent;
} BookProgress;

static void book_progress(void *context, size_t done, size_t total)
{
    BookProgress *progress = context;
    size_t percent = total ? done * 100 / total : 100;
    if (percent / 5 == progress->last_percent / 5 && done != total)
        return;
    progress->last_percent = percent;
    double elapsed = search_clock() - progress->start;
    printf("  %zu of %zu positions searched (%zu%%), %.0f s\n", done, total, percent, elapsed);
    fflush(stdout);
}

/* Raised by Ctrl-C during a book build: the positions searched so far are kept. */
static atomic_bool book_interrupted;

static void book_on_interrupt(int signal_number)
{
    (void)signal_number;
    atomic_store(&book_interrupted, true);
}

static int command_book(const TrainArgs *args)
{
    if (!args->out || !args->weights || (!args->logbook && !args->wthor && !args->update)) {
        fprintf(stderr, "octuple-train book: give --weights, --out and --logbook, --wthor "
                        "and/or --update\n");
        return 2;
    }
    if (args->update && (args_given(args, "--plies") || args_given(args, "--depth")
                         || args_given(args, "--min-games"))) {
        fprintf(stderr, "octuple-train book: --update keeps the book's own --plies and --depth "
                        "and all of its positions: leave out --plies, --depth and --min-games\n");
        return 2;
    }
    if (!output_ready("book", args->out, false))
        return 1;
    Model *model = weights_load(args->weights);
    if (!model)
        return 1;
    OctError error;
    Game *games = NULL;
    size_t count = 0;
    double start = search_clock();
    Book *book = NULL;
    bool ok;
    if (args->update) {
        ok = book_load(args->update, &book, &error);
        if (ok)
            printf("%s: %zu positions of the first %d moves, depth %d, %zu to search\n",
                   args->update, book_count(book), book_plies(book), book_depth(book),
                   book_stale_count(book));
    } else {
        book = book_create(args->book_plies, args->book_depth);
        ok = book != NULL;
        if (!ok)
            error_set(&error, "out of memory");
    }
    if (ok && (args->logbook || args->wthor)) {
        ok = collect_games(args, &games, &count, &error);
        if (ok && count == 0 && !args->update)
            ok = error_set(&error, "the data holds no finished game");
        size_t before = book_count(book);
        for (size_t i = 0; ok && i < count; ++i)
            ok = book_add_game(book, &games[i], NULL, &error);
        if (ok) {
            size_t all = book_count(book);
            /* an update keeps what the book had; a new book keeps the well-trodden lines */
            if (!args->update)
                book_prune(book, (uint32_t)args->book_min_games);
            printf("%zu games: %zu positions after at most %d moves (%zu new), %zu kept "
                   "(%.1f s)\n", count, all, book_plies(book), all - before, book_count(book),
                   search_clock() - start);
        }
    }
    if (ok) {
        fflush(stdout);
        atomic_store(&book_interrupted, false);
        struct sigaction action = {0}, previous;
        action.sa_handler = book_on_interrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previous);
        BookProgress progress = {search_clock(), 0};
        ok = book_evaluate(book, model, args->threads, &book_interrupted, book_progress,
                           &progress, &error);
        sigaction(SIGINT, &previous, NULL);
        if (!ok && atomic_load(&book_interrupted)) {
            /* what was searched is kept beside --out, never over it: an unfinished book
             * there would replace a good one, and the engine would play its unsearched
             * positions. --update finishes it */
            OctError save_error;
            char partial[4096];
            snprintf(partial, sizeof partial, "%s.partial", args->out);
            if (strlen(args->out) + 9 > sizeof partial)
                fprintf(stderr, "octuple-train: %s; the path is too long to keep the book so "
                        "far\n", error.message);
            else if (book_save(book, partial, &save_error))
                fprintf(stderr, "octuple-train: %s; the book so far is in %s, and %s is "
                        "unchanged (octuple-train book --weights %s --update %s --out %s "
                        "finishes it)\n", error.message, partial, args->out, args->weights,
                        partial, args->out);
            else
                fprintf(stderr, "octuple-train: %s; %s\n", error.message, save_error.message);
            free(games);
            book_free(book);
            model_free(model);
            return 130;
        }
    }
    if (ok)
        ok = book_save(book, args->out, &error);
    if (ok) {
        Board board;
        board_init(&board);
        BookMove moves[BOOK_MAX_MOVES];
        int n = book_moves(book, &board, moves);
        printf("the start: %+d discs (black to move)\nwrote %s: %zu positions, depth %d, %.0f s\n",
               n ? moves[0].value : 0, args->out, book_count(book), book_depth(book),
               search_clock() - start);
    }
    free(games);
    book_free(book);
    model_free(model);
    if (!ok) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return 1;
    }
    return 0;
}

/* Sets the option's field(s) from `value`: false when the value is bad. Whole-number options
 * take decimal integers only (no fractions, exponents or hex). */
static bool option_set(TrainArgs *args, const char *option, const char *value)
{
    double number = 0;
    long integer = 0;
    uint64_t seed = 0;
    bool numeric = parse_double(value, -1e18, 1e18, &number);
    bool whole = parse_long(value, -1000000000000L, 1000000000000L, &integer);
    if (whole)
        number = (double)integer;
    if (!strcmp(option, "--logbook")) args->logbook = value;
    else if (!strcmp(option, "--wthor")) args->wthor = value;
    else if (!strcmp(option, "--shape")) args->shape = value;
    else if (!strcmp(option, "--out")) args->out = value;
    else if (!strcmp(option, "--name") && strlen(value) < MODEL_NAME_SIZE)
        args->name = value; /* the file holds no more: never cut */
    else if (!strcmp(option, "--phase-width") && whole && number >= 1 && number <= 61) {
        args->phase_width = (int)number;
        args->phase_width_given = true;
    }
    else if (!strcmp(option, "--epochs") && whole && number >= 1 && number <= 1000)
        args->regress.epochs = args->ga.epochs = (int)number;
    else if (!strcmp(option, "--rate") && numeric && number > 0 && number < 1)
        args->regress.rate = args->ga.rate = number;
    else if (!strcmp(option, "--test") && numeric && number >= 0 && number <= 0.9)
        args->regress.test_fraction = args->ga.test_fraction = number;
    else if (!strcmp(option, "--seed") && parse_u64(value, &seed))
        args->regress.seed = args->fit.seed = args->label.seed = args->mpc.seed = args->td.seed
            = args->evolve.seed = args->coevolve.seed = args->ga.seed = seed;
    else if (!strcmp(option, "--labels")) args->labels = value;
    else if (!strcmp(option, "--label-weight") && numeric && number >= 1 && number <= 255 && whole)
        args->label_weight = (int)number;
    else if (!strcmp(option, "--empties") && parse_empties(value, &args->label)) {}
    else if (!strcmp(option, "--games") && numeric && number >= 1 && number <= 1e9 && whole) {
        args->label.limit = (size_t)number;
        args->td.games = (int)number;
    }
    else if (!strcmp(option, "--alpha") && numeric && number > 0 && number <= 1)
        args->td.alpha = args->coevolve.alpha = number;
    else if (!strcmp(option, "--epsilon") && numeric && number >= 0 && number <= 1)
        args->td.epsilon = args->epsilon = args->evolve.epsilon = args->coevolve.epsilon = number;
    else if (!strcmp(option, "--generations") && numeric && number >= 0 && number <= 1e7 && whole)
        args->evolve.generations = args->coevolve.generations = args->ga.generations
            = (int)number;
    else if (!strcmp(option, "--mu") && numeric && number >= 1 && number <= 10000 && whole)
        args->evolve.mu = (int)number;
    else if (!strcmp(option, "--lambda") && numeric && number >= 1 && number <= 10000 && whole)
        args->evolve.lambda = (int)number;
    else if (!strcmp(option, "--sigma") && numeric && number >= 0 && number <= 100)
        args->evolve.sigma = args->coevolve.sigma = number;
    else if (!strcmp(option, "--init") && numeric && number >= 0 && number <= 100)
        args->evolve.init = number;
    else if (!strcmp(option, "--fitness-games") && numeric && number >= 1 && number <= 1e7 && whole)
        args->evolve.fitness_games = (int)number;
    else if (!strcmp(option, "--threads") && numeric && number >= 1 && number <= 64 && whole)
        args->evolve.threads = args->coevolve.threads = args->ga.threads = args->threads
            = (int)number;
    else if (!strcmp(option, "--population") && numeric && number >= 2 && number <= 10000 && whole)
        args->coevolve.population = args->ga.population = (int)number;
    else if (!strcmp(option, "--td-games") && numeric && number >= 0 && number <= 1e6 && whole)
        args->coevolve.td_games = (int)number;
    else if (!strcmp(option, "--tournament") && numeric && number >= 1 && number <= 10000 && whole)
        args->coevolve.tournament = (int)number;
    else if (!strcmp(option, "--mutation-rate") && numeric && number >= 0 && number <= 1)
        args->coevolve.mutation_rate = number;
    else if (!strcmp(option, "--clip") && numeric && number > 0 && number <= 1000)
        args->coevolve.clip = number;
    else if (!strcmp(option, "--archive-games") && numeric && number >= 0 && number <= 1e6 && whole)
        args->coevolve.archive_games = (int)number;
    else if (!strcmp(option, "--archive-parent") && numeric && number >= 0 && number <= 1)
        args->coevolve.archive_parent = number;
    else if (!strcmp(option, "--progress-games") && numeric && number >= 0 && number <= 1e7 && whole)
        args->coevolve_measure = (int)number;
    else if (!strcmp(option, "--measure-every") && numeric && number >= 0 && number <= 1e9 && whole)
        args->measure_every = (int)number;
    else if (!strcmp(option, "--double-games") && numeric && number >= 0 && number <= 1e8 && whole)
        args->td.measure_games = args->double_games = (int)number;
    else if (!strcmp(option, "--perspective")
             && (!strcmp(value, "negation") || !strcmp(value, "inversion"))) {
        args->perspective = !strcmp(value, "negation") ? PERSPECTIVE_NEGATION
                                                       : PERSPECTIVE_INVERSION;
        args->perspective_given = true;
    }
    else if (!strcmp(option, "--islands") && parse_islands(value, &args->ga)) {}
    else if (!strcmp(option, "--elite") && numeric && number >= 1 && number <= 100000 && whole)
        args->ga.elite = (int)number;
    else if (!strcmp(option, "--mutants") && numeric && number >= 0 && number <= 100000 && whole)
        args->ga.mutants = (int)number;
    else if (!strcmp(option, "--inherit") && numeric && number >= 0 && number <= 1)
        args->ga.inherit = number;
    else if (!strcmp(option, "--migration-interval") && numeric && number >= 0
             && number <= 1e6 && whole)
        args->ga.migration_interval = (int)number;
    else if (!strcmp(option, "--migration-size") && numeric && number >= 0 && number <= 1e5 && whole)
        args->ga.migration_size = (int)number;
    else if (!strcmp(option, "--out-dir")) args->out_dir = value;
    else if (!strcmp(option, "--stages")) args->stages = value;
    else if (!strcmp(option, "--league-out")) args->league_out = value;
    else if (!strcmp(option, "--league")) args->league_in = value;
    else if (!strcmp(option, "--opponent")) args->opponent = value;
    else if (!strcmp(option, "--weights")) args->weights = value;
    else if (!strcmp(option, "--min-empties") && whole && number >= 0 && number <= 60)
        args->fit.min_empties = args->mpc.min_empties = (int)number;
    else if (!strcmp(option, "--max-empties") && whole && number >= 0 && number <= 60)
        args->fit.max_empties = args->mpc.max_empties = (int)number;
    else if (!strcmp(option, "--per-empties") && whole && number >= 1 && number <= 100000)
        args->fit.per_empties = args->mpc.per_empties = (int)number;
    else if (!strcmp(option, "--max-depth") && numeric && number >= PROBCUT_MID_MIN_DEPTH
             && number <= PROBCUT_MID_MAX_DEPTH && whole)
        args->mpc.max_depth = (int)number;
    else if (!strcmp(option, "--base")) args->base = value;
    else if (!strcmp(option, "--update")) args->update = value;
    else if (!strcmp(option, "--plies") && numeric && number >= 0 && number <= BOOK_MAX_PLIES && whole)
        args->book_plies = (int)number;
    else if (!strcmp(option, "--min-games") && numeric && number >= 1 && number <= 1e9 && whole)
        args->book_min_games = (int)number;
    else if (!strcmp(option, "--depth") && numeric && number >= 1 && number <= BOOK_MAX_DEPTH && whole)
        args->book_depth = (int)number;
    else if (!strcmp(option, "--endgame-sigma") && numeric && number >= 1 && number <= 64)
        args->endgame_sigma = number;
    else
        return false;
    return true;
}

int main(int argc, char **argv)
{
    if (argc == 3 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")))
        for (int i = 0; i < COMMAND_COUNT; ++i)
            if (!strcmp(argv[2], commands[i].name)) {
                command_usage(stdout, &commands[i]);
                return 0;
            }
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
    TrainArgs args = {.phase_width = 1, .label_weight = 1, .measure_every = -1,
                      .regress = {8, 0.002, 0.2, 1},
                      .fit = {PROBCUT_MIN_EMPTIES, 20, 40, 1},
                      .mpc = {14, 57, 24, 10, 1},
                      .label = {{16}, 1, 0, 1, 64},
                      .td = {1000, 0.001, GREEDY_EPSILON, 1, 250, 1000},
                      .evolve = {10, 90, 100, 1.0, 0.1, 1000, GREEDY_EPSILON, 1, 1},
                      .coevolve = {50, 100, 1, 0.01, GREEDY_EPSILON, 5, 0.03, 0.25, 1.0, 50,
                                   0.2, 1, 1},
                      .perspective = PERSPECTIVE_NEGATION,
                      .double_games = GREEDY_DEFAULT_DOUBLE_GAMES,
                      .epsilon = GREEDY_EPSILON,
                      .book_plies = 30, .book_min_games = 2, .book_depth = 10};
    shapega_defaults(&args.ga);
    args.ga.generations = 10;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    args.evolve.threads = args.coevolve.threads = args.ga.threads = args.threads
        = cores > 1 ? (int)(cores < 64 ? cores : 64) : 1;
    for (int i = 2; i < argc; ++i) {
        const char *option = argv[i];
        if (!strcmp(option, "--help")) {
            command_usage(stdout, command);
            return 0;
        }
        if (strncmp(option, "--", 2) != 0) {
            if (!usage_takes_file(command) || args.file) {
                fprintf(stderr, "octuple-train %s: unexpected argument '%s'\n", command->name,
                        option);
                return 2;
            }
            args.file = option;
            continue;
        }
        if (!usage_has(command->usage, option)) {
            fprintf(stderr, "octuple-train %s: %s is not an option of this command (see "
                    "octuple-train %s --help)\n", command->name, option, command->name);
            return 2;
        }
        if (args_given(&args, option)) {
            fprintf(stderr, "octuple-train %s: %s is given twice\n", command->name, option);
            return 2;
        }
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value || !strncmp(value, "--", 2)) { /* `--out --help` wrote a file '--help' */
            fprintf(stderr, "octuple-train %s: %s needs a value\n", command->name, option);
            return 2;
        }
        ++i;
        if (!strcmp(option, "--name") && strlen(value) >= MODEL_NAME_SIZE) {
            fprintf(stderr, "octuple-train: --name: '%s' has %zu characters; a network's name "
                    "holds at most %d\n", value, strlen(value), MODEL_NAME_SIZE - 1);
            return 2;
        }
        if (!option_set(&args, option, value)) {
            fprintf(stderr, "octuple-train %s: bad value for %s: '%s'\n", command->name, option,
                    value);
            command_usage(stderr, command);
            return 2;
        }
        args.given[args.given_count++] = option;
    }
    if (!outputs_apart(command->name, &args))
        return 2;
    /* League text is read with board inversion unless said (Figure 7 uses it) */
    if (command->run == command_league && !args.perspective_given)
        args.perspective = PERSPECTIVE_INVERSION;
    return command->run(&args);
}

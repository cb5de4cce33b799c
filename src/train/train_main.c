/* octuple-train: builds evaluation weights from data. One table of commands, each with the
 * table of the options it takes, drives parsing and help; the commands live in train_fit.c,
 * train_learn.c, train_book.c and train_selfplay.c. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "train/greedy.h"
#include "train/train.h"

/* One option a command takes: its row of train_options, with the command's own help when
 * the option means more there than the common help says. */
typedef struct TrainUse {
    int option;           /* TRAIN_OPT_* */
    bool required;        /* shown on the usage line; the parser refuses a run without it */
    const char *argument; /* NULL: the option's own (FILE, N, ...) */
    const char *help;     /* NULL: the option's own */
} TrainUse;

typedef struct TrainCommand {
    const char *name;
    const char *file; /* the one plain argument's name (dump), else NULL */
    const char *help;
    int (*run)(const TrainArgs *args);
    const TrainUse *uses;
    int use_count;
} TrainCommand;

#define USES(array) array, (int)(sizeof array / sizeof array[0])
#define REQUIRED(option, argument, help) {option, true, argument, help}
#define OPTION(option, help) {option, false, NULL, help}

static const TrainUse regress_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE", "the weights file to write"),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, "a WTHOR database directory: each game's positions down to its "
                            "file's solving depth, labelled with the theoretical score"),
    OPTION(TRAIN_OPT_LABELS, "positions with exact scores (from label), each counted as a game "
                             "of its own for the split"),
    OPTION(TRAIN_OPT_LABEL_WEIGHT, NULL),
    OPTION(TRAIN_OPT_POSITIONS, "positions files (from selfplay or merge), each position "
                                "labelled with its game's result, else its search score"),
    OPTION(TRAIN_OPT_POSITION_TARGET, NULL),
    OPTION(TRAIN_OPT_OPTIMIZER, NULL),
    OPTION(TRAIN_OPT_L2, NULL),
    OPTION(TRAIN_OPT_VALIDATION, NULL),
    OPTION(TRAIN_OPT_PATIENCE, "adam: epochs without a better validation loss before the step "
                               "halves (default 10); the fit ends at the fifth plateau"),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_SHAPE, "the network's tuples (default edax; see the shapes below)"),
    OPTION(TRAIN_OPT_STAGES, "a shape per game stage from move M, and a weight set per move "
                             "(the phase-shape agent: 0:A,33:B,37:C,41:D,45:E)"),
    OPTION(TRAIN_OPT_PHASE_WIDTH, NULL),
    OPTION(TRAIN_OPT_EPOCHS, NULL),
    OPTION(TRAIN_OPT_RATE, "learning rate (default 0.002; adam: 0.05)"),
    OPTION(TRAIN_OPT_TEST, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the shuffling, the split and random shapes (default 1)"),
    OPTION(TRAIN_OPT_NAME, NULL),
};

static const TrainUse probcut_uses[] = {
    REQUIRED(TRAIN_OPT_WEIGHTS, NULL, "the network whose shallow searches are measured"),
    REQUIRED(TRAIN_OPT_OUT, "FILE.mpc", "the error-model file to write"),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, NULL),
    OPTION(TRAIN_OPT_LABELS, "positions to measure the shallow searches on, beside or instead "
                             "of the games"),
    OPTION(TRAIN_OPT_MIN_EMPTIES, "the fewest empties measured (default 10)"),
    OPTION(TRAIN_OPT_MAX_EMPTIES, "the most empties measured (default 20)"),
    OPTION(TRAIN_OPT_PER_EMPTIES, "positions measured at each count of empties (default 40)"),
    OPTION(TRAIN_OPT_SEED, "seed of the sample of positions (default 1)"),
};

static const TrainUse mpc_uses[] = {
    REQUIRED(TRAIN_OPT_WEIGHTS, NULL, "the network whose searches are measured"),
    REQUIRED(TRAIN_OPT_OUT, "FILE.mpc", "the error-model file to write"),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, NULL),
    OPTION(TRAIN_OPT_BASE, NULL),
    OPTION(TRAIN_OPT_ENDGAME_SIGMA, "write a constant endgame error model of DISCS (1 .. 64) "
                                    "instead, which turns on the selective pass before solves"),
    OPTION(TRAIN_OPT_MIN_EMPTIES, "the fewest empties measured (default 14)"),
    OPTION(TRAIN_OPT_MAX_EMPTIES, "the most empties measured (default 57)"),
    OPTION(TRAIN_OPT_PER_EMPTIES, "positions measured at each count of empties (default 24)"),
    OPTION(TRAIN_OPT_MAX_DEPTH, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the sample of positions (default 1)"),
};

static const TrainUse label_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE.obf", "the OBF file of solved positions to write"),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, NULL),
    OPTION(TRAIN_OPT_EMPTIES, "the counts of empties to take from each game (1 .. 60, at most "
                              "16; default 16)"),
    OPTION(TRAIN_OPT_GAMES, "at most this many games, a seeded sample (default: all)"),
    OPTION(TRAIN_OPT_WEIGHTS, "the network that orders the solver's moves (or searches)"),
    OPTION(TRAIN_OPT_DEPTH, "label by a search of this depth of --weights instead of exact "
                            "solves (which reach 36 empties at most)"),
    OPTION(TRAIN_OPT_SEED, "seed of the sample of games (default 1)"),
};

static const TrainUse td_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE.ow", "the weights file to write"),
    OPTION(TRAIN_OPT_LEAGUE_OUT, NULL),
    OPTION(TRAIN_OPT_SHAPE, "the network's tuples (default lucas-30; see the shapes below)"),
    OPTION(TRAIN_OPT_PERSPECTIVE, NULL),
    OPTION(TRAIN_OPT_GAMES, "self-play games (default 1000)"),
    OPTION(TRAIN_OPT_ALPHA, NULL),
    OPTION(TRAIN_OPT_EPSILON, NULL),
    OPTION(TRAIN_OPT_MEASURE_EVERY, "games between two League measures (default 250; 0: at "
                                    "the end only)"),
    OPTION(TRAIN_OPT_DOUBLE_GAMES, "double games per League measure (default 1000; 0: none)"),
    OPTION(TRAIN_OPT_SEED, "seed of the games (default 1)"),
    OPTION(TRAIN_OPT_NAME, NULL),
};

static const TrainUse evolve_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE.ow", "the weights file to write"),
    OPTION(TRAIN_OPT_LEAGUE_OUT, NULL),
    OPTION(TRAIN_OPT_SHAPE, "the network's tuples (default all-2; see the shapes below)"),
    OPTION(TRAIN_OPT_PERSPECTIVE, "negation (output negation) or inversion (board inversion, "
                                  "the default)"),
    OPTION(TRAIN_OPT_GENERATIONS, NULL),
    OPTION(TRAIN_OPT_MU, NULL),
    OPTION(TRAIN_OPT_LAMBDA, NULL),
    OPTION(TRAIN_OPT_SIGMA, NULL),
    OPTION(TRAIN_OPT_INIT, NULL),
    OPTION(TRAIN_OPT_FITNESS_GAMES, NULL),
    OPTION(TRAIN_OPT_EPSILON, NULL),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_MEASURE_EVERY, "generations between two progress lines (default 1)"),
    OPTION(TRAIN_OPT_DOUBLE_GAMES, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the games and mutations (default 1)"),
    OPTION(TRAIN_OPT_NAME, NULL),
};

static const TrainUse coevolve_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE.ow", "the weights file to write"),
    OPTION(TRAIN_OPT_LEAGUE_OUT, NULL),
    OPTION(TRAIN_OPT_SHAPE, "the network's tuples (default wpc; see the shapes below)"),
    OPTION(TRAIN_OPT_PERSPECTIVE, NULL),
    OPTION(TRAIN_OPT_GENERATIONS, NULL),
    OPTION(TRAIN_OPT_POPULATION, NULL),
    OPTION(TRAIN_OPT_TD_GAMES, "TD self-play games of each individual per generation (default "
                               "1; 0: coevolution alone)"),
    OPTION(TRAIN_OPT_ALPHA, "the TD learning rate (default 0.01)"),
    OPTION(TRAIN_OPT_TOURNAMENT, NULL),
    OPTION(TRAIN_OPT_MUTATION_RATE, NULL),
    OPTION(TRAIN_OPT_SIGMA, "the mutation's standard deviation (default 0.25)"),
    OPTION(TRAIN_OPT_CLIP, NULL),
    OPTION(TRAIN_OPT_ARCHIVE_GAMES, NULL),
    OPTION(TRAIN_OPT_ARCHIVE_PARENT, NULL),
    OPTION(TRAIN_OPT_EPSILON, NULL),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_MEASURE_EVERY, "generations between two progress lines (default 10)"),
    OPTION(TRAIN_OPT_PROGRESS_GAMES, NULL),
    OPTION(TRAIN_OPT_DOUBLE_GAMES, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the games and mutations (default 1)"),
    OPTION(TRAIN_OPT_NAME, NULL),
};

static const TrainUse shapes_uses[] = {
    REQUIRED(TRAIN_OPT_OUT_DIR, NULL, NULL),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, NULL),
    OPTION(TRAIN_OPT_GENERATIONS, "generations (default 10)"),
    OPTION(TRAIN_OPT_ISLANDS, NULL),
    OPTION(TRAIN_OPT_POPULATION, "individuals per island (default 100)"),
    OPTION(TRAIN_OPT_ELITE, NULL),
    OPTION(TRAIN_OPT_MUTANTS, NULL),
    OPTION(TRAIN_OPT_INHERIT, NULL),
    OPTION(TRAIN_OPT_MIGRATION_INTERVAL, NULL),
    OPTION(TRAIN_OPT_MIGRATION_SIZE, NULL),
    OPTION(TRAIN_OPT_EPOCHS, "passes of each fitness's fit (default 2)"),
    OPTION(TRAIN_OPT_RATE, "learning rate of each fitness's fit (default 0.002)"),
    OPTION(TRAIN_OPT_TEST, "share of the games held out for the validation loss (default 0.2)"),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_MEASURE_EVERY, "generations between two rounds of test scores (default 0: "
                                    "at the end)"),
    OPTION(TRAIN_OPT_SEED, "seed of the GA (default 1)"),
};

static const TrainUse league_uses[] = {
    OPTION(TRAIN_OPT_WEIGHTS, "the network to measure (or --league)"),
    OPTION(TRAIN_OPT_LEAGUE, NULL),
    OPTION(TRAIN_OPT_PERSPECTIVE, "how to read --league: inversion (the default) or negation"),
    OPTION(TRAIN_OPT_OPPONENT, NULL),
    OPTION(TRAIN_OPT_DOUBLE_GAMES, "double games (default 5000)"),
    OPTION(TRAIN_OPT_EPSILON, NULL),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the games (default 1)"),
};

static const TrainUse book_uses[] = {
    REQUIRED(TRAIN_OPT_WEIGHTS, NULL, "the network that searches the moves out of the book"),
    REQUIRED(TRAIN_OPT_OUT, "FILE.book", "the book to write"),
    OPTION(TRAIN_OPT_LOGBOOK, NULL),
    OPTION(TRAIN_OPT_WTHOR, NULL),
    OPTION(TRAIN_OPT_PLIES, NULL),
    OPTION(TRAIN_OPT_MIN_GAMES, NULL),
    OPTION(TRAIN_OPT_DEPTH, "the search depth of each position's move out of the book (1 .. "
                            "60, default 10)"),
    OPTION(TRAIN_OPT_UPDATE, NULL),
    OPTION(TRAIN_OPT_THREADS, NULL),
};

static const TrainUse selfplay_uses[] = {
    REQUIRED(TRAIN_OPT_WEIGHTS, NULL, "the network that plays"),
    REQUIRED(TRAIN_OPT_OUT, "FILE.opos", "the positions file (an existing one is resumed)"),
    OPTION(TRAIN_OPT_GAMES, "games (default 1000)"),
    OPTION(TRAIN_OPT_FIRST_GAME, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the games: game k depends only on it and k (default 1)"),
    OPTION(TRAIN_OPT_RANDOM_MOVES, NULL),
    OPTION(TRAIN_OPT_DEPTH, "the depth of play (default 7)"),
    OPTION(TRAIN_OPT_EXACT, NULL),
    OPTION(TRAIN_OPT_RANDOM_RATE, NULL),
    OPTION(TRAIN_OPT_LABEL_DEPTH, NULL),
    OPTION(TRAIN_OPT_THREADS, NULL),
    OPTION(TRAIN_OPT_HASH, NULL),
};

static const TrainUse merge_uses[] = {
    REQUIRED(TRAIN_OPT_POSITIONS, "FILE,FILE,...", "the positions files to merge"),
    REQUIRED(TRAIN_OPT_OUT, "FILE.opos", "the merged positions file"),
};

static const TrainUse error_uses[] = {
    REQUIRED(TRAIN_OPT_WEIGHTS, NULL, "the network to measure"),
    OPTION(TRAIN_OPT_POSITIONS, "positions files whose exactly labelled positions are measured"),
    OPTION(TRAIN_OPT_LABELS, "an OBF file of exactly labelled positions"),
    OPTION(TRAIN_OPT_PER_EMPTIES, "positions at most at each count of empties (default 500)"),
    OPTION(TRAIN_OPT_DEPTH, "the deepest search measured (default 4)"),
    OPTION(TRAIN_OPT_LABELLED, NULL),
    OPTION(TRAIN_OPT_SEED, "seed of the sample (default 1)"),
    OPTION(TRAIN_OPT_THREADS, NULL),
};

static const TrainUse mpc_upgrade_uses[] = {
    REQUIRED(TRAIN_OPT_OUT, "FILE.mpc", "the version-2 file to write"),
};

static const TrainCommand commands[] = {
    {"regress", NULL,
     "fit weights to the final disc difference of database games (squared error; by SGD, "
     "or by full-batch Adam with an L2 penalty, stopped early on --validation games)",
     train_regress, USES(regress_uses)},
    {"selfplay", NULL,
     "play training games: random opening moves, then the engine plays both sides and "
     "solves exactly from --exact empties, with a --random-rate chance of a random move "
     "later; every position after the opening is kept with the game's result and, with "
     "--label-depth, a search's score",
     train_selfplay, USES(selfplay_uses)},
    {"merge", NULL,
     "merge positions files (shards of selfplay) into one, in game order, each position "
     "(up to symmetry) kept once, from the first game that reached it",
     train_merge, USES(merge_uses)},
    {"error", NULL,
     "measure a network against exact scores: the mean absolute error of its static "
     "evaluation and of 1..D ply searches by empties",
     train_error, USES(error_uses)},
    {"label", NULL,
     "solve positions of database games exactly (one per game at each count of empties), "
     "or label them by a search of a network (--depth): labels for regress --labels",
     train_label, USES(label_uses)},
    {"probcut", NULL,
     "fit the probability-cut error model of the exact solver: solve game positions, "
     "compare shallow searches",
     train_probcut, USES(probcut_uses)},
    {"mpc", NULL,
     "fit the midgame Multi-ProbCut parameters: search game positions by iterative "
     "deepening, regress each depth's score on a shallower one's",
     train_mpc, USES(mpc_uses)},
    {"td", NULL,
     "train a 1-ply network by TD(0) self-play (Lucas), measuring it against SWH as it "
     "learns",
     train_td, USES(td_uses)},
    {"evolve", NULL,
     "evolve 1-ply networks against SWH by a (mu + lambda) evolution strategy, fitness = "
     "League score (Jaskowski)",
     train_evolve, USES(evolve_uses)},
    {"coevolve", NULL,
     "coevolve a population of 1-ply networks by round robins, with TD self-play phases and "
     "a Hall of Fame (Szubert et al.: TDL + CEL + HoF by default)",
     train_coevolve, USES(coevolve_uses)},
    {"shapes", NULL,
     "search network shapes per game stage by an island GA (Kuramitsu et al.); fitness = "
     "validation loss of a fit from zero; writes DIR/move-T.shape per island",
     train_shapes, USES(shapes_uses)},
    {"league", NULL,
     "the Othello League measure of --weights or --league: 1-ply double games in "
     "epsilon-Othello against SWH (or --opponent), the score with its 95% interval",
     train_league, USES(league_uses)},
    {"book", NULL,
     "build an opening book: the positions of the games' first --plies moves that at least "
     "--min-games games reached, each with its best move outside the book by a --depth "
     "search, negamaxed; --update grows a book or finishes one a Ctrl-C interrupted",
     train_book, USES(book_uses)},
    {"mpc-upgrade", "FILE.mpc",
     "convert a ProbCut file of format version 1 (no end line) into version 2, the numbers "
     "unchanged: the engine reads only files that carry the end line and checksum",
     train_mpc_upgrade, USES(mpc_upgrade_uses)},
    {"dump", "FILE.ow", "print a weights file's shapes, phase table and weight statistics",
     train_dump, NULL, 0},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0], TABLE_SIZE = 40 };

static const char shapes_help[] =
    "shapes: edax (regress's default), edax-2x5, all-1 .. all-4, lucas-N (N of Lucas's random "
    "snakes, td's default lucas-30), rand-MxN (M random snakes of N squares), wpc (a weighted "
    "piece counter: 64 squares, no symmetry, coevolve's default), pst (the same squares with "
    "own, empty and other values free), or a shape file (a name with '/' or '.shape', as "
    "shapes writes); random shapes follow --seed";

/* The command's own table for the parser and the help: its options, then --help. */
static int command_table(const TrainCommand *command, OptSpec *table)
{
    int count = 0;
    for (int i = 0; i < command->use_count && count < TABLE_SIZE - 1; ++i) {
        const TrainUse *use = &command->uses[i];
        OptSpec spec = train_options[use->option];
        if (use->argument)
            spec.argument = use->argument;
        if (use->help)
            spec.help = use->help;
        table[count++] = spec;
    }
    table[count++] = (OptSpec){"help", NULL, "print this help", TRAIN_OPT_COUNT};
    return count;
}

/* "regress --out FILE": the command, its required options and its plain argument. */
static void command_synopsis(FILE *out, const TrainCommand *command)
{
    fprintf(out, "%s", command->name);
    for (int i = 0; i < command->use_count; ++i)
        if (command->uses[i].required) {
            const TrainUse *use = &command->uses[i];
            fprintf(out, " --%s %s", train_options[use->option].name,
                    use->argument ? use->argument : train_options[use->option].argument);
        }
    if (command->file)
        fprintf(out, " %s", command->file);
    if (command->use_count)
        fprintf(out, " [options]");
}

static void usage(FILE *out)
{
    fprintf(out, "usage: octuple-train COMMAND [options]\n"
                 "'octuple-train COMMAND --help' lists a command's options.\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; ++i) {
        fprintf(out, "  ");
        command_synopsis(out, &commands[i]);
        fprintf(out, "\n%*s", 6, "");
        optable_wrap(out, commands[i].help, 6, 6);
    }
    optable_wrap(out, shapes_help, 0, 0);
}

/* One command's usage, help and options. */
static void command_usage(FILE *out, const TrainCommand *command)
{
    fprintf(out, "usage: octuple-train ");
    command_synopsis(out, command);
    fprintf(out, "\n  ");
    optable_wrap(out, command->help, 2, 2);
    OptSpec table[TABLE_SIZE];
    int count = command_table(command, table);
    if (count > 1)
        fprintf(out, "options:\n");
    optable_print_all(out, table, count - 1);
    for (int i = 0; i < command->use_count; ++i)
        if (command->uses[i].option == TRAIN_OPT_SHAPE)
            optable_wrap(out, shapes_help, 0, 0);
}

/* Reads the command's options into `args`: 0 to go on, -1 after printing the help, else
 * the exit status of a usage error (said on standard error, naming the option). */
static int command_parse(const TrainCommand *command, int argc, char **argv, TrainArgs *args)
{
    OptSpec table[TABLE_SIZE];
    int count = command_table(command, table);
    OptScan scan;
    optable_begin(&scan, argc, argv, 2, true);
    const OptSpec *spec;
    const char *value;
    OptResult read;
    OctError error;
    while ((read = optable_next(&scan, table, count, &spec, &value, &error)) != OPT_END) {
        if (read == OPT_ERROR) {
            /* an option of another command is named so */
            const char *arg = argv[scan.next - 1];
            const char *equals = strchr(arg, '=');
            size_t length = equals ? (size_t)(equals - arg - 2) : strlen(arg + 2);
            if (!strncmp(arg, "--", 2) && !optable_find(table, count, arg + 2, length)) {
                fprintf(stderr, "octuple-train %s: --%.*s is not an option of this command "
                        "(see octuple-train %s --help)\n", command->name, (int)length, arg + 2,
                        command->name);
                return 2;
            }
            fprintf(stderr, "octuple-train %s: %s\n", command->name, error.message);
            return 2;
        }
        if (read == OPT_ARGUMENT) {
            if (!command->file || args->file) {
                fprintf(stderr, "octuple-train %s: unexpected argument '%s'\n", command->name,
                        value);
                return 2;
            }
            args->file = value;
            continue;
        }
        if (spec->id == TRAIN_OPT_COUNT) {
            command_usage(stdout, command);
            return -1;
        }
        if (args->given[spec->id]) {
            fprintf(stderr, "octuple-train %s: --%s is given twice\n", command->name,
                    spec->name);
            return 2;
        }
        if (spec->id == TRAIN_OPT_NAME && strlen(value) >= MODEL_NAME_SIZE) {
            fprintf(stderr, "octuple-train: --name: '%s' has %zu characters; a network's name "
                    "holds at most %d\n", value, strlen(value), MODEL_NAME_SIZE - 1);
            return 2;
        }
        if (!train_option_set(args, spec->id, value)) {
            fprintf(stderr, "octuple-train %s: bad value for --%s: '%s' (%s: %s)\n",
                    command->name, spec->name, value, spec->argument, spec->help);
            return 2;
        }
        args->given[spec->id] = true;
    }
    for (int i = 0; i < command->use_count; ++i) {
        const TrainUse *use = &command->uses[i];
        if (use->required && !args->given[use->option]) {
            fprintf(stderr, "octuple-train %s: --%s %s is required (see octuple-train %s "
                    "--help)\n", command->name, train_options[use->option].name,
                    use->argument ? use->argument : train_options[use->option].argument,
                    command->name);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* a file-size limit (ulimit -f) fails a write with EFBIG, which the commands report,
     * instead of killing the trainer with a half-written temporary file */
    signal(SIGXFSZ, SIG_IGN);
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
                      .regress = {.epochs = 8, .rate = 0.002, .test_fraction = 0.2, .seed = 1,
                                  .method = REGRESS_SGD, .l2 = 1, .validation_fraction = 0.05,
                                  .patience = 10},
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
    args.selfplay = selfplay_defaults();
    args.error = (EvalErrorOptions){.per_empties = 500, .max_depth = 4, .seed = 1};
    shapega_defaults(&args.ga);
    args.ga.generations = 10;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    args.evolve.threads = args.coevolve.threads = args.ga.threads = args.threads
        = args.selfplay.threads = args.error.threads = args.regress.threads = cores > 1 ? (int)(cores < 64 ? cores : 64) : 1;
    int status = command_parse(command, argc, argv, &args);
    if (status)
        return status < 0 ? 0 : status;
    if (!train_outputs_apart(command->name, &args))
        return 2;
    /* League text is read with board inversion unless said (Figure 7 uses it) */
    if (command->run == train_league && !args.perspective_given)
        args.perspective = PERSPECTIVE_INVERSION;
    return command->run(&args);
}

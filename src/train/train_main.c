/* octuple-train: builds evaluation weights from data. One table of commands drives parsing
 * and help; the commands live in train_fit.c, train_learn.c and train_book.c. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "train/greedy.h"
#include "train/train.h"

typedef struct TrainCommand {
    const char *name;
    const char *usage;
    const char *help;
    int (*run)(const TrainArgs *args);
} TrainCommand;

static const TrainCommand commands[] = {
    {"regress", "--out FILE [--logbook PATH] [--wthor DIR] [--labels FILE.obf] [--label-weight N] "
                "[--positions FILE,...] [--optimizer sgd|adam] [--l2 L] [--validation F] "
                "[--patience N] [--threads N] [--shape NAME | --stages M:SHAPE,M:SHAPE,...] [--phase-width N] [--epochs N] "
                "[--rate R] [--test F] [--seed S] [--name TEXT]",
     "fit weights to the final disc difference of database games (squared error; by SGD, "
     "or by full-batch Adam with an L2 penalty, stopped early on --validation games: "
     "--optimizer adam, default --rate 0.05, --l2 1, --patience 10: the step halves at each "
     "plateau of that many epochs, the fit ends at the fifth); "
     "--stages gives each game stage from move M its own shape and every move its own "
     "weights (the phase-shape paper's agent: 0:A,33:B,37:C,41:D,45:E)",
     train_regress},
    {"probcut", "--weights FILE.ow --out FILE [--logbook PATH] [--wthor DIR] [--labels FILE.obf] "
                "[--min-empties N] [--max-empties N] [--per-empties N] [--seed S]",
     "fit the probability-cut error model of the exact solver: solve game positions, "
     "compare shallow searches",
     train_probcut},
    {"mpc", "--weights FILE.ow --out FILE.mpc [--logbook PATH] [--wthor DIR] [--base FILE.mpc | "
            "--endgame-sigma DISCS] [--min-empties N] [--max-empties N] [--per-empties N] "
            "[--max-depth N] [--seed S]",
     "fit the midgame Multi-ProbCut parameters: search game positions by iterative deepening, "
     "regress each depth's score on a shallower one's (--base keeps that file's endgame model; "
     "--endgame-sigma writes a constant one, which turns on the selective pass before solves)",
     train_mpc},
    {"label", "--out FILE.obf [--logbook PATH] [--wthor DIR] [--empties N,N,...] [--games N] "
              "[--weights FILE.ow] [--seed S]",
     "solve positions of database games exactly (one per game at each count of empties): "
     "labels for regress --labels",
     train_label},
    {"td", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective negation|inversion] "
           "[--games N] [--alpha A] [--epsilon E] [--measure-every N] [--double-games N] "
           "[--seed S] [--name TEXT]",
     "train a 1-ply network by TD(0) self-play (Lucas; default shape lucas-30, output "
     "negation, alpha 0.001, epsilon 0.1), measuring it against SWH as it learns",
     train_td},
    {"evolve", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective P] "
               "[--generations N] [--mu N] [--lambda N] [--sigma S] [--init W] "
               "[--fitness-games N] [--epsilon E] [--threads N] [--measure-every N] "
               "[--double-games N] [--seed S] [--name TEXT]",
     "evolve 1-ply networks against SWH by a (mu + lambda) evolution strategy, fitness = "
     "League score (Jaskowski; default all-2, board inversion, (10 + 90), sigma 1, init 0.1, "
     "1,000 double games, 100 generations where the paper runs 5,000)",
     train_evolve},
    {"coevolve", "--out FILE.ow [--league-out FILE.txt] [--shape NAME] [--perspective P] "
                 "[--generations N] [--population N] [--td-games N] [--alpha A] "
                 "[--tournament N] [--mutation-rate P] [--sigma S] [--clip W] "
                 "[--archive-games N] [--archive-parent P] [--epsilon E] [--threads N] "
                 "[--measure-every N] [--progress-games N] [--double-games N] [--seed S] "
                 "[--name TEXT]",
     "coevolve a population of 1-ply networks by round robins, with TD self-play phases and "
     "a Hall of Fame (Szubert et al.: TDL + CEL + HoF by default; --td-games 0 for CEL, "
     "--archive-games 0 for no archive; default shape wpc, output negation, population 50)",
     train_coevolve},
    {"shapes", "--out-dir DIR [--logbook PATH] [--wthor DIR] [--generations N] "
               "[--islands N,N,...] [--population N] [--elite N] [--mutants N] [--inherit P] "
               "[--migration-interval N] [--migration-size N] [--epochs N] [--rate R] [--test F] "
               "[--threads N] [--measure-every N] [--seed S]",
     "search network shapes per game stage by an island GA (Kuramitsu et al.: islands at "
     "moves 18, 22, .., 46, BRKGA 100/20/20/0.7, migration 10 every 25 generations, Edax's "
     "tuple sizes in the 24 squares by an edge; fitness = validation loss of a fit from "
     "zero); writes DIR/move-T.shape per island",
     train_shapes},
    {"league", "--weights FILE.ow | --league FILE.txt [--perspective inversion|negation] "
               "[--opponent swh|random|FILE.ow] [--double-games N] [--epsilon E] [--threads N] "
               "[--seed S]",
     "the Othello League measure: 1-ply double games in epsilon-Othello against SWH (or "
     "another opponent), the score with its 95% interval",
     train_league},
    {"book", "--weights FILE.ow --out FILE.book [--logbook PATH] [--wthor DIR] [--plies N] "
             "[--min-games N] [--depth N] [--update FILE.book] [--threads N]",
     "build an opening book: the positions of the games' first --plies moves (default 30) "
     "that at least --min-games games reached (default 2), each with its best move outside "
     "the book by a --depth search (default 10), negamaxed; --update grows a book with more "
     "games or finishes one a Ctrl-C interrupted (its positions so far were saved)",
     train_book},
    {"selfplay", "--weights FILE.ow --out FILE.opos [--games N] [--first-game K] [--seed S] "
                 "[--random-moves MIN:MAX] [--depth D] [--exact E] [--random-rate P] "
                 "[--label-depth D] [--threads N] [--hash MB]",
     "play training games: MIN..MAX random opening moves (default 8:50), then the engine "
     "plays both sides at --depth (default 7) and solves exactly from --exact empties "
     "(default 20), with a --random-rate chance of a random move later; every position "
     "after the opening is kept with the game's result (exact from the solve on) and, with "
     "--label-depth, a search's score. Game k depends only on --seed and k; an existing "
     "--out is resumed; shards are --first-game ranges",
     train_selfplay},
    {"merge", "--positions FILE,FILE,... --out FILE.opos",
     "merge positions files (shards of selfplay) into one, in game order, each position "
     "(up to symmetry) kept once, from the first game that reached it",
     train_merge},
    {"error", "--weights FILE.ow [--positions FILE,...] [--labels FILE.obf] [--per-empties N] "
              "[--depth D] [--seed S] [--threads N]",
     "measure a network against exact scores: the mean absolute error of its static "
     "evaluation and of 1..D ply searches (default 4) by empties, over at most --per-empties "
     "positions at each count (default 500) of the exactly labelled positions given",
     train_error},
    {"dump", "FILE.ow", "print a weights file's shapes, phase table and weight statistics",
     train_dump},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

enum { HELP_WIDTH = 80 }; /* a normal terminal: no help line is wider */

/* `text` from `column` on (what the line already holds), wrapped at spaces within
 * HELP_WIDTH and continued at column `indent`; ends the line. */
static void print_wrapped(FILE *out, const char *text, int column, int indent)
{
    bool line_empty = true;
    while (*text) {
        while (*text == ' ')
            ++text;
        int word = (int)strcspn(text, " ");
        if (!word)
            break;
        if (!line_empty && column + 1 + word > HELP_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
            line_empty = true;
        }
        fprintf(out, "%s%.*s", line_empty ? "" : " ", word, text);
        column += word + !line_empty;
        line_empty = false;
        text += word;
    }
    fputc('\n', out);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: octuple-train COMMAND [options]\ncommands:\n");
    for (int i = 0; i < COMMAND_COUNT; ++i) {
        fprintf(out, "  %s ", commands[i].name);
        print_wrapped(out, commands[i].usage, 3 + (int)strlen(commands[i].name), 4);
        fprintf(out, "      ");
        print_wrapped(out, commands[i].help, 6, 6);
    }
    print_wrapped(out, "shapes: edax (regress's default), edax-2x5, all-1 .. all-4, lucas-N (N of "
                 "Lucas's random snakes, td's default lucas-30), rand-MxN (M random snakes of N "
                 "squares), wpc (a weighted piece counter: 64 squares, no symmetry, coevolve's "
                 "default), pst (the same squares with own, empty and other values free), or a "
                 "shape file (a name with '/' or '.shape', as shapes writes); random shapes "
                 "follow --seed", 0, 2);
}

/* One command's usage and help. */
static void command_usage(FILE *out, const TrainCommand *command)
{
    fprintf(out, "usage: octuple-train %s ", command->name);
    print_wrapped(out, command->usage, 22 + (int)strlen(command->name), 4);
    fprintf(out, "  ");
    print_wrapped(out, command->help, 2, 2);
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
        if (train_args_given(&args, option)) {
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
        if (!train_option_set(&args, option, value)) {
            fprintf(stderr, "octuple-train %s: bad value for %s: '%s'\n", command->name, option,
                    value);
            command_usage(stderr, command);
            return 2;
        }
        args.given[args.given_count++] = option;
    }
    if (!train_outputs_apart(command->name, &args))
        return 2;
    /* League text is read with board inversion unless said (Figure 7 uses it) */
    if (command->run == train_league && !args.perspective_given)
        args.perspective = PERSPECTIVE_INVERSION;
    return command->run(&args);
}

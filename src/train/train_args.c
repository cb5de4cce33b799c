/* octuple-train's options: parsed into TrainArgs, and checked against each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/book.h"
#include "core/fileio.h"
#include "core/parse.h"
#include "train/train.h"

/* In TrainOption's order: train_option_set reads the value, each command's table in
 * train_main.c may give a help of its own. */
const OptSpec train_options[TRAIN_OPT_COUNT] = {
    {"logbook", "PATH", "Logistello's game list (logbook.gam, gzip or plain)", TRAIN_OPT_LOGBOOK},
    {"wthor", "DIR", "every WTH_*.wtb file of a WTHOR database directory", TRAIN_OPT_WTHOR},
    {"shape", "NAME", "the network's tuples (see the shapes below)", TRAIN_OPT_SHAPE},
    {"out", "FILE", "the file to write", TRAIN_OPT_OUT},
    {"name", "TEXT", "the model name stored in the file", TRAIN_OPT_NAME},
    {"phase-width", "N", "a weight set per N move numbers (default 1)", TRAIN_OPT_PHASE_WIDTH},
    {"epochs", "N", "passes over the training positions (default 8)", TRAIN_OPT_EPOCHS},
    {"rate", "R", "learning rate (default 0.002)", TRAIN_OPT_RATE},
    {"test", "F", "share of the games held out for the test loss (default 0.2)", TRAIN_OPT_TEST},
    {"seed", "S", "seed of every random choice (default 1)", TRAIN_OPT_SEED},
    {"labels", "FILE.obf", "positions with exact scores (from label)", TRAIN_OPT_LABELS},
    {"label-weight", "N", "visits of each --labels position per epoch (1 to 255, default 1)",
     TRAIN_OPT_LABEL_WEIGHT},
    {"empties", "N,N,...", "the counts of empties to take from each game (default 16)",
     TRAIN_OPT_EMPTIES},
    {"games", "N", "games (label: at most this many, default all)", TRAIN_OPT_GAMES},
    {"alpha", "A", "the TD learning rate (default 0.001)", TRAIN_OPT_ALPHA},
    {"epsilon", "E", "the probability of a forced random move (default 0.1)", TRAIN_OPT_EPSILON},
    {"generations", "N", "generations (default 100)", TRAIN_OPT_GENERATIONS},
    {"mu", "N", "parents (default 10)", TRAIN_OPT_MU},
    {"lambda", "N", "offspring (default 90)", TRAIN_OPT_LAMBDA},
    {"sigma", "S", "the mutation's standard deviation (default 1)", TRAIN_OPT_SIGMA},
    {"init", "W", "the first parents' entries are uniform in [-W, W] (default 0.1)",
     TRAIN_OPT_INIT},
    {"fitness-games", "N", "double games against SWH per fitness (default 1,000)",
     TRAIN_OPT_FITNESS_GAMES},
    {"threads", "N", "threads (default: every core); the results do not depend on it",
     TRAIN_OPT_THREADS},
    {"population", "N", "individuals (default 50)", TRAIN_OPT_POPULATION},
    {"td-games", "N", "TD self-play games of each individual per generation (default 1)",
     TRAIN_OPT_TD_GAMES},
    {"tournament", "N", "tournament size (default 5)", TRAIN_OPT_TOURNAMENT},
    {"mutation-rate", "P", "the probability that an entry mutates (default 0.03)",
     TRAIN_OPT_MUTATION_RATE},
    {"clip", "W", "mutated entries stay in [-W, W] (default 1)", TRAIN_OPT_CLIP},
    {"archive-games", "N", "Hall of Fame members each individual plays (default 50; 0: no archive)",
     TRAIN_OPT_ARCHIVE_GAMES},
    {"archive-parent", "P",
      "the probability that the first parent comes from the archive (default 0.2)",
     TRAIN_OPT_ARCHIVE_PARENT},
    {"progress-games", "N", "League double games of the best at each progress line (default 0)",
     TRAIN_OPT_PROGRESS_GAMES},
    {"measure-every", "N", "generations between two progress lines", TRAIN_OPT_MEASURE_EVERY},
    {"double-games", "N", "double games of the final League measure (default 5000; 0: none)",
     TRAIN_OPT_DOUBLE_GAMES},
    {"perspective", "P", "negation (output negation, the default) or inversion (board inversion)",
     TRAIN_OPT_PERSPECTIVE},
    {"islands", "T,T,...",
      "the islands' moves (1 .. 59, at most 16; default 18,22,26,30,34,38,42,46)",
     TRAIN_OPT_ISLANDS},
    {"elite", "N", "the elite per generation (default 20)", TRAIN_OPT_ELITE},
    {"mutants", "N", "mutants per generation (default 20)", TRAIN_OPT_MUTANTS},
    {"inherit", "P", "the elite parent's share (default 0.7)", TRAIN_OPT_INHERIT},
    {"migration-interval", "N", "generations between migrations (default 25)",
     TRAIN_OPT_MIGRATION_INTERVAL},
    {"migration-size", "N", "individuals taken at a migration (default 10)",
     TRAIN_OPT_MIGRATION_SIZE},
    {"out-dir", "DIR", "where the islands' shapes are written (DIR/move-T.shape)",
     TRAIN_OPT_OUT_DIR},
    {"stages", "M:SHAPE,...", "a shape per game stage from move M, and a weight set per move",
     TRAIN_OPT_STAGES},
    {"league-out", "FILE.txt", "also write the network in the Othello League text format",
     TRAIN_OPT_LEAGUE_OUT},
    {"league", "FILE.txt", "the network to measure, in the Othello League text format",
     TRAIN_OPT_LEAGUE},
    {"opponent", "WHOM", "swh (default), random or a weights file", TRAIN_OPT_OPPONENT},
    {"weights", "FILE.ow", "the network to use", TRAIN_OPT_WEIGHTS},
    {"min-empties", "N", "the fewest empties measured", TRAIN_OPT_MIN_EMPTIES},
    {"max-empties", "N", "the most empties measured", TRAIN_OPT_MAX_EMPTIES},
    {"per-empties", "N", "positions measured at each count of empties", TRAIN_OPT_PER_EMPTIES},
    {"max-depth", "N", "the deepest search measured (3 .. 30, default 10)", TRAIN_OPT_MAX_DEPTH},
    {"base", "FILE.mpc", "an existing error-model file whose endgame part the new file keeps",
     TRAIN_OPT_BASE},
    {"update", "FILE.book", "a book to grow or finish instead of a new one", TRAIN_OPT_UPDATE},
    {"plies", "N", "positions after at most N moves (0 .. 60, default 30)", TRAIN_OPT_PLIES},
    {"min-games", "N", "leave out positions fewer than N games reached (default 2)",
     TRAIN_OPT_MIN_GAMES},
    {"depth", "N", "the search depth", TRAIN_OPT_DEPTH},
    {"positions", "FILE,...", "positions files (from selfplay or merge)", TRAIN_OPT_POSITIONS},
    {"optimizer", "sgd|adam", "the fit: stochastic gradient descent (default) or full-batch Adam",
     TRAIN_OPT_OPTIMIZER},
    {"l2", "L", "adam: the L2 penalty per entry's square (default 1)", TRAIN_OPT_L2},
    {"validation", "F", "adam: the share of the games kept apart to stop on (default 0.05)",
     TRAIN_OPT_VALIDATION},
    {"patience", "N",
      "adam: epochs without a better validation loss before the step halves (default 10)",
     TRAIN_OPT_PATIENCE},
    {"first-game", "K",
      "the number of the first game (default 0): shards are ranges of game numbers",
     TRAIN_OPT_FIRST_GAME},
    {"random-moves", "MIN:MAX",
      "random opening moves of each game, uniform in MIN..MAX (default 8:50)",
     TRAIN_OPT_RANDOM_MOVES},
    {"exact", "E", "solve exactly from E empties (default 20)", TRAIN_OPT_EXACT},
    {"random-rate", "P",
      "the chance of a random move after the opening, above the solve (default 0)",
     TRAIN_OPT_RANDOM_RATE},
    {"label-depth", "D", "also label each position with a search of depth D (default 0: none)",
     TRAIN_OPT_LABEL_DEPTH},
    {"hash", "MB", "each thread's transposition table in MB (default 16)", TRAIN_OPT_HASH},
    {"endgame-sigma", "DISCS", "write a constant endgame error model of DISCS (1 .. 64) instead",
     TRAIN_OPT_ENDGAME_SIGMA},
    {"position-target", "game|search|mean",
     "what positions files' positions before their exact part are fitted to: the game's "
     "result (default), the search score stored with them, or the mean of the two",
     TRAIN_OPT_POSITION_TARGET},
    {"labelled", "exact|search",
     "the positions measured: the exactly labelled ones (default), or also those labelled by "
     "a deep search (selfplay --label-depth) where no solve reached",
     TRAIN_OPT_LABELLED},
};

bool train_args_given(const TrainArgs *args, int option)
{
    return option >= 0 && option < TRAIN_OPT_COUNT && args->given[option];
}

/* "14,16": counts of empties, each 1..60, each once (labels_make refuses exact solves of
 * more than LABELS_MAX_EXACT_EMPTIES). */
static bool parse_empties(const char *text, LabelOptions *label)
{
    label->empties_count = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long value = strtol(p, &end, 10);
        if (end == p || value < 1 || value > 60 || label->empties_count == LABELS_MAX_EMPTIES)
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

/* "MIN:MAX" random opening moves, 0 <= MIN <= MAX <= 60. */
static bool parse_range(const char *text, SelfplayOptions *selfplay)
{
    char *end;
    long low = strtol(text, &end, 10);
    if (end == text || *end != ':')
        return false;
    const char *rest = end + 1;
    long high = strtol(rest, &end, 10);
    if (end == rest || *end || low < 0 || high > 60 || low > high)
        return false;
    selfplay->min_random = (int)low;
    selfplay->max_random = (int)high;
    return true;
}

/* Sets the option's field(s) from `value`: false when the value is bad. Whole-number options
 * take decimal integers only (no fractions, exponents or hex). */
bool train_option_set(TrainArgs *args, int option, const char *value)
{
    double number = 0;
    long integer = 0;
    uint64_t seed = 0;
    bool numeric = parse_double(value, -1e18, 1e18, &number);
    bool whole = parse_long(value, -1000000000000L, 1000000000000L, &integer);
    if (whole)
        number = (double)integer;
    if (option == TRAIN_OPT_LOGBOOK) args->logbook = value;
    else if (option == TRAIN_OPT_WTHOR) args->wthor = value;
    else if (option == TRAIN_OPT_SHAPE) args->shape = value;
    else if (option == TRAIN_OPT_OUT) args->out = value;
    else if (option == TRAIN_OPT_NAME && strlen(value) < MODEL_NAME_SIZE)
        args->name = value; /* the file holds no more: never cut */
    else if (option == TRAIN_OPT_PHASE_WIDTH && whole && number >= 1 && number <= 61) {
        args->phase_width = (int)number;
        args->phase_width_given = true;
    }
    else if (option == TRAIN_OPT_EPOCHS && whole && number >= 1 && number <= 1000)
        args->regress.epochs = args->ga.epochs = (int)number;
    else if (option == TRAIN_OPT_RATE && numeric && number > 0 && number < 10)
        args->regress.rate = args->ga.rate = number;
    else if (option == TRAIN_OPT_TEST && numeric && number >= 0 && number <= 0.9)
        args->regress.test_fraction = args->ga.test_fraction = number;
    else if (option == TRAIN_OPT_SEED && parse_u64(value, &seed))
        args->regress.seed = args->fit.seed = args->label.seed = args->mpc.seed = args->td.seed
            = args->evolve.seed = args->coevolve.seed = args->ga.seed = args->selfplay.seed
            = args->error.seed = seed;
    else if (option == TRAIN_OPT_LABELS) args->labels = value;
    else if (option == TRAIN_OPT_LABEL_WEIGHT && numeric && number >= 1 && number <= 255 && whole)
        args->label_weight = (int)number;
    else if (option == TRAIN_OPT_EMPTIES && parse_empties(value, &args->label)) {}
    else if (option == TRAIN_OPT_GAMES && numeric && number >= 1 && number <= 1e9 && whole) {
        args->label.limit = (size_t)number;
        args->td.games = (int)number;
        args->selfplay.games = (uint64_t)number;
    }
    else if (option == TRAIN_OPT_ALPHA && numeric && number > 0 && number <= 1)
        args->td.alpha = args->coevolve.alpha = number;
    else if (option == TRAIN_OPT_EPSILON && numeric && number >= 0 && number <= 1)
        args->td.epsilon = args->epsilon = args->evolve.epsilon = args->coevolve.epsilon = number;
    else if (option == TRAIN_OPT_GENERATIONS && numeric && number >= 0 && number <= 1e7 && whole)
        args->evolve.generations = args->coevolve.generations = args->ga.generations
            = (int)number;
    else if (option == TRAIN_OPT_MU && numeric && number >= 1 && number <= 10000 && whole)
        args->evolve.mu = (int)number;
    else if (option == TRAIN_OPT_LAMBDA && numeric && number >= 1 && number <= 10000 && whole)
        args->evolve.lambda = (int)number;
    else if (option == TRAIN_OPT_SIGMA && numeric && number >= 0 && number <= 100)
        args->evolve.sigma = args->coevolve.sigma = number;
    else if (option == TRAIN_OPT_INIT && numeric && number >= 0 && number <= 100)
        args->evolve.init = number;
    else if (option == TRAIN_OPT_FITNESS_GAMES && numeric && number >= 1 && number <= 1e7 && whole)
        args->evolve.fitness_games = (int)number;
    else if (option == TRAIN_OPT_THREADS && numeric && number >= 1 && number <= 64 && whole)
        args->evolve.threads = args->coevolve.threads = args->ga.threads = args->threads
            = args->selfplay.threads = args->error.threads = args->regress.threads = (int)number;
    else if (option == TRAIN_OPT_POPULATION && numeric && number >= 2 && number <= 10000 && whole)
        args->coevolve.population = args->ga.population = (int)number;
    else if (option == TRAIN_OPT_TD_GAMES && numeric && number >= 0 && number <= 1e6 && whole)
        args->coevolve.td_games = (int)number;
    else if (option == TRAIN_OPT_TOURNAMENT && numeric && number >= 1 && number <= 10000 && whole)
        args->coevolve.tournament = (int)number;
    else if (option == TRAIN_OPT_MUTATION_RATE && numeric && number >= 0 && number <= 1)
        args->coevolve.mutation_rate = number;
    else if (option == TRAIN_OPT_CLIP && numeric && number > 0 && number <= 1000)
        args->coevolve.clip = number;
    else if (option == TRAIN_OPT_ARCHIVE_GAMES && numeric && number >= 0 && number <= 1e6 && whole)
        args->coevolve.archive_games = (int)number;
    else if (option == TRAIN_OPT_ARCHIVE_PARENT && numeric && number >= 0 && number <= 1)
        args->coevolve.archive_parent = number;
    else if (option == TRAIN_OPT_PROGRESS_GAMES && numeric && number >= 0 && number <= 1e7 && whole)
        args->coevolve_measure = (int)number;
    else if (option == TRAIN_OPT_MEASURE_EVERY && numeric && number >= 0 && number <= 1e9 && whole)
        args->measure_every = (int)number;
    else if (option == TRAIN_OPT_DOUBLE_GAMES && numeric && number >= 0 && number <= 1e8 && whole)
        args->td.measure_games = args->double_games = (int)number;
    else if (option == TRAIN_OPT_PERSPECTIVE
             && (!strcmp(value, "negation") || !strcmp(value, "inversion"))) {
        args->perspective = !strcmp(value, "negation") ? PERSPECTIVE_NEGATION
                                                       : PERSPECTIVE_INVERSION;
        args->perspective_given = true;
    }
    else if (option == TRAIN_OPT_ISLANDS && parse_islands(value, &args->ga)) {}
    else if (option == TRAIN_OPT_ELITE && numeric && number >= 1 && number <= 100000 && whole)
        args->ga.elite = (int)number;
    else if (option == TRAIN_OPT_MUTANTS && numeric && number >= 0 && number <= 100000 && whole)
        args->ga.mutants = (int)number;
    else if (option == TRAIN_OPT_INHERIT && numeric && number >= 0 && number <= 1)
        args->ga.inherit = number;
    else if (option == TRAIN_OPT_MIGRATION_INTERVAL && numeric && number >= 0
             && number <= 1e6 && whole)
        args->ga.migration_interval = (int)number;
    else if (option == TRAIN_OPT_MIGRATION_SIZE && numeric && number >= 0 && number <= 1e5 && whole)
        args->ga.migration_size = (int)number;
    else if (option == TRAIN_OPT_OUT_DIR) args->out_dir = value;
    else if (option == TRAIN_OPT_STAGES) args->stages = value;
    else if (option == TRAIN_OPT_LEAGUE_OUT) args->league_out = value;
    else if (option == TRAIN_OPT_LEAGUE) args->league_in = value;
    else if (option == TRAIN_OPT_OPPONENT) args->opponent = value;
    else if (option == TRAIN_OPT_WEIGHTS) args->weights = value;
    else if (option == TRAIN_OPT_MIN_EMPTIES && whole && number >= 0 && number <= 60)
        args->fit.min_empties = args->mpc.min_empties = (int)number;
    else if (option == TRAIN_OPT_MAX_EMPTIES && whole && number >= 0 && number <= 60)
        args->fit.max_empties = args->mpc.max_empties = (int)number;
    else if (option == TRAIN_OPT_PER_EMPTIES && whole && number >= 1 && number <= 100000)
        args->fit.per_empties = args->mpc.per_empties = args->error.per_empties = (int)number;
    else if (option == TRAIN_OPT_MAX_DEPTH && numeric && number >= PROBCUT_MID_MIN_DEPTH
             && number <= PROBCUT_MID_MAX_DEPTH && whole)
        args->mpc.max_depth = (int)number;
    else if (option == TRAIN_OPT_BASE) args->base = value;
    else if (option == TRAIN_OPT_UPDATE) args->update = value;
    else if (option == TRAIN_OPT_PLIES && numeric && number >= 0 && number <= BOOK_MAX_PLIES
             && whole)
        args->book_plies = (int)number;
    else if (option == TRAIN_OPT_MIN_GAMES && numeric && number >= 1 && number <= 1e9 && whole)
        args->book_min_games = (int)number;
    else if (option == TRAIN_OPT_DEPTH && numeric && number >= 1 && number <= BOOK_MAX_DEPTH && whole)
        args->book_depth = args->selfplay.depth = args->error.max_depth = args->label.depth
            = (int)number;
    else if (option == TRAIN_OPT_POSITIONS) args->positions = value;
    else if (option == TRAIN_OPT_OPTIMIZER && (!strcmp(value, "sgd") || !strcmp(value, "adam")))
        args->regress.method = !strcmp(value, "adam") ? REGRESS_ADAM : REGRESS_SGD;
    else if (option == TRAIN_OPT_L2 && numeric && number >= 0 && number <= 1e6)
        args->regress.l2 = number;
    else if (option == TRAIN_OPT_VALIDATION && numeric && number >= 0 && number <= 0.5)
        args->regress.validation_fraction = number;
    else if (option == TRAIN_OPT_PATIENCE && whole && number >= 1 && number <= 1000)
        args->regress.patience = (int)number;
    else if (option == TRAIN_OPT_FIRST_GAME && whole && number >= 0 && number <= 1e12)
        args->selfplay.first_game = (uint64_t)number;
    else if (option == TRAIN_OPT_RANDOM_MOVES && parse_range(value, &args->selfplay)) {}
    else if (option == TRAIN_OPT_EXACT && whole && number >= 0 && number <= 30)
        args->selfplay.exact_empties = (int)number;
    else if (option == TRAIN_OPT_RANDOM_RATE && numeric && number >= 0 && number <= 1)
        args->selfplay.random_rate = number;
    else if (option == TRAIN_OPT_LABEL_DEPTH && whole && number >= 0 && number <= 20)
        args->selfplay.label_depth = (int)number;
    else if (option == TRAIN_OPT_HASH && whole && number >= 1 && number <= 4096)
        args->selfplay.hash_megabytes = (size_t)number;
    else if (option == TRAIN_OPT_ENDGAME_SIGMA && numeric && number >= 1 && number <= 64)
        args->endgame_sigma = number;
    else if (option == TRAIN_OPT_POSITION_TARGET && !strcmp(value, "game"))
        args->position_target = POSITION_TARGET_GAME;
    else if (option == TRAIN_OPT_POSITION_TARGET && !strcmp(value, "search"))
        args->position_target = POSITION_TARGET_SEARCH;
    else if (option == TRAIN_OPT_POSITION_TARGET && !strcmp(value, "mean"))
        args->position_target = POSITION_TARGET_MEAN;
    else if (option == TRAIN_OPT_LABELLED && !strcmp(value, "exact"))
        args->error.search_labels = false;
    else if (option == TRAIN_OPT_LABELLED && !strcmp(value, "search"))
        args->error.search_labels = true;
    else
        return false;
    return true;
}

/* --out and --league-out must not name an input, nor each other: a slip would replace a
 * game database or a network with the result. Only book's --update may be its --out (the
 * book is read whole first). Said on standard error; false when they clash. */
bool train_outputs_apart(const char *command, const TrainArgs *args)
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

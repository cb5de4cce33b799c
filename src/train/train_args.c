/* octuple-train's options: parsed into TrainArgs, and checked against each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/book.h"
#include "core/fileio.h"
#include "core/parse.h"
#include "train/train.h"

bool train_args_given(const TrainArgs *args, const char *option)
{
    for (int i = 0; i < args->given_count; ++i)
        if (!strcmp(args->given[i], option))
            return true;
    return false;
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
bool train_option_set(TrainArgs *args, const char *option, const char *value)
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
    else if (!strcmp(option, "--rate") && numeric && number > 0 && number < 10)
        args->regress.rate = args->ga.rate = number;
    else if (!strcmp(option, "--test") && numeric && number >= 0 && number <= 0.9)
        args->regress.test_fraction = args->ga.test_fraction = number;
    else if (!strcmp(option, "--seed") && parse_u64(value, &seed))
        args->regress.seed = args->fit.seed = args->label.seed = args->mpc.seed = args->td.seed
            = args->evolve.seed = args->coevolve.seed = args->ga.seed = args->selfplay.seed
            = args->error.seed = seed;
    else if (!strcmp(option, "--labels")) args->labels = value;
    else if (!strcmp(option, "--label-weight") && numeric && number >= 1 && number <= 255 && whole)
        args->label_weight = (int)number;
    else if (!strcmp(option, "--empties") && parse_empties(value, &args->label)) {}
    else if (!strcmp(option, "--games") && numeric && number >= 1 && number <= 1e9 && whole) {
        args->label.limit = (size_t)number;
        args->td.games = (int)number;
        args->selfplay.games = (uint64_t)number;
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
            = args->selfplay.threads = args->error.threads = args->regress.threads = (int)number;
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
        args->fit.per_empties = args->mpc.per_empties = args->error.per_empties = (int)number;
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
        args->book_depth = args->selfplay.depth = args->error.max_depth = args->label.depth
            = (int)number;
    else if (!strcmp(option, "--positions")) args->positions = value;
    else if (!strcmp(option, "--position-target") && !strcmp(value, "game"))
        args->position_target = POSITION_TARGET_GAME;
    else if (!strcmp(option, "--position-target") && !strcmp(value, "search"))
        args->position_target = POSITION_TARGET_SEARCH;
    else if (!strcmp(option, "--position-target") && !strcmp(value, "mean"))
        args->position_target = POSITION_TARGET_MEAN;
    else if (!strcmp(option, "--labelled") && !strcmp(value, "exact"))
        args->error.search_labels = false;
    else if (!strcmp(option, "--labelled") && !strcmp(value, "search"))
        args->error.search_labels = true;
    else if (!strcmp(option, "--optimizer") && (!strcmp(value, "sgd") || !strcmp(value, "adam")))
        args->regress.method = !strcmp(value, "adam") ? REGRESS_ADAM : REGRESS_SGD;
    else if (!strcmp(option, "--l2") && numeric && number >= 0 && number <= 1e6)
        args->regress.l2 = number;
    else if (!strcmp(option, "--validation") && numeric && number >= 0 && number <= 0.5)
        args->regress.validation_fraction = number;
    else if (!strcmp(option, "--patience") && whole && number >= 1 && number <= 1000)
        args->regress.patience = (int)number;
    else if (!strcmp(option, "--first-game") && whole && number >= 0 && number <= 1e12)
        args->selfplay.first_game = (uint64_t)number;
    else if (!strcmp(option, "--random-moves") && parse_range(value, &args->selfplay)) {}
    else if (!strcmp(option, "--exact") && whole && number >= 0 && number <= 30)
        args->selfplay.exact_empties = (int)number;
    else if (!strcmp(option, "--random-rate") && numeric && number >= 0 && number <= 1)
        args->selfplay.random_rate = number;
    else if (!strcmp(option, "--label-depth") && whole && number >= 0 && number <= 20)
        args->selfplay.label_depth = (int)number;
    else if (!strcmp(option, "--hash") && whole && number >= 1 && number <= 4096)
        args->selfplay.hash_megabytes = (size_t)number;
    else if (!strcmp(option, "--endgame-sigma") && numeric && number >= 1 && number <= 64)
        args->endgame_sigma = number;
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

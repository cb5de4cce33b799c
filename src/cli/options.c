#include "cli/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/optable.h"
#include "core/parse.h"
#include "core/perft.h"

enum {
    OPTION_NBOARD,
    OPTION_GTP,
    OPTION_PERFT,
    OPTION_SOLVE,
    OPTION_BENCH,
    OPTION_BOARD,
    OPTION_NO_BOOK,
    OPTION_COLOR,
    OPTION_VERSION,
    OPTION_HELP,
    OPTION_SETTING /* + the row of the settings table */
};

/* The options that are not engine settings; with the settings table this drives parsing
 * and --help. */
static const OptSpec option_specs[] = {
    {"nboard", NULL, "speak the NBoard protocol on stdin/stdout (for GUIs)", OPTION_NBOARD},
    {"gtp", NULL, "speak the Go Text Protocol for Othello on stdin/stdout (Quarry, match tools)",
     OPTION_GTP},
    {"perft", "DEPTH", "count the leaves DEPTH plies from the start (or --board) and time it",
     OPTION_PERFT},
    {"solve", "FILE", "solve every position of an OBF file exactly (see --wld) and report",
     OPTION_SOLVE},
    {"bench", NULL, "fixed search workload: node count and nodes per second", OPTION_BENCH},
    {"board", "POSITION", "64 squares (X, O, -) and the side to move: the start position",
     OPTION_BOARD},
    {"no-book", NULL, "do not use an opening book", OPTION_NO_BOOK},
    {"color", "WHEN", "colours on the console's board: auto (on a terminal, unless NO_COLOR "
                      "is set), always or never (default auto)", OPTION_COLOR},
    {"version", NULL, "print the name and version", OPTION_VERSION},
    {"help", NULL, "print this help", OPTION_HELP},
};
enum {
    OPTION_SPEC_COUNT = sizeof option_specs / sizeof option_specs[0],
    OPTION_TABLE_SIZE = OPTION_SPEC_COUNT + 32
};

/* The program's whole table: its own options, then every engine setting's. */
static int options_table(OptSpec *table)
{
    int count = 0;
    for (int i = 0; i < OPTION_SPEC_COUNT; ++i)
        table[count++] = option_specs[i];
    int settings_count;
    const SettingSpec *settings = settings_table(&settings_count);
    for (int i = 0; i < settings_count && count < OPTION_TABLE_SIZE; ++i)
        table[count++] = (OptSpec){settings[i].option, settings[i].argument, settings[i].help,
                                   OPTION_SETTING + i};
    return count;
}

void options_usage(FILE *out, const char *program)
{
    fprintf(out, "usage: %s [options]\n"
            "Without an action option, %s reads text commands (type 'help').\n", program,
            program);
    OptSpec table[OPTION_TABLE_SIZE];
    optable_print_all(out, table, options_table(table));
}

static bool apply(Options *options, int id, const char *value, OctError *error)
{
    switch (id) {
    case OPTION_HELP: options->action = ACTION_HELP; break;
    case OPTION_VERSION: options->action = ACTION_VERSION; break;
    case OPTION_NBOARD: options->action = ACTION_NBOARD; break;
    case OPTION_GTP: options->action = ACTION_GTP; break;
    case OPTION_BENCH: options->action = ACTION_BENCH; break;
    case OPTION_PERFT:
        if (!parse_int(value, 1, PERFT_MAX_DEPTH, &options->perft_depth))
            return error_set(error, "--perft: '%s' is not a depth from 1 to %d", value,
                             PERFT_MAX_DEPTH);
        options->action = ACTION_PERFT;
        break;
    case OPTION_SOLVE:
        if (!*value)
            return error_set(error, "--solve: an OBF file name is expected");
        options->solve_path = value;
        options->action = ACTION_SOLVE;
        break;
    case OPTION_NO_BOOK: options->settings.use_book = false; break;
    case OPTION_COLOR: {
        static const char *const modes[] = {"auto", "always", "never"};
        size_t i = 0;
        while (i < 3 && strcmp(value, modes[i]))
            ++i;
        if (i == 3)
            return error_set(error, "--color: '%s' is not auto, always or never", value);
        options->color = (ColorMode)i;
        break;
    }
    case OPTION_BOARD:
        if (!board_parse_line(value, &options->board, &options->side, error))
            return error_prefix(error, "--board: ");
        options->has_board = true;
        break;
    default: {
        int count;
        const SettingSpec *setting = &settings_table(&count)[id - OPTION_SETTING];
        if (!setting->apply(&options->settings, value, error))
            return error_prefix(error, "--%s: ", setting->option);
    }
    }
    return true;
}

static bool is_action(int id)
{
    return id != OPTION_HELP && id != OPTION_BOARD && id != OPTION_NO_BOOK
           && id != OPTION_COLOR && id < OPTION_SETTING;
}

bool options_parse(int argc, char **argv, Options *options, OctError *error)
{
    memset(options, 0, sizeof *options);
    options->action = ACTION_REPL;
    board_init(&options->board);
    options->side = COLOR_BLACK;
    settings_init(&options->settings, argc > 0 ? argv[0] : NULL);
    const char *action_name = NULL; /* the action option given, if any */
    bool help = false;
    OptSpec table[OPTION_TABLE_SIZE];
    int count = options_table(table);
    OptScan scan;
    optable_begin(&scan, argc, argv, 1, false);
    const OptSpec *spec;
    const char *value;
    OptResult read;
    while ((read = optable_next(&scan, table, count, &spec, &value, error)) != OPT_END) {
        if (read == OPT_ERROR)
            return false;
        if (read == OPT_ARGUMENT)
            return error_set(error, "unexpected argument '%s'", value);
        if (is_action(spec->id)) {
            /* one run does one thing: a second action would silently win (--help, asked
             * beside anything, shows the help) */
            if (action_name && strcmp(action_name, spec->name) != 0)
                return error_set(error, "--%s and --%s both choose what to do: give one",
                                 action_name, spec->name);
            action_name = spec->name;
        }
        help = help || spec->id == OPTION_HELP;
        if (!apply(options, spec->id, value, error))
            return false;
    }
    if (help) {
        options->action = ACTION_HELP;
        return true;
    }
    /* settings_init takes OCTUPLE_WEIGHTS only when it fits; without --weights a run that
     * loads weights would quietly take the default ones */
    const char *weights = getenv("OCTUPLE_WEIGHTS");
    if (weights && strlen(weights) >= sizeof options->settings.weights
        && !options->settings.weights[0] && options->action != ACTION_VERSION
        && options->action != ACTION_PERFT)
        return error_set(error, "OCTUPLE_WEIGHTS: a file name of %zu characters, longer than "
                         "the %zu this engine takes", strlen(weights),
                         sizeof options->settings.weights - 1);
    if (options->has_board && action_name
        && (options->action == ACTION_SOLVE || options->action == ACTION_BENCH))
        return error_set(error, "--board sets the start of --perft, --nboard, --gtp and the "
                                "text interface; --%s has positions of its own", action_name);
    return true;
}

#include "cli/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/helptext.h"
#include "core/notation.h"
#include "core/parse.h"
#include "core/perft.h"

typedef struct OptionSpec {
    const char *name;     /* long name without dashes */
    const char *argument; /* NULL when the option takes no value */
    const char *help;
    bool action;          /* chooses what the program does (else a setting) */
} OptionSpec;

/* The options that are not engine settings; with the settings table this drives both
 * parsing and --help. */
static const OptionSpec option_specs[] = {
    {"nboard", NULL, "speak the NBoard protocol on stdin/stdout (for GUIs)", true},
    {"gtp", NULL, "speak the Go Text Protocol for Othello on stdin/stdout (Quarry, match tools)", true},
    {"perft", "DEPTH", "count the leaves DEPTH plies from the start (or --board) and time it", true},
    {"solve", "FILE", "solve every position of an OBF file exactly (see --wld) and report", true},
    {"bench", NULL, "fixed search workload: node count and nodes per second", true},
    {"board", "POSITION", "64 squares (X, O, -) and the side to move: the start position", false},
    {"no-book", NULL, "do not use an opening book", false},
    {"color", "WHEN", "colours on the console's board: auto (on a terminal, unless NO_COLOR "
                      "is set), always or never (default auto)", false},
    {"version", NULL, "print the name and version", true},
    {"help", NULL, "print this help", true},
};
enum { OPTION_SPEC_COUNT = sizeof option_specs / sizeof option_specs[0] };

static void usage_line(FILE *out, const char *name, const char *argument, const char *help)
{
    char left[40], text[1024];
    snprintf(left, sizeof left, "--%s%s%s", name, argument ? " " : "", argument ? argument : "");
    helptext_format(left, help, text, sizeof text);
    fputs(text, out);
}

void options_usage(FILE *out, const char *program)
{
    fprintf(out, "usage: %s [options]\n"
            "Without an action option, %s reads text commands (type 'help').\n", program,
            program);
    for (int i = 0; i < OPTION_SPEC_COUNT; ++i)
        usage_line(out, option_specs[i].name, option_specs[i].argument, option_specs[i].help);
    int count;
    const SettingSpec *settings = settings_table(&count);
    for (int i = 0; i < count; ++i)
        usage_line(out, settings[i].option, settings[i].argument, settings[i].help);
}

static const OptionSpec *find_spec(const char *name, size_t length)
{
    for (int i = 0; i < OPTION_SPEC_COUNT; ++i)
        if (strlen(option_specs[i].name) == length && !strncmp(option_specs[i].name, name, length))
            return &option_specs[i];
    return NULL;
}

static bool apply(Options *options, const char *name, const char *value, OctError *error)
{
    if (!strcmp(name, "help")) {
        options->action = ACTION_HELP;
    } else if (!strcmp(name, "version")) {
        options->action = ACTION_VERSION;
    } else if (!strcmp(name, "nboard")) {
        options->action = ACTION_NBOARD;
    } else if (!strcmp(name, "gtp")) {
        options->action = ACTION_GTP;
    } else if (!strcmp(name, "bench")) {
        options->action = ACTION_BENCH;
    } else if (!strcmp(name, "perft")) {
        if (!parse_int(value, 1, PERFT_MAX_DEPTH, &options->perft_depth))
            return error_set(error, "--perft: '%s' is not a depth from 1 to %d", value,
                             PERFT_MAX_DEPTH);
        options->action = ACTION_PERFT;
    } else if (!strcmp(name, "solve")) {
        if (!*value)
            return error_set(error, "--solve: an OBF file name is expected");
        options->solve_path = value;
        options->action = ACTION_SOLVE;
    } else if (!strcmp(name, "color")) {
        static const char *const modes[] = {"auto", "always", "never"};
        size_t i = 0;
        while (i < 3 && strcmp(value, modes[i]))
            ++i;
        if (i == 3)
            return error_set(error, "--color: '%s' is not auto, always or never", value);
        options->color = (ColorMode)i;
    } else if (!strcmp(name, "no-book")) {
        options->settings.use_book = false;
    } else if (!strcmp(name, "board")) {
        if (!board_parse_line(value, &options->board, &options->side, error))
            return error_prefix(error, "--board: ");
        options->has_board = true;
    }
    return true;
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
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return error_set(error, "unexpected argument '%s'", arg);
        const char *name = arg + 2;
        const char *equals = strchr(name, '=');
        size_t length = equals ? (size_t)(equals - name) : strlen(name);
        const OptionSpec *spec = find_spec(name, length);
        const SettingSpec *setting = spec ? NULL : settings_find_option(name, length);
        if (!spec && !setting)
            return error_set(error, "unknown option '%s'", arg);
        const char *argument = spec ? spec->argument : setting->argument;
        const char *option_name = spec ? spec->name : setting->option;
        const char *value = NULL;
        if (argument) {
            if (equals)
                value = equals + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return error_set(error, "--%s needs a value (%s)", option_name, argument);
        } else if (equals) {
            return error_set(error, "--%s takes no value", option_name);
        }
        if (spec && spec->action && strcmp(spec->name, "help") != 0) {
            /* one run does one thing: a second action would silently win (--help, asked
             * beside anything, shows the help) */
            if (action_name && strcmp(action_name, spec->name) != 0)
                return error_set(error, "--%s and --%s both choose what to do: give one",
                                 action_name, spec->name);
            action_name = spec->name;
        }
        help = help || (spec && !strcmp(spec->name, "help"));
        if (setting) {
            if (!setting->apply(&options->settings, value, error))
                return error_prefix(error, "--%s: ", setting->option);
        } else if (!apply(options, spec->name, value, error)) {
            return false;
        }
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

#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"

typedef struct OptionSpec {
    const char *name;     /* long name without dashes */
    const char *argument; /* NULL when the option takes no value */
    const char *help;
    bool action;          /* chooses what the program does (else a setting) */
} OptionSpec;

/* One table drives both parsing and --help. */
static const OptionSpec option_specs[] = {
    {"perft", "DEPTH", "count the leaves DEPTH plies from the start (or --board) and time it", true},
    {"solve", "FILE", "solve every position of an OBF file exactly and report", true},
    {"hash", "MB", "transposition table size in megabytes (default 128)", false},
    {"weights", "FILE", "evaluation weights (.ow) to load", false},
    {"threads", "N", "search threads (default 1)", false},
    {"board", "POSITION", "64 squares (X, O, -) and the side to move, e.g. for --perft", false},
    {"version", NULL, "print the name and version", true},
    {"help", NULL, "print this help", true},
};
enum { OPTION_SPEC_COUNT = sizeof option_specs / sizeof option_specs[0] };

void options_usage(FILE *out, const char *program)
{
    fprintf(out, "usage: %s [options]\n", program);
    for (int i = 0; i < OPTION_SPEC_COUNT; ++i) {
        char left[40];
        snprintf(left, sizeof left, "--%s%s%s", option_specs[i].name,
                 option_specs[i].argument ? " " : "",
                 option_specs[i].argument ? option_specs[i].argument : "");
        fprintf(out, "  %-22s %s\n", left, option_specs[i].help);
    }
}

static bool parse_int(const char *text, int low, int high, int *value)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < low || v > high)
        return false;
    *value = (int)v;
    return true;
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
    } else if (!strcmp(name, "perft")) {
        if (!parse_int(value, 1, 30, &options->perft_depth))
            return error_set(error, "--perft: '%s' is not a depth from 1 to 30", value);
        options->action = ACTION_PERFT;
    } else if (!strcmp(name, "solve")) {
        options->solve_path = value;
        options->action = ACTION_SOLVE;
    } else if (!strcmp(name, "hash")) {
        int megabytes;
        if (!parse_int(value, 1, 1 << 16, &megabytes))
            return error_set(error, "--hash: '%s' is not a size from 1 to 65536 MB", value);
        options->hash_megabytes = (size_t)megabytes;
    } else if (!strcmp(name, "weights")) {
        options->weights_path = value;
    } else if (!strcmp(name, "threads")) {
        if (!parse_int(value, 1, 64, &options->threads))
            return error_set(error, "--threads: '%s' is not a count from 1 to 64", value);
    } else if (!strcmp(name, "board")) {
        if (!board_parse(value, &options->board, &options->side, error))
            return error_prefix(error, "--board: ");
        options->has_board = true;
    }
    return true;
}

bool options_parse(int argc, char **argv, Options *options, OctError *error)
{
    memset(options, 0, sizeof *options);
    options->action = ACTION_HELP;
    board_init(&options->board);
    options->side = COLOR_BLACK;
    options->hash_megabytes = 128;
    options->threads = 1;
    bool any_action = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return error_set(error, "unexpected argument '%s'", arg);
        const char *name = arg + 2;
        const char *equals = strchr(name, '=');
        size_t length = equals ? (size_t)(equals - name) : strlen(name);
        const OptionSpec *spec = find_spec(name, length);
        if (!spec)
            return error_set(error, "unknown option '%s'", arg);
        const char *value = NULL;
        if (spec->argument) {
            if (equals)
                value = equals + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return error_set(error, "--%s needs a value (%s)", spec->name, spec->argument);
        } else if (equals) {
            return error_set(error, "--%s takes no value", spec->name);
        }
        if (!apply(options, spec->name, value, error))
            return false;
        if (spec->action)
            any_action = true;
    }
    if (!any_action)
        options->action = ACTION_HELP;
    return true;
}

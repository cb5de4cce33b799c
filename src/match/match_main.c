/* octuple-match: engine-vs-engine matches between NBoard or GTP engines
 * (man/octuple-match.6). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/optable.h"
#include "match/match_engine.h"
#include "match/match_openings.h"
#include "match/match_run.h"
#include "core/model.h"
#include "engine/engine.h"
#include "engine/paths.h"
#include "core/weights.h"
#include "core/parse.h"

enum {
    EXIT_USAGE = 2,
    EXIT_INTERRUPTED = 3,
    DEFAULT_PAIRS = 50,
    DEFAULT_PLIES = 8,
    DEFAULT_SEARCH_DEPTH = 8,
    DEFAULT_SEED = 1
};

static const double DEFAULT_TIMEOUT = 60.0;
static const double DEFAULT_BALANCE = 2.0;

/* The only global: a signal handler can reach nothing else. */
static atomic_int interrupted;

static bool has_control(const char *text)
{
    for (; *text; ++text)
        if (iscntrl((unsigned char)*text))
            return true;
    return false;
}

/* The first signal asks the runner to stop after closing the engines; a second ends it at
 * once, killing the engines' process groups first (async-signal-safe calls only). */
static void on_signal(int number)
{
    (void)number;
    if (atomic_exchange(&interrupted, 1)) {
        match_engine_kill_all();
        _exit(EXIT_INTERRUPTED);
    }
}

typedef struct Options {
    MatchEngineSpec engines[MATCH_ENGINES];
    bool given[MATCH_ENGINES];
    bool named[MATCH_ENGINES];
    const char *openings_path;
    long pairs;            /* 0: all of the file, DEFAULT_PAIRS generated */
    MatchGenerateSpec generate;
    const char *weights;
    const char *save_openings;
    int concurrency;
    double timeout;
    double start_timeout;
    MatchClock clock;
    const char *output;
    bool resume, force, quiet;
    const char *log_path;
} Options;

enum {
    OPT_ENGINE1,
    OPT_ENGINE2,
    OPT_DIR1,
    OPT_DIR2,
    OPT_NAME1,
    OPT_NAME2,
    OPT_DEPTH,
    OPT_DEPTH1,
    OPT_DEPTH2,
    OPT_PROTOCOL1,
    OPT_PROTOCOL2,
    OPT_MERGE,
    OPT_OPENINGS,
    OPT_PAIRS,
    OPT_PLIES,
    OPT_BALANCE,
    OPT_SEARCH_DEPTH,
    OPT_SEED,
    OPT_WEIGHTS,
    OPT_SAVE,
    OPT_CONCURRENCY,
    OPT_CLOCK,
    OPT_TIMEOUT,
    OPT_START_TIMEOUT,
    OPT_OUTPUT,
    OPT_RESUME,
    OPT_FORCE,
    OPT_LOG,
    OPT_QUIET,
    OPT_HELP,
    OPT_VERSION,
    OPT_HEADING
};

/* The program's options: parsing and --help follow this table. */
static const OptSpec match_options[] = {
    {NULL, NULL, "Engines", OPT_HEADING},
    {"engine1", "COMMAND", "the first engine's command line (e.g. 'octuple --nboard "
                           "--no-book': books off, as engines are compared)", OPT_ENGINE1},
    {"engine2", "COMMAND", "the second engine's command line", OPT_ENGINE2},
    {"dir1", "DIR", "the first engine's working directory (default: the current one)",
     OPT_DIR1},
    {"dir2", "DIR", "the second engine's working directory", OPT_DIR2},
    {"name1", "NAME", "the first engine's name in the games and the table", OPT_NAME1},
    {"name2", "NAME", "the second engine's name", OPT_NAME2},
    {"depth", "N", "'set depth N' for both engines (default: not sent)", OPT_DEPTH},
    {"depth1", "N", "the same for the first engine only", OPT_DEPTH1},
    {"depth2", "N", "the same for the second engine only", OPT_DEPTH2},
    {"protocol1", "P", "the first engine's protocol: nboard (default) or gtp (Go Text "
                       "Protocol as Othello programs speak it, e.g. 'gtp-rhino -m 7')",
     OPT_PROTOCOL1},
    {"protocol2", "P", "the second engine's protocol", OPT_PROTOCOL2},
    {"merge-stderr", NULL, "engine stderr joins stdout, as in NBoard (default: discarded)",
     OPT_MERGE},
    {NULL, NULL, "Openings (each played twice)", OPT_HEADING},
    {"openings", "FILE", "move strings, one per line, or GGF games", OPT_OPENINGS},
    {"pairs", "N", "play the first N openings (default: all of FILE, 50 generated)", OPT_PAIRS},
    {"plies", "N", "generated openings: random moves (default 8)", OPT_PLIES},
    {"balance", "DISCS", "keep those Octuple scores within +-DISCS (default 2)", OPT_BALANCE},
    {"search-depth", "N", "depth of that search (default 8)", OPT_SEARCH_DEPTH},
    {"seed", "N", "random seed of the generator (default 1)", OPT_SEED},
    {"weights", "FILE", "weights of that search (default octuple.ow or jaskowski-all2.ow from "
                        "Octuple's data directories)", OPT_WEIGHTS},
    {"save-openings", "FILE", "write the openings as move strings (alone: only generate them)",
     OPT_SAVE},
    {NULL, NULL, "Running", OPT_HEADING},
    {"concurrency", "N", "games at a time (default: the number of cores)", OPT_CONCURRENCY},
    {"clock", "SECONDS[/INCREMENT]", "each side's clock per game, INCREMENT more after each "
                                     "move (GGF TI, GTP time_settings/time_left); a side whose "
                                     "clock runs out loses on time (default: none)", OPT_CLOCK},
    {"timeout", "SECONDS", "per move (default 60)", OPT_TIMEOUT},
    {"start-timeout", "SECONDS", "for an engine to start and answer its first ping (default: "
                                 "the --timeout)", OPT_START_TIMEOUT},
    {"output", "FILE", "the games in GGF, one per line (default match.ggf)", OPT_OUTPUT},
    {"resume", NULL, "continue the match saved in --output", OPT_RESUME},
    {"force", NULL, "replace a non-empty --output", OPT_FORCE},
    {"log", "FILE", "also append the events (faults) to FILE", OPT_LOG},
    {"quiet", NULL, "no progress line", OPT_QUIET},
    {"help", NULL, "print this help", OPT_HELP},
    {"version", NULL, "print the name and version", OPT_VERSION},
};
enum { MATCH_OPTION_COUNT = sizeof match_options / sizeof match_options[0] };

static void usage(FILE *out)
{
    fputs("usage: octuple-match [options] --engine1 COMMAND --engine2 COMMAND\n", out);
    optable_wrap(out, "Plays two engines (NBoard or GTP) against each other, each opening "
                 "twice with colours swapped, and reports wins, draws, losses, score rate, "
                 "disc difference and Elo.", 0, 0);
    optable_print_all(out, match_options, MATCH_OPTION_COUNT);
}

static bool copy_text(char *out, size_t size, const char *text, const char *option)
{
    if (strlen(text) >= size) {
        fprintf(stderr, "octuple-match: %s: too long\n", option);
        return false;
    }
    strcpy(out, text);
    return true;
}

/* "octuple-d2" from "../src/octuple --nboard" and depth 2. */
static void default_name(MatchEngineSpec *spec)
{
    char storage[MATCH_COMMAND_SIZE + 256];
    char *argv[128];
    int words = match_split_command(spec->command, storage, sizeof storage, argv, 128);
    const char *base = "engine";
    if (words > 0) {
        const char *slash = strrchr(argv[0], '/');
        base = slash ? slash + 1 : argv[0];
    }
    if (spec->depth > 0)
        snprintf(spec->name, sizeof spec->name, "%.40s-d%d", base, spec->depth);
    else
        snprintf(spec->name, sizeof spec->name, "%.40s", base);
    for (char *c = spec->name; *c; ++c)
        if (*c == ' ' || *c == ']' || *c == '[')
            *c = '_';
}

/* SECONDS[/INCREMENT]: whole seconds from 1 (GTP clocks count whole seconds), an increment
 * from 0 to the millisecond at most. */
static bool parse_clock(const char *text, MatchClock *clock)
{
    char main_text[32];
    const char *slash = strchr(text, '/');
    size_t length = slash ? (size_t)(slash - text) : strlen(text);
    if (length >= sizeof main_text)
        return false;
    memcpy(main_text, text, length);
    main_text[length] = '\0';
    MatchClock read = {0, 0};
    if (!parse_double(main_text, 1, 1e6, &read.main) || read.main != floor(read.main)
        || (slash && !parse_double(slash + 1, 0, 1e6, &read.increment))
        || fabs(read.increment * 1000 - round(read.increment * 1000)) > 1e-6)
        return false;
    *clock = read;
    return true;
}

/* Returns 0 to go on, else the exit status. */
static int parse_options(int argc, char **argv, Options *options)
{
    memset(options, 0, sizeof *options);
    options->generate.plies = DEFAULT_PLIES;
    options->generate.balance = DEFAULT_BALANCE;
    options->generate.depth = DEFAULT_SEARCH_DEPTH;
    options->generate.seed = DEFAULT_SEED;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options->concurrency = cores > 0 ? (int)cores : 1;
    options->timeout = DEFAULT_TIMEOUT;
    options->output = "match.ggf";
    OptScan scan;
    optable_begin(&scan, argc, argv, 1, false);
    const OptSpec *spec;
    const char *value;
    OptResult read;
    OctError error;
    while ((read = optable_next(&scan, match_options, MATCH_OPTION_COUNT, &spec, &value,
                                &error)) != OPT_END) {
        if (read == OPT_ERROR) {
            fprintf(stderr, "octuple-match: %s\nTry 'octuple-match --help'.\n", error.message);
            return EXIT_USAGE;
        }
        if (read == OPT_ARGUMENT) {
            fprintf(stderr, "octuple-match: unexpected argument '%s'\n", value);
            return EXIT_USAGE;
        }
        int option = spec->id;
        long number;
        char name[32];
        snprintf(name, sizeof name, "--%s", spec->name);
        bool bad = false;
        switch (option) {
        case OPT_ENGINE1:
        case OPT_ENGINE2: {
            int e = option - OPT_ENGINE1;
            if (!copy_text(options->engines[e].command, sizeof options->engines[e].command,
                           value, name))
                return EXIT_USAGE;
            options->given[e] = true;
            break;
        }
        case OPT_DIR1:
        case OPT_DIR2: {
            struct stat info; /* said now: the engine would only exit with status 126 */
            bool exists = stat(value, &info) == 0;
            if (!exists || !S_ISDIR(info.st_mode)) {
                fprintf(stderr, "octuple-match: %s: '%s': %s\n", name, value,
                        exists ? "not a directory" : strerror(errno));
                return EXIT_USAGE;
            }
            if (!copy_text(options->engines[option - OPT_DIR1].dir,
                           sizeof options->engines[0].dir, value, name))
                return EXIT_USAGE;
            break;
        }
        case OPT_NAME1:
        case OPT_NAME2: {
            int e = option - OPT_NAME1;
            if (!value[0] || strpbrk(value, " \t[]") || has_control(value)) {
                fprintf(stderr, "octuple-match: %s: one word without brackets or control "
                        "characters expected\n", name);
                return EXIT_USAGE;
            }
            if (!copy_text(options->engines[e].name, sizeof options->engines[e].name, value,
                           name))
                return EXIT_USAGE;
            options->named[e] = true;
            break;
        }
        case OPT_DEPTH:
        case OPT_DEPTH1:
        case OPT_DEPTH2:
            bad = !parse_long(value, 1, 60, &number);
            if (!bad && option != OPT_DEPTH2)
                options->engines[0].depth = (int)number;
            if (!bad && option != OPT_DEPTH1)
                options->engines[1].depth = (int)number;
            break;
        case OPT_PROTOCOL1:
        case OPT_PROTOCOL2: {
            MatchEngineSpec *spec = &options->engines[option - OPT_PROTOCOL1];
            if (!strcmp(value, "nboard"))
                spec->protocol = MATCH_NBOARD;
            else if (!strcmp(value, "gtp"))
                spec->protocol = MATCH_GTP;
            else
                bad = true;
            break;
        }
        case OPT_MERGE:
            options->engines[0].merge_stderr = options->engines[1].merge_stderr = true;
            break;
        case OPT_OPENINGS:
            options->openings_path = value;
            break;
        case OPT_PAIRS:
            bad = !parse_long(value, 1, 1000000, &options->pairs);
            break;
        case OPT_PLIES:
            bad = !parse_long(value, 1, 50, &number);
            options->generate.plies = (int)number;
            break;
        case OPT_BALANCE:
            bad = !parse_double(value, 0, 64, &options->generate.balance);
            break;
        case OPT_SEARCH_DEPTH:
            bad = !parse_long(value, 1, 30, &number);
            options->generate.depth = (int)number;
            break;
        case OPT_SEED:
            bad = !parse_long(value, 0, LONG_MAX, &number);
            options->generate.seed = (uint64_t)number;
            break;
        case OPT_WEIGHTS:
            options->weights = value;
            break;
        case OPT_SAVE:
            options->save_openings = value;
            break;
        case OPT_CONCURRENCY:
            bad = !parse_long(value, 1, 256, &number);
            options->concurrency = (int)number;
            break;
        case OPT_TIMEOUT:
            bad = !parse_double(value, 0.01, 1e6, &options->timeout);
            break;
        case OPT_START_TIMEOUT:
            bad = !parse_double(value, 0.01, 1e6, &options->start_timeout);
            break;
        case OPT_CLOCK:
            bad = !parse_clock(value, &options->clock);
            break;
        case OPT_OUTPUT:
            options->output = value;
            break;
        case OPT_RESUME:
            options->resume = true;
            break;
        case OPT_FORCE:
            options->force = true;
            break;
        case OPT_LOG:
            options->log_path = value;
            break;
        case OPT_QUIET:
            options->quiet = true;
            break;
        case OPT_HELP:
            usage(stdout);
            return -1;
        case OPT_VERSION:
            printf("octuple-match (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "octuple-match: %s: bad value '%s' (%s: %s)\n", name, value,
                    spec->argument, spec->help);
            return EXIT_USAGE;
        }
    }
    bool generate_only = options->save_openings && !options->given[0] && !options->given[1];
    if (!generate_only && (!options->given[0] || !options->given[1])) {
        fputs("octuple-match: two engines are needed (--engine1 and --engine2)\n"
              "Try 'octuple-match --help'.\n", stderr);
        return EXIT_USAGE;
    }
    for (int e = 0; e < MATCH_ENGINES; ++e)
        if (options->engines[e].protocol == MATCH_GTP && options->engines[e].depth > 0) {
            fprintf(stderr, "octuple-match: engine %d speaks GTP, which has no depth command: "
                    "give its depth on its command line (--depth%d is for NBoard engines)\n",
                    e + 1, e + 1);
            return EXIT_USAGE;
        }
    for (int e = 0; e < MATCH_ENGINES; ++e)
        if (!options->named[e])
            default_name(&options->engines[e]);
    if (!strcmp(options->engines[0].name, options->engines[1].name)) {
        if (options->named[0] && options->named[1]) {
            fputs("octuple-match: the two engines need different names\n", stderr);
            return EXIT_USAGE;
        }
        for (int e = 0; e < MATCH_ENGINES; ++e)
            if (!options->named[e]) {
                size_t length = strlen(options->engines[e].name);
                if (length > sizeof options->engines[e].name - 3)
                    length = sizeof options->engines[e].name - 3;
                /* "-1" or "-2": two characters and the terminator, as reserved above */
                options->engines[e].name[length] = '-';
                options->engines[e].name[length + 1] = (char)('1' + e);
                options->engines[e].name[length + 2] = '\0';
            }
    }
    return 0;
}

static void generation_progress(void *context, int kept, int tried)
{
    FILE *log = context;
    if (log && (tried % 16 == 0 || kept == 0))
        fprintf(log, "\r\033[Kgenerating openings: %d kept of %d tried", kept, tried), fflush(log);
}

static bool load_openings(const Options *options, const char *program, Game **openings,
                          size_t *count, FILE *log, OctError *error)
{
    if (options->openings_path) {
        if (!match_openings_read(options->openings_path, openings, count, error))
            return false;
        if (options->pairs > 0) {
            if ((size_t)options->pairs > *count)
                return error_set(error, "%s has %zu openings, fewer than --pairs %ld",
                                 options->openings_path, *count, options->pairs);
            *count = (size_t)options->pairs;
        }
        return true;
    }
    char path[PATHS_SIZE];
    if (options->weights) {
        snprintf(path, sizeof path, "%s", options->weights);
    } else {
        char searched[PATHS_SIZE];
        if (!engine_find_weights(program, path, sizeof path, searched, sizeof searched))
            return error_set(error, "no weights for the opening generator (octuple.ow or "
                             "jaskowski-all2.ow) in %s: give --weights or --openings",
                             searched[0] ? searched : "any data directory");
    }
    Model *model;
    if (!model_load(path, &model, error))
        return false;
    MatchGenerateSpec spec = options->generate;
    spec.model = model;
    spec.count = options->pairs > 0 ? (int)options->pairs : DEFAULT_PAIRS;
    spec.stop = &interrupted;
    bool ok = match_openings_generate(&spec, openings, NULL, generation_progress, log, error);
    if (log) {
        fputs("\r\033[K", log);
        fflush(log);
    }
    model_free(model);
    *count = (size_t)spec.count;
    return ok;
}

int main(int argc, char **argv)
{
    Options options;
    int status = parse_options(argc, argv, &options);
    if (status)
        return status < 0 ? EXIT_SUCCESS : status;

    /* a dead engine must show up as a write error, not kill the runner */
    signal(SIGPIPE, SIG_IGN);
    /* a file-size limit fails the write of a file (EFBIG), with a message */
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL); /* a closed terminal stops the match as ^C does */

    bool tty = isatty(STDERR_FILENO);
    FILE *progress = options.quiet || !tty ? NULL : stderr;
    OctError error;
    Game *openings = NULL;
    size_t count = 0;
    if (!load_openings(&options, argv[0], &openings, &count, progress, &error)) {
        fprintf(stderr, "octuple-match: %s\n", error.message);
        return atomic_load(&interrupted) ? EXIT_INTERRUPTED : EXIT_FAILURE;
    }
    if (options.save_openings &&
        !match_openings_write(options.save_openings, openings, count, &error)) {
        fprintf(stderr, "octuple-match: %s\n", error.message);
        free(openings);
        return EXIT_FAILURE;
    }
    if (!options.given[0] && !options.given[1]) {
        fprintf(stderr, "octuple-match: %zu openings written to %s\n", count,
                options.save_openings);
        free(openings);
        return EXIT_SUCCESS;
    }

    const char *output = options.output[0] && strcmp(options.output, "-") ? options.output : NULL;
    const char *clash = file_same(output, options.openings_path) ? "--openings"
                      : file_same(output, options.log_path)      ? "--log"
                      : NULL;
    if (clash) { /* games appended to the openings or the log would spoil both */
        fprintf(stderr, "octuple-match: --output %s is also the %s file; name another\n",
                output, clash);
        free(openings);
        return EXIT_USAGE;
    }
    FILE *event_log = NULL;
    if (options.log_path) {
        OctError log_error;
        int fd = file_open_append(options.log_path, O_CREAT, &log_error);
        if (fd >= 0 && !(event_log = fdopen(fd, "a"))) {
            error_set(&log_error, "%s: %s", options.log_path, strerror(errno));
            close(fd);
        }
        if (!event_log) {
            fprintf(stderr, "octuple-match: %s\n", log_error.message);
            free(openings);
            return EXIT_FAILURE;
        }
    }
    MatchConfig config;
    memset(&config, 0, sizeof config);
    memcpy(config.engines, options.engines, sizeof config.engines);
    config.openings = openings;
    config.opening_count = count;
    config.concurrency = options.concurrency;
    config.timeout = options.timeout;
    config.start_timeout = options.start_timeout;
    config.clock = options.clock;
    config.output = output;
    config.resume = options.resume;
    config.overwrite = options.force;
    config.log = stderr;
    config.event_log = event_log;
    config.progress = !options.quiet;
    config.progress_tty = tty;
    config.stop = &interrupted;

    char clock[GGF_TEXT_SIZE];
    match_clock_format(&config.clock, clock, sizeof clock);
    char banner[2 * MATCH_NAME_SIZE + 2 * GGF_TEXT_SIZE + 4096];
    snprintf(banner, sizeof banner,
             "%s vs %s: %zu openings (%s), %zu games, %d at a time, %g s per move%s%s",
             config.engines[0].name, config.engines[1].name, count,
             options.openings_path ? options.openings_path : "generated", 2 * count,
             config.concurrency, config.timeout, clock[0] ? ", a clock of " : "", clock);
    config.banner = banner;
    config.banner_out = stdout;
    MatchStats stats;
    MatchRunInfo info;
    bool ok = match_run(&config, &stats, &info, &error);
    if (!ok)
        fprintf(stderr, "octuple-match: %s\n", error.message);
    if (stats.games) {
        if (info.resumed)
            printf("%d games read back from %s, %d played now\n", info.resumed, config.output,
                   info.played);
        const char *names[MATCH_ENGINES] = {config.engines[0].name, config.engines[1].name};
        match_stats_print(&stats, names, stdout);
    }
    if (ok && info.interrupted)
        fprintf(stderr, "octuple-match: interrupted after %d of %d games%s\n",
                info.resumed + info.played, info.total,
                config.output ? ": continue with --resume" : "");
    match_stats_free(&stats);
    if (event_log)
        fclose(event_log);
    free(openings);
    if (!ok)
        return EXIT_FAILURE;
    return info.interrupted ? EXIT_INTERRUPTED : EXIT_SUCCESS;
}

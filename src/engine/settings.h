/* The engine's settings as one value, and the one table of settings that drives the
 * command-line options (--depth 8), the REPL option commands (depth 8), `options` and the
 * help of both. Nothing here is global: every front end holds its own EngineSettings. */
#ifndef OCTUPLE_SETTINGS_H
#define OCTUPLE_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

enum {
    SETTINGS_PATH_SIZE = 4096,
    SETTINGS_MAX_THREADS = 64,
    SETTINGS_MAX_HASH = 1 << 16, /* megabytes */
    /* centidiscs either way: 2 discs, search.h's SEARCH_MAX_DRAW (the GUI sends 100, 0 or
     * -100) */
    SETTINGS_MAX_CONTEMPT = 200,
    SETTINGS_DEFAULT_DEPTH = 7,
    SETTINGS_DEFAULT_EXACT = 20,
    SETTINGS_DEFAULT_HASH = 128,
    SETTINGS_CLOCK_SIZE = 64,
    SETTINGS_NAME_SIZE = 64
};

typedef struct EngineSettings {
    int depth;          /* midgame depth in plies, 1..60 */
    int exact;          /* solve exactly at or below this many empties, 0..60 */
    int wld;            /* above `exact`, up to this many empties: prove only win, draw or
                           loss, 0..60 (0: never) */
    int threads;        /* search threads, 1..SETTINGS_MAX_THREADS */
    int hash_megabytes; /* transposition table */
    double seconds;     /* time per search, 0 = no limit */
    /* the engine's clock for a whole game in the console, as GGF's TI writes it
     * ("5:00", "10:00/5"); "" = none */
    char game_time[SETTINGS_CLOCK_SIZE];
    /* the user's name in the console's saved games ("" = $USER) */
    char player_name[SETTINGS_NAME_SIZE];
    int verbose;        /* REPL output: 0 moves only, 1 search table, 2 also hint iterations */
    int contempt;       /* draw value for black in centidiscs, within +-SETTINGS_MAX_CONTEMPT
                           (NBoard `set contempt`) */
    bool use_book;
    int book_randomness; /* play any book move within this many discs of the best (0: the best) */
    char weights[SETTINGS_PATH_SIZE]; /* "" = the default weights (paths.h) */
    char book[SETTINGS_PATH_SIZE];    /* "" = the default book */
    const char *program; /* argv[0]: data is looked for beside the executable */
} EngineSettings;

/* Defaults: depth 7, exact 20, one thread per online core, 128 MB, no time limit,
 * verbose 1, book on; weights from $OCTUPLE_WEIGHTS when set. */
void settings_init(EngineSettings *settings, const char *program);

/* The exact-solve threshold that goes with a midgame depth (`level N`, NBoard
 * `set depth N`); the table is in settings.c and in the man page. */
int settings_exact_for_depth(int depth);

/* The largest table size the settings accept, in megabytes: the physical memory, at most
 * SETTINGS_MAX_HASH. */
int settings_max_hash(void);

typedef struct SettingSpec {
    const char *command;  /* REPL command name */
    const char *option;   /* command-line option name, without the dashes */
    const char *argument; /* what the value is, for help */
    const char *help;
    /* the error says what was wrong and expected, without the setting's name */
    bool (*apply)(EngineSettings *settings, const char *value, OctError *error);
    void (*show)(const EngineSettings *settings, char *out, size_t size);
} SettingSpec;

/* The table, `count` rows. */
const SettingSpec *settings_table(int *count);
/* Looks a setting up by REPL command name (case-insensitive) or option name. */
const SettingSpec *settings_find_command(const char *name);
const SettingSpec *settings_find_option(const char *name, size_t length);

#endif

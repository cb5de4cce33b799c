#include "engine/settings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/gameclock.h"
#include "core/parse.h"

/* Midgame depth -> exact-solve threshold in empties, for every depth from the first row's
 * up to the next row's. The rows follow the levels the NBoard GUI offers. Solving takes
 * about as long as the midgame search of the same level: 20 empties solve in about a second
 * (0.6 s for FFO #40 on one core of the development machine), each further empty costs about 2x. */
static const struct {
    int depth;
    int exact;
} exact_table[] = {
    {1, 8},   {2, 10},  {3, 12},  {4, 14},  {5, 16},  {6, 18},  {7, 20},
    {8, 21},  {10, 22}, {12, 23}, {16, 24}, {20, 26}, {24, 28}, {26, 29},
    {30, 30}, {35, 32}, {40, 34}, {50, 40}, {60, 60},
};

int settings_exact_for_depth(int depth)
{
    int exact = exact_table[0].exact;
    for (size_t i = 0; i < sizeof exact_table / sizeof exact_table[0]; ++i)
        if (depth >= exact_table[i].depth)
            exact = exact_table[i].exact;
    return exact;
}

void settings_init(EngineSettings *settings, const char *program)
{
    memset(settings, 0, sizeof *settings);
    settings->depth = SETTINGS_DEFAULT_DEPTH;
    settings->exact = SETTINGS_DEFAULT_EXACT;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    settings->threads = cores < 1 ? 1 : cores > SETTINGS_MAX_THREADS ? SETTINGS_MAX_THREADS
                                                                     : (int)cores;
    settings->hash_megabytes = SETTINGS_DEFAULT_HASH;
    settings->verbose = 1;
    settings->use_book = true;
    const char *weights = getenv("OCTUPLE_WEIGHTS");
    if (weights && strlen(weights) < sizeof settings->weights)
        strcpy(settings->weights, weights);
    settings->program = program;
}

static bool apply_level(EngineSettings *settings, const char *value, OctError *error)
{
    int depth;
    if (!parse_int(value, 1, 60, &depth))
        return error_set(error, "'%s' is not a level from 1 to 60", value);
    settings->depth = depth;
    settings->exact = settings_exact_for_depth(depth);
    return true;
}

static void show_level(const EngineSettings *settings, char *out, size_t size)
{
    int exact = settings_exact_for_depth(settings->depth);
    if (settings->exact == exact)
        snprintf(out, size, "%d (depth %d, exact at %d empties)", settings->depth,
                 settings->depth, settings->exact);
    else /* depth and exact set one by one: no row of the level table */
        snprintf(out, size, "none (depth %d, exact at %d empties; level %d solves at %d)",
                 settings->depth, settings->exact, settings->depth, exact);
}

static bool apply_depth(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 1, 60, &settings->depth))
        return error_set(error, "'%s' is not a depth from 1 to 60", value);
    return true;
}

static void show_depth(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d", settings->depth);
}

static bool apply_exact(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 0, 60, &settings->exact))
        return error_set(error, "'%s' is not a number of empties from 0 to 60", value);
    return true;
}

static void show_exact(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d", settings->exact);
}

static bool apply_wld(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 0, 60, &settings->wld))
        return error_set(error, "'%s' is not a number of empties from 0 to 60 (0: never)",
                         value);
    return true;
}

static void show_wld(const EngineSettings *settings, char *out, size_t size)
{
    if (settings->wld > settings->exact)
        snprintf(out, size, "%d", settings->wld);
    else if (settings->wld > 0)
        snprintf(out, size, "%d (no effect in play: exact solves start at %d)", settings->wld,
                 settings->exact);
    else
        snprintf(out, size, "0 (never)");
}

static bool apply_threads(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 1, SETTINGS_MAX_THREADS, &settings->threads))
        return error_set(error, "'%s' is not a count from 1 to %d", value,
                         SETTINGS_MAX_THREADS);
    return true;
}

static void show_threads(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d", settings->threads);
}

int settings_max_hash(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return SETTINGS_MAX_HASH;
    double megabytes = (double)pages * (double)page / (1 << 20);
    return megabytes < SETTINGS_MAX_HASH ? (int)megabytes : SETTINGS_MAX_HASH;
}

static bool apply_hash(EngineSettings *settings, const char *value, OctError *error)
{
    int megabytes;
    if (!parse_int(value, 1, SETTINGS_MAX_HASH, &megabytes))
        return error_set(error, "'%s' is not a size from 1 to %d MB", value,
                         SETTINGS_MAX_HASH);
    /* the allocation may succeed (memory is overcommitted), but every new game clears the
     * whole table, and the kernel then kills the process */
    int limit = settings_max_hash();
    if (megabytes > limit)
        return error_set(error, "%d MB is more than this machine's physical memory (%d MB)",
                         megabytes, limit);
    settings->hash_megabytes = megabytes;
    return true;
}

static void show_hash(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d MB", settings->hash_megabytes);
}

static bool apply_time(EngineSettings *settings, const char *value, OctError *error)
{
    double seconds;
    if (!parse_double(value, 0, 1e6, &seconds)) /* a plain decimal, blanks after it allowed */
        return error_set(error, "'%s' is not a number of seconds (0 = no limit)", value);
    settings->seconds = seconds;
    return true;
}

static void show_time(const EngineSettings *settings, char *out, size_t size)
{
    if (settings->seconds > 0)
        snprintf(out, size, "%g s per search", settings->seconds);
    else
        snprintf(out, size, "0 (no limit)");
}

/* Checked as a GGF clock, and kept as written: the console hands it to the game's record,
 * where gameclock_from_record reads it as NBoard's TI. */
static bool apply_game_time(EngineSettings *settings, const char *value, OctError *error)
{
    while (*value == ' ')
        ++value;
    size_t length = strlen(value);
    while (length > 0 && value[length - 1] == ' ')
        --length;
    char text[SETTINGS_CLOCK_SIZE];
    if (length >= sizeof text)
        return error_set(error, "'%.40s...' is too long for a clock", value);
    memcpy(text, value, length);
    text[length] = '\0';
    GgfClock clock;
    if (length == 0 || !gameclock_parse_ggf(text, &clock, NULL))
        return error_set(error, "'%s' is not a clock: MAIN[/INCREMENT] in [[H:]M:]S, such as "
                         "300, 5:00 or 10:00/5 (0 for none)", text);
    if (clock.main <= 0 && clock.increment <= 0 && clock.grace <= 0)
        text[0] = '\0'; /* no clock, as TI[0] is an untimed game */
    strcpy(settings->game_time, text);
    return true;
}

static void show_game_time(const EngineSettings *settings, char *out, size_t size)
{
    if (settings->game_time[0])
        snprintf(out, size, "%s for the engine's moves of a game", settings->game_time);
    else
        snprintf(out, size, "0 (no clock)");
}

/* One printable line: it goes into a GGF tag as it is. */
static bool apply_name(EngineSettings *settings, const char *value, OctError *error)
{
    while (*value == ' ')
        ++value;
    size_t length = strlen(value);
    while (length > 0 && value[length - 1] == ' ')
        --length;
    if (length == 0)
        return error_set(error, "a name is expected");
    if (length >= sizeof settings->player_name)
        return error_set(error, "a name of %zu characters is too long (at most %zu)", length,
                         sizeof settings->player_name - 1);
    for (size_t i = 0; i < length; ++i)
        if ((unsigned char)value[i] < 0x20 || value[i] == 0x7f)
            return error_set(error, "a name cannot hold control characters");
    memcpy(settings->player_name, value, length);
    settings->player_name[length] = '\0';
    return true;
}

static void show_name(const EngineSettings *settings, char *out, size_t size)
{
    const char *user = getenv("USER");
    if (settings->player_name[0])
        snprintf(out, size, "%s", settings->player_name);
    else
        snprintf(out, size, "(from $USER: %s)", user && user[0] ? user : "unset");
}

static bool apply_verbose(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 0, 2, &settings->verbose))
        return error_set(error, "'%s' is not 0, 1 or 2", value);
    return true;
}

static void show_verbose(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d", settings->verbose);
}

static bool apply_contempt(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, -SETTINGS_MAX_CONTEMPT, SETTINGS_MAX_CONTEMPT, &settings->contempt))
        return error_set(error, "'%s' is not a number of centidiscs from %d to %d", value,
                         -SETTINGS_MAX_CONTEMPT, SETTINGS_MAX_CONTEMPT);
    return true;
}

static void show_contempt(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%d centidiscs", settings->contempt);
}

static bool apply_path(char *field, const char *value, OctError *error)
{
    if (!*value)
        return error_set(error, "a file name is expected");
    if (strlen(value) >= SETTINGS_PATH_SIZE)
        return error_set(error, "the file name is too long");
    strcpy(field, value);
    return true;
}

static bool apply_weights(EngineSettings *settings, const char *value, OctError *error)
{
    return apply_path(settings->weights, value, error);
}

static void show_weights(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%s", settings->weights[0] ? settings->weights : "(default)");
}

static bool apply_book(EngineSettings *settings, const char *value, OctError *error)
{
    if (!apply_path(settings->book, value, error))
        return false;
    settings->use_book = true;
    return true;
}

static void show_book(const EngineSettings *settings, char *out, size_t size)
{
    snprintf(out, size, "%s%s", settings->book[0] ? settings->book : "(default)",
             settings->use_book ? "" : " (off)");
}

static bool apply_book_randomness(EngineSettings *settings, const char *value, OctError *error)
{
    if (!parse_int(value, 0, 64, &settings->book_randomness))
        return error_set(error, "'%s' is not a number of discs from 0 to 64", value);
    return true;
}

static void show_book_randomness(const EngineSettings *settings, char *out, size_t size)
{
    if (settings->book_randomness > 0)
        snprintf(out, size, "%d (any book move within %d discs of the best)",
                 settings->book_randomness, settings->book_randomness);
    else
        snprintf(out, size, "0 (always the best book move)");
}

static const SettingSpec setting_specs[] = {
    {"level", "level", "N", "depth N and the exact-solve threshold of the level table",
     apply_level, show_level},
    {"depth", "depth", "N", "midgame search depth in plies (default 7)", apply_depth, show_depth},
    {"exact", "exact", "N", "solve exactly at N empties or fewer (default 20)", apply_exact,
     show_exact},
    {"wld", "wld", "N",
     "win/draw/loss only at N empties or fewer above --exact, and in --solve (default 0: never)",
     apply_wld, show_wld},
    {"threads", "threads", "N", "search threads (default: one per core)", apply_threads,
     show_threads},
    {"hash", "hash", "MB", "transposition table size in megabytes (default 128)", apply_hash,
     show_hash},
    {"time", "time", "SECONDS", "time limit per search, 0 for none (default 0)", apply_time,
     show_time},
    {"game-time", "game-time", "CLOCK",
     "the engine's time for a game in the console, such as 5:00 or 10:00/5 (default 0: none)",
     apply_game_time, show_game_time},
    {"weights", "weights", "FILE", "evaluation weights (.ow) to load", apply_weights,
     show_weights},
    {"book-file", "book", "FILE", "opening book file (default: the learned one, else octuple.book)",
     apply_book, show_book},
    {"book-randomness", "book-randomness", "DISCS",
     "play any book move within DISCS of the best, drawn at random (default 0: the best)",
     apply_book_randomness, show_book_randomness},
    {"name", "name", "NAME", "your name in saved games (default: $USER)", apply_name,
     show_name},
    {"verbose", "verbose", "0-2", "search output: 0 moves only, 1 search table, 2 also hints",
     apply_verbose, show_verbose},
    {"contempt", "contempt", "CENTIDISCS",
     "what a draw is worth to black, -200..200 (midgame searches)",
     apply_contempt, show_contempt},
};
enum { SETTING_COUNT = sizeof setting_specs / sizeof setting_specs[0] };

const SettingSpec *settings_table(int *count)
{
    *count = SETTING_COUNT;
    return setting_specs;
}

const SettingSpec *settings_find_command(const char *name)
{
    for (int i = 0; i < SETTING_COUNT; ++i)
        if (!strcasecmp(setting_specs[i].command, name))
            return &setting_specs[i];
    return NULL;
}

const SettingSpec *settings_find_option(const char *name, size_t length)
{
    for (int i = 0; i < SETTING_COUNT; ++i)
        if (strlen(setting_specs[i].option) == length &&
            !strncmp(setting_specs[i].option, name, length))
            return &setting_specs[i];
    return NULL;
}

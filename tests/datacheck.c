/* Data check: reads the real databases (WTHOR, Logistello's logbook, the FForum OBF sets) with
 * the library readers, replays every game and prints what it found per source.
 * Usage: datacheck DATA_DIR. Exit 0 when everything parsed and no count is zero, 1 otherwise,
 * 77 (automake's "skipped") when DATA_DIR does not exist. Not a Check program: `make check`
 * must pass without the data, so this runs only through `make datacheck`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/game.h"
#include "core/logbook.h"
#include "core/obf.h"
#include "core/wthor.h"

enum { SHOWN_ERRORS = 5 };

typedef struct Tally {
    const char *name;
    long files;
    long games;
    long positions; /* plies replayed, passes included */
    long finished;
    long errors;
    char shown[SHOWN_ERRORS][ERROR_MESSAGE_SIZE];
} Tally;

static void tally_error(Tally *t, const char *message)
{
    if (t->errors < SHOWN_ERRORS)
        snprintf(t->shown[t->errors], sizeof t->shown[0], "%s", message);
    ++t->errors;
}

static void tally_game(Tally *t, const Game *game)
{
    ++t->games;
    t->positions += game->move_count;
    if (game_is_over(game))
        ++t->finished;
}

static void tally_print(const Tally *t)
{
    printf("%s: files %ld, games %ld, positions %ld, finished games %ld, errors %ld\n", t->name,
           t->files, t->games, t->positions, t->finished, t->errors);
    for (long i = 0; i < t->errors && i < SHOWN_ERRORS; ++i)
        printf("  error: %s\n", t->shown[i]);
    if (t->errors > SHOWN_ERRORS)
        printf("  ... and %ld more errors\n", t->errors - SHOWN_ERRORS);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name);
    size_t s = strlen(suffix);
    return n >= s && strcmp(name + n - s, suffix) == 0;
}

static int is_wtb(const struct dirent *entry)
{
    return strncmp(entry->d_name, "WTH_", 4) == 0 && has_suffix(entry->d_name, ".wtb");
}

static int is_obf(const struct dirent *entry)
{
    return has_suffix(entry->d_name, ".obf");
}

/* Sorted file names of a directory (sorted so the output is stable); -1 when it is missing. */
static int list_dir(const char *dir, int (*filter)(const struct dirent *),
                    struct dirent ***entries)
{
    return scandir(dir, entries, filter, alphasort);
}

static void free_list(struct dirent **entries, int n)
{
    for (int i = 0; i < n; ++i)
        free(entries[i]);
    free(entries);
}

/* Returns false when something failed or a count is zero. */
static bool check_wthor(const char *data)
{
    char dir[4096];
    char path[8192];
    snprintf(dir, sizeof dir, "%s/wthor", data);
    Tally t = {.name = "WTHOR"};
    bool ok = true;
    OctError error;
    WthorHeader header;

    WthorName *names = NULL;
    size_t players = 0;
    size_t tournaments = 0;
    snprintf(path, sizeof path, "%s/WTHOR.JOU", dir);
    if (wthor_read_players(path, &header, &names, &players, &error)) {
        free(names);
        ++t.files;
    } else {
        tally_error(&t, error.message);
    }
    snprintf(path, sizeof path, "%s/WTHOR.TRN", dir);
    if (wthor_read_tournaments(path, &header, &names, &tournaments, &error)) {
        free(names);
        ++t.files;
    } else {
        tally_error(&t, error.message);
    }

    struct dirent **entries;
    int n = list_dir(dir, is_wtb, &entries);
    if (n < 0) {
        snprintf(error.message, sizeof error.message, "%.400s: cannot list the directory", dir);
        tally_error(&t, error.message);
        n = 0;
        entries = NULL;
    }
    long wtb_files = 0;
    long agree = 0;
    long bad_index = 0;
    long theoretical_range = 0;
    for (int i = 0; i < n; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, entries[i]->d_name);
        WthorGame *games;
        size_t count;
        if (!wthor_read_games(path, &header, &games, &count, &error)) {
            tally_error(&t, error.message);
            continue;
        }
        ++t.files;
        ++wtb_files;
        for (size_t g = 0; g < count; ++g) {
            const WthorGame *w = &games[g];
            tally_game(&t, &w->game);
            /* The real score counts black discs with empties to the winner, exactly what the
             * replayed disc difference d gives as (64 + d) / 2. */
            if (game_is_over(&w->game) && (64 + game_black_score(&w->game)) / 2 == w->real_score)
                ++agree;
            if ((size_t)w->black >= players || (size_t)w->white >= players ||
                (size_t)w->tournament >= tournaments)
                ++bad_index;
            if (w->theoretical_score > 64)
                ++theoretical_range;
        }
        free(games);
    }
    free_list(entries, n);
    tally_print(&t);
    printf("  .wtb files %ld; WTHOR.JOU players %zu; WTHOR.TRN tournaments %zu\n", wtb_files,
           players, tournaments);
    printf("  real score agrees with the replayed final score: %ld of %ld finished games "
           "(%ld unfinished games cannot be compared)\n", agree, t.finished,
           t.games - t.finished);
    printf("  player or tournament index out of range: %ld; theoretical score above 64: %ld\n",
           bad_index, theoretical_range);
    if (t.errors > 0 || wtb_files == 0 || t.games == 0 || t.positions == 0 || players == 0 ||
        tournaments == 0)
        ok = false;
    return ok;
}

static bool check_logbook(const char *data)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/logbook.gam.gz", data);
    Tally t = {.name = "logbook"};
    long agree = 0;
    OctError error;
    LogbookReader *reader = logbook_open(path, &error);
    if (!reader) {
        tally_error(&t, error.message);
    } else {
        ++t.files;
        LogbookGame game;
        LogbookStatus status;
        while ((status = logbook_next(reader, &game, &error)) != LOGBOOK_END) {
            if (status == LOGBOOK_ERROR) {
                tally_error(&t, error.message);
                continue;
            }
            tally_game(&t, &game.game);
            /* logbook_next already refuses a mismatch; this counts the confirmed games. */
            if (game_is_over(&game.game) && logbook_final_score(&game.game) == game.score)
                ++agree;
        }
        logbook_close(reader);
    }
    tally_print(&t);
    printf("  stated score equals the replayed final score: %ld of %ld finished games\n", agree,
           t.finished);
    return t.errors == 0 && t.files > 0 && t.games > 0 && t.positions > 0;
}

static bool check_ffo(const char *data)
{
    char dir[4096];
    char path[8192];
    snprintf(dir, sizeof dir, "%s/ffo", data);
    long files = 0;
    long positions = 0;
    long with_scores = 0;
    long errors = 0;
    struct dirent **entries;
    int n = list_dir(dir, is_obf, &entries);
    if (n < 0) {
        printf("FForum OBF: %s: cannot list the directory\n", dir);
        return false;
    }
    for (int i = 0; i < n; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, entries[i]->d_name);
        ObfPosition *list;
        size_t count;
        OctError error;
        if (!obf_read_file(path, &list, &count, &error)) {
            printf("  error: %s\n", error.message);
            ++errors;
            continue;
        }
        ++files;
        positions += (long)count;
        for (size_t p = 0; p < count; ++p)
            with_scores += list[p].move_count > 0;
        printf("  %s: %zu positions\n", entries[i]->d_name, count);
        free(list);
    }
    free_list(entries, n);
    printf("FForum OBF: files %ld, positions %ld (%ld with move scores), errors %ld\n", files,
           positions, with_scores, errors);
    return errors == 0 && files > 0 && positions > 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    struct stat info;
    if (stat(argv[1], &info) != 0 || !S_ISDIR(info.st_mode)) {
        printf("datacheck: %s does not exist, skipping\n", argv[1]);
        return 77;
    }
    bool ok = check_wthor(argv[1]);
    ok = check_logbook(argv[1]) && ok;
    ok = check_ffo(argv[1]) && ok;
    printf("datacheck: %s\n", ok ? "all sources read" : "FAILED");
    return ok ? 0 : 1;
}

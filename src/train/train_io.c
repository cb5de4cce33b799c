/* What the octuple-train commands read and write: weights, games, shapes, and the places
 * their outputs go. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/logbook.h"
#include "core/shapefile.h"
#include "core/weights.h"
#include "core/wthor.h"
#include "train/train.h"

/* The model at `path`, or NULL after saying why on standard error. */
Model *train_weights_load(const char *path)
{
    Model *model;
    OctError error;
    if (!model_load(path, &model, &error)) {
        fprintf(stderr, "octuple-train: %s\n", error.message);
        return NULL;
    }
    return model;
}

/* The games of --logbook and --wthor (labelled with their final results) into `set`. */
bool train_games_add(TrainSet *set, const TrainArgs *args, OctError *error)
{
    return (!args->logbook || trainset_add_logbook(set, args->logbook, error))
        && (!args->wthor || trainset_add_wthor(set, args->wthor, WTHOR_TARGET_FINAL, error));
}

/* Every finished game of the named databases, into one malloc'ed array. */
bool train_collect_games(const TrainArgs *args, Game **out, size_t *count, OctError *error)
{
    Game *games = NULL;
    size_t n = 0, capacity = 0;
    if (args->wthor) {
        WthorGame *wthor;
        size_t wthor_count;
        if (!wthor_read_directory(args->wthor, &wthor, &wthor_count, error))
            return false;
        games = malloc(sizeof *games * (wthor_count + 1));
        if (!games) {
            free(wthor);
            return error_set(error, "out of memory");
        }
        for (size_t i = 0; i < wthor_count; ++i)
            games[n++] = wthor[i].game;
        capacity = wthor_count + 1;
        free(wthor);
    }
    if (args->logbook) {
        LogbookReader *reader = logbook_open(args->logbook, error);
        if (!reader) {
            free(games);
            return false;
        }
        LogbookGame game;
        LogbookStatus status;
        while ((status = logbook_next(reader, &game, error)) == LOGBOOK_GAME) {
            if (n == capacity) {
                capacity = capacity ? capacity * 2 : 1024;
                Game *grown = realloc(games, sizeof *games * capacity);
                if (!grown) {
                    status = LOGBOOK_ERROR;
                    error_set(error, "out of memory");
                    break;
                }
                games = grown;
            }
            games[n++] = game.game;
        }
        logbook_close(reader);
        if (status != LOGBOOK_END) {
            free(games);
            return false;
        }
    }
    *out = games;
    *count = n;
    return true;
}

/* A whole number in [low, high] at the start of `text`, `*end` just after it. */
static bool shape_number(const char *text, int low, int high, int *value, const char **end)
{
    char *stop;
    long n = strtol(text, &stop, 10);
    if (stop == text || *text == '-' || *text == '+' || n < low || n > high)
        return false;
    *value = (int)n;
    *end = stop;
    return true;
}

/* A --shape that names a shape file rather than a built-in shape. */
bool train_shape_is_file(const char *name)
{
    return strchr(name, '/') || strstr(name, ".shape");
}

bool train_shape_make(const char *name, uint64_t seed, Shape *shape, OctError *error)
{
    int count, length;
    const char *end;
    if (!strcmp(name, "edax"))
        return shapes_edax(shape, error);
    if (!strcmp(name, "edax-2x5"))
        return shapes_edax_2x5(shape, error);
    if (!strncmp(name, "all-", 4) && name[4] >= '1' && name[4] <= '4' && !name[5])
        return shapes_all_n(name[4] - '0', shape, error);
    if (train_shape_is_file(name))
        return shape_read(name, shape, error);
    if (!strcmp(name, "wpc") || !strcmp(name, "pst")) {
        Tuple tuples[SQUARE_COUNT];
        for (int q = 0; q < SQUARE_COUNT; ++q) {
            uint8_t square = (uint8_t)q;
            if (!tuple_explicit(&square, 1, 1, &tuples[q], error))
                return false;
        }
        return shape_build(shape, name, tuples, SQUARE_COUNT, error);
    }
    if (!strncmp(name, "lucas-", 6) && shape_number(name + 6, 1, 32, &count, &end) && !*end)
        return shapes_snakes(count, 0, seed, shape, error);
    if (!strncmp(name, "rand-", 5) && shape_number(name + 5, 1, 32, &count, &end)
        && *end == 'x' && shape_number(end + 1, 1, TUPLE_MAX_SIZE, &length, &end) && !*end)
        return shapes_snakes(count, length, seed, shape, error);
    return error_set(error, "--shape: unknown shape '%s' (edax, edax-2x5, all-1 .. all-4, "
                            "lucas-N or rand-MxN with N, M up to 32, wpc, pst, or a shape file "
                            "named with a '/' or '.shape')", name);
}

/* Whether files can be made at `path` (a directory when `directory`, else a file whose
 * directory must exist and take files), said on standard error when not: before hours of
 * training rather than after them. */
bool train_output_ready(const char *command, const char *path, bool directory)
{
    char place[4096];
    const char *slash = strrchr(path, '/');
    if (directory)
        snprintf(place, sizeof place, "%s", path);
    else if (!slash)
        snprintf(place, sizeof place, ".");
    else
        snprintf(place, sizeof place, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(place, W_OK | X_OK) != 0) {
        fprintf(stderr, "octuple-train %s: cannot write into %s: %s\n", command, place,
                strerror(errno));
        return false;
    }
    return true;
}

void train_data_name(const TrainArgs *args, bool labels, char *out, size_t size)
{
    const char *options[] = {"--logbook", "--wthor", "--labels"};
    const char *values[] = {args->logbook, args->wthor, labels ? args->labels : NULL};
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < 3; ++i) {
        if (!values[i] || used >= size)
            continue;
        int n = snprintf(out + used, size - used, "%s%s %s", used ? " and " : "", options[i],
                         values[i]);
        used += n > 0 ? (size_t)n : 0;
    }
}

#include "trainset.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logbook.h"
#include "wthor.h"

void trainset_init(TrainSet *set)
{
    memset(set, 0, sizeof *set);
}

void trainset_free(TrainSet *set)
{
    free(set->positions);
    trainset_init(set);
}

static bool trainset_reserve(TrainSet *set, size_t more)
{
    if (set->count + more <= set->capacity)
        return true;
    size_t capacity = set->capacity ? set->capacity * 2 : 1 << 16;
    while (capacity < set->count + more)
        capacity *= 2;
    TrainPosition *grown = realloc(set->positions, capacity * sizeof *grown);
    if (!grown)
        return false;
    set->positions = grown;
    set->capacity = capacity;
    return true;
}

bool trainset_add_game(TrainSet *set, const Game *game)
{
    if (!game_is_over(game) || !trainset_reserve(set, (size_t)game->move_count))
        return false;
    int black_score = game_black_score(game);
    Board board = game->start;
    Color side = game->start_side;
    for (int i = 0; i < game->move_count; ++i) {
        int move = game->moves[i];
        if (move != MOVE_PASS) {
            TrainPosition *position = &set->positions[set->count++];
            position->board = board;
            position->target = (int8_t)(side == COLOR_BLACK ? black_score : -black_score);
            position->move_number = (uint8_t)(64 - board_count_empties(&board) - 4);
            position->game = set->games;
        }
        board_play(&board, move);
        side = (Color)!side;
    }
    ++set->games;
    return true;
}

bool trainset_add_logbook(TrainSet *set, const char *path, OctError *error)
{
    LogbookReader *reader = logbook_open(path, error);
    if (!reader)
        return false;
    LogbookGame game;
    LogbookStatus status;
    while ((status = logbook_next(reader, &game, error)) == LOGBOOK_GAME)
        trainset_add_game(set, &game.game);
    logbook_close(reader);
    return status == LOGBOOK_END;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool trainset_add_wthor(TrainSet *set, const char *directory, OctError *error)
{
    DIR *dir = opendir(directory);
    if (!dir)
        return error_set(error, "%s: cannot open the WTHOR directory", directory);
    char *names[256];
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) && count < 256) {
        size_t length = strlen(entry->d_name);
        if (length > 4 && !strncmp(entry->d_name, "WTH_", 4)
            && !strcmp(entry->d_name + length - 4, ".wtb"))
            names[count++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof names[0], compare_names); /* same order every run */
    bool ok = count > 0 || error_set(error, "%s: no WTH_*.wtb files", directory);
    for (int i = 0; i < count; ++i) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", directory, names[i]);
        WthorHeader header;
        WthorGame *games;
        size_t game_count;
        if (ok && wthor_read_games(path, &header, &games, &game_count, error)) {
            for (size_t g = 0; g < game_count; ++g)
                trainset_add_game(set, &games[g].game);
            free(games);
        } else {
            ok = false;
        }
        free(names[i]);
    }
    return ok;
}

#include "train/trainset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/logbook.h"
#include "core/obf.h"
#include "train/posfile.h"
#include "core/rng.h"
#include "core/wthor.h"

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

/* The positions of a game down to `last_empties` empties, labelled with `black_score`. */
static bool trainset_add_line(TrainSet *set, const Game *game, int black_score,
                              int last_empties)
{
    if (!game_is_over(game) || !trainset_reserve(set, (size_t)game->move_count))
        return false;
    Board board = game->start;
    Color side = game->start_side;
    for (int i = 0; i < game->move_count && board_count_empties(&board) >= last_empties; ++i) {
        int move = game->moves[i];
        if (move != MOVE_PASS) {
            TrainPosition *position = &set->positions[set->count++];
            position->board = board;
            position->target = (int8_t)(side == COLOR_BLACK ? black_score : -black_score);
            position->move_number = (uint8_t)(64 - board_count_empties(&board) - 4);
            position->weight = 1;
            position->game = set->games;
        }
        board_play(&board, move);
        side = (Color)!side;
    }
    ++set->games;
    return true;
}

bool trainset_add_game(TrainSet *set, const Game *game)
{
    return trainset_add_line(set, game, game_black_score(game), 0);
}

bool trainset_add_logbook(TrainSet *set, const char *path, OctError *error)
{
    LogbookReader *reader = logbook_open(path, error);
    if (!reader)
        return false;
    LogbookGame game;
    LogbookStatus status;
    while ((status = logbook_next(reader, &game, error)) == LOGBOOK_GAME)
        set->skipped += !trainset_add_game(set, &game.game); /* unfinished, or no memory */
    logbook_close(reader);
    return status == LOGBOOK_END;
}

bool trainset_add_obf(TrainSet *set, const char *path, int weight, OctError *error)
{
    ObfPosition *positions;
    size_t count;
    if (!obf_read_file(path, &positions, &count, error))
        return false;
    if (!trainset_reserve(set, count)) {
        free(positions);
        return error_set(error, "%s: out of memory for %zu positions", path, count);
    }
    for (size_t i = 0; i < count; ++i) {
        if (positions[i].move_count < 1 || !board_can_move(&positions[i].board)) {
            ++set->skipped;
            continue;
        }
        TrainPosition *position = &set->positions[set->count++];
        position->board = positions[i].board;
        position->target = (int8_t)positions[i].scores[0];
        position->move_number = (uint8_t)(60 - board_count_empties(&positions[i].board));
        position->weight = (uint8_t)weight;
        position->game = set->games++;
    }
    free(positions);
    return true;
}

/* Whether a game passes through a position with exactly `empties` empty squares. */
static bool game_reaches(const Game *game, int empties)
{
    Board board = game->start;
    for (int i = 0; i < game->move_count; ++i) {
        if (board_count_empties(&board) == empties)
            return true;
        board_play(&board, game->moves[i]);
    }
    return board_count_empties(&board) == empties;
}

bool trainset_add_wthor(TrainSet *set, const char *directory, WthorTarget target,
                        OctError *error)
{
    WthorGame *games;
    size_t count;
    if (!wthor_read_directory(directory, &games, &count, error))
        return false;
    for (size_t g = 0; g < count; ++g) {
        const Game *game = &games[g].game;
        int depth = games[g].depth; /* each file's own: their headers may differ */
        bool added = target == WTHOR_TARGET_THEORETICAL && depth > 0
                         && games[g].theoretical_score <= 64 && game_reaches(game, depth)
                   ? trainset_add_line(set, game, 2 * games[g].theoretical_score - 64, depth)
                   : trainset_add_game(set, game);
        set->skipped += !added; /* unfinished (or no memory for it) */
    }
    free(games);
    return true;
}

size_t *trainset_sample_empties(const TrainSet *set, int low, int high, int per_empties,
                                uint64_t seed, size_t *count)
{
    size_t *order = malloc(sizeof *order * (set->count ? set->count : 1));
    int *taken = calloc((size_t)(high >= low ? high - low + 1 : 1), sizeof *taken);
    if (!order || !taken) {
        free(order);
        free(taken);
        return NULL;
    }
    uint64_t state = seed;
    rng_shuffle_indices(order, set->count, &state);
    /* the kept indices overwrite the front of the shuffle, which is read ahead of them */
    size_t kept = 0;
    for (size_t k = 0; k < set->count; ++k) {
        const Board *board = &set->positions[order[k]].board;
        int empties = board_count_empties(board);
        if (empties < low || empties > high || taken[empties - low] >= per_empties
            || !board_can_move(board))
            continue;
        ++taken[empties - low];
        order[kept++] = order[k];
    }
    free(taken);
    *count = kept;
    return order;
}

bool trainset_add_positions(TrainSet *set, const char *path, int weight, PositionTarget target_kind,
                            OctError *error)
{
    PosFile file;
    if (!posfile_read(path, false, &file, NULL, error))
        return false;
    if (!trainset_reserve(set, file.positions)) {
        posfile_free(&file);
        return error_set(error, "%s: out of memory for %zu positions", path, file.positions);
    }
    for (size_t g = 0; g < file.count; ++g) {
        const PosGameInfo *game = &file.games[g];
        for (int i = 0; i < game->count; ++i) {
            const PosRecord *record = &file.records[game->first + (size_t)i];
            bool game_label = record->flags & POSFILE_GAME_LABEL;
            bool search_label = record->flags & POSFILE_SEARCH_LABEL;
            int searched = posfile_search_discs(record);
            int target;
            if (!game_label && !search_label)
                continue;
            if (!search_label || (record->flags & POSFILE_EXACT)
                || (game_label && target_kind == POSITION_TARGET_GAME))
                target = record->score;
            else if (!game_label || target_kind == POSITION_TARGET_SEARCH)
                target = searched;
            else /* the mean, halves rounded to the even neighbour so that no sign is favoured */
                target = (int)lrint((record->score + searched) / 2.0);
            if (!board_can_move(&record->board)) {
                ++set->skipped;
                continue;
            }
            TrainPosition *position = &set->positions[set->count++];
            position->board = record->board;
            position->target = (int8_t)target;
            position->move_number = (uint8_t)(60 - board_count_empties(&record->board));
            position->weight = (uint8_t)weight;
            position->game = set->games;
        }
        ++set->games; /* a game's positions are held out together */
    }
    posfile_free(&file);
    return true;
}

/* Training positions taken from game databases: every position of every game where the side
 * to move has a move, labelled with the game's final disc difference from that side's view. */
#ifndef OCTUPLE_TRAINSET_H
#define OCTUPLE_TRAINSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "game.h"

typedef struct TrainPosition {
    Board board;          /* side to move relative */
    int8_t target;        /* final disc difference for the side to move, empties to the winner */
    uint8_t move_number;  /* discs - 4 */
    uint32_t game;        /* index of the game it came from (for splits by game) */
} TrainPosition;

typedef struct TrainSet {
    TrainPosition *positions;
    size_t count;
    size_t capacity;
    uint32_t games;
} TrainSet;

void trainset_init(TrainSet *set);
void trainset_free(TrainSet *set);
/* Adds the positions of one finished game; unfinished games are skipped (returns false). */
bool trainset_add_game(TrainSet *set, const Game *game);
/* Logistello's logbook.gam (gzip or plain). */
bool trainset_add_logbook(TrainSet *set, const char *path, OctError *error);
/* Positions of an OBF file labelled with their first (best) score, each counted as a game of
 * its own for the train/test split (`octuple-train label` writes such files). */
bool trainset_add_obf(TrainSet *set, const char *path, OctError *error);
/* Every WTH_*.wtb file of a directory. */
bool trainset_add_wthor(TrainSet *set, const char *directory, OctError *error);

#endif

/* Training positions taken from game databases: every position of every game where the side
 * to move has a move, labelled with the game's final disc difference from that side's view. */
#ifndef OCTUPLE_TRAINSET_H
#define OCTUPLE_TRAINSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"

typedef struct TrainPosition {
    Board board;          /* side to move relative */
    int8_t target;        /* final disc difference for the side to move, empties to the winner */
    uint8_t move_number;  /* discs - 4 */
    uint8_t weight;       /* times it is visited per training epoch */
    uint32_t game;        /* index of the game it came from (for splits by game) */
} TrainPosition;

typedef struct TrainSet {
    TrainPosition *positions;
    size_t count;
    size_t capacity;
    uint32_t games;
    size_t skipped; /* left out: unfinished games (logbook, WTHOR; also one there was no
                       memory for) and OBF lines without a move and score */
} TrainSet;

void trainset_init(TrainSet *set);
void trainset_free(TrainSet *set);
/* Adds the positions of one finished game; unfinished games are skipped (returns false). */
bool trainset_add_game(TrainSet *set, const Game *game);
/* Logistello's logbook.gam (gzip or plain). */
bool trainset_add_logbook(TrainSet *set, const char *path, OctError *error);
/* Positions of an OBF file labelled with their first (best) score, each counted as a game of
 * its own for the train/test split (`octuple-train label` writes such files), visited
 * `weight` times per epoch (1..255). */
bool trainset_add_obf(TrainSet *set, const char *path, int weight, OctError *error);

/* Which label a position of a positions file is fitted to before its game's exact part. The
 * result of a game the engine played against itself carries every later mistake of both
 * sides; a search's score carries the network's own bias instead (Engel: minimax-backed
 * targets beat game results). Exactly labelled positions always take their exact score. */
typedef enum PositionTarget {
    POSITION_TARGET_GAME,   /* the game's result where the game labels it, else the search */
    POSITION_TARGET_SEARCH, /* the search's score where there is one, else the game's result */
    POSITION_TARGET_MEAN    /* the mean of the two where both are there (rounded to even) */
} PositionTarget;

/* The labelled positions of a positions file (posfile.h), labelled as `target` says; a
 * game's positions count as one game for the held-out split. */
bool trainset_add_positions(TrainSet *set, const char *path, int weight, PositionTarget target,
                            OctError *error);
/* How WTHOR positions are labelled. People err all game long, so their final result is a
 * noisy label; the database's theoretical score is exact at its depth (24 empties) and
 * carries only the errors made before it. */
typedef enum WthorTarget {
    WTHOR_TARGET_FINAL,       /* every position, labelled with the final result */
    WTHOR_TARGET_THEORETICAL  /* positions up to their file's solving depth, labelled with
                                 the theoretical score (games that end earlier, or of a
                                 file without a solving depth: final result) */
} WthorTarget;

/* Indices of positions with `low`..`high` empties where the side to move has a move, at
 * most `per_empties` at each count, in the order of a shuffle seeded by `seed` (the same
 * set and seed give the same sample). Malloc'ed, its length in *count; NULL when out of
 * memory. The probability-cut fits measure these. */
size_t *trainset_sample_empties(const TrainSet *set, int low, int high, int per_empties,
                                uint64_t seed, size_t *count);
/* Every WTH_*.wtb file of a directory. */
bool trainset_add_wthor(TrainSet *set, const char *directory, WthorTarget target,
                        OctError *error);

#endif

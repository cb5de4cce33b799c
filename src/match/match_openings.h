/* octuple-match: the openings a match plays, each twice with colours swapped.
 *
 * From a file: move strings from the standard start, one per line (blank lines and lines
 * starting with '#' or '%' are skipped), or GGF records (a file holding "(;"), whose start
 * position and moves form the opening. From the generator: random lines of `plies` moves
 * from the standard start, kept when Octuple's own search scores the final position within
 * +-balance discs and when no kept opening reaches the same position up to symmetry. The
 * generator is deterministic: the same seed, depth and weights give the same list, and a
 * longer list starts with the shorter one (resuming a match relies on this). */
#ifndef OCTUPLE_MATCH_OPENINGS_H
#define OCTUPLE_MATCH_OPENINGS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"
#include "core/model.h"

/* Reads every opening of `path` into a malloc'ed array. Openings that are finished games
 * are refused (file:line in the message). */
bool match_openings_read(const char *path, Game **openings, size_t *count, OctError *error);

typedef struct MatchGenerateSpec {
    int count;          /* openings wanted */
    int plies;          /* random moves from the standard start */
    double balance;     /* keep |score| <= balance discs */
    int depth;          /* search depth used to score */
    uint64_t seed;
    const Model *model; /* the evaluation (not owned) */
    const atomic_int *stop; /* may be NULL: raised (Ctrl-C), generation ends with an error */
} MatchGenerateSpec;

/* Called after each candidate line: openings kept so far and lines tried. */
typedef void (*MatchGenerateProgress)(void *context, int kept, int tried);

/* Generates spec->count openings into a malloc'ed array; `scores` (may be NULL) receives a
 * malloc'ed array of their search scores in discs, from the side to move's view. Fails
 * when the balance is too strict to find them within 1000 lines per opening. */
bool match_openings_generate(const MatchGenerateSpec *spec, Game **openings, double **scores,
                             MatchGenerateProgress progress, void *context, OctError *error);

/* Writes the openings as move strings, one per line, atomically. */
bool match_openings_write(const char *path, const Game *openings, size_t count,
                          OctError *error);

/* The same position up to the 8 symmetries, with the same colour to move. */
uint64_t match_position_key(const Board *board, Color side);

#endif

/* Labelled positions in a compact binary file of Octuple's own (.opos): what the self-play
 * generator writes, `merge` combines and `regress --positions` trains on.
 *
 * Layout, all integers little-endian:
 *   header, 64 bytes: magic "OCTPOS\r\n", u32 version (1), u32 header size (64), u64 seed,
 *     u64 first game, u32 settings (a hash of the generator's settings and network; 0 in a
 *     merged file), u32 kind (1 generated, 2 merged), 20 reserved zero bytes, u32 checksum
 *     of the 60 bytes before it;
 *   then games, each a block: u32 "GAME", u32 position count, u64 seed, u64 game number,
 *     the positions (20 bytes each: u64 player, u64 opponent, side to move's view; i8 the
 *     game's final disc difference for the side to move; u8 flags; i16 a search's score in
 *     1/128 disc), u32 checksum of the block's bytes before it.
 * A block is the unit of appending: a run that is killed leaves at most one partial block at
 * the end, which a resumed run cuts off; any other damage is refused. */
#ifndef OCTUPLE_POSFILE_H
#define OCTUPLE_POSFILE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/scale.h"

enum {
    POSFILE_HEADER_SIZE = 64,
    POSFILE_RECORD_SIZE = 20,
    POSFILE_BLOCK_OVERHEAD = 28, /* 24 bytes before the positions, 4 after */
    POSFILE_VERSION = 1,
    POSFILE_KIND_GENERATED = 1,
    POSFILE_KIND_MERGED = 2,
    POSFILE_MAX_GAME_POSITIONS = 128, /* 60 moves, passes recorded as nothing */
    /* record flags */
    POSFILE_GAME_LABEL = 1,   /* `score` is the game's result from this position */
    POSFILE_EXACT = 2,        /* ... and exact: both sides played perfectly from here */
    POSFILE_SEARCH_LABEL = 4  /* `search` holds a search's score */
};

typedef struct PosRecord {
    Board board;
    int8_t score;   /* final disc difference, side to move's view */
    uint8_t flags;
    int16_t search; /* 1/128 disc, side to move's view */
} PosRecord;

/* A record's search label in whole discs, as the trainer and the error measure read it. */
static inline int posfile_search_discs(const PosRecord *record)
{
    return (int)lround(record->search / (double)EVAL_DISC);
}

typedef struct PosHeader {
    uint64_t seed;
    uint64_t first_game;
    uint32_t settings;
    uint32_t kind;
} PosHeader;

typedef struct PosGame {
    uint64_t seed;
    uint64_t number;
    int count;
    PosRecord records[POSFILE_MAX_GAME_POSITIONS];
} PosGame;

/* A game of a file read whole: its positions are records[first .. first + count - 1]. */
typedef struct PosGameInfo {
    uint64_t seed;
    uint64_t number;
    size_t first;
    int count;
} PosGameInfo;

/* A whole file in memory: the header, its games in file order and their positions. */
typedef struct PosFile {
    PosHeader header;
    PosGameInfo *games;
    size_t count;
    PosRecord *records;
    size_t positions;
} PosFile;

/* The 64-byte header, and one game's block (returns its length; `out` holds at least
 * posfile_block_size(game->count) bytes). */
void posfile_header_encode(const PosHeader *header, unsigned char out[POSFILE_HEADER_SIZE]);
size_t posfile_block_size(int count);
size_t posfile_block_encode(const PosGame *game, unsigned char *out);

/* Reads `path` whole. With `allow_partial_tail`, a last block cut short (an interrupted
 * run) is left out and *valid_length says where the good part ends; otherwise it is an
 * error. Any other damage is an error naming the file and the byte offset. */
bool posfile_read(const char *path, bool allow_partial_tail, PosFile *file,
                  size_t *valid_length, OctError *error);
void posfile_free(PosFile *file);

/* Writes a whole file atomically (merge). */
bool posfile_write(const char *path, const PosFile *file, OctError *error);

/* The position's smallest image under the 8 symmetries: equal for symmetric duplicates. */
Board posfile_canonical(const Board *board);

#endif

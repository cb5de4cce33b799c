/* WTHOR, the French Othello Federation's tournament database: `.wtb` games, `.jou` players and
 * `.trn` tournaments, each a 16-byte header and fixed-size little-endian records.
 * Readers decode byte by byte and check the file size against the header before using it;
 * on error the outputs are left untouched. Writers go through a temporary file and a rename,
 * so a failed write never leaves a half-written file behind. */
#ifndef OCTUPLE_WTHOR_H
#define OCTUPLE_WTHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/game.h"

enum {
    WTHOR_HEADER_SIZE = 16,
    WTHOR_GAME_SIZE = 68,
    WTHOR_GAME_MOVES = 60,
    WTHOR_PLAYER_SIZE = 20,     /* bytes per name in .jou */
    WTHOR_TOURNAMENT_SIZE = 26, /* bytes per name in .trn */
    WTHOR_NAME_SIZE = WTHOR_TOURNAMENT_SIZE + 1 /* room for either name plus NUL */
};

typedef struct WthorHeader {
    int century;           /* file creation date: century (20), year in century, month, day */
    int year;
    int month;
    int day;
    uint32_t game_count;   /* .wtb; 0 in .jou/.trn */
    uint16_t record_count; /* players (.jou) or tournaments (.trn); 0 in .wtb */
    uint16_t game_year;    /* year the games were played (.wtb) */
    int board_size;        /* 8 */
    int game_type;
    int depth;             /* empties at which the theoretical score was computed */
    int reserved;
} WthorHeader;

typedef struct WthorGame {
    Game game;             /* from the standard start, passes made explicit */
    int tournament;        /* index into the .trn names */
    int black;             /* indices into the .jou names */
    int white;
    int real_score;        /* black discs at the end, empties to the winner */
    int theoretical_score; /* black discs under perfect play from `depth` empties */
    int depth;             /* those empties: its file's header says (0: no score) */
} WthorGame;

/* A player or tournament name: the raw bytes (Latin-1), NUL-terminated. */
typedef struct WthorName {
    char text[WTHOR_NAME_SIZE];
} WthorName;

/* Reads a .wtb file. `games` receives a malloc'ed array (free() it; NULL when there are none).
 * Errors name the file, the 1-based record and why, e.g.
 * "WTH_1999.wtb: record 12: move 33 (c4): illegal for white". */
bool wthor_read_games(const char *path, WthorHeader *header, WthorGame **games, size_t *count,
                      OctError *error);
/* Every WTH_*.wtb file of a directory, in name order (so, by year), as one malloc'ed array
 * (free() it); each game keeps its own file's solving depth. On error nothing is returned
 * and the message names the file. */
bool wthor_read_directory(const char *directory, WthorGame **games, size_t *count,
                          OctError *error);
/* Reads a .jou / .trn file into a malloc'ed array of names (free() it). */
bool wthor_read_players(const char *path, WthorHeader *header, WthorName **names,
                        size_t *count, OctError *error);
bool wthor_read_tournaments(const char *path, WthorHeader *header, WthorName **names,
                            size_t *count, OctError *error);

/* Writers: the header's counts are taken from `count`, its other fields as given. Games must
 * start from the standard position; names must fit their field (20 or 26 bytes). */
bool wthor_write_games(const char *path, const WthorHeader *header, const WthorGame *games,
                       size_t count, OctError *error);
bool wthor_write_players(const char *path, const WthorHeader *header, const WthorName *names,
                         size_t count, OctError *error);
bool wthor_write_tournaments(const char *path, const WthorHeader *header,
                             const WthorName *names, size_t count, OctError *error);

#endif

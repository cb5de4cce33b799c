/* Logistello's game list (`logbook.gam`), one game per line:
 *   +d3-c3+c4-e3+c2 ... -b7: -04 10
 * Tokens of three characters: `+` black moved, `-` white moved, then the square; a sign that
 * does not alternate means the other side passed. After `:` comes the final disc difference
 * from black's view and one more field that is ignored. Files may be gzip-compressed.
 * The score is the raw disc count difference: empties are NOT given to the winner (games that
 * end with empty squares show it: all 121,123 games of Logistello's file follow this). */
#ifndef OCTUPLE_LOGBOOK_H
#define OCTUPLE_LOGBOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/game.h"

typedef struct LogbookGame {
    Game game;  /* from the standard start, passes explicit */
    int score;  /* the stated final disc difference, black's view */
} LogbookGame;

/* Black discs minus white discs after the last move: the score a logbook line states. */
int logbook_final_score(const Game *game);

/* Reads one line. When the replayed game is over, the stated score must equal
 * logbook_final_score (a mismatch is an error).
 * On error `out` is untouched and the message names the token (by move and column). */
bool logbook_parse_line(const char *line, LogbookGame *out, OctError *error);

/* Writes one line (no newline), e.g. "+f5-d6: +00 0" — the ignored field is written as 0.
 * The game must start from the standard position. `size` >= LOGBOOK_LINE_SIZE always fits. */
enum { LOGBOOK_LINE_SIZE = 3 * 60 + 16 };
bool logbook_format_line(const LogbookGame *game, char *out, size_t size, OctError *error);

/* Streaming reader over a plain or gzip file: one game per call. An error in one line does not
 * end the reading; the next call continues with the following line. */
typedef struct LogbookReader LogbookReader;
typedef enum LogbookStatus {
    LOGBOOK_GAME,  /* *out holds the next game */
    LOGBOOK_END,   /* no more games */
    LOGBOOK_ERROR  /* this line (or the file) failed; the error names file and line */
} LogbookStatus;

LogbookReader *logbook_open(const char *path, OctError *error);
LogbookStatus logbook_next(LogbookReader *reader, LogbookGame *out, OctError *error);
long logbook_line_number(const LogbookReader *reader); /* line of the last game or error */
void logbook_close(LogbookReader *reader);

/* Calls `callback` for every game; stops at the first error (returned) or when the callback
 * returns false (then returns true). */
typedef bool (*LogbookCallback)(const LogbookGame *game, void *user);
bool logbook_read_file(const char *path, LogbookCallback callback, void *user, OctError *error);

#endif

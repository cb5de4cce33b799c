/* Text notation of squares, moves, move strings and boards. */
#ifndef OCTUPLE_NOTATION_H
#define OCTUPLE_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/board.h"
#include "core/error.h"

/* "a1".."h8" (any case) -> 0..63, "pa"/"PA"/"pass"/"--" -> MOVE_PASS; -1 when not a move.
 * `length` receives how many characters were read (may be NULL). */
int move_parse(const char *text, size_t *length);
/* Writes "a1".."h8" (lower case) or "pa" into `out` (at least 3 bytes). Returns out. */
char *move_format(int move, char *out);
/* Upper case for black, lower case for white (the convention of PV output); a pass is "PA"
 * for either. */
char *move_format_colored(int move, Color color, char *out);

/* The 64-character board, a1..h8 row by row, then a space and the side to move:
 * "X"/"O" per square (`-` empty) from absolute colours. `side` is the colour to move.
 * `out` needs BOARD_TEXT_SIZE bytes. */
enum { BOARD_TEXT_SIZE = 67 };
char *board_format(const Board *board, Color side, char *out);
/* Reads 64 squares (X x B b * black; O o W w white; - . empty; spaces skipped) and a side
 * (X B * black, O W white). Returns false with an error naming the offending character. */
bool board_parse(const char *text, Board *board, Color *side, OctError *error);
/* The same for a whole line: nothing but spaces may follow the side to move. */
bool board_parse_line(const char *text, Board *board, Color *side, OctError *error);

/* A printable diagram with coordinates, `*` black, `O` white, `.` legal move, `-` empty,
 * disc counts beside it. `out` needs BOARD_DIAGRAM_SIZE bytes. */
enum { BOARD_DIAGRAM_SIZE = 1024 };
char *board_diagram(const Board *board, Color side, char *out);

#endif

/* OBF: one position per line, as test suites (FForum, ...) store them:
 *   <64 squares X/O/-> <side X|O>; A2:+38; C7:+36;
 * The optional MOVE:SCORE pairs are exact scores from the side to move's view, listed best
 * first; a line that lists them in another order is read best first all the same.
 * Lines starting with `%` are comments. */
#ifndef OCTUPLE_OBF_H
#define OCTUPLE_OBF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/board.h"
#include "core/error.h"

/* At most one pair per square, so 64 bounds any valid line. */
enum { OBF_MOVE_CAPACITY = 64 };

/* Room for the longest line obf_format_line writes: 66 + ";" + 64 * " A1:+64;" + NUL. */
enum { OBF_LINE_SIZE = 68 + OBF_MOVE_CAPACITY * 8 };

typedef struct ObfPosition {
    Board board; /* relative to `side` */
    Color side;  /* colour to move */
    int move_count;
    int moves[OBF_MOVE_CAPACITY];  /* squares (or MOVE_PASS), best first, ties in file order */
    int scores[OBF_MOVE_CAPACITY]; /* exact disc difference for the side to move */
} ObfPosition;

typedef enum ObfStatus {
    OBF_POSITION,     /* a position was read */
    OBF_NOT_POSITION, /* blank or comment line: nothing to read, not an error */
    OBF_ERROR         /* malformed line; the error says why */
} ObfStatus;

/* Reads one line (a trailing newline is allowed). `position` is only written on OBF_POSITION. */
ObfStatus obf_parse_line(const char *line, ObfPosition *position, OctError *error);

/* Writes one line without newline. Returns false (error set) when `size` is too small or the
 * position holds an invalid move or score. */
bool obf_format_line(const ObfPosition *position, char *out, size_t size, OctError *error);

/* Reads every position of a file into a malloc'ed array (the caller frees it with free()).
 * Errors name the file and the line; on error *positions and *count are left untouched. */
bool obf_read_file(const char *path, ObfPosition **positions, size_t *count, OctError *error);

#endif

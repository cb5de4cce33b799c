/* GGF (Generic Game Format) records as NBoard and GGS write them:
 *   (;GM[Othello]PC[NBoard]DT[...]PB[a]PW[b]RE[?]TI[15:00]TY[8]
 *     BO[8 ---------------------------O*------*O--------------------------- *]
 *     B[F5]W[f6/0.48]B[D3//2.5];)
 * The reader is lenient (unknown tags skipped, `\]` escapes, whitespace in BO) and checks every
 * move; the writer produces one line that the reader reads back identically. */
#ifndef OCTUPLE_GGF_H
#define OCTUPLE_GGF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/game.h"

/* Metadata values longer than GGF_TEXT_SIZE - 1 bytes are truncated. */
enum { GGF_TEXT_SIZE = 80 };

typedef struct GgfRecord {
    Game game;                  /* start position (BO) and moves, passes explicit */
    char black[GGF_TEXT_SIZE];  /* PB */
    char white[GGF_TEXT_SIZE];  /* PW */
    char place[GGF_TEXT_SIZE];  /* PC */
    char date[GGF_TEXT_SIZE];   /* DT, as written */
    char result[GGF_TEXT_SIZE]; /* RE, as written ("?", "+12", "-4:r", ...) */
    char clock[GGF_TEXT_SIZE];  /* TI: both sides' clock */
    char black_clock[GGF_TEXT_SIZE]; /* TB: black's own clock, when the two differ (GGS) */
    char white_clock[GGF_TEXT_SIZE]; /* TW */
    char type[GGF_TEXT_SIZE];   /* TY */
    /* Per move of `game` (same index): the mover's evaluation in discs and the seconds spent,
     * NAN when the record gives none (always for the passes the reader inserts). */
    double evals[GAME_MOVE_CAPACITY];
    double times[GAME_MOVE_CAPACITY];
} GgfRecord;

/* Empty metadata, standard start, no moves. */
void ggf_init(GgfRecord *record);

/* Reads the first record in `text` (text before "(;" is skipped). `end` (may be NULL) receives
 * the position just after the closing ";)". On error `record` is left untouched and the message
 * gives the offending tag and character offset. */
bool ggf_parse(const char *text, GgfRecord *record, const char **end, OctError *error);

/* Writes the record as one line without newline. Returns false (error set) when `size` is too
 * small; GGF_LINE_SIZE always suffices. */
enum { GGF_LINE_SIZE = 16384 };
bool ggf_format(const GgfRecord *record, char *out, size_t size, OctError *error);

/* Calls `callback` for every record of a file, in order; a false return stops the reading
 * (ggf_read_each then returns true). Errors name the file, the record number and its line. */
typedef bool (*GgfCallback)(const GgfRecord *record, void *user);
bool ggf_read_each(const char *path, GgfCallback callback, void *user, OctError *error);

/* Reads every record of a file into a malloc'ed array (the caller frees it with free()).
 * On error *records and *count are left untouched. */
bool ggf_read_file(const char *path, GgfRecord **records, size_t *count, OctError *error);

#endif

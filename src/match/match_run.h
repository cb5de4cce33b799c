/* octuple-match: the match runner. Games are numbered 0..2*openings-1; game g plays opening
 * g/2 with engine 0 as black when g is even and as white when g is odd. `concurrency` worker
 * threads each own one process of each engine (restarted after a fault) and take the next
 * unplayed game. Every finished game is appended to the GGF output as one line, with one
 * write and an fsync, so the file is valid after any crash but its last line; the record
 * says which game it is in PC ("octuple-match G"), and PB/PW name the engines. Resuming
 * reads that file back (a torn last line is cut off), checks that every record belongs to
 * this match (opening, engine names), counts its results and plays only the missing games. */
#ifndef OCTUPLE_MATCH_RUN_H
#define OCTUPLE_MATCH_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/ggf.h"
#include "match/match_engine.h"
#include "match/match_game.h"
#include "match/match_stats.h"

typedef struct MatchConfig {
    MatchEngineSpec engines[MATCH_ENGINES]; /* distinct names */
    const Game *openings;
    size_t opening_count;
    int concurrency;         /* worker threads, >= 1 */
    double timeout;          /* seconds per move */
    MatchClock clock;        /* each side's clock per game (main 0: none) */
    double start_timeout;    /* seconds for the start-up handshake; 0: `timeout` */
    const char *output;      /* GGF file; NULL: games are not saved */
    bool resume;             /* continue `output` */
    bool overwrite;          /* without resume: truncate a non-empty `output` */
    FILE *log;               /* events and the progress line (stderr); NULL: quiet */
    FILE *event_log;         /* a copy of the events; may be NULL */
    bool progress;           /* show the progress line on `log` */
    bool progress_tty;       /* rewrite it in place (\r) instead of one line per game */
    atomic_int *stop;        /* raised by signals; the runner raises it on a fatal error */
    /* a line for `banner_out` once the output file is ready, before the first game: a
     * refused output or resume is reported without announcing a match; NULL: none */
    const char *banner;
    FILE *banner_out;
} MatchConfig;

typedef struct MatchRunInfo {
    int resumed;      /* games read back from the output */
    int played;       /* games played now */
    int total;        /* games in the match */
    bool interrupted; /* stopped before the end */
} MatchRunInfo;

/* Runs the match; `stats` is initialised here (free it with match_stats_free, also after a
 * failure). False on a setup error or a fatal engine failure (error set). */
bool match_run(const MatchConfig *config, MatchStats *stats, MatchRunInfo *info,
               OctError *error);

/* The game number and result of a record written by the runner, checked against the match:
 * opening, engine names, clock (TI), result (a finished game, or a forfeit "+N:r"/"+N:t"). */
bool match_result_from_record(const MatchConfig *config, const GgfRecord *record, int *game,
                              MatchResult *result, OctError *error);

#endif

/* A game clock as the GUIs describe it (GGF's TI, TB and TW tags with the seconds of each
 * move, GTP's time_settings and time_left), and the share of it that one move may spend.
 * Searches are budgeted by depth; a clock only caps them, so that a short game is never lost
 * on time. */
#ifndef OCTUPLE_GAMECLOCK_H
#define OCTUPLE_GAMECLOCK_H

#include <stdbool.h>

#include "core/board.h"
#include "core/error.h"
#include "core/ggf.h"

typedef struct GameClock {
    double left;      /* seconds on the mover's clock now */
    int moves;        /* > 0: that many moves are due within `left` (an overtime period);
                         0: `left` is for the rest of the game */
    double increment; /* seconds added after each move (Fischer), 0 for none */
    double period;    /* once `left` runs out: seconds for each further `period_moves` moves
                         (Canadian overtime), 0 for none */
    int period_moves;
} GameClock;

/* The seconds the move of a position with `empties` empty squares may spend: the clock left
 * shared over the mover's moves until the last few (which an exact solve plays at once),
 * less a margin for the delay between the GUI's clock and the engine; never more than the
 * clock holds. Always positive: a search's first iteration (microseconds) always runs. */
double gameclock_budget(const GameClock *clock, int empties);

/* GGF's TI value: "MAIN[/INCREMENT[/GRACE]]", each field [[H:]M:]S (seconds possibly with
 * a fraction; an empty field is 0), possibly followed by a GGS modifier (",N20"), which is
 * skipped: "15:00", "5:00//2:00", "5:00,N20/0/2:00". */
typedef struct GgfClock {
    double main;
    double increment;
    double grace; /* GGS's extension once the main time is spent */
} GgfClock;
bool gameclock_parse_ggf(const char *text, GgfClock *clock, OctError *error);

/* The clock of `side` in a record: its own clock's main time (TB for black, TW for white,
 * which GGS writes when the two differ), else TI's, less the seconds of that side's moves
 * that have a time (the moves played under the clock, passes included), plus the increment
 * for each of them; once that is spent, the grace. `present` says whether the record has a
 * clock at all (no clock tag, or TI[0], is an untimed game). False with an error naming the
 * tag and its value when it cannot be read (nothing written then). */
bool gameclock_from_record(const GgfRecord *record, Color side, GameClock *clock,
                           bool *present, OctError *error);

#endif

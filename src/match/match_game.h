/* octuple-match: one game between two running engines, refereed on the runner's own board.
 *
 * NBoard engines get `set game GGF` (the opening) at the start and `move MLI` after every
 * move, the mover included (NBoard engines do not apply their own moves). The side to move
 * gets `ping N` + `go` and must answer `pong N`, then `=== MOVE` within the per-move
 * timeout; with no legal move it must answer a pass. GTP engines get `clear_board` and the
 * opening's moves as `play`, `genmove COLOUR` for their own moves and `play` for the
 * other side's; a `?` answer forfeits. A crash, a timeout (or a clock run out), an unreadable or
 * illegal move forfeits the game: the other side wins with every disc that is not the
 * loser's, and at least 33-31 (the result is written as "+N:t" for a timeout, "+N:r" for
 * the other faults). */
#ifndef OCTUPLE_MATCH_GAME_H
#define OCTUPLE_MATCH_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ggf.h"
#include "match/match_engine.h"

typedef enum MatchFault {
    FAULT_NONE = 0,
    FAULT_CRASH,      /* exited, or closed its pipes */
    FAULT_TIMEOUT,    /* no answer within the per-move timeout */
    FAULT_ILLEGAL,    /* an unreadable or illegal move */
    FAULT_START,      /* could not be (re)started for this game */
    FAULT_REFUSED     /* a GTP engine answered `?` to a legal move or to genmove */
} MatchFault;

/* Each side's clock for a game (octuple-match --clock): `main` seconds, `increment` more
 * after each of its moves; main 0: no clock. An engine whose clock runs out loses on time
 * (a timeout forfeit). NBoard engines read it from the GGF (TI, and the runner's seconds on
 * every move); GTP engines get `time_settings MAIN 0 0` with each game and `time_left`
 * before each genmove (whole seconds, rounded down). */
typedef struct MatchClock {
    double main;
    double increment;
} MatchClock;

/* The clock as GGF's TI value: M:SS (minutes unbounded, milliseconds when there are any),
 * then "/M:SS" for an increment; "" for no clock. */
void match_clock_format(const MatchClock *clock, char *out, size_t size);

typedef struct MatchGameOutcome {
    GgfRecord record;
    bool interrupted;       /* the stop flag ended the game: no result */
    Color faulty;           /* the side that forfeited, when fault != FAULT_NONE */
    MatchFault fault;
    bool restart[2];        /* by colour: the engine must be restarted (killed already) */
    char event[1024];       /* what went wrong, with the position ("" when nothing) */
} MatchGameOutcome;

/* Plays from `opening` with engines[COLOR_BLACK] and engines[COLOR_WHITE]. A NULL engine
 * could not be started: it forfeits at once (FAULT_START). The outcome's record is `header`
 * (names, place, date, TI) with the moves, the engines' evals, the runner's wall-clock
 * seconds per move and RE. `clock` may be NULL (no clock); `timeout` bounds every move
 * either way. */
void match_game_play(const GgfRecord *header, const Game *opening, MatchEngine *engines[2],
                     double timeout, const MatchClock *clock, MatchGameOutcome *outcome);

/* The forfeit score from black's view when `loser` forfeits in `board` (side relative to
 * `side`): max(64 - 2 * the loser's discs, 2) for the winner. */
int match_forfeit_score(const Board *board, Color side, Color loser);

const char *match_fault_name(MatchFault fault);

#endif

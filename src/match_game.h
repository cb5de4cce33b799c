/* octuple-match: one game between two running engines, refereed on the runner's own board.
 *
 * NBoard engines get `set game GGF` (the opening) at the start and `move MLI` after every
 * move, the mover included (NBoard engines do not apply their own moves). The side to move
 * gets `ping N` + `go` and must answer `pong N`, then `=== MOVE` within the per-move
 * timeout; with no legal move it must answer a pass. GTP engines get `clear_board` and the
 * opening's moves as `play`, `genmove COLOUR` for their own moves and `play` for the
 * other side's; a `?` answer forfeits. A crash, a timeout, an unreadable or
 * illegal move forfeits the game: the other side wins with every disc that is not the
 * loser's, and at least 33-31 (the result is written as "+N:t" for a timeout, "+N:r" for
 * the other faults). */
#ifndef OCTUPLE_MATCH_GAME_H
#define OCTUPLE_MATCH_GAME_H

#include <stdbool.h>

#include "ggf.h"
#include "match_engine.h"

typedef enum MatchFault {
    FAULT_NONE = 0,
    FAULT_CRASH,      /* exited, or closed its pipes */
    FAULT_TIMEOUT,    /* no answer within the per-move timeout */
    FAULT_ILLEGAL,    /* an unreadable or illegal move */
    FAULT_START,      /* could not be (re)started for this game */
    FAULT_REFUSED     /* a GTP engine answered `?` to a legal move or to genmove */
} MatchFault;

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
 * (names, place, date) with the moves, the engines' evals, the runner's wall-clock seconds
 * per move and RE. */
void match_game_play(const GgfRecord *header, const Game *opening, MatchEngine *engines[2],
                     double timeout, MatchGameOutcome *outcome);

/* The forfeit score from black's view when `loser` forfeits in `board` (side relative to
 * `side`): max(64 - 2 * the loser's discs, 2) for the winner. */
int match_forfeit_score(const Board *board, Color side, Color loser);

const char *match_fault_name(MatchFault fault);

#endif

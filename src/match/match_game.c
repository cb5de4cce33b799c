#include "match/match_game.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "core/timing.h"

const char *match_fault_name(MatchFault fault)
{
    switch (fault) {
    case FAULT_NONE:
        return "none";
    case FAULT_CRASH:
        return "crashed";
    case FAULT_TIMEOUT:
        return "timed out";
    case FAULT_ILLEGAL:
        return "illegal move";
    case FAULT_START:
        return "failed to start";
    case FAULT_REFUSED:
        return "refused a move";
    }
    return "?";
}

int match_forfeit_score(const Board *board, Color side, Color loser)
{
    int loser_discs = side == loser ? board_count_player(board) : board_count_opponent(board);
    int margin = 64 - 2 * loser_discs;
    if (margin < 2)
        margin = 2;
    return loser == COLOR_BLACK ? -margin : margin;
}

static const char *color_name(Color color)
{
    return color == COLOR_BLACK ? "black" : "white";
}

/* The position and the moves so far, for the log. */
static void describe_position(const Game *game, char *out, size_t size)
{
    Board board;
    Color side;
    game_position(game, game->move_count, &board, &side);
    char text[BOARD_TEXT_SIZE];
    char moves[GAME_MOVE_CAPACITY * 2 + 1];
    board_format(&board, side, text);
    if (!game_format_moves(game, moves, sizeof moves))
        moves[0] = '\0';
    snprintf(out, size, "position %s after '%s'", text, moves);
}

static void set_fault(MatchGameOutcome *outcome, MatchEngine *engines[2], Color side,
                      MatchFault fault, const char *detail)
{
    outcome->fault = fault;
    outcome->faulty = side;
    /* an engine that could not be started has no MatchEngine: the record names it */
    const char *name = engines[side] ? engines[side]->spec->name
                     : side == COLOR_BLACK ? outcome->record.black : outcome->record.white;
    /* the board and up to 128 moves with their passes: about 340 characters */
    char position[9 + BOARD_TEXT_SIZE + 8 + 2 * GAME_MOVE_CAPACITY + 2];
    describe_position(&outcome->record.game, position, sizeof position);
    snprintf(outcome->event, sizeof outcome->event, "%s (%s) %s: %s; %s", name,
             color_name(side), match_fault_name(fault), detail, position);
}

/* A protocol failure of `side`'s engine: kill it (getting a crash's exit status first). */
static void engine_failed(MatchGameOutcome *outcome, MatchEngine *engines[2], Color side,
                          MatchStatus status, const char *doing)
{
    char detail[256];
    if (status == MATCH_TIMEOUT) {
        match_engine_kill(engines[side], 0.0);
        snprintf(detail, sizeof detail, "no answer to %s", doing);
        set_fault(outcome, engines, side, FAULT_TIMEOUT, detail);
    } else if (status == MATCH_REFUSED) { /* its board and the runner's differ now */
        snprintf(detail, sizeof detail, "%s (while %s)", engines[side]->refusal, doing);
        match_engine_kill(engines[side], 0.0);
        set_fault(outcome, engines, side, FAULT_REFUSED, detail);
    } else {
        match_engine_kill(engines[side], 1.0);
        snprintf(detail, sizeof detail, "%s (while %s)", match_engine_exit_text(engines[side]),
                 doing);
        set_fault(outcome, engines, side, FAULT_CRASH, detail);
    }
    outcome->restart[side] = true;
}

/* An engine lost once the game was complete: the first such event is logged, the engine
 * is restarted, and the result stays the board's. */
static void lost_after_game(MatchGameOutcome *outcome, MatchEngine *engines[2], Color side,
                            MatchStatus status, const char *doing)
{
    if (!outcome->event[0]) {
        engine_failed(outcome, engines, side, status, doing);
        outcome->fault = FAULT_NONE; /* the game was complete */
    } else {
        match_engine_kill(engines[side], 0.0);
        outcome->restart[side] = true;
    }
}

/* The MLI for `move F5/1.5/0.25`: eval and time when known. */
static void format_mli(int move, double eval, double seconds, char *out, size_t size)
{
    char name[3];
    move_format_colored(move, COLOR_BLACK, name);
    if (isfinite(eval))
        snprintf(out, size, "%s/%.2f/%.3f", name, eval, seconds);
    else
        snprintf(out, size, "%s//%.3f", name, seconds);
}

/* M:SS, or M:SS.mmm */
static int format_duration(double seconds, char *out, size_t size)
{
    long millis = lround(seconds * 1000);
    long whole = millis / 1000;
    if (millis % 1000)
        return snprintf(out, size, "%ld:%02ld.%03ld", whole / 60, whole % 60, millis % 1000);
    return snprintf(out, size, "%ld:%02ld", whole / 60, whole % 60);
}

void match_clock_format(const MatchClock *clock, char *out, size_t size)
{
    out[0] = '\0';
    if (!clock || clock->main <= 0)
        return;
    int used = format_duration(clock->main, out, size);
    if (clock->increment > 0 && used > 0 && (size_t)used + 1 < size) {
        out[used] = '/';
        format_duration(clock->increment, out + used + 1, size - (size_t)used - 1);
    }
}

/* `command` for a GTP engine's clock; false (the fault set) when the engine failed. */
static bool send_clock(MatchGameOutcome *outcome, MatchEngine *engines[2], Color side,
                       const char *command, double timeout)
{
    MatchStatus status = match_engine_clock(engines[side], command, timeout);
    if (status == MATCH_INTERRUPTED) {
        outcome->interrupted = true;
        return false;
    }
    if (status != MATCH_OK) {
        engine_failed(outcome, engines, side, status, "the clock");
        return false;
    }
    return true;
}

void match_game_play(const GgfRecord *header, const Game *opening, MatchEngine *engines[2],
                     double timeout, const MatchClock *clock, MatchGameOutcome *outcome)
{
    bool clocked = clock && clock->main > 0;
    double left[2] = {clocked ? clock->main : 0, clocked ? clock->main : 0};
    memset(outcome, 0, sizeof *outcome);
    outcome->record = *header;
    GgfRecord *record = &outcome->record;
    record->game = *opening;
    for (int i = 0; i < GAME_MOVE_CAPACITY; ++i)
        record->evals[i] = record->times[i] = NAN;
    snprintf(record->result, sizeof record->result, "?");

    for (int c = 0; c < 2; ++c)
        if (!engines[c]) {
            set_fault(outcome, engines, (Color)c, FAULT_START, "could not be started");
            goto finish;
        }
    {
        /* the opening as NBoard sends a new game: one line */
        char line[GGF_LINE_SIZE + 16];
        strcpy(line, "set game ");
        OctError error;
        if (!ggf_format(record, line + 9, sizeof line - 9, &error)) {
            set_fault(outcome, engines, COLOR_BLACK, FAULT_START, error.message);
            goto finish;
        }
        for (int c = 0; c < 2; ++c) {
            MatchStatus status = match_engine_new_game(engines[c], line, opening, timeout);
            if (status == MATCH_INTERRUPTED) {
                outcome->interrupted = true;
                return;
            }
            if (status != MATCH_OK) {
                engine_failed(outcome, engines, (Color)c, status, "setting up the game");
                goto finish;
            }
            char command[64];
            if (clocked) {
                snprintf(command, sizeof command, "time_settings %ld 0 0", (long)clock->main);
                if (!send_clock(outcome, engines, (Color)c, command, timeout)) {
                    if (outcome->interrupted)
                        return;
                    goto finish;
                }
            }
        }
    }

    for (;;) {
        Game *game = &record->game;
        Board board;
        Color side;
        game_position(game, game->move_count, &board, &side);
        if (board_is_over(&board))
            break;
        char reply[MATCH_LINE_SIZE];
        /* the clock, when it holds less than the per-move timeout, is the move's deadline */
        double move_timeout = timeout;
        bool clock_bound = clocked && left[side] < timeout;
        if (clocked) {
            char command[64];
            snprintf(command, sizeof command, "time_left %s %ld 0",
                     side == COLOR_BLACK ? "black" : "white",
                     left[side] > 0 ? (long)left[side] : 0L);
            if (!send_clock(outcome, engines, side, command, timeout)) {
                if (outcome->interrupted)
                    return;
                goto finish;
            }
            if (clock_bound)
                move_timeout = left[side] > 0 ? left[side] : 0.001;
        }
        double start = monotonic_seconds();
        MatchStatus status = match_engine_go(engines[side], side, move_timeout, reply,
                                             sizeof reply);
        double spent = monotonic_seconds() - start;
        double seconds = round(spent * 1000) / 1000;
        if (status == MATCH_INTERRUPTED) {
            outcome->interrupted = true;
            return;
        }
        if (status == MATCH_TIMEOUT && clock_bound) {
            char detail[96];
            match_engine_kill(engines[side], 0.0);
            snprintf(detail, sizeof detail, "lost on time (%.3f s on its clock at the move)",
                     left[side]);
            set_fault(outcome, engines, side, FAULT_TIMEOUT, detail);
            outcome->restart[side] = true;
            goto finish;
        }
        if (status != MATCH_OK) {
            engine_failed(outcome, engines, side, status,
                          engines[side]->spec->protocol == MATCH_GTP ? "genmove" : "go");
            goto finish;
        }
        if (clocked && spent > left[side]) { /* the answer came, but after the flag fell */
            char detail[128];
            snprintf(detail, sizeof detail,
                     "lost on time (answered after %.3f s with %.3f s on its clock)", spent,
                     left[side]);
            set_fault(outcome, engines, side, FAULT_TIMEOUT, detail);
            goto finish;
        }
        if (clocked)
            left[side] += clock->increment - spent;
        int move;
        double eval, reported;
        char detail[MATCH_LINE_SIZE + 64];
        /* the answer as the engine wrote it */
        const char *prefix = engines[side]->spec->protocol == MATCH_GTP ? "= " : "=== ";
        if (!match_parse_reply(reply, &move, &eval, &reported)) {
            snprintf(detail, sizeof detail, "unreadable move '%s%.100s'", prefix, reply);
            set_fault(outcome, engines, side, FAULT_ILLEGAL, detail);
            goto finish;
        }
        uint64_t legal = board_legal(&board);
        bool ok = move == MOVE_PASS ? legal == 0 : move < SQUARE_COUNT && (legal >> move & 1);
        if (!ok || game->move_count >= GAME_MOVE_CAPACITY) {
            char name[3];
            snprintf(detail, sizeof detail, "%s '%s' (from '%s%.100s')",
                     move == MOVE_PASS ? "pass with a legal move" : "illegal move",
                     move_format(move, name), prefix, reply);
            set_fault(outcome, engines, side, FAULT_ILLEGAL, detail);
            goto finish;
        }
        record->evals[game->move_count] = eval;
        record->times[game->move_count] = seconds;
        game->moves[game->move_count++] = move;
        char mli[48];
        format_mli(move, eval, seconds, mli, sizeof mli);
        Color mover = side;
        game_position(game, game->move_count, &board, &side);
        bool over = board_is_over(&board);
        for (int c = 0; c < 2; ++c) {
            status = match_engine_moved(engines[c], mover, move, mli, c == (int)mover, timeout);
            if (status == MATCH_INTERRUPTED) {
                outcome->interrupted = true;
                return;
            }
            if (status != MATCH_OK && over) {
                /* the last move is on the board: an engine that has already gone (it may
                 * close its input once its game ends) is logged and restarted, and the
                 * result stands */
                lost_after_game(outcome, engines, (Color)c, status, "the last move");
            } else if (status != MATCH_OK) {
                engine_failed(outcome, engines, (Color)c, status, "move");
                goto finish;
            }
        }
    }
    /* The game is over: check that both engines are still well, so a crash on the last move
     * is logged here and the engine restarted, without changing the result. */
    for (int c = 0; c < 2; ++c) {
        if (outcome->restart[c]) /* already found gone above */
            continue;
        MatchStatus status = match_engine_sync(engines[c], timeout);
        if (status == MATCH_INTERRUPTED) {
            outcome->interrupted = true;
            return;
        }
        if (status != MATCH_OK)
            lost_after_game(outcome, engines, (Color)c, status, "the ping after the game");
    }

finish:
    {
        Board board;
        Color side;
        const Game *game = &record->game;
        game_position(game, game->move_count, &board, &side);
        if (outcome->fault != FAULT_NONE) {
            int score = match_forfeit_score(&board, side, outcome->faulty);
            snprintf(record->result, sizeof record->result, "%+d:%c", score,
                     outcome->fault == FAULT_TIMEOUT ? 't' : 'r');
        } else {
            snprintf(record->result, sizeof record->result, "%+d", game_black_score(game));
        }
    }
}

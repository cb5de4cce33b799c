#include "cli/commands.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "core/fileio.h"
#include "core/gameclock.h"
#include "core/gamelist.h"
#include "core/notation.h"
#include "core/optable.h"
#include "engine/paths.h"
#include "core/perft.h"
#include "cli/tools.h"
#include "core/parse.h"

enum {
    WORD_SIZE = 64,
    ARGS_SIZE = 8192,
    LOAD_LIMIT = 1 << 20 /* a game file; anything bigger is not one */
};

static const char *const engine_name = "Octuple";

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(Session *session, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vfprintf(session->out, format, args);
    va_end(args);
    fflush(session->out);
}

/* One line after `prefix`. The message may quote what was typed or a file's name: its
 * control characters (an escape sequence would act on the terminal; C1's included) and
 * bytes that are not UTF-8 show as \xNN (error_printable). */
static void put_line(Session *session, const char *prefix, const char *format, va_list args)
{
    va_list again;
    va_copy(again, args);
    int length = vsnprintf(NULL, 0, format, args);
    char *message = length >= 0 ? malloc((size_t)length + 1) : NULL;
    if (message)
        vsnprintf(message, (size_t)length + 1, format, again);
    va_end(again);
    fputs(prefix, session->out);
    const char *c = message ? message : "out of memory";
    const char *end = c + strlen(c);
    while (c < end) {
        size_t character = error_printable(c, end);
        if (character) {
            fwrite(c, 1, character, session->out);
            c += character;
        } else {
            fprintf(session->out, "\\x%02x", (unsigned char)*c++);
        }
    }
    fputc('\n', session->out);
    fflush(session->out);
    free(message);
}

/* One `error:` line; the state is unchanged by whoever calls this. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void fail(Session *session, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    put_line(session, "error: ", format, args);
    va_end(args);
    ++session->failures;
}

/* One line of news that names a file or quotes the input. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void note(Session *session, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    put_line(session, "", format, args);
    va_end(args);
}

/* "s" but for one: "1 disc", "2 discs". */
static const char *plural(long count)
{
    return count == 1 ? "" : "s";
}

static const char *color_name(Color color)
{
    return color == COLOR_BLACK ? "black" : "white";
}

/* The legal moves in alphabetical order ("c4 d3 e6 f5"), or "none". */
static void legal_list(const Board *board, char *out, size_t size)
{
    uint64_t legal = board_legal(board);
    size_t used = 0;
    out[0] = '\0';
    for (int col = 0; col < 8; ++col) {
        for (int row = 0; row < 8; ++row) {
            int square = row * 8 + col;
            if (!(legal >> square & 1))
                continue;
            char name[3];
            int written = snprintf(out + used, size - used, "%s%s", used ? " " : "",
                                   move_format(square, name));
            if (written > 0 && (size_t)written < size - used)
                used += (size_t)written;
        }
    }
    if (!used)
        snprintf(out, size, "none");
}

void session_init(Session *session, Engine *engine, FILE *out, bool color)
{
    memset(session, 0, sizeof *session);
    session->engine = engine;
    session->out = out;
    session->color = color;
    session->mode = MODE_ENGINE_NEITHER;
    atomic_init(&session->interrupt.raised, false);
    atomic_init(&session->interrupt.engine, NULL);
}

/* ---- the board ---- */

void session_show_board(Session *session)
{
    Board board;
    Color side;
    engine_position(session->engine, &board, &side);
    const Game *game = engine_game(session->engine);
    uint64_t black = side == COLOR_BLACK ? board.player : board.opponent;
    uint64_t white = side == COLOR_BLACK ? board.opponent : board.player;
    uint64_t legal = board_legal(&board);
    Board passed = {board.opponent, board.player};
    int black_moves = __builtin_popcountll(side == COLOR_BLACK ? legal : board_legal(&passed));
    int white_moves = __builtin_popcountll(side == COLOR_WHITE ? legal : board_legal(&passed));
    bool over = board_is_over(&board);
    /* Each square resets every attribute first (0;), so that nothing leaks onto the next.
     * The board paints its own green, so the terminal's background does not matter; black
     * discs are plain black (bold black is dark grey in xterm and many themes), white ones
     * bright white, legal moves black dots like the empty squares' dashes. */
    const char *on = session->color ? "\033[0;30;42m" : "";
    const char *black_on = on;
    const char *white_on = session->color ? "\033[0;97;42m" : "";
    const char *legal_on = on;
    const char *off = session->color ? "\033[0m" : "";
    char side_text[8][128] = {{0}};
    int discs = __builtin_popcountll(black | white);
    if (over) {
        int score = game_black_score(game);
        int black_count = __builtin_popcountll(black), white_count = __builtin_popcountll(white);
        if (score > 0)
            snprintf(side_text[1], sizeof side_text[1], "Game over: black wins %d-%d", black_count,
                     white_count);
        else if (score < 0)
            snprintf(side_text[1], sizeof side_text[1], "Game over: white wins %d-%d", white_count,
                     black_count);
        else
            snprintf(side_text[1], sizeof side_text[1], "Game over: draw %d-%d", black_count,
                     white_count);
    } else {
        /* by the discs on the board, as after the standard start; a set-up position with
         * fewer than four discs starts at move 1 */
        snprintf(side_text[1], sizeof side_text[1], "move %d, %s to move",
                 discs > 4 ? discs - 3 : 1, color_name(side));
    }
    int black_discs = __builtin_popcountll(black), white_discs = __builtin_popcountll(white);
    snprintf(side_text[2], sizeof side_text[2], "* black: %2d disc%s, %2d move%s", black_discs,
             plural(black_discs), black_moves, plural(black_moves));
    snprintf(side_text[3], sizeof side_text[3], "O white: %2d disc%s, %2d move%s", white_discs,
             plural(white_discs), white_moves, plural(white_moves));
    if (game->move_count > 0) {
        char name[3];
        Color mover = (Color)((game->start_side + game->move_count - 1) % 2);
        snprintf(side_text[5], sizeof side_text[5], "last move: %s (%s)",
                 move_format(game->moves[game->move_count - 1], name), color_name(mover));
    }
    say(session, "  A B C D E F G H\n");
    for (int row = 0; row < 8; ++row) {
        say(session, "%d %s", row + 1, on);
        for (int col = 0; col < 8; ++col) {
            uint64_t bit = 1ULL << (row * 8 + col);
            if (black & bit)
                say(session, "%s*%s", black_on, on);
            else if (white & bit)
                say(session, "%sO%s", white_on, on);
            else if (legal & bit)
                say(session, "%s.%s", legal_on, on);
            else
                say(session, "-");
            if (col < 7)
                say(session, " ");
        }
        say(session, "%s %d%s%s\n", off, row + 1, side_text[row][0] ? "   " : "", side_text[row]);
    }
    say(session, "  A B C D E F G H\n");
}

/* ---- searches ---- */

static bool engine_to_move(const Session *session)
{
    Color side;
    Board board;
    engine_position(session->engine, &board, &side);
    switch (session->mode) {
    case MODE_ENGINE_WHITE: return side == COLOR_WHITE;
    case MODE_ENGINE_BLACK: return side == COLOR_BLACK;
    case MODE_ENGINE_BOTH: return true;
    default: return false;
    }
}

static void format_score(const EngineResult *result, int score, char *out, size_t size)
{
    if (result->wld) /* only the sign is proven */
        snprintf(out, size, "%s", engine_outcome(score));
    else if (result->exact)
        snprintf(out, size, "%+d", score / EVAL_DISC);
    else
        snprintf(out, size, "%+.2f", engine_discs(score) == 0 ? 0.0 : engine_discs(score));
}

static void print_table_header(Session *session)
{
    say(session, "  depth     score       time          nodes      nodes/s  principal variation\n");
}

static void print_table_row(Session *session, const EngineReport *report)
{
    /* at the first row: a forced move, played without a search, has no table */
    if (!session->table_started)
        print_table_header(session);
    session->table_started = true;
    const EngineResult *result = &report->result;
    char depth[16], score[16], pv[ENGINE_MAX_DEPTH * 4];
    if (report->from_book)
        snprintf(depth, sizeof depth, "book");
    else if (result->exact)
        snprintf(depth, sizeof depth, "%d@100%%", result->depth);
    else if (result->wld)
        snprintf(depth, sizeof depth, "%d@WLD", result->depth);
    else if (result->selectivity > 0 && result->selectivity < 100)
        snprintf(depth, sizeof depth, "%d@%d%%", result->depth, result->selectivity);
    else
        snprintf(depth, sizeof depth, "%d", result->depth);
    format_score(result, result->score, score, sizeof score);
    engine_format_moves(result->pv, result->pv_length, report->side, " ", pv, sizeof pv);
    say(session, "%7s  %8s  %9.3f  %13llu  %11.0f  %s\n", depth, score, report->seconds,
        (unsigned long long)report->nodes,
        report->seconds > 0 ? (double)report->nodes / report->seconds : 0.0, pv);
}

static void print_analysis_header(Session *session)
{
    say(session, "  ply  player  played  best     score  played score     loss\n");
}

/* One analysed position: the best move's score and the game move's, both from searches of
 * this position to the same depth, and their difference, the loss. */
static void print_analysis_row(Session *session, const EngineReport *report)
{
    const EngineResult *result = &report->result;
    const Game *game = engine_game(session->engine); /* not changed while the task runs */
    char played[3] = "--", best[3] = "--", score[16], played_score[16] = "", loss[16] = "";
    if (report->ply < game->move_count)
        move_format(game->moves[report->ply], played);
    if (result->move != MOVE_NONE)
        move_format(result->move, best);
    format_score(result, result->score, score, sizeof score);
    double value = engine_discs(result->score);
    if (report->played_known && result->exact) { /* disc counts, as the score's column */
        format_score(result, report->played_score, played_score, sizeof played_score);
        snprintf(loss, sizeof loss, "%d", (result->score - report->played_score) / EVAL_DISC);
    } else if (report->played_known) {
        double played_value = engine_discs(report->played_score);
        snprintf(played_score, sizeof played_score, "%+.2f",
                 fabs(played_value) < 0.005 ? 0.0 : played_value);
        /* probability cuts (depth 9 and more) can rate the game's move, searched alone,
         * above the best one's score: it then lost nothing */
        double lost = value - played_value;
        snprintf(loss, sizeof loss, "%.2f", lost < 0.005 ? 0.0 : lost);
    }
    char row[128];
    int length = snprintf(row, sizeof row, "%5d  %-6s  %-6s  %-4s  %8s  %12s  %7s", report->ply,
                          color_name(report->side), played, best, score, played_score, loss);
    while (length > 0 && row[length - 1] == ' ')
        row[--length] = '\0';
    say(session, "%s\n", row);
}

static void on_report(void *context, const EngineReport *report)
{
    Session *session = context;
    int verbose = engine_settings(session->engine)->verbose;
    switch (report->event) {
    case ENGINE_ITERATION:
        if ((report->task == ENGINE_THINK && verbose >= 1) ||
            (report->task == ENGINE_HINT && verbose >= 2))
            print_table_row(session, report);
        break;
    case ENGINE_PROGRESS: /* the table has a row per iteration only */
        break;
    case ENGINE_POSITION:
        if (report->task == ENGINE_ANALYZE && !report->stopped)
            print_analysis_row(session, report);
        if (report->task == ENGINE_THINK && report->from_book && verbose >= 1)
            print_table_row(session, report);
        session->final = *report;
        session->have_final = true;
        break;
    case ENGINE_FINISHED:
        session->task_stopped = report->stopped;
        break;
    }
}

/* The clock of `side` under the `game-time` setting: the setting less the seconds of that
 * side's moves that have a time (the engine's own, and those of a loaded game); false when
 * there is no clock. */
static bool console_clock(const Session *session, Color side, GameClock *clock)
{
    const char *game_time = engine_settings(session->engine)->game_time;
    if (!game_time[0])
        return false;
    GgfRecord *record = malloc(sizeof *record);
    if (!record)
        return false;
    engine_record(session->engine, record);
    snprintf(record->clock, sizeof record->clock, "%s", game_time);
    record->black_clock[0] = record->white_clock[0] = '\0'; /* one clock for both sides */
    bool present = false;
    bool ok = gameclock_from_record(record, side, clock, &present, NULL) && present;
    free(record);
    return ok;
}

static bool start_task(Session *session, EngineTask task, int lines, int first_ply)
{
    EngineRequest request = {.task = task, .lines = lines, .first_ply = first_ply};
    OctError error;
    if (task == ENGINE_THINK) {
        Board board;
        Color side;
        engine_position(session->engine, &board, &side);
        request.clocked = console_clock(session, side, &request.clock);
    }
    session->task = task;
    session->have_final = false;
    session->task_stopped = false;
    session->table_started = false;
    if (task == ENGINE_ANALYZE)
        print_analysis_header(session);
    if (!engine_start(session->engine, &request, on_report, session, &error)) {
        fail(session, "%s", error.message);
        return false;
    }
    session->task_running = true;
    return true;
}

/* The engine plays when `mode` gives it the side to move (unless paused). */
static void autoplay(Session *session)
{
    Board board;
    engine_position(session->engine, &board, NULL);
    if (session->paused || session->task_running || !engine_to_move(session) ||
        board_is_over(&board))
        return;
    start_task(session, ENGINE_THINK, 1, 0);
}

/* After the game changed by a move: forced passes are played for whoever must pass, the
 * board is shown, and the engine moves if it is its turn. */
static void after_move(Session *session)
{
    Board board;
    Color side;
    engine_position(session->engine, &board, &side);
    if (!board_can_move(&board) && !board_is_over(&board)) {
        OctError error;
        if (engine_play(session->engine, MOVE_PASS, NAN, NAN, &error))
            say(session, "%s has no legal move and passes\n", color_name(side));
    }
    session_show_board(session);
    autoplay(session);
}

bool session_is_stop(const char *line)
{
    char word[WORD_SIZE];
    const char *p = skip_space(line);
    size_t length = 0;
    while (p[length] && !isspace((unsigned char)p[length]) && length + 1 < sizeof word) {
        word[length] = p[length];
        ++length;
    }
    word[length] = '\0';
    return !strcasecmp(word, "stop") && !*skip_space(p + length);
}

void session_stop(Session *session)
{
    if (!session->task_running)
        return;
    engine_stop(session->engine);
    session_task_done(session);
}

void session_task_done(Session *session)
{
    if (!session->task_running)
        return;
    engine_wait(session->engine); /* collects the finished thread */
    session->task_running = false;
    if (session->task_stopped) {
        say(session, "search stopped\n");
        session->paused = true;
        if (session->task != ENGINE_HINT || !session->have_final)
            return;
    }
    if (!session->have_final)
        return;
    const EngineReport *report = &session->final;
    const EngineResult *result = &report->result;
    char name[3];
    if (session->task == ENGINE_THINK) {
        if (result->move == MOVE_NONE)
            return;
        OctError error;
        /* two decimals of a disc and milliseconds, as NBoard's records have them: `save`
         * writes what is kept, which at full precision read W[E7/22.6328125/0.0120...] */
        double eval = report->forced ? NAN : round(engine_discs(result->score) * 100) / 100;
        if (eval == 0)
            eval = 0; /* no "-0" */
        double seconds = round(report->seconds * 1000) / 1000;
        if (!engine_play(session->engine, result->move, eval, seconds, &error)) {
            fail(session, "%s", error.message); /* cannot happen: the search plays legal moves */
            return;
        }
        /* the mover's clock after the move (its time spent, its increment earned) */
        char left[48] = "";
        GameClock clock;
        if (console_clock(session, report->side, &clock)) {
            /* to the nearest second; below 10 s in tenths, cut down, as a clock that is
             * running out must not show time it does not have */
            if (clock.left < 10) {
                /* the epsilon keeps 2.3 s (22.999... tenths in binary) at 2.3 */
                int tenths = clock.left > 0 ? (int)(clock.left * 10 + 1e-9) : 0;
                snprintf(left, sizeof left, " (0:%02d.%d left)", tenths / 10, tenths % 10);
            } else {
                int whole = (int)(clock.left + 0.5);
                snprintf(left, sizeof left, " (%d:%02d left)", whole / 60, whole % 60);
            }
        }
        if (result->move == MOVE_PASS)
            say(session, "%s passes%s%s\n", engine_name, report->from_book ? " (book)" : "",
                left);
        else
            say(session, "%s plays %s%s%s\n", engine_name,
                move_format_colored(result->move, report->side, name),
                report->from_book ? " (book)" : "", left);
        after_move(session);
    } else if (session->task == ENGINE_HINT && report->from_book) {
        say(session, "hint: %d book move%s (values from the book's depth-%d searches)\n",
            report->book_count, plural(report->book_count), result->depth);
        for (int i = 0; i < report->book_count; ++i) {
            const EngineBookMove *move = &report->book_moves[i];
            char pv[ENGINE_BOOK_PV * 3 + 8];
            engine_format_moves(report->book_pvs[i], report->book_pv_lengths[i], report->side,
                                " ", pv, sizeof pv);
            say(session, "  %2d. %-2s  %+8d  %9u game%s  %s\n", i + 1,
                move_format_colored(move->move, report->side, name), move->value, move->games,
                move->games == 1 ? " " : "s", pv);
        }
    } else if (session->task == ENGINE_HINT) {
        if (result->exact)
            say(session, "hint: %d best move%s, exact (%d empties)\n", result->line_count,
                plural(result->line_count), result->depth);
        else if (result->wld)
            say(session, "hint: %d best move%s, win/draw/loss (%d empties)\n",
                result->line_count, plural(result->line_count), result->depth);
        else
            say(session, "hint: %d best move%s at depth %d\n", result->line_count,
                plural(result->line_count), result->depth);
        for (int i = 0; i < result->line_count; ++i) {
            char score[16], pv[ENGINE_MAX_DEPTH * 4] = "";
            format_score(result, result->lines[i].score, score, sizeof score);
            if (i == 0 && result->pv_length > 0 && result->pv[0] == result->lines[0].move)
                engine_format_moves(result->pv, result->pv_length, report->side, " ", pv,
                                    sizeof pv);
            else if (result->lines[i].pv_length > 0)
                engine_format_moves(result->lines[i].pv, result->lines[i].pv_length,
                                    report->side, " ", pv, sizeof pv);
            say(session, "  %2d. %-2s  %8s%s%s\n", i + 1,
                move_format_colored(result->lines[i].move, report->side, name), score,
                pv[0] ? "  " : "", pv);
        }
    }
}

/* ---- command handlers ---- */

static bool game_over_error(Session *session)
{
    Board board;
    engine_position(session->engine, &board, NULL);
    if (!board_is_over(&board))
        return false;
    fail(session, "the game is over (init or new starts another)");
    return true;
}

static void cmd_init(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    session->paused = false;
    engine_new_game(session->engine);
    after_move(session);
}

static void cmd_new(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    session->paused = false;
    engine_restart(session->engine);
    after_move(session);
}

static void cmd_setboard(Session *session, const char *name, const char *args)
{
    (void)name;
    Board board;
    Color side;
    OctError error;
    if (!board_parse_line(args, &board, &side, &error)) {
        fail(session, "setboard: %s; expected 64 squares a1..h8 (X/O/-) then the side to move",
             error.message);
        return;
    }
    session->paused = false;
    engine_set_position(session->engine, &board, side);
    after_move(session);
}

/* Plays a move string after checking all of it: an illegal move changes nothing. */
static void play_moves(Session *session, const char *text)
{
    Game work = *engine_game(session->engine);
    const char *p = skip_space(text);
    int moves[GAME_MOVE_CAPACITY], count = 0;
    if (!*p) {
        fail(session, "play: moves expected, e.g. play f5d6c3");
        return;
    }
    while (*p) {
        size_t used;
        int move = move_parse(p, &used);
        if (move < 0) {
            fail(session, "play: '%.8s' is not a move (a1..h8 or pa expected)", p);
            return;
        }
        Board board;
        Color side;
        game_position(&work, work.move_count, &board, &side);
        OctError error;
        if (count == GAME_MOVE_CAPACITY || !game_append(&work, move, &error)) {
            char name[3], legal[200];
            legal_list(&board, legal, sizeof legal);
            if (board_is_over(&board))
                fail(session, "%s: the game is over", move_format(move, name));
            else if (move == MOVE_PASS)
                fail(session, "%s cannot pass: legal moves are %s", color_name(side), legal);
            else
                fail(session, "illegal move %s: legal moves are %s", move_format(move, name),
                     legal);
            return;
        }
        moves[count++] = move;
        p = skip_space(p + used);
    }
    for (int i = 0; i < count; ++i) {
        OctError error;
        if (!engine_play(session->engine, moves[i], NAN, NAN, &error)) {
            fail(session, "%s", error.message); /* checked above; cannot happen */
            break;
        }
    }
    session->paused = false;
    after_move(session);
}

static void cmd_play(Session *session, const char *name, const char *args)
{
    (void)name;
    play_moves(session, args);
}

static void cmd_undo(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    int undone = engine_undo(session->engine);
    if (!undone) {
        fail(session, "undo: no move to take back");
        return;
    }
    /* against the engine, back to the user's turn */
    if (session->mode == MODE_ENGINE_WHITE || session->mode == MODE_ENGINE_BLACK)
        while (engine_to_move(session) && engine_undo(session->engine))
            continue;
    session->paused = session->mode == MODE_ENGINE_BOTH;
    session_show_board(session);
    autoplay(session);
}

static void cmd_redo(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    if (!engine_redo(session->engine)) {
        fail(session, "redo: no move to replay");
        return;
    }
    if (session->mode == MODE_ENGINE_WHITE || session->mode == MODE_ENGINE_BLACK)
        while (engine_to_move(session) && engine_redo(session->engine))
            continue;
    session->paused = session->mode == MODE_ENGINE_BOTH;
    session_show_board(session);
    autoplay(session);
}

static void cmd_go(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    if (game_over_error(session))
        return;
    session->paused = false;
    start_task(session, ENGINE_THINK, 1, 0);
}

static void cmd_hint(Session *session, const char *name, const char *args)
{
    (void)name;
    int lines = 1;
    if (*args && !parse_int(args, 1, ENGINE_MAX_LINES, &lines)) {
        fail(session, "hint: '%s' is not a number of moves from 1 to %d", args, ENGINE_MAX_LINES);
        return;
    }
    if (game_over_error(session))
        return;
    start_task(session, ENGINE_HINT, lines, 0);
}

static void cmd_stop(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    say(session, "no search is running\n");
}

static void cmd_mode(Session *session, const char *name, const char *args)
{
    (void)name;
    static const char *const meanings[] = {"engine plays white", "engine plays black",
                                           "engine plays both sides", "engine plays neither side"};
    if (!*args) {
        say(session, "mode %d (%s)\n", session->mode, meanings[session->mode]);
        return;
    }
    int mode;
    if (!parse_int(args, 0, 3, &mode)) {
        fail(session, "mode: '%s' is not 0 (engine white), 1 (black), 2 (both) or 3 (neither)",
             args);
        return;
    }
    session->mode = mode;
    session->paused = false;
    say(session, "mode %d (%s)\n", mode, meanings[mode]);
    autoplay(session);
}

static void cmd_analyze(Session *session, const char *name, const char *args)
{
    (void)name;
    const Game *game = engine_game(session->engine);
    int positions = game->move_count + 1;
    if (*args && !parse_int(args, 1, GAME_MOVE_CAPACITY + 1, &positions)) {
        fail(session, "analyze: '%s' is not a number of positions", args);
        return;
    }
    int first = game->move_count + 1 - positions;
    start_task(session, ENGINE_ANALYZE, 1, first < 0 ? 0 : first);
}

/* Loads a file that holds no GGF: a board (a line as in OBF, its moves after ';' ignored,
 * or a grid over several lines) or a move string from the standard start (one game a line,
 * or one game wrapped over lines). Blank lines and % comments (OBF files start with them)
 * are skipped. Several boards or games: the first is loaded, `*more` counts the others. */
static bool load_board_or_moves(Session *session, char *text, int *more, OctError *error)
{
    char *joined = malloc(strlen(text) + 2); /* the lines, a space after each */
    if (!joined)
        return error_set(error, "out of memory");
    size_t used = 0;
    char *first = NULL;
    int count = 0;
    bool each_a_game = true;
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *semicolon = strchr(line, ';');
        if (semicolon)
            *semicolon = '\0';
        const char *content = skip_space(line);
        if (*content && *content != '%') {
            first = first ? first : line;
            ++count;
            Game game;
            game_init(&game);
            each_a_game = each_a_game && game_parse_moves(&game, line, NULL);
            size_t length = strlen(line);
            memcpy(joined + used, line, length);
            used += length;
            joined[used++] = ' ';
        }
        line = next;
    }
    joined[used] = '\0';
    bool ok;
    Board board;
    Color side;
    Game game;
    game_init(&game);
    *more = 0;
    if (!first) {
        ok = error_set(error, "only comments, no board or moves");
    } else if (board_parse(first, &board, &side, NULL)) { /* a board line, well formed or not */
        ok = board_parse_line(first, &board, &side, error);
        *more = count - 1;
        if (ok)
            engine_set_position(session->engine, &board, side);
    } else if (board_parse(joined, &board, &side, NULL)) { /* a grid over several lines */
        ok = board_parse_line(joined, &board, &side, error);
        if (ok)
            engine_set_position(session->engine, &board, side);
    } else if (count > 1 && each_a_game) { /* a list of games, as `book add` reads them */
        ok = game_parse_moves(&game, first, error);
        *more = count - 1;
        if (ok)
            engine_set_game(session->engine, &game);
    } else { /* one game, maybe wrapped */
        ok = game_parse_moves(&game, joined, error);
        if (ok)
            engine_set_game(session->engine, &game);
    }
    free(joined);
    return ok;
}

static void cmd_load(Session *session, const char *name, const char *args)
{
    if (!*args) {
        fail(session, "%s: a file name is expected", name);
        return;
    }
    char *text;
    OctError error;
    if (!file_read_text(args, LOAD_LIMIT, &text, &error)) {
        fail(session, "%s: %s", name, error.message);
        return;
    }
    bool ok;
    if (!*skip_space(text)) { /* no game at all, rather than the start position */
        fail(session, "%s: %s: the file is empty", name, args);
        free(text);
        return;
    }
    int more = 0; /* games or lines after the one loaded */
    const char *unit = "games";
    if (strstr(text, "(;")) {
        GgfRecord *record = malloc(sizeof *record);
        const char *end = text;
        ok = record && ggf_parse(text, record, &end, &error);
        if (ok) {
            engine_set_record(session->engine, record);
            for (const char *p = strstr(end, "(;"); p; p = strstr(p + 2, "(;"))
                ++more;
        } else if (!record) {
            error_set(&error, "out of memory");
        }
        free(record);
    } else {
        unit = "lines";
        ok = load_board_or_moves(session, text, &more, &error);
    }
    free(text);
    if (!ok) {
        fail(session, "%s: %s: %s (a GGF game, a board or a move string expected)", name, args,
             error.message);
        return;
    }
    if (more)
        note(session, "%s: %s: loaded the first of %d %s", name, args, more + 1, unit);
    session->paused = false;
    after_move(session);
}

/* Names for the sides that the game's record leaves unnamed ("?"): the engine's name and
 * level for a side it plays (as it calls itself over NBoard), the user's for the others,
 * from the `name` setting or $USER. */
static void name_players(const Session *session, GgfRecord *record)
{
    const EngineSettings *settings = engine_settings(session->engine);
    const char *user = settings->player_name[0] ? settings->player_name : getenv("USER");
    bool engine_plays[2] = {
        session->mode == MODE_ENGINE_BLACK || session->mode == MODE_ENGINE_BOTH,
        session->mode == MODE_ENGINE_WHITE || session->mode == MODE_ENGINE_BOTH};
    char *names[2] = {record->black, record->white};
    for (int side = 0; side < 2; ++side) {
        if (strcmp(names[side], "?"))
            continue;
        if (engine_plays[side])
            snprintf(names[side], GGF_TEXT_SIZE, "Octuple%d", settings->depth);
        else if (user && user[0])
            snprintf(names[side], GGF_TEXT_SIZE, "%s", user);
    }
}

static void cmd_save(Session *session, const char *name, const char *args)
{
    if (!*args) {
        fail(session, "%s: a file name is expected", name);
        return;
    }
    GgfRecord *record = malloc(sizeof *record);
    char *line = malloc(GGF_LINE_SIZE + 2);
    OctError error;
    bool ok = record && line;
    if (!ok) {
        error_set(&error, "out of memory");
    } else {
        engine_record(session->engine, record);
        name_players(session, record);
        /* a game with timed moves under the console's clock names that clock, which
         * is what the times were charged to (a loaded game's TI included) */
        const char *game_time = engine_settings(session->engine)->game_time;
        bool timed = false;
        for (int i = 0; i < record->game.move_count; ++i)
            timed = timed || !isnan(record->times[i]);
        if (game_time[0] && timed) {
            snprintf(record->clock, sizeof record->clock, "%s", game_time);
            record->black_clock[0] = record->white_clock[0] = '\0';
        }
        ok = ggf_format(record, line, GGF_LINE_SIZE, &error);
        if (ok) {
            strcat(line, "\n");
            ok = paths_write_atomic(args, line, &error);
        }
    }
    if (ok)
        note(session, "game saved to %s", args);
    else
        fail(session, "%s: %s", name, error.message);
    free(record);
    free(line);
}

static void cmd_solve(Session *session, const char *name, const char *args)
{
    if (!*args) {
        fail(session, "%s: an OBF file name is expected", name);
        return;
    }
    /* an unreadable file or a wrong score fails a script, as `--solve` does; the engine's
     * evaluation orders the moves (the built-in one when no network was found) */
    if (tools_solve_with(session->engine, false, args, name, &session->interrupt, session->out,
                         session->out))
        ++session->failures;
    fflush(session->out);
}

static void cmd_perft(Session *session, const char *name, const char *args)
{
    int depth;
    if (!parse_int(args, 1, PERFT_MAX_DEPTH, &depth)) {
        fail(session, "%s: '%s' is not a depth from 1 to %d", name, args, PERFT_MAX_DEPTH);
        return;
    }
    Board board;
    Color side;
    engine_position(session->engine, &board, &side);
    session_show_board(session);
    if (tools_perft_from(&board, depth, &session->interrupt, session->out))
        ++session->failures;
    fflush(session->out);
}

/* A setting changed by name through the settings table, as the option commands do. */
static bool book_setting(Session *session, const char *command, const char *value)
{
    const SettingSpec *spec = settings_find_command(command);
    EngineSettings settings = *engine_settings(session->engine);
    OctError error;
    if (!spec->apply(&settings, value, &error)
        || !engine_configure(session->engine, &settings, &error)) {
        fail(session, "book: %s", error.message);
        return false;
    }
    return true;
}

static void book_info(Session *session)
{
    const EngineSettings *settings = engine_settings(session->engine);
    EngineBookInfo book;
    if (!settings->use_book) {
        say(session, "book: off (book on uses it)\n");
        return;
    }
    if (!engine_book_info(session->engine, &book)) {
        say(session, "book: none loaded%s%s\n", engine_notice(session->engine)[0] ? ": " : "",
            engine_notice(session->engine));
        return;
    }
    say(session, "book: %s\n  %zu positions of the first %d moves, deviations searched at "
        "depth %d\n  randomness %d disc%s\n", engine_book_path(session->engine),
        book.positions, book.plies, book.depth, settings->book_randomness,
        settings->book_randomness == 1 ? "" : "s");
}

static void book_show(Session *session)
{
    EngineBookInfo book;
    if (!engine_book_info(session->engine, &book)) {
        fail(session, "book show: no opening book in use (see book info)");
        return;
    }
    Board board;
    Color side;
    engine_position(session->engine, &board, &side);
    EngineBookMove moves[ENGINE_BOOK_MOVES];
    int lines[ENGINE_BOOK_MOVES][ENGINE_BOOK_PV], lengths[ENGINE_BOOK_MOVES];
    int count = engine_book_moves(session->engine, moves, lines, lengths);
    if (count == 0) {
        say(session, "book: this position is not in the book\n");
        return;
    }
    say(session, "book: %d move%s\n", count, count == 1 ? "" : "s");
    for (int i = 0; i < count; ++i) {
        char name[3], pv[ENGINE_MAX_DEPTH * 4];
        engine_format_moves(lines[i], lengths[i], side, " ", pv, sizeof pv);
        if (moves[i].in_book)
            say(session, "  %-2s  %+3d  %9u games  %s\n",
                move_format_colored(moves[i].move, side, name), moves[i].value, moves[i].games,
                pv);
        else
            say(session, "  %-2s  %+3d  leaves the book (depth-%d search)\n",
                move_format_colored(moves[i].move, side, name), moves[i].value, book.depth);
    }
}

/* Adds games (the current one, or a file's) to the book and saves the learned book. */
static void book_grow(Session *session, const char *what, const Game *games, size_t count)
{
    OctError error;
    int added;
    if (!engine_book_add(session->engine, games, count, &added, &session->interrupt.raised,
                         &error)) {
        fail(session, "book %s: %s", what, error.message);
        return;
    }
    note(session, "book: %zu game%s added, %d new position%s; saved to %s", count,
        count == 1 ? "" : "s", added, added == 1 ? "" : "s", engine_book_path(session->engine));
}

static void cmd_book(Session *session, const char *name, const char *args)
{
    char word[WORD_SIZE];
    size_t length = 0;
    while (args[length] && !isspace((unsigned char)args[length]) && length + 1 < sizeof word) {
        word[length] = (char)tolower((unsigned char)args[length]);
        ++length;
    }
    word[length] = '\0';
    const char *rest = skip_space(args + length);
    OctError error;
    if (!*word || !strcmp(word, "info")) {
        book_info(session);
    } else if (!strcmp(word, "on") || !strcmp(word, "off")) {
        EngineSettings settings = *engine_settings(session->engine);
        settings.use_book = !strcmp(word, "on");
        if (!engine_configure(session->engine, &settings, &error)) {
            fail(session, "book %s: %s", word, error.message);
            return;
        }
        book_info(session);
    } else if (!strcmp(word, "show")) {
        book_show(session);
    } else if (!strcmp(word, "store")) {
        book_grow(session, word, engine_game(session->engine), 1);
    } else if (!strcmp(word, "add")) {
        Game *games;
        size_t count;
        if (!*rest) {
            fail(session, "book add: a file of games is expected (GGF, logbook lines or move "
                 "strings)");
            return;
        }
        if (!gamelist_read(rest, &games, &count, &error)) {
            fail(session, "book add: %s", error.message);
            return;
        }
        book_grow(session, word, games, count);
        free(games);
    } else if (!strcmp(word, "load")) {
        if (!*rest)
            fail(session, "book load: a file name is expected");
        else if (!engine_book_load(session->engine, rest, &error))
            fail(session, "book load: %s", error.message);
        else
            book_info(session);
    } else if (!strcmp(word, "save")) {
        if (!*rest)
            fail(session, "book save: a file name is expected");
        else if (!engine_book_save(session->engine, rest, &error))
            fail(session, "book save: %s", error.message);
        else
            say(session, "book: saved to %s\n", rest);
    } else if (!strcmp(word, "randomness")) {
        if (book_setting(session, "book-randomness", rest))
            book_info(session);
    } else if (!strcmp(word, "depth")) {
        int depth;
        if (!parse_int(rest, 1, ENGINE_BOOK_MAX_DEPTH, &depth))
            fail(session, "book depth: '%s' is not a depth from 1 to %d", rest,
                 ENGINE_BOOK_MAX_DEPTH);
        else if (!engine_book_set_depth(session->engine, depth, &error))
            fail(session, "book depth: %s", error.message);
        else
            say(session, "book: positions added from now on are searched at depth %d\n", depth);
    } else {
        fail(session, "%s: unknown sub-command '%s' (on, off, show, info, store, add FILE, load "
             "FILE, save FILE, randomness N, depth N)", name, word);
    }
}

static void cmd_setting(Session *session, const char *name, const char *args)
{
    const SettingSpec *spec = settings_find_command(name);
    EngineSettings settings = *engine_settings(session->engine);
    char value[SETTINGS_PATH_SIZE + 64];
    if (*args) {
        OctError error;
        if (!spec->apply(&settings, args, &error)) {
            fail(session, "%s: %s", spec->command, error.message);
            return;
        }
        if (!engine_configure(session->engine, &settings, &error)) {
            fail(session, "%s: %s", spec->command, error.message);
            return;
        }
        if (!strcmp(spec->command, "weights") && engine_notice(session->engine)[0])
            say(session, "warning: %s\n", engine_notice(session->engine));
    }
    spec->show(engine_settings(session->engine), value, sizeof value);
    say(session, "%s %s\n", spec->command, value);
}

static void cmd_options(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    int count;
    const SettingSpec *specs = settings_table(&count);
    char value[SETTINGS_PATH_SIZE + 64];
    for (int i = 0; i < count; ++i) {
        specs[i].show(engine_settings(session->engine), value, sizeof value);
        say(session, "%-10s %s\n", specs[i].command, value);
    }
    say(session, "%-10s %d\n", "mode", session->mode);
}

static void cmd_board(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    session_show_board(session);
}

static void cmd_version(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    const char *path = engine_weights_path(session->engine);
    say(session, "%s %s\nweights: %s%s%s%s\n", PACKAGE_NAME, PACKAGE_VERSION,
        engine_weights_name(session->engine), path[0] ? " (" : " (built in)", path,
        path[0] ? ")" : "");
    if (engine_notice(session->engine)[0])
        say(session, "warning: %s\n", engine_notice(session->engine));
}

static void cmd_nboard(Session *session, const char *name, const char *args)
{
    int version = 2;
    if (*args && !parse_int(args, 1, 2, &version)) {
        fail(session, "%s: '%s' is not a protocol version (1 or 2)", name, args);
        return;
    }
    session->nboard = version;
}

static void cmd_quit(Session *session, const char *name, const char *args)
{
    (void)name, (void)args;
    session->quit = true;
}

static void cmd_help(Session *session, const char *name, const char *args);

static const Command command_table[] = {
    {"init", {"i", NULL}, NULL, "new game from the standard start, black to move", COMPLETE_NONE,
     cmd_init, false},
    {"new", {"n", NULL}, NULL, "restart from the current initial position", COMPLETE_NONE,
     cmd_new, false},
    {"setboard", {NULL}, "SQUARES SIDE",
     "new initial position: 64 squares a1..h8 (X/O/-) and the side to move", COMPLETE_NONE,
     cmd_setboard, false},
    {"play", {NULL}, "MOVES", "play a move string (f5d6c3); a bare move or pa plays it too",
     COMPLETE_MOVES, cmd_play, false},
    {"undo", {"u", NULL}, NULL, "take back a move (back to your turn against the engine)",
     COMPLETE_NONE, cmd_undo, false},
    {"redo", {"r", NULL}, NULL, "replay a move taken back", COMPLETE_NONE, cmd_redo, false},
    {"go", {NULL}, NULL, "the engine searches and plays a move", COMPLETE_NONE, cmd_go, false},
    {"hint", {NULL}, "[N]", "the N best moves with their scores (default 1), not played",
     COMPLETE_NONE, cmd_hint, false},
    {"stop", {NULL}, NULL, "stop the running search (and the engine's play)", COMPLETE_NONE,
     cmd_stop, false},
    {"mode", {"m", NULL}, "[0-3]",
     "the engine plays 0 white, 1 black, 2 both sides, 3 neither (default)", COMPLETE_NONE,
     cmd_mode, false},
    {"analyze", {"a", NULL}, "[N]", "evaluate the last N positions of the game backwards",
     COMPLETE_NONE, cmd_analyze, false},
    {"load", {"open", NULL}, "FILE", "load a game: GGF, a board line or a move string",
     COMPLETE_FILES, cmd_load, false},
    {"save", {NULL}, "FILE", "save the game as GGF", COMPLETE_FILES, cmd_save, false},
    {"solve", {NULL}, "FILE",
     "solve every position of an OBF file exactly (win/draw/loss only up to `wld` empties)",
     COMPLETE_FILES, cmd_solve, false},
    {"perft", {NULL}, "DEPTH", "count the leaves DEPTH plies from the current position",
     COMPLETE_NONE, cmd_perft, false},
    {"book", {NULL}, "[COMMAND]",
     "opening book: on, off, show, info, store, add FILE, load FILE, save FILE, randomness N, "
     "depth N", COMPLETE_BOOK, cmd_book, false},
    {"level", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"depth", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"exact", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"wld", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"threads", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"hash", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"time", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"game-time", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"weights", {NULL}, NULL, NULL, COMPLETE_FILES, cmd_setting, true},
    {"book-file", {NULL}, NULL, NULL, COMPLETE_FILES, cmd_setting, true},
    {"book-randomness", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"name", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"verbose", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"contempt", {NULL}, NULL, NULL, COMPLETE_NONE, cmd_setting, true},
    {"options", {NULL}, NULL, "print every option value", COMPLETE_NONE, cmd_options, false},
    {"board", {"show", NULL}, NULL, "print the board", COMPLETE_NONE, cmd_board, false},
    {"help", {"?", NULL}, "[COMMAND]", "this list, or the help of one command",
     COMPLETE_COMMANDS, cmd_help, false},
    {"version", {"v", NULL}, NULL, "name, version and the weights in use", COMPLETE_NONE,
     cmd_version, false},
    {"nboard", {NULL}, "[1|2]", "switch this session to the NBoard protocol", COMPLETE_NONE,
     cmd_nboard, false},
    {"quit", {"q", "exit", NULL}, NULL, "leave (so does the end of input)", COMPLETE_NONE,
     cmd_quit, false},
};
enum { COMMAND_COUNT = sizeof command_table / sizeof command_table[0] };

const Command *commands_table(int *count)
{
    *count = COMMAND_COUNT;
    return command_table;
}

const Command *commands_find(const char *word)
{
    for (int i = 0; i < COMMAND_COUNT; ++i) {
        if (!strcasecmp(command_table[i].name, word))
            return &command_table[i];
        for (int a = 0; command_table[i].aliases[a]; ++a)
            if (!strcasecmp(command_table[i].aliases[a], word))
                return &command_table[i];
    }
    return NULL;
}

static void command_help_parts(const Command *command, const char **arguments, const char **help)
{
    *arguments = command->arguments;
    *help = command->help;
    if (command->setting) {
        const SettingSpec *spec = settings_find_command(command->name);
        *arguments = spec->argument;
        *help = spec->help;
    }
}

static void help_line(Session *session, const Command *command)
{
    char left[64];
    const char *arguments, *help;
    command_help_parts(command, &arguments, &help);
    int used = snprintf(left, sizeof left, "%s", command->name);
    for (int a = 0; command->aliases[a]; ++a)
        used += snprintf(left + used, sizeof left - (size_t)used, ", %s", command->aliases[a]);
    if (arguments)
        snprintf(left + used, sizeof left - (size_t)used, " %s", arguments);
    optable_print_item(session->out, left, help);
    fflush(session->out);
}

static void cmd_help(Session *session, const char *name, const char *args)
{
    (void)name;
    if (*args) {
        const Command *command = commands_find(args);
        if (!command) {
            fail(session, "help: no command '%s' (help lists them)", args);
            return;
        }
        help_line(session, command);
        if (command->setting) {
            char value[SETTINGS_PATH_SIZE + 64];
            settings_find_command(command->name)->show(engine_settings(session->engine), value,
                                                       sizeof value);
            say(session, "  current value: %s\n", value);
        }
        return;
    }
    say(session, "Commands (case-insensitive; 'set' before a command and '=' after it are\n"
        "ignored):\n");
    for (int i = 0; i < COMMAND_COUNT; ++i)
        help_line(session, &command_table[i]);
    optable_print_item(session->out, "f5, pa, f5d6c3", "a bare move or move string plays it");
    fflush(session->out);
}

/* ---- parsing ---- */

void session_execute(Session *session, const char *line)
{
    const char *p = skip_space(line);
    if (!*p || *p == '#') /* blank lines and comments (scripts) */
        return;
    char word[WORD_SIZE];
    size_t length = 0;
    /* the command word ends at a space or '=' ("level=8") */
    for (;;) {
        while (p[length] && !isspace((unsigned char)p[length]) && p[length] != '=')
            ++length;
        if (length >= sizeof word) {
            fail(session, "unknown command '%.20s...' (help lists the commands)", p);
            return;
        }
        memcpy(word, p, length);
        word[length] = '\0';
        if (strcasecmp(word, "set") || !*skip_space(p + length) || p[length] == '=')
            break;
        p = skip_space(p + length); /* a leading `set` is ignored */
        length = 0;
    }
    if (!length) { /* "= 5", "set = 5" */
        fail(session, "a command name is expected before '='");
        return;
    }
    const char *rest = skip_space(p + length);
    if (*rest == '=')
        rest = skip_space(rest + 1);
    char args[ARGS_SIZE];
    size_t arg_length = strlen(rest);
    if (arg_length >= sizeof args) {
        fail(session, "%s: the arguments are too long", word);
        return;
    }
    memcpy(args, rest, arg_length + 1);
    while (arg_length && isspace((unsigned char)args[arg_length - 1]))
        args[--arg_length] = '\0';
    const Command *command = commands_find(word);
    if (command && !command->arguments && !command->setting && args[0]) {
        /* `undo 2` undid one move without a word: a command that takes nothing says so */
        fail(session, "%s: takes no argument (got '%s')", command->name, args);
        return;
    }
    if (command) {
        atomic_store(&session->interrupt.raised, false); /* a Ctrl-C at the prompt is spent */
        command->handler(session, command->name, args);
        return;
    }
    size_t used;
    if (move_parse(word, &used) >= 0) { /* a bare move or move string */
        play_moves(session, skip_space(line));
        return;
    }
    fail(session, "unknown command '%s' (help lists the commands)", word);
}

#include "cli/nboard.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/notation.h"
#include "core/parse.h"
#include "engine/settings.h"

enum {
    OUTPUT_LINE_SIZE = 4096,
    QUOTE_SIZE = 60 /* how much of a bad input a status line repeats */
};

typedef struct Nboard {
    Engine *engine;
    FILE *out;
    bool quit;
    bool iterations_shown; /* the running think/hint printed a `search` line */
} Nboard;

/* One whole line, flushed: the GUI reads line by line and must never see half a line.
 * Control characters (a newline in a quoted input above all) and bytes that are not UTF-8
 * (quoted input again, or a quote cut inside a character) become '?' (error_clean). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void emit(Nboard *nboard, const char *format, ...)
{
    char line[OUTPUT_LINE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    error_clean(line);
    fputs(line, nboard->out);
    fputc('\n', nboard->out);
    fflush(nboard->out);
}

/* A short, printable excerpt of bad input for a status line. */
static const char *quote(const char *text, char *out)
{
    size_t length = strlen(text);
    snprintf(out, QUOTE_SIZE, "%.*s%s", QUOTE_SIZE - 8, text, length > QUOTE_SIZE - 8 ? "..." : "");
    return out;
}

/* Copies the next word (at most size - 1 bytes) and returns the text after it. */
static const char *next_word(const char *text, char *word, size_t size)
{
    text = skip_space(text);
    size_t length = 0;
    while (text[length] && !isspace((unsigned char)text[length]))
        ++length;
    size_t copied = length < size ? length : size - 1;
    memcpy(word, text, copied);
    word[copied] = '\0';
    return text + length;
}

/* ---- output of searches (in the search thread) ---- */

static void format_eval(double discs, bool sign, char *out, size_t size)
{
    if (discs == 0)
        discs = 0; /* no "-0.00" */
    snprintf(out, size, sign ? "%+.2f" : "%.2f", discs);
}

static void format_depth(const EngineResult *result, char *out, size_t size)
{
    if (result->exact)
        snprintf(out, size, "100%%");
    else if (result->wld) /* the protocol's mark of a proven win, draw or loss */
        snprintf(out, size, "100%%W");
    else if (result->probable) /* a probable solve: NBoard shows it as it reads */
        snprintf(out, size, "%d@%d%%", result->depth, result->selectivity);
    else
        snprintf(out, size, "%d", result->depth);
}

/* `search PV EVAL 0 DEPTH` for every line of the result, each with its PV. */
static void emit_search_lines(Nboard *nboard, const EngineReport *report)
{
    const EngineResult *result = &report->result;
    if (result->move == MOVE_NONE || (!result->exact && result->depth < 1))
        return;
    char depth[16];
    format_depth(result, depth, sizeof depth);
    int count = result->line_count > 0 ? result->line_count : 1;
    for (int i = 0; i < count; ++i) {
        int move = result->line_count > 0 ? result->lines[i].move : result->move;
        int score = result->line_count > 0 ? result->lines[i].score : result->score;
        char pv[ENGINE_MAX_DEPTH * 3 + 8], eval[32];
        if (i == 0 && result->pv_length > 0 && result->pv[0] == move)
            engine_format_moves(result->pv, result->pv_length, report->side, "", pv, sizeof pv);
        else if (result->line_count > 0 && result->lines[i].pv_length > 0)
            engine_format_moves(result->lines[i].pv, result->lines[i].pv_length, report->side,
                                "", pv, sizeof pv);
        else
            engine_format_moves(&move, 1, report->side, "", pv, sizeof pv);
        format_eval(engine_discs(score), true, eval, sizeof eval);
        emit(nboard, "search %s %s 0 %s", pv, eval, depth);
    }
    nboard->iterations_shown = true;
}

/* `book PV EVAL GAMES DEPTH` for every book move of a hint, each with its line through the
 * book; GAMES counts the games through the position after the move. */
static void emit_book_lines(Nboard *nboard, const EngineReport *report)
{
    for (int i = 0; i < report->book_count; ++i) {
        char pv[ENGINE_BOOK_PV * 2 + 8], eval[32];
        engine_format_moves(report->book_pvs[i], report->book_pv_lengths[i], report->side, "",
                            pv, sizeof pv);
        format_eval((double)report->book_moves[i].value, true, eval, sizeof eval);
        emit(nboard, "book %s %s %u %d", pv, eval, report->book_moves[i].games,
             report->result.depth);
    }
    nboard->iterations_shown = true;
}

static void emit_nodestats(Nboard *nboard, const EngineReport *report)
{
    emit(nboard, "nodestats %llu %.3f", (unsigned long long)report->nodes, report->seconds);
}

static void on_report(void *context, const EngineReport *report)
{
    Nboard *nboard = context;
    switch (report->event) {
    case ENGINE_ITERATION:
        if (report->task != ENGINE_ANALYZE)
            emit_search_lines(nboard, report);
        return;
    case ENGINE_PROGRESS: /* signs of life during a long search */
        emit_nodestats(nboard, report);
        return;
    case ENGINE_POSITION:
        if (report->task == ENGINE_ANALYZE) {
            /* an interrupted search gives no trustworthy value: skip it */
            if (!report->stopped || report->result.exact || report->result.depth > 0) {
                /* Black's view: the GUI plots the values as they come on its Black-positive
                 * graph (the side to move's view would zigzag) */
                int score = report->side == COLOR_BLACK ? report->result.score
                                                        : -report->result.score;
                char eval[32];
                format_eval(engine_discs(score), false, eval, sizeof eval);
                emit(nboard, "analysis %d %s", report->ply, eval);
            }
        } else if (report->task == ENGINE_HINT && report->from_book) {
            emit_book_lines(nboard, report);
        } else if (report->task == ENGINE_HINT && !nboard->iterations_shown) {
            emit_search_lines(nboard, report); /* passes report no iterations */
        }
        return;
    case ENGINE_FINISHED:
        break;
    }
    if (report->task != ENGINE_THINK || !report->forced)
        emit_nodestats(nboard, report);
    emit(nboard, "status");
    if (report->task != ENGINE_THINK)
        return;
    const EngineResult *result = &report->result;
    if (result->move == MOVE_NONE || result->move == MOVE_PASS) {
        emit(nboard, "=== PA");
        return;
    }
    char move[3];
    move_format_colored(result->move, COLOR_BLACK, move);
    if (report->forced || (!result->exact && result->depth < 1)) {
        emit(nboard, "=== %s//%.2f", move, report->seconds); /* no value to give */
    } else {
        char eval[32];
        format_eval(engine_discs(result->score), false, eval, sizeof eval);
        emit(nboard, "=== %s/%s/%.2f", move, eval, report->seconds);
    }
}

/* ---- commands ---- */

static void start_request(Nboard *nboard, const EngineRequest *request, const char *status)
{
    OctError error;
    nboard->iterations_shown = false;
    emit(nboard, "status %s", status);
    if (!engine_start(nboard->engine, request, on_report, nboard, &error)) {
        emit(nboard, "status error: %s", error.message);
        if (request->task == ENGINE_THINK)
            emit(nboard, "=== PA"); /* cannot happen short of no threads; never leave the GUI waiting */
    }
}

static void start_task(Nboard *nboard, EngineTask task, int lines, const char *status)
{
    EngineRequest request = {.task = task, .lines = lines};
    start_request(nboard, &request, status);
}

static void command_nboard(Nboard *nboard, const char *args)
{
    long version;
    char text[QUOTE_SIZE];
    if (!parse_long(args, 1, 2, &version)) {
        emit(nboard, "status nboard: unsupported protocol version '%s' (1 or 2 expected)",
             quote(skip_space(args), text));
        return;
    }
    emit(nboard, "set myname Octuple%d", engine_settings(nboard->engine)->depth);
    /* the GUI shows "Loading" until a status line comes: ready now (a warning from the
     * start stays in the bar) */
    if (engine_notice(nboard->engine)[0])
        emit(nboard, "status warning: %s", engine_notice(nboard->engine));
    else
        emit(nboard, "status");
}

static void command_ping(Nboard *nboard, const char *args)
{
    long number;
    char text[QUOTE_SIZE];
    if (!parse_long(args, LONG_MIN, LONG_MAX, &number)) {
        emit(nboard, "status ping: '%s' is not an integer", quote(skip_space(args), text));
        return;
    }
    emit(nboard, "pong %ld", number);
}

/* `MOVE[/EVAL[/TIME]]`; false with a reason for anything else. */
static bool parse_mli(const char *text, int *move, double *eval, double *seconds,
                      OctError *error)
{
    char token[64];
    const char *start = skip_space(text);
    size_t length = strcspn(start, " \t\r\n\v\f");
    if (length >= sizeof token) /* next_word would cut it: its tail unread */
        return error_set(error, "longer than %zu characters", sizeof token - 1);
    const char *rest = next_word(start, token, sizeof token);
    if (!token[0])
        return error_set(error, "a move is expected");
    if (*skip_space(rest))
        return error_set(error, "one move is expected");
    char *fields[3] = {token, NULL, NULL};
    int field_count = 1;
    for (char *c = token; *c; ++c) {
        if (*c == '/') {
            if (field_count == 3)
                return error_set(error, "too many '/' fields");
            *c = '\0';
            fields[field_count++] = c + 1;
        }
    }
    size_t used;
    *move = move_parse(fields[0], &used);
    if (*move < 0 || fields[0][used])
        return error_set(error, "'%s' is not a move", fields[0]);
    double *numbers[2] = {eval, seconds};
    for (int i = 0; i < 2; ++i) {
        *numbers[i] = NAN;
        const char *field = fields[i + 1];
        if (!field || !*field)
            continue;
        char *end;
        double value = strtod(field, &end);
        /* plain decimals only, as in GGF: strtod would also read 0x10 as 16 */
        if (end == field || *end || !isfinite(value) || strpbrk(field, "xX"))
            return error_set(error, "'%s' is not a number", field);
        *numbers[i] = value;
    }
    return true;
}

static void command_move(Nboard *nboard, const char *args)
{
    int move = MOVE_NONE;
    double eval = NAN, seconds = NAN; /* parse_mli sets both; -O3 cannot see it */
    OctError error;
    char text[QUOTE_SIZE];
    if (!parse_mli(args, &move, &eval, &seconds, &error)) {
        emit(nboard, "status move '%s': %s", quote(skip_space(args), text), error.message);
        return;
    }
    /* the engine's own answer played back without its time keeps the engine's (engine_play),
     * so that a clock in the game (TI, TB, TW) is charged for it */
    if (!engine_play(nboard->engine, move, eval, seconds, &error)) {
        /* refused: the answer still waits to be played back */
        emit(nboard, "status move rejected: %s", error.message);
        return;
    }
}

/* Settings beyond the protocol's own (game, depth, contempt) that a GUI may change between
 * requests, as on the command line: NBoard never sends them; a GUI of one's own can limit
 * the time of each `go`, or set the exact-solve threshold after `set depth`. */
static const char *const extra_settings[] = {"time", "exact", "wld", "threads", "hash",
                                             "book-randomness"};
enum { EXTRA_SETTING_COUNT = sizeof extra_settings / sizeof extra_settings[0] };

static bool is_extra_setting(const char *name)
{
    for (size_t i = 0; i < EXTRA_SETTING_COUNT; ++i)
        if (!strcasecmp(name, extra_settings[i]))
            return true;
    return false;
}

static void command_set(Nboard *nboard, const char *args)
{
    char what[16], text[QUOTE_SIZE];
    const char *rest = next_word(args, what, sizeof what);
    OctError error;
    if (!strcasecmp(what, "game")) {
        GgfRecord record;
        const char *end;
        /* one record and nothing else: text around it means the line is not what the GUI
         * meant to send (ggf_parse itself skips text before a record, as files have) */
        const char *first = skip_space(rest);
        if (strncmp(first, "(;", 2)) {
            emit(nboard, "status set game: GGF: character 1: '(;' expected, found '%s'",
                 quote(first, text));
            return;
        }
        if (!ggf_parse(first, &record, &end, &error)) {
            emit(nboard, "status set game: %s", error.message);
            return;
        }
        end = skip_space(end);
        if (*end) {
            emit(nboard, "status set game: GGF: character %td: '%s' after the record's end",
                 end - first + 1, quote(end, text));
            return;
        }
        engine_set_record(nboard->engine, &record);
    } else if (!strcasecmp(what, "depth")) {
        long depth;
        if (!parse_long(rest, 1, 60, &depth)) {
            emit(nboard, "status set depth: '%s' is not a depth from 1 to 60",
                 quote(skip_space(rest), text));
            return;
        }
        EngineSettings settings = *engine_settings(nboard->engine);
        settings.depth = (int)depth;
        settings.exact = settings_exact_for_depth((int)depth);
        if (!engine_configure(nboard->engine, &settings, &error)) {
            emit(nboard, "status set depth: %s", error.message);
            return;
        }
        emit(nboard, "set myname Octuple%ld", depth);
    } else if (!strcasecmp(what, "contempt")) {
        long contempt;
        if (!parse_long(rest, -SETTINGS_MAX_CONTEMPT, SETTINGS_MAX_CONTEMPT, &contempt)) {
            emit(nboard, "status set contempt: '%s' is not a number of centidiscs from %d to %d",
                 quote(skip_space(rest), text), -SETTINGS_MAX_CONTEMPT, SETTINGS_MAX_CONTEMPT);
            return;
        }
        EngineSettings settings = *engine_settings(nboard->engine);
        settings.contempt = (int)contempt;
        if (!engine_configure(nboard->engine, &settings, &error))
            emit(nboard, "status set contempt: %s", error.message);
    } else if (is_extra_setting(what)) {
        /* the command line's setting of that name, for GUIs other than NBoard */
        const SettingSpec *spec = settings_find_command(what);
        EngineSettings settings = *engine_settings(nboard->engine);
        if (!spec->apply(&settings, skip_space(rest), &error)
            || !engine_configure(nboard->engine, &settings, &error))
            emit(nboard, "status set %s: %s", spec->command, error.message);
    } else {
        char known[128] = "game, depth, contempt";
        for (size_t i = 0; i < EXTRA_SETTING_COUNT; ++i)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                     i + 1 < EXTRA_SETTING_COUNT ? ", " : " or ", extra_settings[i]);
        emit(nboard, "status set: unknown setting '%s' (%s expected)", quote(what, text), known);
    }
}

/* The game's clock (the mover's GGF TB or TW, else TI, less the times of the mover's moves)
 * caps the search; a clock that cannot be read leaves it uncapped, and says so where the
 * GUI shows it. */
static void command_go(Nboard *nboard, const char *args)
{
    (void)args;
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    GgfRecord record;
    Board board;
    Color side;
    OctError error;
    engine_record(nboard->engine, &record);
    engine_position(nboard->engine, &board, &side);
    char status[ERROR_MESSAGE_SIZE + 32] = "Thinking";
    if (!gameclock_from_record(&record, side, &request.clock, &request.clocked, &error))
        snprintf(status, sizeof status, "Thinking (%s: no time limit)", error.message);
    start_request(nboard, &request, status);
}

static void command_hint(Nboard *nboard, const char *args)
{
    long lines = 1;
    char text[QUOTE_SIZE];
    if (*skip_space(args) && !parse_long(args, 1, 64, &lines)) {
        /* the reason alone: an empty status after it would clear it from the GUI's bar
         * before anyone could read it, and no hint was started that it would end */
        emit(nboard, "status hint: '%s' is not a number of moves from 1 to 64",
             quote(skip_space(args), text));
        return;
    }
    Board board;
    engine_position(nboard->engine, &board, NULL);
    if (board_is_over(&board)) {
        emit(nboard, "status");
        return;
    }
    start_task(nboard, ENGINE_HINT, (int)lines, "Thinking");
}

static void command_learn(Nboard *nboard, const char *args)
{
    (void)args;
    OctError error;
    if (!engine_learn(nboard->engine, NULL, 0, NULL, &error))
        emit(nboard, "status learn: %s", error.message);
    emit(nboard, "learned"); /* always: the GUI waits for it */
}

static void command_analyze(Nboard *nboard, const char *args)
{
    (void)args;
    start_task(nboard, ENGINE_ANALYZE, 1, "Analyzing");
}

static void command_quit(Nboard *nboard, const char *args)
{
    (void)args;
    nboard->quit = true;
}

typedef struct NboardCommand {
    const char *name;
    void (*handler)(Nboard *nboard, const char *args);
} NboardCommand;

static const NboardCommand nboard_commands[] = {
    {"nboard", command_nboard}, {"set", command_set},     {"move", command_move},
    {"ping", command_ping},     {"go", command_go},       {"hint", command_hint},
    {"learn", command_learn},   {"analyze", command_analyze}, {"quit", command_quit},
};

static void handle_line(Nboard *nboard, const char *line)
{
    char word[32], text[QUOTE_SIZE];
    const char *args = next_word(line, word, sizeof word);
    if (!word[0])
        return;
    for (size_t i = 0; i < sizeof nboard_commands / sizeof nboard_commands[0]; ++i) {
        if (!strcasecmp(word, nboard_commands[i].name)) {
            nboard_commands[i].handler(nboard, args);
            return;
        }
    }
    emit(nboard, "status unknown command '%s'", quote(skip_space(line), text));
}

int nboard_run(Engine *engine, Input *input, FILE *out, int version)
{
    Nboard nboard = {engine, out, false, false};
    if (engine_notice(engine)[0])
        emit(&nboard, "status warning: %s", engine_notice(engine));
    if (version > 0)
        emit(&nboard, "set myname Octuple%d", engine_settings(engine)->depth);
    while (!nboard.quit) {
        char *line;
        InputStatus status = input_read(input, true, -1, &line);
        /* a blank line says nothing: a search goes on (the GUI never sends one) */
        if (status == INPUT_LINE && !*skip_space(line))
            continue;
        /* any other input interrupts a search: the GUI has moved on (it pings before
         * requests) */
        engine_stop(engine);
        if (status == INPUT_EOF)
            break;
        if (status == INPUT_TOO_LONG) {
            emit(&nboard, "status input line longer than %d bytes ignored", INPUT_MAX_LINE);
            continue;
        }
        if (status != INPUT_LINE)
            continue;
        handle_line(&nboard, line);
    }
    engine_stop(engine);
    return 0;
}

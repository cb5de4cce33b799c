/* The public library interface (octuple.h) over the Engine facade: plain types in, plain
 * types out, so that an embedding program needs no header but octuple.h. */
#include "octuple.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "engine/engine.h"
#include "core/ggf.h"
#include "core/notation.h"

/* The API's numbering is the engine's: checked here so that neither drifts alone. */
_Static_assert((int)OCTUPLE_PASS == (int)MOVE_PASS, "octuple.h and board.h disagree on the pass");
_Static_assert((int)OCTUPLE_NO_MOVE == (int)MOVE_NONE, "octuple.h and board.h disagree on no move");
_Static_assert(OCTUPLE_BLACK == (int)COLOR_BLACK && OCTUPLE_WHITE == (int)COLOR_WHITE,
               "octuple.h and board.h disagree on the colours");
_Static_assert((int)OCTUPLE_BOARD_TEXT == (int)BOARD_TEXT_SIZE,
               "octuple.h and notation.h disagree on the board text");
_Static_assert((int)OCTUPLE_ERROR_SIZE >= (int)ERROR_MESSAGE_SIZE, "an engine error must fit");
_Static_assert((int)OCTUPLE_MAX_HINTS == (int)ENGINE_MAX_LINES,
               "octuple.h and search.h disagree on the lines of a hint");
_Static_assert((int)OCTUPLE_GAME_TEXT == (int)GGF_LINE_SIZE,
               "octuple.h and ggf.h disagree on the size of a game record");

struct Octuple {
    Engine *engine;
    OctupleProgress progress;
    void *progress_context;
    EngineReport last;     /* the finished task's final report */
    EngineTask task;       /* of the search started last */
    Game task_game;        /* the game it searches (ANALYZE: the moves played) */
    int lines;             /* HINT: the moves asked for; ANALYZE: the positions */
    /* the callback of the search started last, copied at its start: octuple_set_progress
     * during a search is for the next ones, and the search thread reads only these */
    OctupleProgress task_progress;
    void *task_context;
    /* from a search's start until octuple_wait (octuple_wait_analysis) collects it, and
     * while octuple_learn runs, so that octuple_stop reaches either */
    atomic_bool searching;
    /* ANALYZE: each position's final report, in the order they came (last ply first) */
    OctupleAnalysis analyses[GAME_MOVE_CAPACITY + 1];
    int analysis_count;
    atomic_bool stop;      /* octuple_stop was called since the search started */
};

/* A refusal: the message formatted as error_set formats it (one line of UTF-8 whatever
 * it quotes), then copied; returns false. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool fail(char *error, size_t size, const char *format, ...)
{
    if (!error || !size)
        return false;
    char text[OCTUPLE_ERROR_SIZE * 2];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    OctError problem;
    error_set(&problem, "%s", text);
    error_copy(&problem, error, size);
    return false;
}

/* The calls that change the game or the settings wait for no search: they refuse while
 * one runs (one started by octuple_think_start, octuple_hint_start or
 * octuple_analyze_start, or, from a progress callback, a blocking call's). */
static bool refuse_searching(const Octuple *octuple, char *error, size_t error_size)
{
    if (!atomic_load(&octuple->searching))
        return true;
    return fail(error, error_size, "a search is running: stop it (octuple_stop) or collect "
                "it (octuple_wait, octuple_wait_analysis) first");
}

/* "Octuple VERSION", from configure's package name and version. */
const char *octuple_version(void)
{
    return PACKAGE_NAME " " PACKAGE_VERSION;
}

int octuple_api_version(void)
{
    return OCTUPLE_API_VERSION;
}

Octuple *octuple_open(const char *weights, char *error, size_t error_size)
{
    EngineSettings settings;
    settings_init(&settings, NULL);
    if (weights) {
        if (strlen(weights) >= sizeof settings.weights) {
            fail(error, error_size, "the weights file name is too long");
            return NULL;
        }
        strcpy(settings.weights, weights);
    }
    Octuple *octuple = calloc(1, sizeof *octuple);
    if (!octuple) {
        fail(error, error_size, "out of memory");
        return NULL;
    }
    OctError problem;
    if (!engine_create(&settings, &octuple->engine, &problem)) {
        error_copy(&problem, error, error_size);
        free(octuple);
        return NULL;
    }
    atomic_init(&octuple->searching, false);
    atomic_init(&octuple->stop, false);
    return octuple;
}

void octuple_close(Octuple *octuple)
{
    if (!octuple)
        return;
    engine_free(octuple->engine);
    free(octuple);
}

const char *octuple_notice(const Octuple *octuple)
{
    return engine_notice(octuple->engine);
}

const char *octuple_weights_name(const Octuple *octuple)
{
    return engine_weights_name(octuple->engine);
}

/* ---- settings ---- */

/* "book" takes on/off as well as a file: the program's --book FILE and --no-book in one. */
static bool is_switch(const char *name, const char *value, bool *on)
{
    if (strcmp(name, "book") != 0) /* option names are exact, as spec_find takes them */
        return false;
    if (strcasecmp(value, "on") == 0)
        *on = true;
    else if (strcasecmp(value, "off") == 0)
        *on = false;
    else
        return false;
    return true;
}

/* By the program's option names only: the console's `book-file` is the option `book`,
 * which takes on and off too. */
static const SettingSpec *spec_find(const char *name)
{
    return settings_find_option(name, strlen(name));
}

/* The refusal of a name that is no option, listing the ones there are. */
static bool fail_unknown(const char *name, char *error, size_t error_size)
{
    if (!strcmp(name, "no-book")) /* the command line's switch */
        return fail(error, error_size, "unknown option 'no-book': the book is the option "
                    "\"book\", on or off");
    int count;
    const SettingSpec *specs = settings_table(&count);
    char names[400] = "";
    size_t used = 0;
    for (int i = 0; i < count && used < sizeof names; ++i) {
        if (!strcmp(specs[i].option, "game-time"))
            continue; /* the console's, refused here */
        int written = snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                               specs[i].option);
        if (written < 0)
            break;
        used += (size_t)written;
    }
    return fail(error, error_size, "unknown option '%s' (the options: %s)", name, names);
}

bool octuple_set_option(Octuple *octuple, const char *name, const char *value, char *error,
                        size_t error_size)
{
    if (!name || !value)
        return fail(error, error_size, "an option needs a name and a value");
    if (!refuse_searching(octuple, error, error_size))
        return false;
    EngineSettings settings = *engine_settings(octuple->engine);
    OctError problem;
    bool on;
    if (is_switch(name, value, &on)) {
        settings.use_book = on;
    } else {
        const SettingSpec *spec = spec_find(name);
        if (!spec)
            return fail_unknown(name, error, error_size);
        /* the console times the moves it plays; here the program plays them */
        if (spec == settings_find_option("game-time", 9))
            return fail(error, error_size, "game-time is the console's clock: give "
                        "octuple_think an OctupleClock instead");
        if (!spec->apply(&settings, value, &problem)) {
            return fail(error, error_size, "%s: %s", name, problem.message);
        }
        if (spec == settings_find_option("book", 4))
            settings.use_book = true; /* naming a book file means using it */
    }
    if (!engine_configure(octuple->engine, &settings, &problem)) {
        error_copy(&problem, error, error_size);
        return false;
    }
    return true;
}

bool octuple_get_option(const Octuple *octuple, const char *name, char *value,
                        size_t value_size, char *error, size_t error_size)
{
    if (!name || !value || value_size == 0)
        return fail(error, error_size, "an option needs a name and room for its value");
    const EngineSettings *settings = engine_settings(octuple->engine);
    const SettingSpec *spec = spec_find(name);
    if (!spec)
        return fail_unknown(name, error, error_size);
    char shown[SETTINGS_PATH_SIZE + 64];
    if (spec == settings_find_option("book", 4) && !engine_book(octuple->engine))
        snprintf(shown, sizeof shown, "off"); /* turned off, or none found */
    else
        spec->show(settings, shown, sizeof shown);
    if (strlen(shown) >= value_size) { /* a value cut short would read as another one */
        return fail(error, error_size, "the value of '%s' needs %zu bytes, not %zu", name,
                    strlen(shown) + 1, value_size);
    }
    strcpy(value, shown);
    return true;
}

/* ---- the game ---- */

void octuple_new_game(Octuple *octuple)
{
    if (refuse_searching(octuple, NULL, 0))
        engine_new_game(octuple->engine);
}

bool octuple_set_board(Octuple *octuple, const char *text, char *error, size_t error_size)
{
    if (!text)
        return fail(error, error_size, "no board given");
    if (!refuse_searching(octuple, error, error_size))
        return false;
    Board board;
    Color side;
    OctError problem;
    if (!board_parse_line(text, &board, &side, &problem)) {
        error_copy(&problem, error, error_size);
        return false;
    }
    engine_set_position(octuple->engine, &board, side);
    return true;
}

bool octuple_set_game(Octuple *octuple, const char *text, char *error, size_t error_size)
{
    if (!text)
        return fail(error, error_size, "no game given");
    if (!refuse_searching(octuple, error, error_size))
        return false;
    GgfRecord *record = malloc(sizeof *record);
    if (!record)
        return fail(error, error_size, "out of memory");
    OctError problem;
    bool ok;
    if (strstr(text, "(;")) {
        ok = ggf_parse(text, record, NULL, &problem);
    } else {
        /* a move string: a record with no header, so that the last game's players and
         * evaluations do not stick to this one */
        ggf_init(record);
        ok = game_parse_moves(&record->game, text, &problem);
        if (ok && record->game.move_count == 0)
            ok = error_set(&problem, "no moves: a GGF record or a move string expected");
    }
    if (ok)
        engine_set_record(octuple->engine, record);
    else
        error_copy(&problem, error, error_size);
    free(record);
    return ok;
}

bool octuple_get_game(const Octuple *octuple, char *out, size_t size, char *error,
                      size_t error_size)
{
    if (!out || size == 0)
        return fail(error, error_size, "no room for the game record");
    GgfRecord *record = malloc(sizeof *record);
    char *line = malloc(GGF_LINE_SIZE);
    bool ok = record && line;
    OctError problem;
    if (!ok) {
        error_set(&problem, "out of memory");
    } else {
        engine_record(octuple->engine, record);
        ok = ggf_format(record, line, GGF_LINE_SIZE, &problem);
        if (ok && strlen(line) >= size)
            ok = error_set(&problem, "the game record needs %zu bytes, not %zu",
                           strlen(line) + 1, size);
    }
    if (ok)
        strcpy(out, line);
    else
        error_copy(&problem, error, error_size);
    free(record);
    free(line);
    return ok;
}

bool octuple_play(Octuple *octuple, int move, char *error, size_t error_size)
{
    if (move < 0 || move > OCTUPLE_PASS) {
        return fail(error, error_size, "%d is not a move (0..63, or %d for a pass)", move,
                    OCTUPLE_PASS);
    }
    if (!refuse_searching(octuple, error, error_size))
        return false;
    /* the engine's own answer keeps its value and time in the game (engine_play) */
    OctError problem;
    if (!engine_play(octuple->engine, move, NAN, NAN, &problem)) {
        error_copy(&problem, error, error_size);
        return false;
    }
    return true;
}

int octuple_undo(Octuple *octuple)
{
    return engine_undo(octuple->engine);
}

int octuple_redo(Octuple *octuple)
{
    return engine_redo(octuple->engine);
}

int octuple_move_parse(const char *text)
{
    if (!text)
        return -1;
    size_t length;
    int move = move_parse(text, &length);
    return move < 0 || text[length] != '\0' ? -1 : move;
}

char *octuple_move_name(int move, char *out)
{
    if (move >= 0 && move <= OCTUPLE_PASS)
        return move_format(move, out);
    return strcpy(out, "--");
}

/* ---- the position ---- */

OctupleColor octuple_side_to_move(const Octuple *octuple)
{
    Board board;
    Color side;
    engine_position(octuple->engine, &board, &side);
    return board_is_over(&board) ? OCTUPLE_EMPTY : (OctupleColor)side;
}

OctupleColor octuple_square(const Octuple *octuple, int square)
{
    if (square < 0 || square >= 64)
        return OCTUPLE_EMPTY;
    Board board;
    Color side;
    engine_position(octuple->engine, &board, &side);
    uint64_t bit = 1ULL << square;
    if (board.player & bit)
        return (OctupleColor)side;
    if (board.opponent & bit)
        return (OctupleColor)!side;
    return OCTUPLE_EMPTY;
}

int octuple_legal_moves(const Octuple *octuple, int *moves)
{
    Board board;
    engine_position(octuple->engine, &board, NULL);
    int count = 0;
    for (uint64_t legal = board_legal(&board); legal; legal &= legal - 1)
        moves[count++] = __builtin_ctzll(legal);
    return count;
}

int octuple_discs(const Octuple *octuple, OctupleColor color)
{
    Board board;
    Color side;
    engine_position(octuple->engine, &board, &side);
    if (color == OCTUPLE_EMPTY)
        return board_count_empties(&board);
    return (int)color == (int)side ? board_count_player(&board) : board_count_opponent(&board);
}

int octuple_ply(const Octuple *octuple)
{
    return engine_game(octuple->engine)->move_count;
}

char *octuple_board(const Octuple *octuple, char *out)
{
    Board board;
    Color side;
    engine_position(octuple->engine, &board, &side);
    return board_format(&board, side, out);
}

/* ---- searches ---- */

/* The line of `count` moves into `result`, cut at OCTUPLE_MAX_LINE. */
static void line_copy(OctupleResult *result, const int *moves, int count)
{
    if (count > OCTUPLE_MAX_LINE)
        count = OCTUPLE_MAX_LINE;
    if (count < 0)
        count = 0;
    memcpy(result->line, moves, sizeof *moves * (size_t)count);
    result->line_length = count;
}

/* The search result's best move (line 0) as an OctupleResult. */
static void result_fill(OctupleResult *out, const EngineResult *result, uint64_t nodes,
                        double seconds)
{
    memset(out, 0, sizeof *out);
    out->move = result->move;
    out->score = engine_discs(result->score);
    out->exact = result->exact;
    out->outcome_only = result->wld;
    out->depth = result->depth;
    out->selectivity = result->selectivity ? result->selectivity : 100;
    out->nodes = nodes;
    out->seconds = seconds;
    if (result->pv_length > 0 && result->pv[0] == result->move)
        line_copy(out, result->pv, result->pv_length);
    else if (result->move != MOVE_NONE)
        line_copy(out, &result->move, 1);
}

static void on_report(void *context, const EngineReport *report)
{
    Octuple *octuple = context;
    if (report->event == ENGINE_ITERATION) {
        if (octuple->task_progress) {
            OctupleResult so_far;
            result_fill(&so_far, &report->result, report->nodes, report->seconds);
            octuple->task_progress(octuple->task_context, &so_far);
        }
        return;
    }
    if (report->event == ENGINE_POSITION && report->task == ENGINE_ANALYZE
        && octuple->analysis_count <= GAME_MOVE_CAPACITY
        /* an interrupted search gives no trustworthy value: skipped, as over NBoard */
        && (!report->stopped || report->result.exact || report->result.depth > 0)) {
        OctupleAnalysis *analysis = &octuple->analyses[octuple->analysis_count++];
        analysis->ply = report->ply;
        const Game *game = &octuple->task_game;
        analysis->played = report->ply < game->move_count ? game->moves[report->ply]
                                                           : MOVE_NONE;
        analysis->played_scored = report->played_known;
        analysis->played_score = report->played_known ? engine_discs(report->played_score) : 0;
        result_fill(&analysis->best, &report->result, report->nodes, report->seconds);
        analysis->best.stopped = report->stopped;
    }
    if (report->event == ENGINE_FINISHED)
        octuple->last = *report;
}

/* Starts a task in the engine's thread. A stop that comes while it starts may find the
 * task's flags not yet reset, and be wiped by the reset: it is passed on once the task
 * runs. */
static bool start(Octuple *octuple, const EngineRequest *request, char *error,
                  size_t error_size)
{
    if (atomic_load(&octuple->searching))
        return fail(error, error_size, "a search is already running");
    OctError problem;
    atomic_store(&octuple->stop, false);
    octuple->task_progress = octuple->progress;
    octuple->task_context = octuple->progress_context;
    octuple->task_game = *engine_game(octuple->engine);
    octuple->analysis_count = 0;
    if (!engine_start(octuple->engine, request, on_report, octuple, &problem)) {
        error_copy(&problem, error, error_size);
        return false;
    }
    octuple->task = request->task;
    octuple->lines = request->lines;
    atomic_store(&octuple->searching, true);
    if (atomic_load(&octuple->stop))
        engine_interrupt(octuple->engine);
    return true;
}

bool octuple_think_start(Octuple *octuple, const OctupleClock *clock, char *error,
                         size_t error_size)
{
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1};
    if (clock) {
        if (!(clock->seconds_left >= 0) || !(clock->increment >= 0)
            || !isfinite(clock->seconds_left) || !isfinite(clock->increment))
            return fail(error, error_size, "a clock needs finite seconds, 0 or more");
        request.clocked = true;
        request.clock = (GameClock){.left = clock->seconds_left,
                                    .increment = clock->increment};
    }
    return start(octuple, &request, error, error_size);
}

bool octuple_hint_start(Octuple *octuple, int count, char *error, size_t error_size)
{
    if (count < 1 || count > OCTUPLE_MAX_HINTS) {
        return fail(error, error_size, "%d moves: a hint scores 1 to %d", count, OCTUPLE_MAX_HINTS);
    }
    EngineRequest request = {.task = ENGINE_HINT, .lines = count};
    return start(octuple, &request, error, error_size);
}

bool octuple_busy(Octuple *octuple)
{
    return atomic_load(&octuple->searching) && engine_busy(octuple->engine);
}

int octuple_wakeup_fd(const Octuple *octuple)
{
    return engine_wakeup_fd(octuple->engine);
}

/* Whether a result's score says something: a forced move has none, nor a search stopped
 * before it completed any depth (book values, exact and outcome-only scores always do). */
static bool result_valued(const OctupleResult *result)
{
    return !result->forced && (!result->stopped || result->depth >= 1 || result->exact
                               || result->outcome_only || result->from_book);
}

/* The finished THINK's result. */
static void think_result(const Octuple *octuple, OctupleResult *result)
{
    const EngineReport *report = &octuple->last;
    result_fill(result, &report->result, report->nodes, report->seconds);
    result->from_book = report->from_book;
    /* a finished game is "forced" too, but its final score is exact */
    result->forced = report->forced && result->move != MOVE_NONE;
    result->stopped = report->stopped;
    if (!result_valued(result))
        result->score = 0;
}

/* The finished HINT's moves, at most `capacity`: how many were written. */
static int hint_results(const Octuple *octuple, OctupleResult *results, int capacity)
{
    const EngineReport *report = &octuple->last;
    const EngineResult *result = &report->result;
    int written = 0;
    if (report->from_book) {
        for (int i = 0; i < report->book_count && written < capacity; ++i, ++written) {
            OctupleResult *out = &results[written];
            memset(out, 0, sizeof *out);
            out->move = report->book_moves[i].move;
            out->score = report->book_moves[i].value;
            out->from_book = true;
            out->depth = result->depth;
            out->selectivity = 100;
            line_copy(out, report->book_pvs[i], report->book_pv_lengths[i]);
        }
    } else if (result->move != MOVE_NONE) {
        int lines = result->line_count > 0 ? result->line_count : 1;
        for (int i = 0; i < lines && written < capacity; ++i, ++written) {
            OctupleResult *out = &results[written];
            result_fill(out, result, report->nodes, report->seconds);
            if (result->line_count > 0) {
                const EngineLine *line = &result->lines[i];
                out->move = line->move;
                out->score = engine_discs(line->score);
                if (i == 0 && result->pv_length > 0 && result->pv[0] == line->move)
                    line_copy(out, result->pv, result->pv_length);
                else if (line->pv_length > 0)
                    line_copy(out, line->pv, line->pv_length);
                else
                    line_copy(out, &line->move, 1);
            }
        }
    }
    for (int i = 0; i < written; ++i) {
        results[i].stopped = report->stopped;
        results[i].nodes = report->nodes;
        results[i].seconds = report->seconds;
        if (!result_valued(&results[i]))
            results[i].score = 0;
    }
    return written;
}

/* Refuses to collect a started task of another kind than the collecting call's. */
static bool refuse_other_task(const Octuple *octuple, bool analysis, char *error,
                              size_t error_size)
{
    if (!atomic_load(&octuple->searching))
        return fail(error, error_size, "no search was started");
    if ((octuple->task == ENGINE_ANALYZE) == analysis)
        return true;
    return fail(error, error_size, analysis ? "the search started is not an analysis: "
                                              "collect it with octuple_wait"
                                            : "the search started is an analysis: collect "
                                              "it with octuple_wait_analysis");
}

int octuple_wait(Octuple *octuple, OctupleResult *results, int capacity, char *error,
                 size_t error_size)
{
    if (!refuse_other_task(octuple, false, error, error_size))
        return -1;
    if (!results || capacity < 1) {
        fail(error, error_size, "no room for a result");
        return -1;
    }
    engine_wait(octuple->engine);
    atomic_store(&octuple->searching, false);
    if (octuple->task == ENGINE_THINK) {
        think_result(octuple, &results[0]);
        return 1;
    }
    return hint_results(octuple, results, capacity < octuple->lines ? capacity : octuple->lines);
}

bool octuple_analyze_start(Octuple *octuple, int first_ply, char *error, size_t error_size)
{
    int plies = engine_game(octuple->engine)->move_count;
    if (first_ply < 0 || first_ply > plies) {
        return fail(error, error_size, "ply %d: the game has plies 0 to %d", first_ply, plies);
    }
    EngineRequest request = {.task = ENGINE_ANALYZE, .lines = 1, .first_ply = first_ply};
    if (!start(octuple, &request, error, error_size))
        return false;
    octuple->lines = plies - first_ply + 1;
    return true;
}

int octuple_wait_analysis(Octuple *octuple, OctupleAnalysis *analyses, int capacity,
                          char *error, size_t error_size)
{
    if (!refuse_other_task(octuple, true, error, error_size))
        return -1;
    if (!analyses || capacity < octuple->lines) {
        fail(error, error_size, "%d positions to analyse, room for %d", octuple->lines,
             analyses ? capacity : 0);
        return -1;
    }
    engine_wait(octuple->engine);
    atomic_store(&octuple->searching, false);
    /* the reports came from the last ply back: the game's order is the reverse */
    int written = 0;
    for (int i = octuple->analysis_count - 1; i >= 0; --i)
        analyses[written++] = octuple->analyses[i];
    return written;
}

int octuple_analyze(Octuple *octuple, int first_ply, OctupleAnalysis *analyses, int capacity,
                    char *error, size_t error_size)
{
    int plies = engine_game(octuple->engine)->move_count;
    /* refused before hours of searching (a bad ply is octuple_analyze_start's to name) */
    if (first_ply >= 0 && first_ply <= plies) {
        int positions = plies - first_ply + 1;
        if (!analyses || capacity < positions) {
            fail(error, error_size, "%d positions to analyse, room for %d", positions,
                 analyses ? capacity : 0);
            return -1;
        }
    }
    if (!octuple_analyze_start(octuple, first_ply, error, error_size))
        return -1;
    return octuple_wait_analysis(octuple, analyses, capacity, error, error_size);
}

bool octuple_think(Octuple *octuple, const OctupleClock *clock, OctupleResult *result,
                   char *error, size_t error_size)
{
    return octuple_think_start(octuple, clock, error, error_size)
        && octuple_wait(octuple, result, 1, error, error_size) == 1;
}

int octuple_hint(Octuple *octuple, int count, OctupleResult *results, char *error,
                 size_t error_size)
{
    if (!octuple_hint_start(octuple, count, error, error_size))
        return -1;
    return octuple_wait(octuple, results, count, error, error_size);
}

bool octuple_learn(Octuple *octuple, char *error, size_t error_size)
{
    if (!refuse_searching(octuple, error, error_size))
        return false;
    /* flagged as a search, so that octuple_stop from another thread reaches it */
    atomic_store(&octuple->stop, false);
    atomic_store(&octuple->searching, true);
    OctError problem;
    bool ok = engine_learn(octuple->engine, NULL, 0, &octuple->stop, &problem);
    atomic_store(&octuple->searching, false);
    if (!ok)
        error_copy(&problem, error, error_size);
    return ok;
}

void octuple_stop(Octuple *octuple)
{
    atomic_store(&octuple->stop, true);
    if (atomic_load(&octuple->searching))
        engine_interrupt(octuple->engine);
}

void octuple_set_progress(Octuple *octuple, OctupleProgress progress, void *context)
{
    octuple->progress = progress;
    octuple->progress_context = context;
}

#include "cli/gtp.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "core/notation.h"
#include "core/parse.h"

enum { ANSWER_SIZE = 2048 };

typedef struct Gtp {
    Engine *engine;
    FILE *out;
    bool quit;
    EngineReport final; /* the last ENGINE_POSITION report of a genmove */
    bool have_final;
    /* by ply: a pass the controller never saw as a move of its own (played for a side with
     * no move when the other colour moved), which undo takes back with the move after it */
    bool implied[GAME_MOVE_CAPACITY];
    /* the controller's clocks (time_settings, time_left), by colour; each genmove also
     * charges its own time, for controllers that send no time_left */
    bool clocked[2];       /* a colour's clock is known */
    bool settings_clocked; /* time_settings set a limit: */
    GameClock settings;    /* this one, from which each game starts */
    bool unlimited;        /* time_settings said there is none: time_left is ignored */
    GameClock clocks[2];
    char answer[ANSWER_SIZE];
} Gtp;

typedef struct GtpCommand {
    const char *name;
    /* true: success, with the answer in gtp->answer (may be empty); false: the failure's
     * message there */
    bool (*handler)(Gtp *gtp, const char *args);
    /* The one rule for arguments: a command runs only with exactly `words` of them, else
     * it is refused with "syntax error: NAME takes TAKES" (`undo undo` is not an undo). */
    int words;
    const char *takes;
} GtpCommand;

/* The answer's text into gtp->answer; returns `ok`, which says whether it is a success
 * (`=`) or a refusal (`?`). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool reply(Gtp *gtp, bool ok, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(gtp->answer, sizeof gtp->answer, format, args);
    va_end(args);
    return ok;
}

static int game_length(const Gtp *gtp)
{
    return engine_game(gtp->engine)->move_count;
}

/* The plies from `from` on were added by one command: the passes before its last are the
 * ones engine_play put in for a side with no move; the last one is the command's own
 * unless `last_implied`. */
static void note_plies(Gtp *gtp, int from, bool last_implied)
{
    int to = game_length(gtp);
    for (int i = from; i < to; ++i)
        gtp->implied[i] = i < to - 1 || last_implied;
}

static const char *color_name(Color color)
{
    return color == COLOR_BLACK ? "black" : "white";
}

/* "black", "b", "white", "w" in any case. */
static bool parse_color(const char *word, Color *color)
{
    if (!strcasecmp(word, "black") || !strcasecmp(word, "b"))
        *color = COLOR_BLACK;
    else if (!strcasecmp(word, "white") || !strcasecmp(word, "w"))
        *color = COLOR_WHITE;
    else
        return false;
    return true;
}

/* The arguments as `count` words (each under 32 bytes), nothing after them. */
static bool split_words(const char *args, char words[][32], int count)
{
    for (int i = 0; i < count; ++i) {
        while (*args == ' ')
            ++args;
        size_t length = strcspn(args, " ");
        if (!length || length >= 32)
            return false;
        memcpy(words[i], args, length);
        words[i][length] = '\0';
        args += length;
    }
    while (*args == ' ')
        ++args;
    return !*args;
}

/* ---- the commands ---- */

static bool cmd_protocol_version(Gtp *gtp, const char *args)
{
    (void)args;
    return reply(gtp, true, "2");
}

static bool cmd_name(Gtp *gtp, const char *args)
{
    (void)args;
    return reply(gtp, true, "Octuple");
}

static bool cmd_version(Gtp *gtp, const char *args)
{
    (void)args;
    return reply(gtp, true, "%s", PACKAGE_VERSION);
}

static const GtpCommand *find_command(const char *name);

static bool cmd_known_command(Gtp *gtp, const char *args)
{
    return reply(gtp, true, "%s", find_command(args) ? "true" : "false");
}

static bool cmd_list_commands(Gtp *gtp, const char *args);

static bool cmd_quit(Gtp *gtp, const char *args)
{
    (void)args;
    gtp->quit = true;
    return reply(gtp, true, "%s", "");
}

static bool cmd_boardsize(Gtp *gtp, const char *args)
{
    int size;
    if (!parse_int(args, 1, 1000, &size))
        return reply(gtp, false, "syntax error: boardsize takes an integer");
    return size == 8 ? reply(gtp, true, "%s", "") : reply(gtp, false, "unacceptable size");
}

static bool cmd_clear_board(Gtp *gtp, const char *args)
{
    (void)args;
    engine_new_game(gtp->engine);
    /* a time_left of the last game is no word on this one's */
    gtp->clocked[COLOR_BLACK] = gtp->clocked[COLOR_WHITE] = gtp->settings_clocked;
    gtp->clocks[COLOR_BLACK] = gtp->clocks[COLOR_WHITE] = gtp->settings;
    return reply(gtp, true, "%s", "");
}

/* Komi means nothing in Othello: accepted when well formed, so that a controller that
 * always sends it goes on. */
static bool cmd_komi(Gtp *gtp, const char *args)
{
    double komi;
    if (!parse_double(args, -1000, 1000, &komi))
        return reply(gtp, false, "syntax error: komi takes a number");
    return reply(gtp, true, "%s", "");
}

/* Canadian overtime, as GTP defines it: `main` seconds, then `period` seconds for each
 * `stones` moves. A period with no stones means no limit at all, and so (here) does a clock
 * of nothing. */
static bool cmd_time_settings(Gtp *gtp, const char *args)
{
    char words[3][32];
    long main_time, period, stones;
    if (!split_words(args, words, 3) || !parse_long(words[0], 0, LONG_MAX, &main_time)
        || !parse_long(words[1], 0, LONG_MAX, &period)
        || !parse_long(words[2], 0, INT_MAX, &stones))
        return reply(gtp, false, "syntax error: time_settings takes three integers");
    gtp->unlimited = (period > 0 && stones == 0) || (main_time == 0 && period == 0);
    gtp->settings_clocked = !gtp->unlimited;
    gtp->clocked[COLOR_BLACK] = gtp->clocked[COLOR_WHITE] = gtp->settings_clocked;
    gtp->settings = main_time > 0 ? (GameClock){(double)main_time, 0, 0, (double)period, (int)stones}
                                  : (GameClock){(double)period, (int)stones, 0, (double)period,
                                                (int)stones};
    gtp->clocks[COLOR_BLACK] = gtp->clocks[COLOR_WHITE] = gtp->settings;
    return reply(gtp, true, "%s", "");
}

/* The controller's word on one clock: `seconds` left, for `stones` moves in overtime (0:
 * still in the main time). Without time_settings it is a clock of its own (no overtime). */
static bool cmd_time_left(Gtp *gtp, const char *args)
{
    char words[3][32];
    Color color;
    long seconds, stones;
    if (!split_words(args, words, 3) || !parse_color(words[0], &color)
        || !parse_long(words[1], 0, LONG_MAX, &seconds)
        || !parse_long(words[2], 0, INT_MAX, &stones))
        return reply(gtp, false, "syntax error: time_left takes a colour and two integers");
    if (gtp->unlimited) /* a clock without a limit, as time_settings had it */
        return reply(gtp, true, "%s", "");
    gtp->clocked[color] = true;
    gtp->clocks[color].left = (double)seconds;
    gtp->clocks[color].moves = (int)stones;
    return reply(gtp, true, "%s", "");
}

/* A move's `seconds` off `color`'s clock, until the controller says otherwise. */
static void clock_charge(Gtp *gtp, Color color, double seconds)
{
    GameClock *clock = &gtp->clocks[color];
    clock->left -= seconds;
    if (clock->moves > 0) {
        /* the period is played: a new one starts, if the settings say how long (if not,
         * what is left stands until the controller's next time_left) */
        if (--clock->moves == 0 && clock->period_moves > 0) {
            clock->left = clock->period;
            clock->moves = clock->period_moves;
        }
    } else if (clock->left < 0 && clock->period > 0 && clock->period_moves > 0) {
        /* the main time ran out during this move, the first of the first period */
        clock->left += clock->period;
        clock->moves = clock->period_moves - 1;
        if (clock->moves == 0) {
            clock->left = clock->period;
            clock->moves = clock->period_moves;
        }
    } else {
        clock->left += clock->increment;
    }
}

static bool cmd_set_game(Gtp *gtp, const char *args)
{
    if (!strcasecmp(args, "othello") || !strcasecmp(args, "reversi"))
        return reply(gtp, true, "%s", "");
    return reply(gtp, false, "unsupported game");
}

static bool cmd_list_games(Gtp *gtp, const char *args)
{
    (void)args;
    return reply(gtp, true, "Othello");
}

static bool cmd_play(Gtp *gtp, const char *args)
{
    char words[2][32];
    Color color;
    if (!split_words(args, words, 2))
        return reply(gtp, false, "syntax error: play takes a colour and a vertex");
    if (!parse_color(words[0], &color))
        return reply(gtp, false, "syntax error: invalid color");
    size_t used;
    int move = move_parse(words[1], &used);
    if (move < 0 || used != strlen(words[1]))
        return reply(gtp, false, "syntax error: invalid vertex");
    Board board;
    Color side;
    engine_position(gtp->engine, &board, &side);
    if (board_is_over(&board))
        return reply(gtp, false, "illegal move: the game is over");
    if (color != side) {
        /* the other colour moves when the side to move has to pass (engine_play plays that
         * pass first); its pass would be the second in a row, which ends no game here */
        if (board_legal(&board) || move == MOVE_PASS)
            return reply(gtp, false, "illegal move: %s to move", color_name(side));
        board = (Board){board.opponent, board.player};
    }
    uint64_t legal = board_legal(&board);
    if (move == MOVE_PASS ? legal != 0 : !(legal >> move & 1))
        return reply(gtp, false, "illegal move");
    OctError error;
    int before = game_length(gtp);
    if (!engine_play(gtp->engine, move, NAN, NAN, &error))
        return reply(gtp, false, "illegal move: %s", error.message);
    note_plies(gtp, before, false);
    return reply(gtp, true, "%s", "");
}

static void on_report(void *context, const EngineReport *report)
{
    Gtp *gtp = context;
    if (report->event == ENGINE_POSITION) {
        gtp->final = *report;
        gtp->have_final = true;
    }
}

/* The engine's move for `args`' colour, played when `play` is set. When the other side is
 * to move and has no move, its pass is played first: kept by genmove (it is forced, and
 * implied), taken back after reg_genmove, which changes nothing. */
static bool generate(Gtp *gtp, const char *args, bool play)
{
    Color color;
    if (!parse_color(args, &color))
        return reply(gtp, false, "syntax error: invalid color");
    Board board;
    Color side;
    engine_position(gtp->engine, &board, &side);
    if (board_is_over(&board))
        return reply(gtp, true, "pass");
    OctError error;
    int before = game_length(gtp);
    bool passed = color != side;
    if (passed) {
        if (board_legal(&board))
            return reply(gtp, false, "%s to move, not %s", color_name(side), color_name(color));
        if (!engine_play(gtp->engine, MOVE_PASS, NAN, NAN, &error))
            return reply(gtp, false, "%s", error.message);
        note_plies(gtp, before, true);
    }
    EngineRequest request = {.task = ENGINE_THINK, .lines = 1, .clocked = gtp->clocked[color],
                             .clock = gtp->clocks[color]};
    gtp->have_final = false;
    bool searched = engine_run(gtp->engine, &request, on_report, gtp, &error);
    if (passed && (!play || !searched || !gtp->have_final)) { /* the game as it was */
        Game game = *engine_game(gtp->engine);
        game.move_count = before;
        engine_set_game(gtp->engine, &game);
    }
    if (!searched)
        return reply(gtp, false, "%s", error.message);
    if (!gtp->have_final)
        return reply(gtp, false, "no move found");
    const EngineReport *report = &gtp->final;
    int move = report->result.move;
    double eval = report->forced ? NAN : engine_discs(report->result.score);
    int played = game_length(gtp);
    if (play && !engine_play(gtp->engine, move, eval, report->seconds, &error))
        return reply(gtp, false, "%s", error.message); /* cannot happen: searches play legal moves */
    if (play) {
        note_plies(gtp, played, false);
        if (gtp->clocked[color])
            clock_charge(gtp, color, report->seconds);
    }
    char name[3];
    if (move == MOVE_PASS)
        return reply(gtp, true, "pass");
    return reply(gtp, true, "%s", move_format_colored(move, COLOR_BLACK, name));
}

static bool cmd_genmove(Gtp *gtp, const char *args)
{
    return generate(gtp, args, true);
}

static bool cmd_reg_genmove(Gtp *gtp, const char *args)
{
    return generate(gtp, args, false);
}

/* One move back, as the controller counts moves: its own `play COLOUR pass` and a `pass`
 * that genmove answered are moves; a pass implied by the other colour's move is not, and
 * goes with the move after it. The console's undo, which also skips the move before a
 * pass, would take back a move the controller still has on its board. */
static bool cmd_undo(Gtp *gtp, const char *args)
{
    (void)args;
    Game game = *engine_game(gtp->engine);
    if (!game.move_count)
        return reply(gtp, false, "cannot undo");
    --game.move_count;
    while (game.move_count && gtp->implied[game.move_count - 1])
        --game.move_count;
    engine_set_game(gtp->engine, &game);
    return reply(gtp, true, "%s", "");
}

static bool cmd_showboard(Gtp *gtp, const char *args)
{
    (void)args;
    Board board;
    Color side;
    engine_position(gtp->engine, &board, &side);
    uint64_t black = side == COLOR_BLACK ? board.player : board.opponent;
    uint64_t white = side == COLOR_BLACK ? board.opponent : board.player;
    /* whose turn it is, then a grid with black as X */
    size_t used = (size_t)snprintf(gtp->answer, sizeof gtp->answer,
                                   "%s to move, black %d, white %d\n  a b c d e f g h",
                                   board_is_over(&board) ? "nobody" : color_name(side),
                                   __builtin_popcountll(black), __builtin_popcountll(white));
    for (int row = 0; row < 8; ++row) {
        used += (size_t)snprintf(gtp->answer + used, sizeof gtp->answer - used, "\n%d", row + 1);
        for (int col = 0; col < 8; ++col) {
            uint64_t bit = 1ULL << (row * 8 + col);
            used += (size_t)snprintf(gtp->answer + used, sizeof gtp->answer - used, " %c",
                                     black & bit ? 'X' : white & bit ? 'O' : '.');
        }
    }
    return true;
}

static bool cmd_final_score(Gtp *gtp, const char *args)
{
    (void)args;
    Board board;
    engine_position(gtp->engine, &board, NULL);
    if (!board_is_over(&board))
        return reply(gtp, false, "the game is not over");
    int score = game_black_score(engine_game(gtp->engine));
    if (!score)
        return reply(gtp, true, "0");
    return reply(gtp, true, "%c+%d", score > 0 ? 'B' : 'W', abs(score));
}

static const GtpCommand commands[] = {
    {"protocol_version", cmd_protocol_version, 0, "no arguments"},
    {"name", cmd_name, 0, "no arguments"},
    {"version", cmd_version, 0, "no arguments"},
    {"known_command", cmd_known_command, 1, "a command name"},
    {"list_commands", cmd_list_commands, 0, "no arguments"},
    {"quit", cmd_quit, 0, "no arguments"},
    {"boardsize", cmd_boardsize, 1, "an integer"},
    {"clear_board", cmd_clear_board, 0, "no arguments"},
    {"komi", cmd_komi, 1, "a number"},
    {"set_game", cmd_set_game, 1, "a game name"},
    {"list_games", cmd_list_games, 0, "no arguments"},
    {"play", cmd_play, 2, "a colour and a vertex"},
    {"genmove", cmd_genmove, 1, "a colour"},
    {"reg_genmove", cmd_reg_genmove, 1, "a colour"},
    {"undo", cmd_undo, 0, "no arguments"},
    {"showboard", cmd_showboard, 0, "no arguments"},
    {"final_score", cmd_final_score, 0, "no arguments"},
    {"time_settings", cmd_time_settings, 3, "three integers"},
    {"time_left", cmd_time_left, 3, "a colour and two integers"},
};

static const GtpCommand *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static bool cmd_list_commands(Gtp *gtp, const char *args)
{
    (void)args;
    size_t used = 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        used += (size_t)snprintf(gtp->answer + used, sizeof gtp->answer - used, "%s%s",
                                 i ? "\n" : "", commands[i].name);
    return true;
}

/* ---- the loop ---- */

/* `=ID text` or `?ID text` and the blank line that ends every answer. */
static void respond(Gtp *gtp, const char *id, bool ok, const char *text)
{
    fprintf(gtp->out, "%c%s%s%s\n\n", ok ? '=' : '?', id, *text ? " " : "", text);
    fflush(gtp->out);
}

/* The protocol's cleaning of a line: control characters dropped but tabs, which become
 * spaces; a comment (from '#') dropped; spaces at the ends trimmed. */
static char *clean_line(char *line)
{
    char *to = line;
    for (char *from = line; *from && *from != '#'; ++from) {
        unsigned char c = (unsigned char)*from;
        if (c == '\t')
            *to++ = ' ';
        else if (c >= 0x20 && c != 0x7f)
            *to++ = (char)c;
    }
    *to = '\0';
    while (to > line && to[-1] == ' ')
        *--to = '\0';
    while (*line == ' ')
        ++line;
    return line;
}

/* The length of the id that starts a cleaned line: its digits when a space or the end
 * follows them, else 0 (no id). */
static size_t id_length(const char *line)
{
    size_t digits = strspn(line, "0123456789");
    return line[digits] == ' ' || !line[digits] ? digits : 0;
}

static void handle_line(Gtp *gtp, char *line)
{
    line = clean_line(line);
    if (!*line)
        return;
    char id[24] = "";
    size_t digits = id_length(line);
    if (digits) {
        if (digits >= sizeof id) { /* refused, but under its own id, which the controller awaits */
            line[digits] = '\0';
            respond(gtp, line, false, "syntax error: id too long");
            return;
        }
        memcpy(id, line, digits);
        id[digits] = '\0';
        line += digits;
        while (*line == ' ')
            ++line;
    }
    size_t length = strcspn(line, " ");
    char *args = line + length;
    if (*args)
        *args++ = '\0';
    while (*args == ' ')
        ++args;
    const GtpCommand *command = find_command(line);
    if (!command) {
        respond(gtp, id, false, "unknown command");
        return;
    }
    int words = 0; /* the line is cleaned: words are apart by spaces, none at the end */
    for (const char *c = args; *c; ++c)
        words += c == args || (c[-1] == ' ' && *c != ' ');
    gtp->answer[0] = '\0';
    bool ok = words == command->words
                  ? command->handler(gtp, args)
                  : reply(gtp, false, "syntax error: %s takes %s", command->name, command->takes);
    respond(gtp, id, ok, gtp->answer);
}

/* A line too long to read: refused with its id, unless it was blank or a comment, which
 * get no answer however long. */
static void answer_dropped(Gtp *gtp, const char *start)
{
    char head[INPUT_DROPPED_SIZE];
    snprintf(head, sizeof head, "%s", start);
    char *line = clean_line(head); /* a comment cleans to nothing */
    if (!*line)
        return;
    line[id_length(line)] = '\0';
    respond(gtp, line, false, "input line too long");
}

int gtp_run(Engine *engine, Input *input, FILE *out)
{
    Gtp *gtp = calloc(1, sizeof *gtp); /* a search report is large for the stack */
    if (!gtp) {
        fprintf(stderr, "octuple: error: out of memory\n");
        return 1;
    }
    gtp->engine = engine;
    gtp->out = out;
    if (engine_notice(engine)[0]) /* the protocol has no channel for it */
        fprintf(stderr, "octuple: warning: %s\n", engine_notice(engine));
    while (!gtp->quit) {
        char *line;
        InputStatus status = input_read(input, true, -1, &line);
        if (status == INPUT_EOF)
            break;
        if (status == INPUT_TOO_LONG)
            answer_dropped(gtp, input_dropped(input));
        else if (status == INPUT_LINE)
            handle_line(gtp, line);
    }
    free(gtp);
    return 0;
}

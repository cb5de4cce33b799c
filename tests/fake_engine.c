/* A small NBoard engine for testing octuple-match: it plays by a fixed rule and can be told
 * to misbehave (crash, hang, play illegal or unreadable moves, print garbage) at its Nth
 * `go`, counted from its start, so a restarted engine misbehaves again unless --once is
 * given. Usage: fake_engine [options]
 *   --play first|last|hash  first or last legal move in square order, or one picked by the
 *                           position's hash (deterministic, varied)
 *   --lower                 moves in lower case
 *   --pass-style 0|1|2      "=== PA", "=== PA//0.00", "=== pa/0/0.000"
 *   --evals                 "=== F5/1.50/0.01" instead of "=== F5"
 *   --crash-at N | --hang-at N | --illegal-at N | --unreadable-at N | --wrong-pass-at N
 *   --once FILE             misbehave only when FILE does not exist (and create it)
 *   --no-pong               never answer ping
 *   --exit-at-start         exit at once with status 5
 *   --garbage               noise around every answer (foreign pongs, a 10 kB line,
 *                           control bytes, unknown words, stderr chatter; stale `===` lines
 *                           before each pong and after each answer)
 *   --delay SECONDS         think this long before answering go
 *   --quit-when-over        close its input and exit right after a move that ends the game
 *                           (the runner's `move` for it then fails)
 *   --ignore-eof            stay alive for ten minutes after its input ends
 *   --tag WORD              ignored: a word to find its processes by
 *   --gtp                   speak GTP instead (`play`, `genmove`, `clear_board`, `name`;
 *                           passes implied, never named in `play`, as GRhino has it; the
 *                           faults above act on its Nth genmove: an illegal move is an
 *                           occupied square, an unreadable one "z9", a wrong pass "pass")
 *   --refuse-at N           GTP: answer `? illegal move` to the Nth `play`
 *   --no-ids                GTP: answers without the command's id */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/board.h"
#include "core/game.h"
#include "core/ggf.h"
#include "core/notation.h"

typedef enum Fault { NO_FAULT, CRASH, HANG, ILLEGAL, UNREADABLE, WRONG_PASS } Fault;

typedef struct Fake {
    const char *play;
    bool lower, evals, no_pong, garbage, quit_when_over, ignore_eof, gtp, no_ids;
    int pass_style;
    Fault fault;
    long fault_at;
    const char *once;
    double delay;
    Game game;
    long goes;
    long plays, refuse_at; /* GTP */
} Fake;

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

static void pause_seconds(double seconds)
{
    struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&pause, &pause) && errno == EINTR) {
    }
}

/* Lines a runner must skip: `stale` adds a `===` line, which is only harmless before a pong
 * (the runner takes the first `===` after the pong of its ping as the answer). */
static void noise(bool stale)
{
    if (stale)
        say("=== A1");
    say("pong 999999");
    say("status thinking hard");
    say("search A1 +1.00 0 1");
    say("frobnicate 1 2 3");
    char line[10001];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    say("%s", line);
    fwrite("bin\001\002\377\000ary\r\n", 1, 12, stdout);
    fflush(stdout);
    fprintf(stderr, "some diagnostics on stderr\n");
}

/* With --once, true the first time only (over restarts too). */
static bool once_allows(const Fake *fake)
{
    if (fake->once) {
        int fd = open(fake->once, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            return false; /* already done once */
        close(fd);
    }
    return true;
}

static bool misbehave_now(Fake *fake)
{
    return fake->fault != NO_FAULT && fake->goes == fake->fault_at && once_allows(fake);
}

static int choose(const Fake *fake, const Board *board)
{
    uint64_t legal = board_legal(board);
    if (!legal)
        return MOVE_PASS;
    if (!strcmp(fake->play, "last"))
        return 63 - __builtin_clzll(legal);
    if (!strcmp(fake->play, "hash")) {
        int pick = (int)(board_hash(board) % (uint64_t)__builtin_popcountll(legal));
        while (pick--)
            legal &= legal - 1;
    }
    return __builtin_ctzll(legal);
}

static void go(Fake *fake)
{
    ++fake->goes;
    Board board;
    Color side;
    game_position(&fake->game, fake->game.move_count, &board, &side);
    if (fake->delay > 0)
        pause_seconds(fake->delay);
    if (fake->garbage)
        noise(false);
    if (misbehave_now(fake)) {
        switch (fake->fault) {
        case CRASH:
            abort();
        case HANG:
            pause_seconds(600); /* killed long before */
            exit(0);
        case ILLEGAL: {
            uint64_t occupied = board.player | board.opponent;
            char name[3];
            say("=== %s", move_format_colored(__builtin_ctzll(occupied), COLOR_BLACK, name));
            return;
        }
        case UNREADABLE:
            say("=== z9/1.0");
            return;
        case WRONG_PASS:
            say("=== PA");
            return;
        case NO_FAULT:
            break;
        }
    }
    int move = choose(fake, &board);
    if (move == MOVE_PASS) {
        static const char *const styles[] = {"PA", "PA//0.00", "pa/0/0.000"};
        say("=== %s", styles[fake->pass_style]);
        return;
    }
    char name[3];
    move_format_colored(move, fake->lower ? COLOR_WHITE : COLOR_BLACK, name);
    Board after = board;
    board_play(&after, move);
    bool quit = fake->quit_when_over && board_is_over(&after);
    if (quit)
        close(STDIN_FILENO); /* gone before the answer is read: a write to it must fail */
    if (fake->evals)
        say("=== %s/%.2f/0.01", name, (double)(board_count_player(&board) -
                                               board_count_opponent(&board)));
    else
        say("=== %s", name);
    if (fake->garbage)
        say("=== A1"); /* a second answer: must be ignored */
    if (quit)
        exit(0);
}

static void handle(Fake *fake, char *line)
{
    size_t length = strlen(line);
    while (length && isspace((unsigned char)line[length - 1]))
        line[--length] = '\0';
    char *rest = line + strcspn(line, " ");
    if (*rest)
        *rest++ = '\0';
    if (!strcmp(line, "ping")) {
        if (fake->garbage)
            noise(true);
        if (!fake->no_pong)
            say("pong %s", rest);
    } else if (!strcmp(line, "go")) {
        go(fake);
    } else if (!strcmp(line, "set")) {
        if (!strncmp(rest, "game ", 5)) {
            GgfRecord *record = malloc(sizeof *record);
            OctError error;
            if (record && ggf_parse(rest + 5, record, NULL, &error))
                fake->game = record->game;
            else
                say("status bad game: %s", record ? error.message : "no memory");
            free(record);
        } else if (!strncmp(rest, "depth ", 6)) {
            say("set myname Fake%s", rest + 6);
        }
    } else if (!strcmp(line, "move")) {
        char token[16];
        size_t n = strcspn(rest, "/ ");
        snprintf(token, sizeof token, "%.*s", (int)(n < 15 ? n : 15), rest);
        size_t used;
        int move = move_parse(token, &used);
        OctError error;
        if (move < 0 || used != strlen(token) || !game_append(&fake->game, move, &error))
            say("status bad move '%s'", rest);
    } else if (!strcmp(line, "quit")) {
        exit(0);
    }
}

/* ---- GTP ---- */

/* One answer: `=ID text` (or `?ID text`) and the blank line that ends it. With --garbage,
 * chatter first and a stale answer of another id, which the runner must skip. */
static void gtp_say(const Fake *fake, const char *id, bool ok, const char *text)
{
    if (fake->garbage) {
        say("thinking...");
        say("=999999 a1");
    }
    say("%c%s %s\n", ok ? '=' : '?', fake->no_ids ? "" : id, text);
}

/* Passes are never named (as in GRhino): a play or genmove for the colour not to move
 * passes for the side to move, when it has no move. */
static void implicit_pass(Fake *fake, const char *color)
{
    Board board;
    Color side;
    game_position(&fake->game, fake->game.move_count, &board, &side);
    OctError error;
    if (strcmp(color, side == COLOR_BLACK ? "black" : "white") && !board_legal(&board))
        game_append(&fake->game, MOVE_PASS, &error);
}

static void gtp_genmove(Fake *fake, const char *id, const char *color)
{
    ++fake->goes;
    implicit_pass(fake, color);
    Board board;
    Color side;
    game_position(&fake->game, fake->game.move_count, &board, &side);
    if (fake->delay > 0)
        pause_seconds(fake->delay);
    char name[3];
    if (misbehave_now(fake)) {
        switch (fake->fault) {
        case CRASH:
            abort();
        case HANG:
            pause_seconds(600);
            exit(0);
        case ILLEGAL:
            gtp_say(fake, id, true, move_format(__builtin_ctzll(board.player | board.opponent),
                                                name));
            return;
        case UNREADABLE:
            gtp_say(fake, id, true, "z9");
            return;
        case WRONG_PASS:
            gtp_say(fake, id, true, "pass");
            return;
        case NO_FAULT:
            break;
        }
    }
    int move = choose(fake, &board);
    OctError error;
    game_append(&fake->game, move, &error);
    gtp_say(fake, id, true, move == MOVE_PASS ? "PASS" : move_format(move, name));
}

static void gtp_handle(Fake *fake, char *line)
{
    size_t length = strlen(line);
    while (length && isspace((unsigned char)line[length - 1]))
        line[--length] = '\0';
    char id[32] = "";
    size_t digits = strspn(line, "0123456789");
    if (digits && digits < sizeof id) {
        memcpy(id, line, digits);
        id[digits] = '\0';
        line += digits;
    }
    while (isspace((unsigned char)*line))
        ++line;
    char *rest = line + strcspn(line, " ");
    if (*rest)
        *rest++ = '\0';
    if (!strcmp(line, "name")) {
        gtp_say(fake, id, true, "Fake");
    } else if (!strcmp(line, "clear_board")) {
        game_init(&fake->game);
        gtp_say(fake, id, true, "");
    } else if (!strcmp(line, "play")) {
        char color[16] = "", vertex[16] = "";
        OctError error;
        size_t used;
        sscanf(rest, "%15s %15s", color, vertex);
        implicit_pass(fake, color);
        Board board;
        Color side;
        game_position(&fake->game, fake->game.move_count, &board, &side);
        bool ok = !(++fake->plays == fake->refuse_at && once_allows(fake))
               && !strcmp(color, side == COLOR_BLACK ? "black" : "white");
        int move = ok ? move_parse(vertex, &used) : -1;
        ok = ok && move >= 0 && move != MOVE_PASS && used == strlen(vertex)
          && game_append(&fake->game, move, &error);
        gtp_say(fake, id, ok, ok ? "" : "illegal move");
    } else if (!strcmp(line, "genmove")) {
        gtp_genmove(fake, id, rest);
    } else if (!strcmp(line, "quit")) {
        gtp_say(fake, id, true, "");
        exit(0);
    } else {
        gtp_say(fake, id, false, "unknown command");
    }
}

int main(int argc, char **argv)
{
    Fake fake;
    memset(&fake, 0, sizeof fake);
    fake.play = "first";
    game_init(&fake.game);
    static const struct {
        const char *name;
        Fault fault;
    } faults[] = {{"--crash-at", CRASH},         {"--hang-at", HANG},
                  {"--illegal-at", ILLEGAL},     {"--unreadable-at", UNREADABLE},
                  {"--wrong-pass-at", WRONG_PASS}};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool used_value = true;
        bool known = true;
        if (!strcmp(arg, "--play") && value)
            fake.play = value;
        else if (!strcmp(arg, "--pass-style") && value)
            fake.pass_style = atoi(value) % 3;
        else if (!strcmp(arg, "--once") && value)
            fake.once = value;
        else if (!strcmp(arg, "--delay") && value)
            fake.delay = atof(value);
        else if (!strcmp(arg, "--refuse-at") && value)
            fake.refuse_at = atol(value);
        else if (!strcmp(arg, "--tag") && value)
            (void)value; /* only seen by ps */
        else {
            used_value = false;
            if (!strcmp(arg, "--lower"))
                fake.lower = true;
            else if (!strcmp(arg, "--evals"))
                fake.evals = true;
            else if (!strcmp(arg, "--no-pong"))
                fake.no_pong = true;
            else if (!strcmp(arg, "--garbage"))
                fake.garbage = true;
            else if (!strcmp(arg, "--quit-when-over"))
                fake.quit_when_over = true;
            else if (!strcmp(arg, "--ignore-eof"))
                fake.ignore_eof = true;
            else if (!strcmp(arg, "--exit-at-start"))
                return 5;
            else if (!strcmp(arg, "--gtp"))
                fake.gtp = true;
            else if (!strcmp(arg, "--no-ids"))
                fake.no_ids = true;
            else
                known = false;
        }
        for (size_t f = 0; !known && f < sizeof faults / sizeof faults[0]; ++f)
            if (!strcmp(arg, faults[f].name) && value) {
                fake.fault = faults[f].fault;
                fake.fault_at = atol(value);
                known = used_value = true;
            }
        if (!known) {
            fprintf(stderr, "fake_engine: unknown argument '%s'\n", arg);
            return 2;
        }
        if (used_value)
            ++i;
    }
    char *line = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        if (fake.gtp)
            gtp_handle(&fake, line);
        else
            handle(&fake, line);
    }
    free(line);
    if (fake.ignore_eof)
        pause_seconds(600);
    return 0;
}

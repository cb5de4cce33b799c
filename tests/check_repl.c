/* The text interface against the built binary: scripted sessions through pipes covering
 * every command, the command-line options, a self-play game, and sessions on a
 * pseudo-terminal showing the prompt, history recall (within and across sessions), tab
 * completion and Ctrl-C. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/book.h"
#include "core/fileio.h"
#include "cli/commands.h"
#include "core/game.h"
#include "core/ggf.h"
#include "cli/input.h"
#include "core/notation.h"
#include "engine/settings.h"
#include "session.h"

/* searches are what most tests check: the book would answer the openings */
static const char *const base_args[] = {"--threads", "1", "--hash", "16", "--no-book", NULL};

/* Check's messages are limited: show the end of long outputs. */
static const char *tail(const char *output)
{
    size_t length = strlen(output);
    return length > 3000 ? output + length - 3000 : output;
}

/* Runs a script through a pipe; returns the output (malloc'ed) and checks the status. Not
 * inlined, for the reason given at run_args. */
static __attribute__((noinline)) char *run_script(const char *script, int expected_status)
{
    char *output;
    int status = child_run(base_args, script, &output, 120);
    ck_assert_msg(status == expected_status, "status %d, output:\n%s", status, tail(output));
    return output;
}

/* Not inlined: inlined into a test, gcc 12 took pointers into the output for pointers to
 * `output` itself (-Wdangling-pointer), as with find_from below. */
static __attribute__((noinline)) char *run_args(const char *const *args, const char *input,
                                                int expected_status)
{
    char *output;
    int status = child_run(args, input, &output, 60);
    ck_assert_msg(status == expected_status, "status %d (expected %d), output:\n%s", status,
                  expected_status, tail(output));
    return output;
}

static void assert_has(const char *output, const char *needle)
{
    ck_assert_msg(strstr(output, needle) != NULL, "'%s' missing from:\n%s", needle, tail(output));
}

/* Where `needle` first occurs in `text` from offset `from`, which it must. Not inlined:
 * inlined into a test, gcc 12 took `found` for a pointer to run_script's local variable
 * (-Wdangling-pointer). */
static __attribute__((noinline)) size_t find_from(const char *text, size_t from, const char *needle)
{
    const char *found = strstr(text + from, needle);
    size_t at = found ? (size_t)(found - text) : 0;
    ck_assert_msg(found != NULL, "'%s' missing after offset %zu of:\n%s", needle, from,
                  tail(text));
    return at;
}

/* Runs a shell command, keeping what it prints (cut to `size` - 1 bytes) in `out`; returns
 * its wait status (pclose). */
static int shell_output(const char *command, char *out, size_t size)
{
    FILE *pipe = popen(command, "r");
    ck_assert_msg(pipe != NULL, "cannot run: %s", command);
    size_t got = fread(out, 1, size - 1, pipe);
    out[got] = '\0';
    return pclose(pipe);
}

static int count(const char *output, const char *needle)
{
    int n = 0;
    for (const char *p = output; (p = strstr(p, needle)); p += strlen(needle))
        ++n;
    return n;
}

static char *temp_path(const char *name)
{
    char *path = malloc(700);
    snprintf(path, 700, "%s/%s", session_home(), name);
    return path;
}

static void write_file(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    ck_assert_ptr_nonnull(file);
    fputs(text, file);
    fclose(file);
}

START_TEST(test_pipe_has_no_prompt_or_colour)
{
    char *out = run_script("board\n", 0);
    ck_assert_ptr_null(strstr(out, "octuple>"));
    ck_assert_ptr_null(strchr(out, '\033'));
    assert_has(out, "  A B C D E F G H\n");
    assert_has(out, "4 - - . O * - - - 4");
    assert_has(out, "move 1, black to move");
    assert_has(out, "* black:  2 discs,  4 moves");
    free(out);
}
END_TEST

/* The board's colours: every square resets the attributes (no bold leaking onto the next,
 * and no bold black, which many terminals draw dark grey), on a terminal or with
 * --color=always; none with NO_COLOR or --color=never. */
static char *board_output(const char *color_option, const char *no_color, bool pty)
{
    const char *args[8] = {"--threads", "1", "--no-book", NULL};
    if (color_option)
        args[3] = color_option;
    if (no_color)
        setenv("NO_COLOR", no_color, 1);
    else
        unsetenv("NO_COLOR");
    char *out;
    if (pty) {
        Child child;
        ck_assert(child_start(&child, args, true));
        ck_assert(child_wait_for(&child, 0, "octuple> ", 60) >= 0);
        child_send(&child, "quit\n");
        ck_assert_int_eq(child_finish(&child, 10), 0);
        out = child.output;
    } else {
        ck_assert_int_eq(child_run(args, "play f5\nboard\n", &out, 60), 0);
    }
    unsetenv("NO_COLOR");
    return out;
}

START_TEST(test_board_colours)
{
    char *out = board_output(NULL, NULL, true);
    assert_has(out, "\033[0;30;42m*");  /* plain black on green */
    assert_has(out, "\033[0;97;42mO");  /* bright white on green */
    assert_has(out, "\033[0;30;42m-");
    assert_has(out, "\033[0m 8");       /* reset before the row's number */
    ck_assert_msg(!strstr(out, "\033[1;") && !strstr(out, "\033[1m"), "bold in:\n%s", out);
    free(out);
    out = board_output(NULL, "1", true);
    ck_assert_msg(!strstr(out, "42m"), "colours with NO_COLOR:\n%s", out);
    free(out);
    out = board_output(NULL, "", true); /* NO_COLOR set but empty: not a request */
    assert_has(out, "\033[0;97;42mO");
    free(out);
    out = board_output("--color=never", NULL, true);
    ck_assert_msg(!strstr(out, "42m"), "colours with --color=never:\n%s", out);
    free(out);
    out = board_output("--color=always", "1", false); /* a pipe, and over NO_COLOR */
    assert_has(out, "\033[0;30;42m*");
    free(out);
    out = board_output("--color=auto", NULL, false);
    ck_assert_ptr_null(strchr(out, '\033'));
    free(out);
    static const char *const bad[] = {"--color=sometimes", NULL};
    out = run_args(bad, "", 2);
    assert_has(out, "--color: 'sometimes' is not auto, always or never");
    free(out);
}
END_TEST

/* The widest line of `text`, in columns (the help texts are ASCII: bytes). */
static size_t widest_line(const char *text, char *widest, size_t size)
{
    size_t most = 0;
    for (const char *p = text; *p;) {
        size_t length = strcspn(p, "\n");
        if (length > most) {
            most = length;
            snprintf(widest, size, "%.*s", (int)length, p);
        }
        p += length + (p[length] == '\n');
    }
    return most;
}

/* Every help text fits a normal terminal: `--help`, the console's `help` and `help NAME`
 * of every command. */
START_TEST(test_help_fits_80_columns)
{
    char widest[256];
    static const char *const help_args[] = {"--help", NULL};
    char *out = run_args(help_args, "", 0);
    assert_has(out, "--threads");
    ck_assert_msg(widest_line(out, widest, sizeof widest) <= 80, "--help: '%s'", widest);
    free(out);
    out = run_script("help\n", 0);
    assert_has(out, "book-randomness");
    ck_assert_msg(widest_line(out, widest, sizeof widest) <= 80, "help: '%s'", widest);
    /* the same of each command alone */
    char script[8192] = "";
    for (const char *p = out; (p = strstr(p, "\n  ")) != NULL; ++p) {
        char name[64], after;
        /* a command's name, not the bare moves' line (f5, pa, ...) */
        if (sscanf(p + 3, "%63[a-z-]%c", name, &after) == 2 && (after == ' ' || after == ',')
            && strlen(script) + 80 < sizeof script)
            snprintf(script + strlen(script), sizeof script - strlen(script), "help %s\n",
                     name);
    }
    free(out);
    ck_assert_int_gt(count(script, "help "), 20);
    out = run_script(script, 0);
    ck_assert_msg(widest_line(out, widest, sizeof widest) <= 80, "help NAME: '%s'", widest);
    free(out);
}
END_TEST

/* A script fails (status 1) when any command printed an error, even one that later
 * commands make up for; a clean one exits 0. */
START_TEST(test_script_exit_status)
{
    free(run_script("f5\nsolve\nd6\n", 1));
    free(run_script("frobnicate\nboard\n", 1));
    free(run_script("f5\nundo\nboard\n", 0));
    size_t size = 70000; /* over the console's line limit */
    char *script = malloc(size + 8);
    ck_assert_ptr_nonnull(script);
    memset(script, 'x', size);
    strcpy(script + size, "\nboard\n");
    char *out = run_script(script, 1);
    assert_has(out, "error: input line longer than");
    assert_has(out, "move 1, black to move");
    free(out);
    /* a comment of exactly the limit is a line like any other; one byte more is not */
    script[0] = '#';
    strcpy(script + INPUT_MAX_LINE, "\nboard\n");
    out = run_script(script, 0);
    ck_assert_ptr_null(strstr(out, "longer than"));
    free(out);
    script[INPUT_MAX_LINE] = 'x';
    strcpy(script + INPUT_MAX_LINE + 1, "\nboard\n");
    free(run_script(script, 1));
    free(script);
    /* an error quoting bytes that are not UTF-8, a C1 control (CSI, which a terminal takes
     * as ESC [), a bidirectional control or a word cut inside a character shows them as
     * \xNN: the output stays UTF-8 with no control character but newlines */
    out = run_script("mode \xff\nmode \xc2\x9b" "31m\nmode \xe2\x80\xae" "dlrow\n"
                     "x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                     "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n",
                     1);
    ck_assert_msg(session_text_clean(out), "output not clean UTF-8:\n%s", out);
    assert_has(out, "mode: '\\xff'");
    assert_has(out, "mode: '\\xc2\\x9b31m'");
    assert_has(out, "mode: '\\xe2\\x80\\xaedlrow'"); /* a right-to-left override */
    free(out);
}
END_TEST

/* GTP as Othello programs speak it: ids echoed, answers ended by a blank line, errors as
 * `?`; passes named (`play black pass`) or implied by the other colour's move; undo of one
 * move and the passes before it. */
START_TEST(test_gtp_protocol)
{
    static const char *const args[] = {"--gtp", "--threads", "1", "--hash", "16", "--no-book",
                                       "--depth", "2", "--exact", "6", NULL};
    char *out = run_args(args,
                         "1 protocol_version\n2 name\n3 boardsize 9\n4 boardsize 8\n"
                         "5 clear_board\nfrobnicate\n6 play black z9\n7 play white f5\n"
                         "\t8\tplay black e6   # a comment\n"
                         "9 play w f6\n10 play b d3\n11 play w e7\n12 play b e8\n"
                         "13 play w d8\n14 play b g7\n15 play w f8\n"
                         "20 play white pass\n21 play black pass\n22 undo\n"
                         "23 genmove black\n24 undo\n25 genmove white\n"
                         "40 undo\n41 showboard\n42 reg_genmove white\n43 showboard\n"
                         "44 play black pass\n45 genmove white\n46 undo\n47 showboard\n"
                         "26 final_score\n"
                         "27 known_command play\n28 known_command frob\n29 komi x\n"
                         "30 set_game Othello\n31 showboard\n32 quit\n33 name\n",
                         0);
    assert_has(out, "=1 2\n\n=2 Octuple\n\n?3 unacceptable size\n\n=4\n\n=5\n\n");
    assert_has(out, "=5\n\n? unknown command\n\n?6 syntax error: invalid vertex\n\n"
                    "?7 illegal move: black to move\n\n=8\n\n=9\n\n");
    assert_has(out, "=15\n\n?20 illegal move: black to move\n\n=21\n\n=22\n\n");
    /* black has no move: genmove answers its pass; the next genmove for white implies it */
    assert_has(out, "=23 pass\n\n=24\n\n=25 ");
    /* undo takes back white's move with the pass it implied; reg_genmove leaves the game
     * as it was, its implied pass included; a pass the controller named is a move of its
     * own, which the undo of the move after it leaves */
    assert_has(out, "=40\n\n=41 black to move, ");
    assert_has(out, "=43 black to move, ");
    assert_has(out, "=44\n\n=45 ");
    assert_has(out, "=46\n\n=47 white to move, ");
    assert_has(out, "?26 the game is not over\n\n=27 true\n\n=28 false\n\n"
                    "?29 syntax error: komi takes a number\n\n=30\n\n");
    assert_has(out, "=31 white to move, black ");
    assert_has(out, "\n  a b c d e f g h\n1 ");
    assert_has(out, "=32\n\n");
    ck_assert_ptr_null(strstr(out, "=33")); /* nothing after quit */
    free(out);

    /* lines too long to read: a blank one and a comment get no answer, a command its id */
    size_t big = INPUT_MAX_LINE + 100;
    char *input = malloc(4 * big + 64);
    ck_assert_ptr_nonnull(input);
    size_t at = (size_t)sprintf(input, "1 name\n");
    memset(input + at, ' ', big);
    at += big;
    input[at++] = '\n';
    at += (size_t)sprintf(input + at, "  # ");
    memset(input + at, 'x', big);
    at += big;
    input[at++] = '\n';
    at += (size_t)sprintf(input + at, "\t8 known_command ");
    memset(input + at, 'y', big);
    at += big;
    at += (size_t)sprintf(input + at, "\n2 name\n123456789012345678901234567890 name\n");
    input[at] = '\0';
    out = run_args(args, input, 0);
    free(input);
    /* an id too long to take is refused under that id, which the controller awaits */
    ck_assert_msg(!strcmp(out, "=1 Octuple\n\n?8 input line too long\n\n=2 Octuple\n\n"
                               "?123456789012345678901234567890 syntax error: id too long\n\n"),
                  "%s", out);
    free(out);

    /* to the end of a game from a position of four empties: every genmove names a move or
     * a pass, and the final score is the count, empties to the winner */
    static const char *const end_args[] = {
        "--gtp", "--threads", "1", "--hash", "16", "--no-book", "--board",
        "-XXXXXXXOOOOOXXXOXOXXXXXOOOOXXXXOXOXOO-XOOXXXOXOOXXXXOO-OOOOOOO- X", NULL};
    out = run_args(end_args,
                   "genmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n"
                   "genmove b\ngenmove w\nfinal_score\nplay b a1\n",
                   0);
    const char *score = strstr(out, "\n\n= ");
    for (const char *next; score && (next = strstr(score + 1, "\n\n= "));)
        score = next;
    ck_assert_msg(score && (score[4] == 'B' || score[4] == 'W' || score[4] == '0'), "%s", out);
    /* the only refusal: a move after the end */
    const char *refusal = strstr(out, "? ");
    ck_assert_msg(refusal && !strncmp(refusal, "? illegal move: the game is over\n\n", 35)
                  && !strstr(refusal + 1, "? "), "%s", out);
    free(out);
}
END_TEST

/* One rule for arguments in every GTP command: a word too many or too few is refused with
 * what the command takes, and nothing happens (`undo undo` once undid a move, while
 * `play white f6 extra` was refused). */
START_TEST(test_gtp_extra_words)
{
    static const char *const args[] = {"--gtp", "--threads", "1", "--hash", "16", "--no-book",
                                       "--depth", "1", "--exact", "1", NULL};
    static const struct {
        const char *line, *takes;
    } wrong[] = {
        {"protocol_version 2", "protocol_version takes no arguments"},
        {"name x", "name takes no arguments"},
        {"version x", "version takes no arguments"},
        {"known_command play x", "known_command takes a command name"},
        {"known_command", "known_command takes a command name"},
        {"list_commands x", "list_commands takes no arguments"},
        {"quit now", "quit takes no arguments"},
        {"boardsize 8 8", "boardsize takes an integer"},
        {"clear_board x", "clear_board takes no arguments"},
        {"komi 6.5 x", "komi takes a number"},
        {"set_game Othello x", "set_game takes a game name"},
        {"list_games x", "list_games takes no arguments"},
        {"play white f6 extra", "play takes a colour and a vertex"},
        {"play white", "play takes a colour and a vertex"},
        {"genmove white x", "genmove takes a colour"},
        {"genmove", "genmove takes a colour"},
        {"reg_genmove white x", "reg_genmove takes a colour"},
        {"undo undo", "undo takes no arguments"},
        {"showboard x", "showboard takes no arguments"},
        {"final_score x", "final_score takes no arguments"},
        {"time_settings 1 2 3 4", "time_settings takes three integers"},
        {"time_left b 1 0 x", "time_left takes a colour and two integers"},
    };
    enum { WRONG = sizeof wrong / sizeof wrong[0] };
    char input[4096], expected[WRONG][160];
    int at = snprintf(input, sizeof input, "1 play black f5\n");
    for (int i = 0; i < WRONG; ++i) {
        at += snprintf(input + at, sizeof input - (size_t)at, "%d %s\n", 100 + i, wrong[i].line);
        snprintf(expected[i], sizeof expected[i], "?%d syntax error: %s\n\n", 100 + i,
                 wrong[i].takes);
    }
    snprintf(input + at, sizeof input - (size_t)at, "2 showboard\n3 list_commands\n");
    char *out = run_args(args, input, 0);
    for (int i = 0; i < WRONG; ++i)
        assert_has(out, expected[i]);
    /* nothing happened: black's f5 stands, white to move, no game cleared, no quit */
    assert_has(out, "=2 white to move, black 4, white 1\n");
    ck_assert_int_eq(count(out, "\n\n="), 2); /* =1 and =2 after =1: only them and =3 */
    assert_has(out, "=3 protocol_version\n");
    /* every command of the list is among the ones above */
    char *list = strstr(out, "=3 ") + 3;
    for (char *name = strtok(list, "\n"); name && *name; name = strtok(NULL, "\n")) {
        bool found = false;
        for (int i = 0; i < WRONG && !found; ++i)
            found = !strncmp(wrong[i].line, name, strlen(name)) && wrong[i].line[strlen(name)] == ' ';
        ck_assert_msg(found, "GTP command %s untested", name);
    }
    free(out);
}
END_TEST

/* A GTP clock caps genmove: at depth 60, a search without end, each move comes within the
 * clock; the clock is charged by the engine itself between the controller's time_left. */
START_TEST(test_gtp_clock)
{
    static const char *const args[] = {"--gtp", "--threads", "1", "--hash", "16", "--no-book",
                                       "--depth", "60", "--exact", "40", NULL};
    char *out = run_args(args,
                         "1 time_settings 3 0 0\n2 genmove b\n3 genmove w\n4 genmove b\n"
                         "5 time_left white 2 0\n6 genmove w\n7 time_settings 0 4 4\n"
                         "8 genmove b\n9 time_left w 1 3\n10 genmove w\n"
                         "11 time_settings 1 x 0\n12 time_left purple 1 0\n",
                         0);
    for (int id = 2; id <= 10; ++id) {
        if (id == 5 || id == 7 || id == 9)
            continue;
        char want[16];
        snprintf(want, sizeof want, "=%d ", id);
        const char *answer = strstr(out, want);
        ck_assert_msg(answer && answer[strlen(want)] >= 'A' && answer[strlen(want)] <= 'H',
                      "no move for %d:\n%s", id, out);
    }
    assert_has(out, "=5\n\n");
    assert_has(out, "=7\n\n");
    assert_has(out, "=9\n\n");
    assert_has(out, "?11 syntax error: time_settings takes three integers\n\n");
    assert_has(out, "?12 syntax error: time_left takes a colour and two integers\n\n");
    free(out);
}
END_TEST

START_TEST(test_game_commands)
{
    char *out = run_script(
        "f5\n"                 /* a bare move */
        "play d6c3\n"          /* a move string */
        "undo\n"
        "u\n"
        "redo\n"
        "r\n"
        "show\n"
        "e4\n"                 /* illegal: says which moves are legal */
        "pa\n"                 /* cannot pass with moves */
        "play zz\n"
        "frobnicate\n"
        "\x1b[2Jfoo\n"
        "set = 5\n"           /* no command before the = */
        "new\n"
        "setboard ---------------------------OX------XO--------------------------- O\n"
        "setboard xyz\n"
        "setboard ---------------------------OX------XO--------------------------- X extra\n"
        "n\n"
        "i\n"
        "PLAY F5\n"            /* case-insensitive */
        "set play = d6\n"      /* leading set and = ignored */
        "# a comment\n"
        "\n",
        1); /* some commands fail */
    assert_has(out, "last move: f5 (black)");
    assert_has(out, "last move: c3 (black)");
    assert_has(out, "error: illegal move e4: legal moves are d3 f3 f4 g5\n");
    assert_has(out, "error: white cannot pass: legal moves are d3 f3 f4 g5\n");
    assert_has(out, "error: play: 'zz' is not a move");
    assert_has(out, "error: unknown command 'frobnicate'");
    assert_has(out, "error: a command name is expected before '='");
    /* what was typed is quoted with its control bytes escaped (an escape sequence would act
     * on the terminal) */
    assert_has(out, "error: unknown command '\\x1b[2Jfoo'");
    ck_assert_ptr_null(strchr(out, 0x1b));
    assert_has(out, "error: setboard:");
    /* words after the side are refused, and the position stays */
    assert_has(out, "error: setboard: board: unexpected 'extra' after the side to move;");
    /* setboard with white to move */
    assert_has(out, "move 1, white to move");
    assert_has(out, "last move: d6 (white)");
    ck_assert_int_eq(count(out, "error:"), 8);
    free(out);
}
END_TEST

START_TEST(test_search_commands)
{
    char *out = run_script(
        "stop\n" /* nothing to stop yet (read during a search, it would stop that) */
        "level 3\n"
        "f5\n"
        "hint 3\n"
        "go\n"
        "analyze 3\n"
        "a\n"
        "hint 0\n"
        "verbose 0\n"
        "go\n",
        1); /* some commands fail */
    assert_has(out, "level 3 (depth 3, exact at 12 empties)");
    assert_has(out, "hint: 3 best moves at depth 3\n");
    assert_has(out, "   1. ");
    assert_has(out, "   3. ");
    assert_has(out, "  depth     score       time          nodes      nodes/s  principal variation\n");
    assert_has(out, "Octuple plays ");
    assert_has(out, "  ply  player  played  best     score  played score     loss\n");
    assert_has(out, "no search is running");
    assert_has(out, "error: hint: '0' is not a number of moves");
    ck_assert_int_eq(count(out, "Octuple plays "), 2);
    /* analyze 3 then analyze (all 3 + 1 positions of the game at that point) */
    ck_assert_int_eq(count(out, "  ply  player"), 2);
    free(out);
}
END_TEST

/* Wording and layout: singulars ("1 disc", "1 best move"), no search table for a forced
 * move, and an exact analysis in disc counts in every column. */
START_TEST(test_console_wording)
{
    char *out = run_script(
        "setboard XO-------------------------------------------------------------- X\n"
        "go\n" /* c1, the only move: played without a search */
        "init\nlevel 2\nhint 1\n"
        "play e6f6f5d6e7f7d7g5c5f3g4c7e8d8c6b7g8b6c8h5a6g6b4g7h7a5h3f4a4f8c3h8d3b5g2h1e2d1f1"
        "a8e3h6g3c4a7b8h4a3pah2pab3c2b1d2f2g1\n"
        "analyze 4\n",
        0);
    assert_has(out, "* black:  1 disc,  1 move");
    assert_has(out, "O white:  1 disc,  0 moves");
    assert_has(out, "Octuple plays C1");
    assert_has(out, "hint: 1 best move at depth 2\n");
    /* no search table: the forced go has none, and hints show theirs at verbose 2 only */
    ck_assert_int_eq(count(out, "  depth     score"), 0);
    /* analysis rows: exact, so no decimals */
    const char *rows = strstr(out, "  ply  player");
    ck_assert_ptr_nonnull(rows);
    ck_assert_msg(!strchr(rows, '.'), "decimals in an exact analysis:\n%s", rows);
    assert_has(rows, "  -22           -32       10\n");
    free(out);
}
END_TEST

/* `level` names a row of the level table only when depth and exact match one; a game set
 * up with a side that must pass cannot be undone into that side to move; the move number
 * of a set-up board with fewer than four discs starts at 1; a command that takes no
 * argument refuses one. */
START_TEST(test_level_undo_and_setup_edges)
{
    char *out = run_script("depth 3\nlevel\nlevel 3\nlevel\n"
                           "setboard XO-------------------------------------------------------------- O\n"
                           "undo\nboard\nundo 2\n", 1); /* some commands fail */
    assert_has(out, "error: undo: takes no argument (got '2')");
    assert_has(out, "level none (depth 3, exact at 20 empties; level 3 solves at 12)");
    assert_has(out, "level 3 (depth 3, exact at 12 empties)");
    assert_has(out, "error: undo: no move to take back");
    assert_has(out, "move 1, black to move");
    ck_assert_msg(!strstr(out, "move -1"), "%s", out);
    free(out);
}
END_TEST

/* The search table marks the depths that Multi-ProbCut may cut (the shipped .mpc: from depth
 * 9) with the share of errors inside the cut width, as the console protocol writes them. */
START_TEST(test_selective_depths_marked)
{
    char *out = run_script("verbose 1\nbook off\ndepth 10\nf5\ngo\n", 0);
    assert_has(out, "\n      8     ");
    assert_has(out, "\n  9@87%     ");
    assert_has(out, "\n 10@87%     ");
    free(out);
}
END_TEST

START_TEST(test_option_commands)
{
    char *out = run_script(
        "depth 5\n"
        "exact 10\n"
        "wld 14\n"
        "wld 61\n"
        "threads 2\n"
        "hash 8\n"
        "time 1.5\n"
        "verbose 2\n"
        "contempt 100\n"
        "contempt 250\n"
        "contempt\n"
        "book-file /nonexistent/book\n"
        "set level = 6\n"
        "LEVEL 99\n"
        "depth\n"
        "options\n"
        "weights /nonexistent.ow\n"
        "weights\n"
        "mode 9\n"
        "m 1\n"
        "mode\n"
        "mode 3\n",
        1); /* some commands fail */
    assert_has(out, "depth 5\n");
    assert_has(out, "exact 10\n");
    assert_has(out, "wld 14\n");
    assert_has(out, "error: wld: '61' is not a number of empties from 0 to 60 (0: never)");
    assert_has(out, "threads 2\n");
    assert_has(out, "hash 8 MB\n");
    assert_has(out, "time 1.5 s per search\n");
    assert_has(out, "verbose 2\n");
    assert_has(out, "contempt 100 centidiscs\n");
    assert_has(out, "error: contempt: '250' is not a number of centidiscs from -200 to 200");
    /* a book that cannot be read is refused, and the setting stays */
    assert_has(out, "error: book-file: /nonexistent/book: cannot open");
    assert_has(out, "book-file  (default) (off)\n");
    assert_has(out, "level 6 (depth 6, exact at 18 empties)\n");
    assert_has(out, "error: level: '99' is not a level from 1 to 60");
    assert_has(out, "depth 6\n");
    assert_has(out, "exact      18\n");
    assert_has(out, "error: weights: /nonexistent.ow: cannot open");
    assert_has(out, "weights (default)\n");
    assert_has(out, "error: mode: '9' is not 0");
    assert_has(out, "mode 1 (engine plays black)");
    /* mode 1 with black to move: the engine played at once */
    assert_has(out, "Octuple plays ");
    assert_has(out, "mode 3 (engine plays neither side)");
    free(out);
}
END_TEST

START_TEST(test_contempt)
{
    /* white to move, 7 empties, a draw with best play: a midgame search to the end values
     * it at the contempt (Black's view, so negated for White); an exact solve reports the
     * draw itself */
    char *out = run_script(
        "setboard XOOOOO-XXOOXXXX-XOOOXX--XOOXXOOOXOOXXXOXXOXOOOXXXXOOOX-XXXXXX-X- O\n"
        "exact 0\n"
        "depth 8\n"
        "contempt 100\n"
        "hint\n"
        "contempt -50\n"
        "hint\n"
        "contempt 0\n"
        "hint\n"
        "exact 20\n"
        "contempt 100\n"
        "hint\n",
        0);
    size_t at = find_from(out, 0, "contempt 100 centidiscs\n");
    at = find_from(out, at, "   1. g1     -1.00  ");
    at = find_from(out, at, "contempt -50 centidiscs\n");
    at = find_from(out, at, "   1. g1     +0.50  ");
    at = find_from(out, at, "contempt 0 centidiscs\n");
    at = find_from(out, at, "   1. g1     +0.00  ");
    at = find_from(out, at, "hint: 1 best move, exact (7 empties)\n");
    find_from(out, at, "   1. g1        +0  ");
    free(out);
}
END_TEST

START_TEST(test_info_commands)
{
    char *out = run_script("help\n?\nhelp hint\nhelp level\nhelp nothing\nversion\nv\nbook\n"
                           "book show\nperft 3\n", 1); /* some commands fail */
    /* one help line per command of the table */
    assert_has(out, "  init, i ");
    assert_has(out, "  quit, q, exit ");
    assert_has(out, "  setboard SQUARES SIDE ");
    assert_has(out, "  level N ");
    ck_assert_int_eq(count(out, "  hint [N] "), 3);
    assert_has(out, "  current value: 7 (depth 7, exact at 20 empties)");
    assert_has(out, "error: help: no command 'nothing'");
    ck_assert_int_eq(count(out, "Octuple 0."), 2);
    assert_has(out, "weights: ");
    assert_has(out, "book: off (book on uses it)");
    assert_has(out, "error: book show: no opening book in use");
    assert_has(out, "perft  3:              56 leaves");
    /* perft shows the board as `board` does, with its move number */
    ck_assert_uint_lt(find_from(out, 0, "move 1, black to move"),
                      find_from(out, 0, "perft  1:"));
    free(out);
}
END_TEST

/* Under a file-size limit (ulimit -f) a save fails with a message (EFBIG) instead of the
 * engine dying of SIGXFSZ (status 153 in a shell) with its temporary file left behind; the
 * old book stays as it was. */
START_TEST(test_book_save_under_file_size_limit)
{
    static const char *const args[] = {"--threads", "1", "--hash", "16", NULL};
    char *dir = temp_path("limited");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    char book[800];
    snprintf(book, sizeof book, "%s/saved.book", dir);
    write_file(book, "the old book\n");
    char script[1024];
    snprintf(script, sizeof script, "book save %s\nbook\n", book);
    struct rlimit old, limited;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    limited = old;
    limited.rlim_cur = 1 << 20; /* the shipped book takes 5.6 MB */
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &limited), 0);
    char *out;
    int status = child_run(args, script, &out, 60); /* the engine inherits the limit */
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    ck_assert_msg(status == 1, "status %d (-1: killed by a signal), output:\n%s", status,
                  tail(out));
    assert_has(out, "saved.book: cannot write: File too large (the file-size limit, ulimit -f); "
                    "the file is as it was");
    assert_has(out, "positions of the first 30 moves"); /* still running: `book` answered */
    char *text;
    size_t size;
    OctError error;
    ck_assert(file_read_all(book, 1000, &text, &size, &error));
    ck_assert_str_eq(text, "the old book\n");
    free(text);
    ck_assert_int_eq(unlink(book), 0);
    ck_assert_int_eq(rmdir(dir), 0); /* nothing else: the temporary file was removed */
    free(out);
    free(dir);
}
END_TEST

/* hash and set hash beyond the physical memory are refused; the table stays as it was. */
START_TEST(test_hash_beyond_physical_memory)
{
    int limit = settings_max_hash();
    if (limit >= SETTINGS_MAX_HASH)
        return; /* a machine of 64 GB or more: the size limit refuses first */
    char script[200], expected[200];
    snprintf(script, sizeof script, "hash %d\nset hash %d\nhash\n", limit + 1, limit + 1);
    char *out = run_script(script, 1);
    snprintf(expected, sizeof expected,
             "error: hash: %d MB is more than this machine's physical memory (%d MB)\n",
             limit + 1, limit);
    ck_assert_int_eq(count(out, expected), 2);
    assert_has(out, "hash 16 MB\n");
    free(out);
}
END_TEST

/* The shipped book: shown, played from, turned off and on, saved, grown and reloaded. */
START_TEST(test_book_commands)
{
    static const char *const args[] = {"--threads", "1", "--hash", "16", NULL};
    char *saved = temp_path("saved.book");
    char *games = temp_path("games.txt");
    write_file(games, "f5d6c3d3c4f4f6f3e6e7\nf5f6e6f4g5\nf5d6c3d3c4f4f6f3e6e7\nnot a game\n");
    char script[4096];
    snprintf(script, sizeof script,
             "book\nbook show\ngo\nbook off\ngo\nbook store\nbook on\nbook store\n"
             "book randomness 3\nbook-randomness 0\nbook depth 4\nbook save %s\nbook load %s\n"
             "book add %s\nbook add\nbook bogus\nbook depth 99\nbook depth 21\nbook show\n",
             saved, saved, games);
    char *out = run_args(args, script, 1); /* some commands fail */
    assert_has(out, "book: ");
    assert_has(out, "positions of the first 30 moves, deviations searched at depth 10");
    assert_has(out, "book: 4 moves\n");
    assert_has(out, "games  ");
    ck_assert_int_eq(count(out, "(book)\n"), 1); /* the first go, not the one with book off */
    assert_has(out, "Octuple plays ");
    assert_has(out, "book: off (book on uses it)");
    assert_has(out, "randomness 3 discs");
    assert_has(out, "book-randomness 0 (always the best book move)");
    assert_has(out, "book: positions added from now on are searched at depth 4");
    assert_has(out, "book: saved to ");
    assert_has(out, "games.txt:4: ");
    assert_has(out, "error: book add: a file of games is expected");
    assert_has(out, "error: book: unknown sub-command 'bogus'");
    assert_has(out, "error: book depth: '99' is not a depth from 1 to 20");
    assert_has(out, "error: book depth: '21' is not a depth from 1 to 20");
    /* store adds the two moves played and saves the learned book in the user's directory;
     * with the book off it is refused */
    assert_has(out, "error: book store: the opening book is off (book on turns it on)");
    assert_has(out, "book: 1 game added, ");
    assert_has(out, "/data/octuple/octuple.book");
    Book *book;
    OctError error;
    ck_assert_msg(book_load(saved, &book, &error), "%s", error.message);
    ck_assert_uint_gt(book_count(book), 50000);
    ck_assert_int_eq(book_depth(book), 4);
    book_free(book);
    char *user = temp_path("data/octuple/octuple.book");
    ck_assert_int_eq(access(user, F_OK), 0);
    unlink(user); /* later tests read the shipped book */
    unlink(saved);
    unlink(games);
    free(user);
    free(saved);
    free(games);
    free(out);
}
END_TEST

START_TEST(test_files)
{
    char *game_path = temp_path("game.ggf");
    char *moves_path = temp_path("moves.txt");
    char *board_path = temp_path("board.obf");
    char *obf_path = temp_path("suite.obf");
    char *empty_path = temp_path("empty.ggf");
    write_file(moves_path, "f5d6c3d3c4\n");
    write_file(empty_path, " \n\n");
    write_file(board_path, "% an OBF comment first\n"
               "---------------------------OX------XO--------------------------- O;\n");
    /* FFO-like: two positions with 6 empties (answers computed by the solver itself) */
    write_file(obf_path, "% two small endgames\n"
               "OOOOOOOOOOOOOOOOXXXXXXXXXXXXXXXXOOOOOOOOXXXXXXXX--OOOOOO----XXXX X;\n"
               "XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOO--XXXXXX---OOOOO-- O;\n");
    /* more than one game or line: the first is loaded, and the rest are named; a game
     * wrapped over lines (its second line no game from the start) and a board drawn as a
     * grid load whole */
    char *lines_path = temp_path("two-\x01lines.txt"); /* a control byte, shown escaped */
    char *nul_path = temp_path("nul.txt"); /* a NUL byte would hide the rest of the file */
    FILE *nul_file = fopen(nul_path, "wb");
    ck_assert_ptr_nonnull(nul_file);
    fwrite("f5d6c3\n\0 garbage", 1, 16, nul_file);
    fclose(nul_file);
    char *games_path = temp_path("two-games.ggf");
    char *wrapped_path = temp_path("wrapped.txt");
    char *grid_path = temp_path("grid.txt");
    write_file(lines_path, "f5d6c3\nd3c3\n");
    write_file(wrapped_path, "f5d6c3d3c4f4c5b3c2e6c6b4\r\nb5d2e3a6c1b1\r\n");
    write_file(grid_path, "--------\n--------\n--------\n---OX---\n---XO---\n--------\n"
               "--------\n---X----\nO\n");
    write_file(games_path, "(;GM[Othello]PC[t]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- "
               "---O*--- ---*O--- -------- -------- -------- *]B[f5]W[f6];)\n"
               "(;GM[Othello]PC[t]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- "
               "---O*--- ---*O--- -------- -------- -------- *]B[d3];)\n");
    char script[8192];
    snprintf(script, sizeof script,
             "play f5d6\nsave %s\ninit\nload %s\nopen %s\nload %s\nload /nonexistent\n"
             "save /nonexistent/dir/x.ggf\nsolve %s\nsolve /nonexistent.obf\nload %s\nboard\n"
             "load %s\nload %s\nload %s\nload %s\nload %s\n",
             game_path, game_path, moves_path, board_path, obf_path, empty_path, lines_path,
             games_path, wrapped_path, grid_path, nul_path);
    char *out = run_script(script, 1); /* some commands fail */
    assert_has(out, "two-\\x01lines.txt: loaded the first of 2 lines\n");
    assert_has(out, "last move: c3 (black)"); /* f5d6c3 alone */
    assert_has(out, "two-games.ggf: loaded the first of 2 games\n");
    assert_has(out, "last move: f6 (white)");
    assert_has(out, "last move: b1 (white)"); /* all 18 moves of the wrapped game */
    ck_assert_ptr_null(strstr(out, "wrapped.txt: loaded the first"));
    assert_has(out, "8 - - - * - - - - 8"); /* the grid's d8 */
    assert_has(out, "nul.txt: line 2: a NUL byte");
    free(nul_path);
    free(lines_path);
    free(games_path);
    free(wrapped_path);
    free(grid_path);
    assert_has(out, "game saved to ");
    assert_has(out, "last move: d6 (white)");  /* the saved game loaded back */
    assert_has(out, "last move: c4 (black)");  /* the move string */
    assert_has(out, "move 1, white to move");  /* the board line */
    assert_has(out, "error: load: /nonexistent:");
    assert_has(out, "error: save: ");
    assert_has(out, "solved 2 positions: ");
    assert_has(out, "error: solve: /nonexistent.obf");
    /* an empty file is no game: the board line's position stays (white to move) */
    char expected[600];
    snprintf(expected, sizeof expected, "error: load: %s: the file is empty\n", empty_path);
    assert_has(out, expected);
    ck_assert_int_eq(count(out, "move 1, white to move"), 2);
    GgfRecord *records;
    size_t n;
    OctError error;
    ck_assert_msg(ggf_read_file(game_path, &records, &n, &error), "%s", error.message);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(records[0].game.move_count, 2);
    free(records);
    free(out);
    free(game_path);
    free(moves_path);
    free(board_path);
    free(obf_path);
    unlink(empty_path);
    free(empty_path);
}
END_TEST

/* The end of input quits only after every command before it ran, searches included. */
START_TEST(test_end_of_input_runs_everything)
{
    char *out = run_script("level 4\ngo\nhint 2\ngo\nversion\n", 0);
    ck_assert_int_eq(count(out, "Octuple plays "), 2);
    assert_has(out, "hint: 2 best moves");
    /* offsets, not pointers: gcc -O3 took pointers into `out` for dangling ones */
    const char *hint = strstr(out, "hint: 2 best");
    const char *version = strstr(out, "Octuple 0.");
    ck_assert(hint && version);
    ck_assert_int_lt(hint - out, version - out);
    free(out);
}
END_TEST

/* `stop` acts while a search runs; later lines still run after it. */
START_TEST(test_stop_in_pipe)
{
    double begin = session_now();
    char *out = run_script("level 60\nhint 64\nstop\nversion\n", 0);
    ck_assert_msg(session_now() - begin < 20, "took %.1f s", session_now() - begin);
    assert_has(out, "search stopped");
    assert_has(out, "Octuple 0.");
    free(out);
}
END_TEST

/* The engine plays both sides to the end; the saved game is legal and finished. */
START_TEST(test_self_play)
{
    char *path = temp_path("selfplay.ggf");
    char script[1024];
    snprintf(script, sizeof script, "level 2\nverbose 0\nmode 2\nsave %s\n", path);
    char *out = run_script(script, 0);
    assert_has(out, "Game over: ");
    GgfRecord *records;
    size_t n;
    OctError error;
    ck_assert_msg(ggf_read_file(path, &records, &n, &error), "%s", error.message);
    ck_assert_int_eq(n, 1);
    /* ggf_read_file checked every move; the game must also be over, with its result */
    ck_assert(game_is_over(&records[0].game));
    char result[16];
    snprintf(result, sizeof result, "%+d", game_black_score(&records[0].game));
    ck_assert_str_eq(records[0].result, result);
    free(records);
    free(out);
    free(path);
}
END_TEST

/* The saved game's text (malloc'ed). */
static char *saved_text(const char *path)
{
    FILE *file = fopen(path, "r");
    ck_assert_ptr_nonnull(file);
    char *text = calloc(1, 1 << 16);
    ck_assert_ptr_nonnull(text);
    size_t length = fread(text, 1, (1 << 16) - 1, file);
    text[length] = '\0';
    fclose(file);
    return text;
}

/* `save` names the players (the engine by its name and level, the user by the `name`
 * setting or $USER) and writes the engine's evaluations with two decimals and its times
 * with three, as NBoard does. */
START_TEST(test_save_names_and_precision)
{
    char *path = temp_path("named.ggf");
    char script[1024];
    snprintf(script, sizeof script,
             "level 3\nverbose 0\nname Ada Lovelace\nmode 0\nf5\nsave %s\n", path);
    char *out = run_script(script, 0);
    free(out);
    char *text = saved_text(path);
    ck_assert_msg(strstr(text, "PB[Ada Lovelace]PW[Octuple3]"), "%s", text);
    /* every white move is the engine's: W[MOVE/EVAL/TIME] */
    int engine_moves = 0;
    for (const char *p = text; (p = strstr(p, "]W[")); p += 3, ++engine_moves) {
        char eval[64], seconds[64];
        ck_assert_msg(sscanf(p, "]W[%*2[A-H1-8]/%63[-0-9.]/%63[0-9.]]", eval, seconds) == 2,
                      "%.40s", p);
        const char *dot = strchr(eval, '.');
        ck_assert_msg(!dot || strlen(dot + 1) <= 2, "eval %s", eval);
        ck_assert_msg(strcmp(eval, "-0"), "eval %s", eval);
        dot = strchr(seconds, '.');
        ck_assert_msg(!dot || strlen(dot + 1) <= 3, "time %s", seconds);
    }
    ck_assert_int_eq(engine_moves, 1);
    free(text);
    /* without a name: $USER; the engine playing black */
    setenv("USER", "tester", 1);
    snprintf(script, sizeof script, "level 1\nverbose 0\nmode 1\ngo\nsave %s\n", path);
    out = run_script(script, 0);
    free(out);
    text = saved_text(path);
    ck_assert_msg(strstr(text, "PB[Octuple1]PW[tester]"), "%s", text);
    free(text);
    /* a name goes into the record as it is: no control characters */
    out = run_script("name Ada\tLovelace\n", 1);
    assert_has(out, "a name cannot hold control characters");
    free(out);
    unlink(path);
    free(path);
}
END_TEST

/* `game-time`: each side's moves share its clock, which the search obeys (level 30 alone
 * would take minutes a move), the move lines say what is left, and the saved game has
 * the clock (TI) and every move's time; a value that is no clock is refused. */
START_TEST(test_game_clock)
{
    char *path = temp_path("clocked.ggf");
    char script[1024];
    snprintf(script, sizeof script,
             "game-time 1:xx\ngame-time 2/1/1/1\ngame-time 0\noptions\n"
             "game-time 3\nlevel 30\nverbose 0\nmode 2\noptions\nsave %s\n", path);
    char *out = run_script(script, 1); /* the refused values fail the script */
    assert_has(out, "game-time: '1:xx' is not a clock");
    assert_has(out, "game-time: '2/1/1/1' is not a clock");
    assert_has(out, "game-time  0 (no clock)");
    assert_has(out, "game-time  3 for the engine's moves of a game");
    assert_has(out, "Game over: ");
    assert_has(out, " left)\n");
    /* a clock of 3 s shows tenths, never more than it has */
    for (const char *at = strstr(out, " left)"); at; at = strstr(at + 1, " left)")) {
        ck_assert_msg(at - out >= 8 && !strncmp(at - 8, " (0:0", 5) && at[-2] == '.',
                      "not in tenths: %.20s", at - 10);
        ck_assert_msg(at[-3] < '3' || (at[-3] == '3' && at[-1] == '0'), "%.20s", at - 10);
    }
    GgfRecord *records;
    size_t n;
    OctError error;
    ck_assert_msg(ggf_read_file(path, &records, &n, &error), "%s", error.message);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(records[0].clock, "3");
    double spent[2] = {0, 0};
    int timed = 0;
    for (int i = 0; i < records[0].game.move_count; ++i) {
        /* the passes the console plays for a side without a move take no time */
        ck_assert_msg(!isnan(records[0].times[i]) || records[0].game.moves[i] == MOVE_PASS,
                      "move %d has no time", i + 1);
        if (!isnan(records[0].times[i])) {
            spent[i & 1] += records[0].times[i];
            ++timed;
        }
    }
    /* every move that filled a square was timed: as many as the squares filled, however
     * short the game (a game of 3 s clocks may end with empties left; 55 was too many) */
    Board final;
    Color side;
    game_position(&records[0].game, records[0].game.move_count, &final, &side);
    ck_assert(board_is_over(&final));
    ck_assert_int_eq(timed, 60 - board_count_empties(&final));
    ck_assert_int_ge(timed, 20);
    /* each side's moves kept to its clock: without it, level 30 spends minutes a move (a
     * bound twice the clock, so that a loaded host's late wakeups do not fail it) */
    ck_assert_msg(spent[0] < 6.0 && spent[1] < 6.0, "black %.2f s, white %.2f s", spent[0],
                  spent[1]);
    free(records);
    free(out);

    /* a loaded game's timed moves count against the clock of their side: white has spent
     * 20 s of 1:00 and earned one 5 s increment, so after its move at level 1 (about no
     * time) it has 0:50, and again after `undo` (back to black) and `go`, where black has
     * 1:00 (10 s spent, two increments); the save names the clock that timed the moves,
     * not the loaded one (nor the loaded per-side clocks TB and TW) */
    char *loaded = temp_path("loaded.ggf");
    write_file(loaded, "(;GM[Othello]PB[b]PW[w]TI[15:00]TB[9:00]TW[7:00]TY[8]BO[8 ----------"
                       "-----------------O*------*O--------------------------- *]B[f5//10]"
                       "W[d6//20]B[c3//12.5];)\n");
    snprintf(script, sizeof script,
             "verbose 0\nlevel 1\ngame-time 1:00/5\nload %s\nmode 0\nundo\ngo\nsave %s\n",
             loaded, path);
    out = run_script(script, 0);
    ck_assert_int_eq(count(out, "(0:50 left)"), 2);
    ck_assert_int_eq(count(out, "(1:00 left)"), 1);
    ck_assert_msg(ggf_read_file(path, &records, &n, &error), "%s", error.message);
    ck_assert_str_eq(records[0].clock, "1:00/5");
    ck_assert_str_eq(records[0].black_clock, "");
    ck_assert_str_eq(records[0].white_clock, "");
    ck_assert_int_eq(records[0].game.move_count, 4);
    free(records);
    free(out);
    free(loaded);
    free(path);
}
END_TEST

START_TEST(test_nboard_switch)
{
    char *out = run_script("nboard 2\nping 5\nset depth 3\nquit\n", 0);
    assert_has(out, "set myname Octuple7\npong 5\nset myname Octuple3\n");
    free(out);
}
END_TEST

START_TEST(test_command_line)
{
    static const char *const help[] = {"--help", NULL};
    char *out = run_args(help, "", 0);
    assert_has(out, "usage: octuple [options]");
    assert_has(out, "--nboard");
    assert_has(out, "--depth N");
    assert_has(out, "--no-book");
    free(out);
    static const char *const version[] = {"--version", NULL};
    out = run_args(version, "", 0);
    ck_assert(!strncmp(out, "Octuple ", 8));
    free(out);
    static const char *const wrong[][4] = {
        {"--frobnicate", NULL}, {"--depth", "x", NULL}, {"--depth", NULL}, {"extra", NULL},
        {"--threads", "0", NULL}, {"--hash=0", NULL}, {"--version=1", NULL},
        {"--board", "xyz", NULL}, {"--level", "61", NULL}, {"--exact", "-1", NULL},
        {"--board", "---------------------------OX------XO--------------------------- X junk",
         NULL},
        {"--bench", "--perft", "3"}, {"--perft", "21", NULL}, {"--time", "0x10", NULL},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; ++i) {
        out = run_args(wrong[i], "", 2);
        assert_has(out, "usage: octuple");
        free(out);
    }
    static const char *const perft[] = {"--perft", "4", NULL};
    out = run_args(perft, "", 0);
    assert_has(out, "perft  4:             244 leaves");
    free(out);
    /* two actions are refused by name; --help beside one shows the help */
    static const char *const two[] = {"--solve", "x.obf", "--bench", NULL};
    out = run_args(two, "", 2);
    assert_has(out, "--solve and --bench both choose what to do: give one");
    free(out);
    static const char *const help_too[] = {"--bench", "--help", NULL};
    out = run_args(help_too, "", 0);
    assert_has(out, "usage: octuple");
    ck_assert_ptr_null(strstr(out, "bench: "));
    free(out);
    static const char *const board_solve[] = {"--solve", "x.obf", "--board",
        "---------------------------OX------XO--------------------------- O", NULL};
    out = run_args(board_solve, "", 2);
    assert_has(out, "--board sets the start of --perft");
    free(out);
    static const char *const bench[] = {"--bench", "--hash", "16", NULL};
    out = run_args(bench, "", 0);
    assert_has(out, " 8       22  exact");
    assert_has(out, "bench: ");
    free(out);
    /* settings given as options show up in the session */
    static const char *const settings[] = {"--depth=5", "--exact", "12", "--threads", "1",
                                           "--hash", "8", "--no-book", "--time", "2", NULL};
    out = run_args(settings, "options\n", 0);
    assert_has(out, "depth      5\n");
    assert_has(out, "exact      12\n");
    assert_has(out, "hash       8 MB\n");
    assert_has(out, "(default) (off)\n");
    assert_has(out, "time       2 s per search\n");
    free(out);
    static const char *const board[] = {"--board",
        "---------------------------OX------XO--------------------------- O", "--hash", "8",
        NULL};
    out = run_args(board, "board\n", 0);
    assert_has(out, "move 1, white to move");
    free(out);
    static const char *const bad_weights[] = {"--weights", "/nonexistent.ow", NULL};
    out = run_args(bad_weights, "", 1);
    assert_has(out, "/nonexistent.ow");
    free(out);
    /* --solve of a damaged file: status 2, the error (file and line) on stderr alone */
    char *obf = temp_path("damaged.obf");
    write_file(obf, "XXXX O;\n");
    char command[2048];
    char text[4096];
    snprintf(command, sizeof command, "'%s' --solve '%s' --hash 8 2>/dev/null", OCTUPLE_BINARY,
             obf);
    int status = shell_output(command, text, sizeof text);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d", status);
    ck_assert_msg(!text[0], "stdout: %s", text);
    snprintf(command, sizeof command, "'%s' --solve '%s' --hash 8 2>&1 >/dev/null",
             OCTUPLE_BINARY, obf);
    shell_output(command, text, sizeof text);
    assert_has(text, "damaged.obf: line 1");
    /* a file of comments alone solves nothing: an error, not a clean report of 0 solves */
    write_file(obf, "% nothing here\n\n");
    snprintf(command, sizeof command, "'%s' --solve '%s' --hash 8 2>&1", OCTUPLE_BINARY, obf);
    status = shell_output(command, text, sizeof text);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2, "status %d", status);
    assert_has(text, "octuple: error: ");
    assert_has(text, "damaged.obf: no position in the file");
    free(obf);
}
END_TEST

/* A copy of the binary away from the build tree finds no weights beside it: it falls back
 * to the installed data directory or, when that has none, to the SWH table with a warning. */
START_TEST(test_weights_fallback)
{
    /* two levels down, so that ../weights beside it surely does not exist; and no learned
     * book in the private home (a failed book test may have left one) */
    char *learned = temp_path("data/octuple/octuple.book");
    unlink(learned);
    free(learned);
    char *copy = temp_path("bin/deep/lonely-octuple");
    char command[2048];
    snprintf(command, sizeof command, "mkdir -p '%s/bin/deep' && cp '%s' '%s'", session_home(),
             OCTUPLE_BINARY, copy);
    ck_assert_int_eq(system(command), 0);
    snprintf(command, sizeof command, "echo version | '%s' --hash 8 2>&1", copy);
    char out[8192];
    ck_assert_int_eq(shell_output(command, out, sizeof out), 0);
    if (strstr(out, "(built in)")) {
        assert_has(out, "warning: no weights file found");
        assert_has(out, "SWH");
    } else {
        assert_has(out, "(" OCTUPLE_PKGDATADIR "/");
    }
    /* OCTUPLE_DATA_DIR points at a directory of weights */
    snprintf(command, sizeof command,
             "echo version | OCTUPLE_DATA_DIR='%s/weights' '%s' --hash 8 2>&1", TOP_SRCDIR, copy);
    ck_assert_int_eq(shell_output(command, out, sizeof out), 0);
    assert_has(out, "/weights/");
    ck_assert_ptr_null(strstr(out, "no weights"));
    /* the book lives elsewhere: its absence is said, and the engine plays on */
    assert_has(out, "no opening book found");
    unlink(copy);
    free(copy);
}
END_TEST

/* ---- on a pseudo-terminal ---- */

/* Keys typed at a human pace: the line editor switches the terminal to raw mode after it
 * shows the prompt, and keys that arrive before are handled by the terminal driver. */
static void type_keys(Child *child, const char *keys)
{
    usleep(150 * 1000);
    child_send(child, keys);
}

static void pty_expect(Child *child, size_t *from, const char *needle)
{
    long at = child_wait_for(child, *from, needle, 60);
    ck_assert_msg(at >= 0, "'%s' not shown; output:\n%s", needle, tail(child->output + *from));
    *from = (size_t)at + strlen(needle);
}

START_TEST(test_terminal_session)
{
    char *history = temp_path("state/octuple/history");
    unlink(history);
    Child child;
    ck_assert(child_start(&child, base_args, true));
    size_t at = 0;
    pty_expect(&child, &at, "type 'help'");
    pty_expect(&child, &at, "\033[");       /* a coloured board */
    pty_expect(&child, &at, "octuple> ");   /* the prompt */
    type_keys(&child, "vers\t\n");         /* tab completes the command */
    pty_expect(&child, &at, "weights: ");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "\033[A\n");         /* up arrow recalls it */
    pty_expect(&child, &at, "weights: ");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "\033[15~\033OPversion\n"); /* F5 and F1, unbound, add nothing */
    pty_expect(&child, &at, "weights: ");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "f\t\n");            /* the only legal move on column f: f5 */
    pty_expect(&child, &at, "last move: f5 (black)");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "play d6c\t");       /* within a move string: c3 .. c7 */
    pty_expect(&child, &at, "c3");
    pty_expect(&child, &at, "c5");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "3\n");              /* the line kept "play d6c": now play d6c3 */
    pty_expect(&child, &at, "last move: c3 (black)");
    pty_expect(&child, &at, "octuple> ");
    /* Ctrl-C stops a long search and the session goes on */
    type_keys(&child, "level 60\nhint 64\n");
    usleep(500 * 1000);
    double sent = session_now();
    type_keys(&child, "\003");
    pty_expect(&child, &at, "search stopped");
    ck_assert_msg(session_now() - sent < 5, "Ctrl-C took %.1f s", session_now() - sent);
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "quit\n");
    ck_assert_int_eq(child_finish(&child, 10), 0);
    free(child.output);
    /* the history was saved, and a new session recalls it */
    struct stat info;
    ck_assert_int_eq(stat(history, &info), 0);
    ck_assert(child_start(&child, base_args, true));
    at = 0;
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "\033[A\033[A\033[A\033[A\033[A\033[A\n"); /* back to `version` */
    pty_expect(&child, &at, "weights: ");
    pty_expect(&child, &at, "octuple> ");
    type_keys(&child, "\004");              /* Ctrl-D at the prompt quits */
    int status = child_finish(&child, 10);
    ck_assert_msg(status == 0, "status %d; output:\n%s", status, tail(child.output));
    free(child.output);
    free(history);
}
END_TEST

/* The completions of `line` (cursor at its end), joined by spaces, with where the word starts. */
static void complete(Session *session, const char *line, char *out, size_t size, size_t *start)
{
    char **matches;
    int count = commands_complete(session, line, strlen(line), start, &matches);
    out[0] = '\0';
    for (int i = 0; i < count; ++i) {
        ck_assert_msg(strlen(out) + strlen(matches[i]) + 2 < size, "too many completions");
        strcat(out, i ? " " : "");
        strcat(out, matches[i]);
        if (i) /* sorted, no repeats */
            ck_assert_msg(strcmp(matches[i - 1], matches[i]) < 0, "%s then %s", matches[i - 1],
                          matches[i]);
    }
    commands_free_matches(matches, count);
}

/* Each kind of completion of the command table, in process: names, legal moves, help
 * topics, book sub-commands, files; `set` is not a word of its own. */
START_TEST(test_completion)
{
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.threads = 1;
    settings.hash_megabytes = 8;
    settings.use_book = false;
    snprintf(settings.weights, sizeof settings.weights, "%s",
             TOP_SRCDIR "/weights/jaskowski-all2.ow");
    Engine *engine;
    OctError error;
    ck_assert_msg(engine_create(&settings, &engine, &error), "%s", error.message);
    FILE *sink = fopen("/dev/null", "w");
    ck_assert(sink != NULL);
    Session session;
    session_init(&session, engine, sink, false);
    char out[4096];
    size_t start;
    complete(&session, "vers", out, sizeof out, &start);
    ck_assert_str_eq(out, "version");
    ck_assert_uint_eq(start, 0);
    complete(&session, "set lev", out, sizeof out, &start);
    ck_assert_str_eq(out, "level");
    ck_assert_uint_eq(start, 4);
    complete(&session, "help book", out, sizeof out, &start);
    ck_assert_str_eq(out, "book book-file book-randomness");
    complete(&session, "book ra", out, sizeof out, &start);
    ck_assert_str_eq(out, "randomness");
    /* a bare move: the start position's legal moves on column f, then after it */
    complete(&session, "f", out, sizeof out, &start);
    ck_assert_str_eq(out, "f5");
    complete(&session, "play f5f", out, sizeof out, &start);
    ck_assert_str_eq(out, "f5f4 f5f6");
    ck_assert_uint_eq(start, 5);
    complete(&session, "play e5", out, sizeof out, &start); /* not a legal move */
    ck_assert_str_eq(out, "");
    complete(&session, "perft 1", out, sizeof out, &start); /* a number completes to nothing */
    ck_assert_str_eq(out, "");
    /* files: a directory gets its slash */
    char *dir = temp_path("completion");
    char *file = temp_path("completion/alpha.ggf");
    char *sub = temp_path("completion/alpine");
    mkdir(dir, 0700);
    mkdir(sub, 0700);
    write_file(file, "");
    char line[1024], expected[2048];
    snprintf(line, sizeof line, "load %s/al", dir);
    snprintf(expected, sizeof expected, "%s/alpha.ggf %s/alpine/", dir, dir);
    complete(&session, line, out, sizeof out, &start);
    ck_assert_str_eq(out, expected);
    ck_assert_uint_eq(start, 5);
    unlink(file);
    rmdir(sub);
    rmdir(dir);
    free(file);
    free(sub);
    free(dir);
    fclose(sink);
    engine_free(engine);
}
END_TEST

int main(void)
{
    session_home();
    Suite *suite = suite_create("repl");
    TCase *pipes = tcase_create("pipes");
    tcase_set_timeout(pipes, 300);
    tcase_add_test(pipes, test_pipe_has_no_prompt_or_colour);
    tcase_add_test(pipes, test_help_fits_80_columns);
    tcase_add_test(pipes, test_board_colours);
    tcase_add_test(pipes, test_save_names_and_precision);
    tcase_add_test(pipes, test_console_wording);
    tcase_add_test(pipes, test_script_exit_status);
    tcase_add_test(pipes, test_gtp_protocol);
    tcase_add_test(pipes, test_gtp_clock);
    tcase_add_test(pipes, test_gtp_extra_words);
    tcase_add_test(pipes, test_game_commands);
    tcase_add_test(pipes, test_search_commands);
    tcase_add_test(pipes, test_selective_depths_marked);
    tcase_add_test(pipes, test_level_undo_and_setup_edges);
    tcase_add_test(pipes, test_option_commands);
    tcase_add_test(pipes, test_contempt);
    tcase_add_test(pipes, test_info_commands);
    tcase_add_test(pipes, test_book_commands);
    tcase_add_test(pipes, test_hash_beyond_physical_memory);
    tcase_add_test(pipes, test_book_save_under_file_size_limit);
    tcase_add_test(pipes, test_files);
    tcase_add_test(pipes, test_end_of_input_runs_everything);
    tcase_add_test(pipes, test_stop_in_pipe);
    tcase_add_test(pipes, test_self_play);
    tcase_add_test(pipes, test_game_clock);
    tcase_add_test(pipes, test_nboard_switch);
    tcase_add_test(pipes, test_command_line);
    tcase_add_test(pipes, test_weights_fallback);
    tcase_add_test(pipes, test_completion);
    suite_add_tcase(suite, pipes);
#ifdef HAVE_LIBEDIT
    TCase *terminal = tcase_create("terminal");
    tcase_set_timeout(terminal, 300);
    tcase_add_test(terminal, test_terminal_session);
    suite_add_tcase(suite, terminal);
#endif
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* octuple-match: one engine as a child process, driven the way the NBoard GUI drives an
 * NBoard engine (/work/shared/docs/nboard-protocol.md, man/octuple-match.6), or the way
 * Quarry drives a GTP engine (Go Text Protocol 2 as Othello programs speak it: `play
 * black f5`, `genmove white`, moves in Othello's coordinates, `pass`).
 *
 * The command is split on whitespace ('...' and "..." group words) and run in the engine's
 * working directory. A first word with a '/' is taken relative to that directory; a bare
 * word is looked up in that directory first, then on PATH. The child gets its own process
 * group (so a wrapper script and everything it starts is killed together) and its stdin and
 * stdout on pipes; stderr goes to /dev/null, or is merged into stdout as NBoard does when the
 * spec asks for it (then every stderr line must be harmless, as under NBoard).
 *
 * Every wait has a deadline and also ends when the caller's stop flag is raised, so nothing
 * here can hang on a silent or flooding engine. */
#ifndef OCTUPLE_MATCH_ENGINE_H
#define OCTUPLE_MATCH_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/error.h"
#include "core/game.h"

enum {
    MATCH_NAME_SIZE = 64,
    MATCH_COMMAND_SIZE = 2048,
    MATCH_LINE_SIZE = 4096 /* longer engine lines are cut (only their start is parsed) */
};

typedef enum MatchProtocol {
    MATCH_NBOARD = 0,
    MATCH_GTP
} MatchProtocol;

/* How to start one engine. */
typedef struct MatchEngineSpec {
    char name[MATCH_NAME_SIZE];       /* one word; PB/PW of the GGF records */
    char command[MATCH_COMMAND_SIZE]; /* e.g. "./octuple --nboard --threads 1" */
    char dir[MATCH_COMMAND_SIZE];     /* working directory; "" = the runner's */
    int depth;                        /* NBoard: sent as `set depth N`; 0 = not sent */
    bool merge_stderr;
    MatchProtocol protocol;
} MatchEngineSpec;

typedef enum MatchStatus {
    MATCH_OK = 0,
    MATCH_TIMEOUT,     /* no (complete) answer before the deadline */
    MATCH_EXITED,      /* end of output or a write that failed: the engine is gone */
    MATCH_INTERRUPTED, /* the stop flag was raised */
    MATCH_REFUSED      /* a GTP engine answered `?` (its text in MatchEngine.refusal) */
} MatchStatus;

typedef struct MatchEngine {
    const MatchEngineSpec *spec;
    const atomic_int *stop;            /* may be NULL; nonzero: give up */
    pid_t pid;                         /* 0: not running */
    int input;                         /* write end of the child's stdin */
    int output;                        /* read end of the child's stdout */
    long ping;                         /* last ping number (GTP: command id) sent */
    char buffer[MATCH_LINE_SIZE];
    size_t used;
    bool discarding;                   /* skipping the rest of an over-long line */
    char exit_text[64];                /* how the child ended, once reaped */
    char refusal[160];                 /* after MATCH_REFUSED: the command and the answer */
} MatchEngine;

/* Starts the child and does the handshake: `nboard 2`, `set depth N`, then a ping that must
 * be answered within `timeout` seconds (loading big weights may take a while); for GTP, a
 * `name` that must be answered. On failure the child is killed and reaped. */
bool match_engine_start(MatchEngine *engine, const MatchEngineSpec *spec,
                        const atomic_int *stop, double timeout, OctError *error);
/* Ends the child politely (end of input, a short grace period), then with SIGKILL. */
void match_engine_close(MatchEngine *engine);
/* Waits up to `grace` seconds for the child to exit by itself (a crash being reported), then
 * sends SIGKILL to its process group and reaps it. Safe on an engine that is not running. */
void match_engine_kill(MatchEngine *engine, double grace);
/* Kills every engine's process group at once, without waiting: for a signal handler that
 * is about to end the runner (async-signal-safe). */
void match_engine_kill_all(void);
bool match_engine_running(const MatchEngine *engine);

/* Writes one line (a newline is added). */
MatchStatus match_engine_send(MatchEngine *engine, const char *line, double timeout);
/* ping N, then waits for `pong N`: every earlier line is dropped. GTP: `name`, answered. */
MatchStatus match_engine_sync(MatchEngine *engine, double timeout);
/* A new game from `opening`: NBoard gets `ggf_line` (`set game GGF`); GTP gets
 * `clear_board` and a `play` for each of the opening's moves but passes, each to be
 * accepted. */
MatchStatus match_engine_new_game(MatchEngine *engine, const char *ggf_line,
                                  const Game *opening, double timeout);
/* `mover` played `move`: NBoard gets `move MLI` whoever moved (its engines do not apply
 * their own moves); GTP gets `play COLOUR MOVE` unless `own` (genmove applied it) or the
 * move is a pass, which the other colour's next play or genmove implies (GRhino takes no
 * `play COLOUR pass`). */
MatchStatus match_engine_moved(MatchEngine *engine, Color mover, int move, const char *mli,
                               bool own, double timeout);
/* A word on the clocks, for the engines that take one: GTP engines get `command`
 * (`time_settings ...`, `time_left ...`), and one that refuses it plays on without (the runner
 * keeps the clocks all the same); NBoard engines get nothing, since the GGF already tells
 * them (TI, and each move's seconds). */
MatchStatus match_engine_clock(MatchEngine *engine, const char *command, double timeout);
/* The engine's move for `side`, the text of its answer in `reply`: NBoard, ping N and go,
 * then the `===` line after `pong N` (other lines are ignored, like the GUI does); GTP,
 * `genmove COLOUR` (the engine plays the move on its own board). */
MatchStatus match_engine_go(MatchEngine *engine, Color side, double timeout, char *reply,
                            size_t size);

/* After MATCH_EXITED or a kill: "exited with status 3", "killed by signal 11", or "closed
 * its output" when it has not been reaped yet. */
const char *match_engine_exit_text(MatchEngine *engine);

/* Parses the text of a `===` line, MOVE[/EVAL[/TIME]]: the move in any case ("F5", "f5",
 * "PA", "pa", "pass"), the evaluation and the time empty or decimal (a malformed eval or time
 * is ignored: only the move decides legality). Evals and times missing are NAN. False when
 * the move is not a move. */
bool match_parse_reply(const char *text, int *move, double *eval, double *seconds);

/* Splits a command line into words ('...' and "..." group, \ escapes outside '...'). Returns
 * the number of words stored (at most `max_words` - 1, argv NULL-terminated) with their text
 * in `storage`; -1 on unbalanced quotes or overflow. */
int match_split_command(const char *command, char *storage, size_t storage_size, char **argv,
                        int max_words);

#endif

/* The Edax-style text commands: one table (name, aliases, argument help, help, what the
 * argument completes to, handler) drives parsing, `help` and tab completion. A Session
 * holds what a text front end keeps between commands; the line reading is in repl.c.
 *
 * Searches (go, hint, analyze, the engine's own moves in `mode` 0-2) run in the engine's
 * thread: a command starts them and returns; the reader waits for the end (reading only
 * `stop` meanwhile) and then calls session_task_done, which plays the engine's move. */
#ifndef OCTUPLE_COMMANDS_H
#define OCTUPLE_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"
#include "cli/tools.h"

enum {
    MODE_ENGINE_WHITE = 0,
    MODE_ENGINE_BLACK = 1,
    MODE_ENGINE_BOTH = 2,
    MODE_ENGINE_NEITHER = 3
};

typedef struct Session {
    Engine *engine;
    FILE *out;
    bool color;        /* ANSI colours in the board */
    int mode;          /* MODE_*: which sides the engine plays */
    bool paused;       /* `stop` halted the engine's play until the next game command */
    bool quit;
    int nboard;        /* > 0: switch to the NBoard protocol, this version */
    bool task_running; /* a search was started and not yet collected */
    EngineTask task;
    bool task_stopped;
    bool table_started; /* the search table's header was printed for this task */
    EngineReport final;  /* the last ENGINE_POSITION report of the task */
    bool have_final;
    int failures;        /* commands that printed an error: a script's exit status */
    Interrupt interrupt; /* Ctrl-C during a command that works in the console's thread */
} Session;

void session_init(Session *session, Engine *engine, FILE *out, bool color);
/* Runs one line; errors print one `error:` line, change nothing and count in `failures`. */
void session_execute(Session *session, const char *line);
/* A line that must act while a search runs (`stop`). */
bool session_is_stop(const char *line);
/* The user stopped the running search (`stop`, Ctrl-C): stops it and collects it. */
void session_stop(Session *session);
/* After the engine's task ended (engine_wait done): plays the engine's move, prints. */
void session_task_done(Session *session);
/* Prints the board with the counts beside it. */
void session_show_board(Session *session);

typedef enum Completion {
    COMPLETE_NONE,
    COMPLETE_MOVES,    /* legal moves (a move string continues) */
    COMPLETE_FILES,
    COMPLETE_COMMANDS, /* help topics */
    COMPLETE_BOOK      /* book sub-commands */
} Completion;

typedef struct Command {
    const char *name;
    const char *aliases[4];  /* NULL-terminated */
    const char *arguments;   /* for help; NULL when none (settings: from settings.h) */
    const char *help;        /* one line (settings: from settings.h) */
    Completion completion;   /* what the first argument completes to */
    void (*handler)(Session *session, const char *name, const char *args);
    bool setting;            /* an engine setting: help and parsing from settings.h */
} Command;

const Command *commands_table(int *count);
/* By name or alias, case-insensitive. */
const Command *commands_find(const char *word);

/* Tab completion of `line` with the cursor at `cursor`: the completions of the word that
 * ends at the cursor (sorted, unique, malloc'ed; free with commands_free_matches) and where
 * that word starts. Returns the number of matches. */
int commands_complete(Session *session, const char *line, size_t cursor, size_t *word_start,
                      char ***matches);
void commands_free_matches(char **matches, int count);

#endif

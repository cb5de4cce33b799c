/* Test helper: runs the built engine as a child process with its stdin/stdout on pipes or on
 * a pseudo-terminal, in a private HOME (no test touches the user's real files), and reads
 * its output line by line with timeouts. */
#ifndef OCTUPLE_TESTS_SESSION_H
#define OCTUPLE_TESTS_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct Child {
    pid_t pid;
    int in;          /* the child's stdin (pipe), or the pty master */
    int out;         /* the child's stdout+stderr (pipe), or the pty master */
    bool pty;
    char *output;    /* everything read so far, NUL-terminated */
    size_t used, capacity;
    size_t line_start; /* child_read_line's position in `output` */
} Child;

/* A fresh temporary directory used as HOME, XDG_DATA_HOME (HOME/data) and XDG_STATE_HOME
 * (HOME/state) for the children; set once per test program. Returns its path. */
const char *session_home(void);

/* Starts OCTUPLE_BINARY with `args` (NULL-terminated, without argv[0]). With `pty`, on a
 * pseudo-terminal of 80x24 with TERM=vt100; else stdin and stdout on pipes, stderr merged
 * into stdout like the NBoard GUI does. */
bool child_start(Child *child, const char *const *args, bool pty);
void child_send(Child *child, const char *text);
/* The same for bytes that may hold NULs, in one write where the pipe allows. */
void child_send_bytes(Child *child, const char *text, size_t length);
/* Closes the child's input (end of input). */
void child_close_input(Child *child);
/* Reads what is available within `seconds`; false on timeout or end of output. */
bool child_pump(Child *child, double seconds);
/* Waits until the output from `from` on contains `needle`; returns its offset or -1. */
long child_wait_for(Child *child, size_t from, const char *needle, double seconds);
/* The next whole line (without newline, malloc'ed) within `seconds`, NULL on timeout/end. */
char *child_read_line(Child *child, double seconds);
/* Reads lines until one starts with `prefix`; returns it (malloc'ed) or NULL. Lines skipped
 * are appended to `skipped` (may be NULL) separated by newlines. */
char *child_expect(Child *child, const char *prefix, double seconds, char *skipped,
                   size_t skipped_size);
/* Waits for the exit (killing the child after `seconds`); returns the exit status, or -1
 * when it had to be killed or died of a signal. child->output stays (free it). */
int child_finish(Child *child, double seconds);

/* Runs the binary with `args`, feeding `input` and closing it; returns the exit status and
 * the whole output (malloc'ed) in *output. */
int child_run(const char *const *args, const char *input, char **output, double seconds);

double session_now(void);

/* Whether `text` is UTF-8 without control characters (C0 but newlines, DEL, C1), overlong
 * forms, surrogates or anything past U+10FFFF: what a GUI may be shown. */
bool session_text_clean(const char *text);

#endif

/* Line input from a file descriptor for the front ends: poll-based, so that a front end can
 * wait for a line and for the end of a search at once, and buffered by hand (not stdio),
 * so that switching between this reader and libedit on a terminal loses no typed text.
 * Lines held back (read during a search, to run after it) come first. */
#ifndef OCTUPLE_INPUT_H
#define OCTUPLE_INPUT_H

#include <stdbool.h>
#include <stddef.h>

/* Longer lines are dropped whole and reported as INPUT_TOO_LONG (a GGF game of 60 annotated
 * moves is about 2 KB). */
enum { INPUT_MAX_LINE = 1 << 16 };
/* What a NUL byte inside a line reads as (ASCII SUB). */
enum { INPUT_SUBSTITUTE = 0x1a };
/* How much of a dropped line is kept for input_dropped. */
enum { INPUT_DROPPED_SIZE = 256 };

typedef enum InputStatus {
    INPUT_LINE,        /* a line, without its newline (and carriage return) */
    INPUT_EOF,         /* end of input, after the last line */
    INPUT_TOO_LONG,    /* a line longer than INPUT_MAX_LINE was dropped */
    INPUT_WAKEUP,      /* the wake-up descriptor became readable (it is not read) */
    INPUT_INTERRUPTED  /* a signal arrived while waiting */
} InputStatus;

typedef struct Input {
    int fd;
    char *buffer;
    size_t start, end, capacity;
    bool eof;
    bool discarding; /* inside an over-long line */
    char dropped[INPUT_DROPPED_SIZE]; /* see input_dropped */
    size_t dropped_length;
    char *line;      /* the last line returned */
    size_t line_capacity;
    char **held;
    size_t held_count, held_capacity;
} Input;

void input_init(Input *input, int fd);
void input_free(Input *input);

/* The next line: a held one first when `use_held`, else from the buffer or the descriptor.
 * Waits until a line, the end of input, `wake_fd` (ignored when negative) or a signal.
 * *line stays valid until the next call. */
InputStatus input_read(Input *input, bool use_held, int wake_fd, char **line);
/* After INPUT_TOO_LONG: the start of the dropped line, its leading blanks and control bytes
 * left out (empty for a line of nothing else), at most INPUT_DROPPED_SIZE - 1 bytes: what
 * a protocol needs to answer it (GTP: its id, or no answer to a comment). */
const char *input_dropped(const Input *input);
/* Keeps a copy of `line` to be returned by a later input_read(use_held = true). */
bool input_hold(Input *input, const char *line);
size_t input_held_count(const Input *input);
/* A whole line is buffered or held: input_read would not wait. */
bool input_ready(const Input *input, bool use_held);
/* Takes the buffered text of an unfinished line (e.g. to hand it to libedit); returns its
 * length (0: none) and copies at most size - 1 bytes into `out`. */
size_t input_take_partial(Input *input, char *out, size_t size);

#endif

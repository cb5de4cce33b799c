#include "cli/repl.h"

#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "config.h"
#include "cli/nboard.h"
#include "engine/paths.h"

#ifdef HAVE_LIBEDIT
#include <histedit.h>
#endif

enum { HISTORY_SIZE = 1000 };

static const char *const prompt_text = "octuple> ";
/* Stands for a refused over-long line among the held ones: a line read never holds a
 * newline, so no input can look like it. */
static const char *const too_long_marker = "\n";

/* Ctrl-C on a terminal: stops a search; at the prompt it clears the line. A signal can
 * only set flags: this one, and the session's Interrupt for the commands that work in the
 * console's own thread (solve, perft, book store and add). */
static volatile sig_atomic_t interrupted;
static Interrupt *volatile interrupt_work;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
    Interrupt *work = interrupt_work;
    if (work)
        interrupt_raise(work);
}

bool repl_history_path(char *path, size_t size, bool create, OctError *error)
{
    char dir[PATHS_SIZE];
    if (!paths_user_dir(USER_STATE, create, dir, sizeof dir, error))
        return false;
    int written = snprintf(path, size, "%s/history", dir);
    if (written < 0 || (size_t)written >= size)
        return error_set(error, "%s: path too long", dir);
    return true;
}

/* ---- line editing ---- */

typedef struct Editor {
#ifdef HAVE_LIBEDIT
    EditLine *el;
    History *history;
    HistEvent event;
#endif
    Session *session;
    char history_path[PATHS_SIZE];
    bool have_history;
    char *line; /* the last line read */
} Editor;

#ifdef HAVE_LIBEDIT
static char *editor_prompt(EditLine *el)
{
    (void)el;
    return (char *)prompt_text;
}

/* Function keys and the like that the editor has no binding for: without one, their
 * sequence's tail (F5's "5~") went into the line. */
static unsigned char editor_ignore(EditLine *el, int key)
{
    (void)el, (void)key;
    return CC_NORM;
}

static const char *const ignored_keys[] = {
    "\033OP", "\033OQ", "\033OR", "\033OS",                    /* F1-F4 (xterm) */
    "\033[11~", "\033[12~", "\033[13~", "\033[14~", "\033[15~", /* F1-F5 (vt220) */
    "\033[17~", "\033[18~", "\033[19~", "\033[20~", "\033[21~", /* F6-F10 */
    "\033[23~", "\033[24~",                                     /* F11, F12 */
    "\033[[A", "\033[[B", "\033[[C", "\033[[D", "\033[[E",      /* F1-F5 (Linux console) */
    "\033[2~", "\033[5~", "\033[6~",                            /* Insert, Page Up/Down */
};

/* Tab: one match is inserted with a space after it; several insert their common prefix,
 * or are listed when there is none to add. */
static unsigned char editor_complete(EditLine *el, int key)
{
    (void)key;
    Editor *editor;
    el_get(el, EL_CLIENTDATA, &editor);
    const LineInfo *info = el_line(el);
    size_t length = (size_t)(info->lastchar - info->buffer);
    size_t cursor = (size_t)(info->cursor - info->buffer);
    char *line = malloc(length + 1);
    if (!line)
        return CC_ERROR;
    memcpy(line, info->buffer, length);
    line[length] = '\0';
    size_t start;
    char **matches;
    int count = commands_complete(editor->session, line, cursor, &start, &matches);
    free(line);
    size_t typed = cursor - start;
    unsigned char status = CC_REFRESH;
    if (count == 0) {
        status = CC_ERROR;
    } else if (count == 1) {
        char *match = matches[0];
        size_t match_length = strlen(match);
        if (match_length > typed)
            el_insertstr(el, match + typed);
        if (match_length == 0 || match[match_length - 1] != '/')
            el_insertstr(el, " ");
    } else {
        size_t common = strlen(matches[0]);
        for (int i = 1; i < count; ++i) {
            size_t same = 0;
            while (same < common && matches[i][same] == matches[0][same])
                ++same;
            common = same;
        }
        if (common > typed) {
            char *prefix = strndup(matches[0] + typed, common - typed);
            if (prefix) {
                el_insertstr(el, prefix);
                free(prefix);
            }
        } else {
            FILE *out = editor->session->out;
            fputc('\n', out);
            for (int i = 0; i < count; ++i)
                fprintf(out, "%s%s", matches[i], (i + 1) % 8 == 0 || i + 1 == count ? "\n" : "  ");
            fflush(out);
            status = CC_REDISPLAY;
        }
    }
    commands_free_matches(matches, count);
    return status;
}

static void editor_save_history(Editor *editor)
{
    if (!editor->have_history)
        return;
    /* write a temporary file and rename it: a crash never leaves half a history */
    char temporary[PATHS_SIZE + 16];
    snprintf(temporary, sizeof temporary, "%s.tmp", editor->history_path);
    if (history(editor->history, &editor->event, H_SAVE, temporary) < 0 ||
        rename(temporary, editor->history_path) != 0)
        unlink(temporary);
}
#endif

static bool editor_init(Editor *editor, Session *session, FILE *in, FILE *out)
{
    memset(editor, 0, sizeof *editor);
    editor->session = session;
#ifdef HAVE_LIBEDIT
    OctError error;
    editor->have_history = repl_history_path(editor->history_path,
                                             sizeof editor->history_path, true, &error);
    if (!editor->have_history)
        fprintf(stderr, "octuple: no history: %s\n", error.message);
    editor->history = history_init();
    if (!editor->history)
        return false;
    history(editor->history, &editor->event, H_SETSIZE, HISTORY_SIZE);
    history(editor->history, &editor->event, H_SETUNIQUE, 1);
    if (editor->have_history && access(editor->history_path, R_OK) == 0)
        history(editor->history, &editor->event, H_LOAD, editor->history_path);
    editor->el = el_init("octuple", in, out, stderr);
    if (!editor->el) {
        history_end(editor->history);
        return false;
    }
    el_set(editor->el, EL_CLIENTDATA, editor);
    el_set(editor->el, EL_PROMPT, editor_prompt);
    el_set(editor->el, EL_EDITOR, "emacs");
    el_set(editor->el, EL_HIST, history, editor->history);
    /* the wide call: libedit's narrow el_set copies these two names and never frees them */
    el_wset(editor->el, EL_ADDFN, L"octuple-complete", L"complete a command, move or file",
            editor_complete);
    el_set(editor->el, EL_BIND, "^I", "octuple-complete", NULL);
    el_wset(editor->el, EL_ADDFN, L"octuple-ignore", L"ignore an unbound function key",
            editor_ignore);
    for (size_t i = 0; i < sizeof ignored_keys / sizeof ignored_keys[0]; ++i)
        el_set(editor->el, EL_BIND, ignored_keys[i], "octuple-ignore", NULL);
    el_source(editor->el, NULL); /* the user's ~/.editrc, as other libedit programs do */
    return true;
#else
    (void)in, (void)out;
    return false;
#endif
}

static void editor_free(Editor *editor)
{
#ifdef HAVE_LIBEDIT
    if (editor->el)
        el_end(editor->el);
    if (editor->history)
        history_end(editor->history);
#endif
    free(editor->line);
    memset(editor, 0, sizeof *editor);
}

/* A line from the terminal, NULL at the end of input; *cancelled when Ctrl-C cleared it. */
static char *editor_read(Editor *editor, Input *input, bool *cancelled)
{
    *cancelled = false;
#ifdef HAVE_LIBEDIT
    char partial[1024];
    if (input_take_partial(input, partial, sizeof partial))
        el_push(editor->el, partial); /* typed during a search: keep it */
    int count;
    interrupted = 0;
    const char *text = el_gets(editor->el, &count);
    if (!text || count <= 0) {
        if (interrupted) {
            interrupted = 0;
            *cancelled = true;
            fputc('\n', editor->session->out);
            el_reset(editor->el);
        }
        return NULL;
    }
    free(editor->line);
    editor->line = strdup(text);
    if (!editor->line)
        return NULL;
    size_t length = strlen(editor->line);
    while (length && isspace((unsigned char)editor->line[length - 1]))
        editor->line[--length] = '\0'; /* a completion's trailing space included */
    if (length) {
        history(editor->history, &editor->event, H_ENTER, editor->line);
        editor_save_history(editor);
    }
    return editor->line;
#else
    (void)editor, (void)input;
    return NULL;
#endif
}

/* ---- the loop ---- */

/* While a search runs: only `stop` (or Ctrl-C) acts; other lines wait their turn. */
static void wait_for_task(Session *session, Input *input)
{
    char *line;
    switch (input_read(input, false, engine_wakeup_fd(session->engine), &line)) {
    case INPUT_WAKEUP:
        session_task_done(session);
        break;
    case INPUT_INTERRUPTED:
        if (interrupted) {
            interrupted = 0;
            session_stop(session);
        }
        break;
    case INPUT_EOF: /* every earlier command runs first: let the search end */
        session_task_done(session);
        break;
    case INPUT_TOO_LONG:
        input_hold(input, too_long_marker);
        break;
    case INPUT_LINE:
        if (session_is_stop(line))
            session_stop(session);
        else
            input_hold(input, line);
        break;
    }
}

/* --color auto: a terminal that is not dumb, and no NO_COLOR (set and not empty, as
 * no-color.org has it) */
static bool use_color(ColorMode mode, FILE *out)
{
    if (mode != COLOR_MODE_AUTO)
        return mode == COLOR_MODE_ALWAYS;
    const char *term = getenv("TERM"), *no_color = getenv("NO_COLOR");
    return isatty(fileno(out)) && !(no_color && no_color[0]) && !(term && !strcmp(term, "dumb"));
}

int repl_run(Engine *engine, Input *input, FILE *out, ColorMode color)
{
    bool terminal = isatty(input->fd) && isatty(fileno(out));
    Session session;
    session_init(&session, engine, out, use_color(color, out));
    if (engine_notice(engine)[0])
        fprintf(stderr, "octuple: warning: %s\n", engine_notice(engine));

    Editor editor;
    bool editing = terminal && editor_init(&editor, &session, stdin, out);
    struct sigaction previous;
    if (terminal) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_interrupt; /* no SA_RESTART: waits return to check the flag */
        sigemptyset(&action.sa_mask);
        interrupt_work = &session.interrupt;
        sigaction(SIGINT, &action, &previous);
        fprintf(out, "%s %s: type 'help' for the commands, 'quit' to leave.\n", PACKAGE_NAME,
                PACKAGE_VERSION);
        session_show_board(&session);
    }

    for (;;) {
        if (session.task_running) {
            wait_for_task(&session, input);
            continue;
        }
        if (session.quit || session.nboard)
            break;
        char *line;
        if (editing && !input_ready(input, true)) {
            bool cancelled;
            line = editor_read(&editor, input, &cancelled);
            if (!line) {
                if (cancelled)
                    continue;
                fputc('\n', out); /* Ctrl-D: end the prompt's line */
                break;
            }
        } else {
            if (terminal && !input_ready(input, true)) {
                fputs(prompt_text, out);
                fflush(out);
            }
            InputStatus status = input_read(input, true, -1, &line);
            if (status == INPUT_EOF)
                break;
            if (status == INPUT_INTERRUPTED) {
                interrupted = 0;
                fputc('\n', out);
                continue;
            }
            if (status == INPUT_TOO_LONG)
                line = (char *)too_long_marker;
        }
        if (!strcmp(line, too_long_marker)) {
            fprintf(out, "error: input line longer than %d bytes ignored\n", INPUT_MAX_LINE);
            ++session.failures;
            continue;
        }
        session_execute(&session, line);
    }
    session_stop(&session);
    fflush(out);
    if (editing)
        editor_free(&editor);
    if (terminal) {
        sigaction(SIGINT, &previous, NULL);
        interrupt_work = NULL;
    }
    if (session.nboard)
        return nboard_run(engine, input, out, session.nboard);
    /* a script (input not a terminal) tells its caller that a command failed, as sh -e
     * would want; at a terminal the user has read the errors */
    return !isatty(input->fd) && session.failures ? 1 : 0;
}

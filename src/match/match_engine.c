#include "match/match_engine.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/board.h"
#include "core/notation.h"
#include "core/timing.h"

enum {
    MAX_WORDS = 128,
    POLL_SLICE_MS = 100 /* how often a wait looks at the stop flag */
};

static void sleep_seconds(double seconds)
{
    struct timespec pause = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&pause, &pause) && errno == EINTR) {
    }
}

static bool stopped(const MatchEngine *engine)
{
    return engine->stop && atomic_load(engine->stop);
}

int match_split_command(const char *command, char *storage, size_t storage_size, char **argv,
                        int max_words)
{
    size_t used = 0;
    int count = 0;
    const char *c = command;
    for (;;) {
        while (isspace((unsigned char)*c))
            ++c;
        if (!*c)
            break;
        if (count >= max_words - 1)
            return -1;
        argv[count++] = storage + used;
        char quote = 0;
        while (*c && (quote || !isspace((unsigned char)*c))) {
            char ch = *c++;
            if (quote && ch == quote) {
                quote = 0;
                continue;
            }
            if (!quote && (ch == '\'' || ch == '"')) {
                quote = ch;
                continue;
            }
            if (ch == '\\' && quote != '\'' && *c)
                ch = *c++;
            if (used + 1 >= storage_size)
                return -1;
            storage[used++] = ch;
        }
        if (quote)
            return -1;
        if (used + 1 >= storage_size)
            return -1;
        storage[used++] = '\0';
    }
    argv[count] = NULL;
    return count;
}

static bool is_executable_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, X_OK) == 0;
}

/* The absolute path of the program, resolved in the parent: after fork only
 * async-signal-safe calls are allowed, and the child changes directory before exec. */
static bool resolve_program(const char *word, const char *dir, char *out, OctError *error)
{
    char candidate[PATH_MAX * 2];
    const char *base = dir[0] ? dir : ".";
    if (strchr(word, '/')) {
        if (word[0] == '/')
            snprintf(candidate, sizeof candidate, "%s", word);
        else
            snprintf(candidate, sizeof candidate, "%s/%s", base, word);
        if (!is_executable_file(candidate))
            return error_set(error, "%s: not an executable file", candidate);
        if (!realpath(candidate, out))
            return error_set(error, "%s: %s", candidate, strerror(errno));
        return true;
    }
    snprintf(candidate, sizeof candidate, "%s/%s", base, word);
    if (is_executable_file(candidate) && realpath(candidate, out))
        return true;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t length = strcspn(path, ":");
        snprintf(candidate, sizeof candidate, "%.*s/%s", (int)length, length ? path : ".", word);
        if (is_executable_file(candidate) && realpath(candidate, out))
            return true;
        path += length;
        if (*path == ':')
            ++path;
    }
    return error_set(error, "%s: not found in %s nor on PATH", word, base);
}

/* The process groups of the engines alive. A signal handler can reach nothing else, and a
 * runner ended by a second Ctrl-C must not leave behind engines that ignore the end of
 * their input; lock-free atomics keep the handler's reads safe. */
enum { LIVE_GROUPS = 1024 };
static atomic_int live_groups[LIVE_GROUPS];

static void group_add(pid_t pid)
{
    for (int i = 0; i < LIVE_GROUPS; ++i) {
        int free_slot = 0;
        if (atomic_compare_exchange_strong(&live_groups[i], &free_slot, (int)pid))
            return;
    }
}

static void group_remove(pid_t pid)
{
    for (int i = 0; i < LIVE_GROUPS; ++i) {
        int slot = (int)pid;
        if (atomic_compare_exchange_strong(&live_groups[i], &slot, 0))
            return;
    }
}

void match_engine_kill_all(void)
{
    for (int i = 0; i < LIVE_GROUPS; ++i) {
        int pid = atomic_load(&live_groups[i]);
        if (pid > 0)
            kill(-pid, SIGKILL);
    }
}

/* The engine's process is gone (reaped, or not to be waited for any more). */
static void forget(MatchEngine *engine)
{
    group_remove(engine->pid);
    engine->pid = 0;
}

/* In the child between fork and exec: async-signal-safe calls only. */
static void move_fd(int from, int to)
{
    if (from == to) {
        int flags = fcntl(to, F_GETFD);
        if (flags >= 0)
            fcntl(to, F_SETFD, flags & ~FD_CLOEXEC);
    } else {
        dup2(from, to);
    }
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static bool spawn(MatchEngine *engine, OctError *error)
{
    const MatchEngineSpec *spec = engine->spec;
    char storage[MATCH_COMMAND_SIZE + MAX_WORDS];
    char *argv[MAX_WORDS];
    int words = match_split_command(spec->command, storage, sizeof storage, argv, MAX_WORDS);
    if (words < 0)
        return error_set(error, "engine '%s': unbalanced quotes or too many words in '%s'",
                         spec->name, spec->command);
    if (words == 0)
        return error_set(error, "engine '%s': empty command", spec->name);
    char program[PATH_MAX];
    if (!resolve_program(argv[0], spec->dir, program, error))
        return error_prefix(error, "engine '%s': ", spec->name);

    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC))
        return error_set(error, "pipe: %s", strerror(errno));
    if (pipe2(from_child, O_CLOEXEC)) {
        close(to_child[0]);
        close(to_child[1]);
        return error_set(error, "pipe: %s", strerror(errno));
    }
    int null_fd = spec->merge_stderr ? -1 : open("/dev/null", O_WRONLY | O_CLOEXEC);
    const char *dir = spec->dir;
    long open_max = sysconf(_SC_OPEN_MAX);
    int fd_limit = open_max > 0 && open_max < 65536 ? (int)open_max : 65536;
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* an ignored SIGPIPE (the runner's) and blocked signals survive exec: undo both */
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &action, NULL);
        sigaction(SIGINT, &action, NULL);
        sigaction(SIGTERM, &action, NULL);
        sigaction(SIGHUP, &action, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        move_fd(to_child[0], STDIN_FILENO);
        move_fd(from_child[1], STDOUT_FILENO);
        if (spec->merge_stderr)
            dup2(STDOUT_FILENO, STDERR_FILENO);
        else if (null_fd >= 0)
            dup2(null_fd, STDERR_FILENO);
        /* descriptors the runner's host left open without FD_CLOEXEC (a test harness's, a
         * log's) must not leak into engines, which could hold them open after we exit */
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
            for (int fd = 3; fd < fd_limit; ++fd)
                close(fd);
        if (dir[0] && chdir(dir))
            _exit(126);
        execv(program, argv);
        _exit(127);
    }
    int saved = errno;
    close(to_child[0]);
    close(from_child[1]);
    if (null_fd >= 0)
        close(null_fd);
    if (pid < 0) {
        close(to_child[1]);
        close(from_child[0]);
        return error_set(error, "fork: %s", strerror(saved));
    }
    setpgid(pid, pid); /* also here: whichever runs first, the group exists before any kill */
    group_add(pid);
    fcntl(to_child[1], F_SETFL, fcntl(to_child[1], F_GETFL) | O_NONBLOCK);
    fcntl(from_child[0], F_SETFL, fcntl(from_child[0], F_GETFL) | O_NONBLOCK);
    engine->pid = pid;
    engine->input = to_child[1];
    engine->output = from_child[0];
    engine->used = 0;
    engine->discarding = false;
    engine->exit_text[0] = '\0';
    return true;
}

static void describe_status(MatchEngine *engine, int status)
{
    if (WIFEXITED(status))
        snprintf(engine->exit_text, sizeof engine->exit_text, "exited with status %d",
                 WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(engine->exit_text, sizeof engine->exit_text, "killed by signal %d",
                 WTERMSIG(status));
}

void match_engine_kill(MatchEngine *engine, double grace)
{
    close_fd(&engine->input);
    close_fd(&engine->output);
    if (engine->pid <= 0)
        return;
    int status;
    double deadline = monotonic_seconds() + grace;
    for (;;) {
        pid_t done = waitpid(engine->pid, &status, WNOHANG);
        if (done == engine->pid) {
            describe_status(engine, status);
            kill(-engine->pid, SIGKILL); /* whatever it started */
            forget(engine);
            return;
        }
        if (done < 0 && errno != EINTR) {
            forget(engine);
            return;
        }
        if (monotonic_seconds() >= deadline)
            break;
        sleep_seconds(0.01);
    }
    kill(-engine->pid, SIGKILL);
    kill(engine->pid, SIGKILL);
    snprintf(engine->exit_text, sizeof engine->exit_text, "killed (did not exit)");
    /* SIGKILL cannot be caught: the wait is short, but still bounded */
    deadline = monotonic_seconds() + 10;
    while (monotonic_seconds() < deadline) {
        pid_t done = waitpid(engine->pid, &status, WNOHANG);
        if (done == engine->pid || (done < 0 && errno != EINTR))
            break;
        sleep_seconds(0.005);
    }
    forget(engine);
}

void match_engine_close(MatchEngine *engine)
{
    close_fd(&engine->input); /* end of input: an NBoard engine exits */
    match_engine_kill(engine, 2.0);
}

bool match_engine_running(const MatchEngine *engine)
{
    return engine->pid > 0;
}

const char *match_engine_exit_text(MatchEngine *engine)
{
    if (!engine->exit_text[0] && engine->pid > 0) {
        int status;
        if (waitpid(engine->pid, &status, WNOHANG) == engine->pid) {
            describe_status(engine, status);
            kill(-engine->pid, SIGKILL);
            forget(engine);
        }
    }
    return engine->exit_text[0] ? engine->exit_text : "closed its output";
}

MatchStatus match_engine_send(MatchEngine *engine, const char *line, double timeout)
{
    if (engine->input < 0)
        return MATCH_EXITED;
    size_t length = strlen(line);
    char *text = malloc(length + 2);
    if (!text)
        return MATCH_EXITED;
    memcpy(text, line, length);
    text[length++] = '\n';
    double deadline = monotonic_seconds() + timeout;
    size_t sent = 0;
    MatchStatus status = MATCH_OK;
    while (sent < length) {
        ssize_t n = write(engine->input, text + sent, length - sent);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            status = MATCH_EXITED; /* EPIPE above all */
            break;
        }
        /* the engine is not reading: wait for room, but not forever */
        if (stopped(engine)) {
            status = MATCH_INTERRUPTED;
            break;
        }
        double left = deadline - monotonic_seconds();
        if (left <= 0) {
            status = MATCH_TIMEOUT;
            break;
        }
        struct pollfd fd = {engine->input, POLLOUT, 0};
        int slice = left * 1000 < POLL_SLICE_MS ? (int)(left * 1000) + 1 : POLL_SLICE_MS;
        if (poll(&fd, 1, slice) > 0 && (fd.revents & (POLLERR | POLLHUP | POLLNVAL))) {
            status = MATCH_EXITED;
            break;
        }
    }
    free(text);
    return status;
}

/* The next line without its end of line (NULs and control characters become '?'). */
static MatchStatus read_line(MatchEngine *engine, double deadline, char *line, size_t size)
{
    for (;;) {
        char *newline = memchr(engine->buffer, '\n', engine->used);
        bool full = !newline && engine->used == sizeof engine->buffer;
        if (newline || full) {
            size_t length = newline ? (size_t)(newline - engine->buffer) : engine->used;
            size_t consumed = newline ? length + 1 : length;
            bool deliver = !engine->discarding;
            engine->discarding = full; /* the rest of an over-long line is dropped */
            if (deliver) {
                size_t copied = length < size - 1 ? length : size - 1;
                memcpy(line, engine->buffer, copied);
                while (copied && line[copied - 1] == '\r')
                    --copied;
                line[copied] = '\0';
                for (size_t i = 0; i < copied; ++i)
                    if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
                        line[i] = '?';
            }
            memmove(engine->buffer, engine->buffer + consumed, engine->used - consumed);
            engine->used -= consumed;
            if (deliver)
                return MATCH_OK;
            continue;
        }
        if (engine->output < 0)
            return MATCH_EXITED;
        if (stopped(engine))
            return MATCH_INTERRUPTED;
        double left = deadline - monotonic_seconds();
        if (left <= 0)
            return MATCH_TIMEOUT;
        struct pollfd fd = {engine->output, POLLIN, 0};
        int slice = left * 1000 < POLL_SLICE_MS ? (int)(left * 1000) + 1 : POLL_SLICE_MS;
        int ready = poll(&fd, 1, slice);
        if (ready <= 0)
            continue;
        ssize_t n = read(engine->output, engine->buffer + engine->used,
                         sizeof engine->buffer - engine->used);
        if (n > 0)
            engine->used += (size_t)n;
        else if (n == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
            return MATCH_EXITED;
    }
}

/* The first word of `line` equals `word` (case-sensitive, as the GUI compares). */
static const char *after_word(const char *line, const char *word)
{
    size_t length = strlen(word);
    if (strncmp(line, word, length) || (line[length] && !isspace((unsigned char)line[length])))
        return NULL;
    return line + length;
}

static MatchStatus wait_pong(MatchEngine *engine, double deadline)
{
    char line[MATCH_LINE_SIZE];
    for (;;) {
        MatchStatus status = read_line(engine, deadline, line, sizeof line);
        if (status != MATCH_OK)
            return status;
        const char *rest = after_word(line, "pong");
        if (!rest)
            continue;
        char *end;
        errno = 0;
        long number = strtol(rest, &end, 10);
        while (isspace((unsigned char)*end))
            ++end;
        if (!errno && end != rest && !*end && number == engine->ping)
            return MATCH_OK;
    }
}

/* The id of a GTP answer line: `=ID text` or `?ID text` with the id of the command, or no
 * id at all (the spec asks engines to echo it; those that do not are still understood,
 * since every answer is read whole before the next command goes out). The text after it,
 * or NULL when the line is no answer to command `id`. */
static const char *gtp_answer(const char *line, long id)
{
    if (line[0] != '=' && line[0] != '?')
        return NULL;
    const char *c = line + 1;
    if (isdigit((unsigned char)*c)) {
        char *end;
        errno = 0;
        long number = strtol(c, &end, 10);
        if (errno || number != id)
            return NULL;
        c = end;
    }
    if (*c && !isspace((unsigned char)*c))
        return NULL;
    while (isspace((unsigned char)*c))
        ++c;
    return c;
}

/* Sends `ID command` and reads its answer to the blank line that ends it; lines before it
 * (chatter) are skipped. The answer's first line goes to `answer` (may be NULL); a `?`
 * answer is MATCH_REFUSED, with the command and the answer in engine->refusal. */
static MatchStatus gtp_command(MatchEngine *engine, const char *command, double timeout,
                               char *answer, size_t size)
{
    double deadline = monotonic_seconds() + timeout;
    long id = ++engine->ping;
    char line[MATCH_LINE_SIZE];
    snprintf(line, sizeof line, "%ld %s", id, command);
    MatchStatus status = match_engine_send(engine, line, timeout);
    const char *text = NULL;
    while (status == MATCH_OK && !text) {
        status = read_line(engine, deadline, line, sizeof line);
        if (status == MATCH_OK)
            text = gtp_answer(line, id);
    }
    if (status != MATCH_OK)
        return status;
    bool refused = line[0] == '?';
    if (refused)
        snprintf(engine->refusal, sizeof engine->refusal, "'%.60s' answered '? %.60s'", command,
                 text);
    if (answer) {
        snprintf(answer, size, "%s", text);
        size_t length = strlen(answer);
        while (length && isspace((unsigned char)answer[length - 1]))
            answer[--length] = '\0';
    }
    do /* the rest of a multi-line answer, to its blank line */
        status = read_line(engine, deadline, line, sizeof line);
    while (status == MATCH_OK && line[strspn(line, " \t")]);
    return status != MATCH_OK ? status : refused ? MATCH_REFUSED : MATCH_OK;
}

static const char *gtp_color(Color color)
{
    return color == COLOR_BLACK ? "black" : "white";
}

/* `play COLOUR MOVE` (never a pass: see match_engine_moved). */
static MatchStatus gtp_play(MatchEngine *engine, Color mover, int move, double timeout)
{
    char name[3], command[32];
    snprintf(command, sizeof command, "play %s %s", gtp_color(mover), move_format(move, name));
    return gtp_command(engine, command, timeout, NULL, 0);
}

MatchStatus match_engine_sync(MatchEngine *engine, double timeout)
{
    if (engine->spec->protocol == MATCH_GTP)
        return gtp_command(engine, "name", timeout, NULL, 0);
    double deadline = monotonic_seconds() + timeout;
    char ping[32];
    snprintf(ping, sizeof ping, "ping %ld", ++engine->ping);
    MatchStatus status = match_engine_send(engine, ping, timeout);
    return status != MATCH_OK ? status : wait_pong(engine, deadline);
}

MatchStatus match_engine_new_game(MatchEngine *engine, const char *ggf_line,
                                  const Game *opening, double timeout)
{
    if (engine->spec->protocol == MATCH_NBOARD)
        return match_engine_send(engine, ggf_line, timeout);
    MatchStatus status = gtp_command(engine, "clear_board", timeout, NULL, 0);
    Board board;
    Color side;
    for (int i = 0; i < opening->move_count && status == MATCH_OK; ++i) {
        game_position(opening, i, &board, &side);
        if (opening->moves[i] != MOVE_PASS) /* see match_engine_moved */
            status = gtp_play(engine, side, opening->moves[i], timeout);
    }
    return status;
}

MatchStatus match_engine_moved(MatchEngine *engine, Color mover, int move, const char *mli,
                               bool own, double timeout)
{
    /* a pass is not sent: the other colour's next play or genmove implies it (GRhino takes
     * no `play COLOUR pass` at all) */
    if (engine->spec->protocol == MATCH_GTP)
        return own || move == MOVE_PASS ? MATCH_OK : gtp_play(engine, mover, move, timeout);
    char line[64];
    snprintf(line, sizeof line, "move %s", mli);
    return match_engine_send(engine, line, timeout);
}

MatchStatus match_engine_clock(MatchEngine *engine, const char *command, double timeout)
{
    if (engine->spec->protocol != MATCH_GTP)
        return MATCH_OK;
    MatchStatus status = gtp_command(engine, command, timeout, NULL, 0);
    return status == MATCH_REFUSED ? MATCH_OK : status;
}

MatchStatus match_engine_go(MatchEngine *engine, Color side, double timeout, char *reply,
                            size_t size)
{
    if (engine->spec->protocol == MATCH_GTP) {
        char command[32];
        snprintf(command, sizeof command, "genmove %s", gtp_color(side));
        return gtp_command(engine, command, timeout, reply, size);
    }
    double deadline = monotonic_seconds() + timeout;
    char ping[32];
    snprintf(ping, sizeof ping, "ping %ld", ++engine->ping);
    MatchStatus status = match_engine_send(engine, ping, timeout);
    if (status == MATCH_OK)
        status = match_engine_send(engine, "go", timeout);
    if (status == MATCH_OK)
        status = wait_pong(engine, deadline);
    char line[MATCH_LINE_SIZE];
    while (status == MATCH_OK) {
        status = read_line(engine, deadline, line, sizeof line);
        const char *rest = status == MATCH_OK ? after_word(line, "===") : NULL;
        if (rest) {
            while (isspace((unsigned char)*rest))
                ++rest;
            snprintf(reply, size, "%s", rest);
            size_t length = strlen(reply);
            while (length && isspace((unsigned char)reply[length - 1]))
                reply[--length] = '\0';
            return MATCH_OK;
        }
    }
    return status;
}

bool match_engine_start(MatchEngine *engine, const MatchEngineSpec *spec,
                        const atomic_int *stop, double timeout, OctError *error)
{
    memset(engine, 0, sizeof *engine);
    engine->spec = spec;
    engine->stop = stop;
    engine->input = -1;
    engine->output = -1;
    if (!spawn(engine, error))
        return false;
    MatchStatus status = spec->protocol == MATCH_GTP ? MATCH_OK
                                                     : match_engine_send(engine, "nboard 2", timeout);
    if (status == MATCH_OK && spec->depth > 0 && spec->protocol == MATCH_NBOARD) {
        char line[32];
        snprintf(line, sizeof line, "set depth %d", spec->depth);
        status = match_engine_send(engine, line, timeout);
    }
    if (status == MATCH_OK)
        status = match_engine_sync(engine, timeout);
    if (status == MATCH_OK)
        return true;
    match_engine_kill(engine, status == MATCH_EXITED ? 1.0 : 0.0);
    switch (status) {
    case MATCH_TIMEOUT:
        return error_set(error, "engine '%s' did not answer %s within %g s after starting",
                         spec->name, spec->protocol == MATCH_GTP ? "'name'" : "ping", timeout);
    case MATCH_REFUSED:
        return error_set(error, "engine '%s': %s while starting", spec->name, engine->refusal);
    case MATCH_INTERRUPTED:
        return error_set(error, "engine '%s': interrupted while starting", spec->name);
    default:
        return error_set(error, "engine '%s' %s while starting (command '%s'%s%s)", spec->name,
                         match_engine_exit_text(engine), spec->command,
                         spec->dir[0] ? " in " : "", spec->dir);
    }
}

/* A decimal, or nothing (NAN); anything else is ignored too: evals are informative. */
static double parse_number(const char *text, size_t length)
{
    if (!length || length > 60)
        return NAN;
    char copy[64];
    memcpy(copy, text, length);
    copy[length] = '\0';
    char *end;
    double value = strtod(copy, &end);
    return *end || !isfinite(value) ? NAN : value;
}

bool match_parse_reply(const char *text, int *move, double *eval, double *seconds)
{
    *eval = NAN;
    *seconds = NAN;
    while (isspace((unsigned char)*text))
        ++text;
    size_t token = strcspn(text, " \t");
    const char *trailing = text + token;
    while (isspace((unsigned char)*trailing))
        ++trailing;
    if (*trailing)
        return false;
    size_t move_length = strcspn(text, "/");
    if (move_length > token)
        move_length = token;
    char word[16];
    if (move_length == 0 || move_length >= sizeof word)
        return false;
    memcpy(word, text, move_length);
    word[move_length] = '\0';
    size_t read = 0;
    int parsed = move_parse(word, &read);
    if (parsed < 0 || read != move_length)
        return false;
    *move = parsed;
    if (move_length < token) {
        const char *field = text + move_length + 1;
        size_t rest = token - move_length - 1;
        size_t eval_length = strcspn(field, "/");
        if (eval_length > rest)
            eval_length = rest;
        *eval = parse_number(field, eval_length);
        if (eval_length < rest)
            *seconds = parse_number(field + eval_length + 1, rest - eval_length - 1);
    }
    return true;
}

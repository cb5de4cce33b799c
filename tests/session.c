#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static char home[512];
static pid_t home_owner;

double session_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
    (void)info, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_home(void)
{
    if (home[0] && getpid() == home_owner) /* not from forked test processes */
        nftw(home, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *session_home(void)
{
    if (home[0])
        return home;
    const char *tmp = getenv("TMPDIR");
    snprintf(home, sizeof home, "%s/octuple-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(home)) {
        perror("mkdtemp");
        abort();
    }
    home_owner = getpid();
    atexit(remove_home);
    char path[600];
    setenv("HOME", home, 1);
    snprintf(path, sizeof path, "%s/data", home);
    setenv("XDG_DATA_HOME", path, 1);
    snprintf(path, sizeof path, "%s/state", home);
    setenv("XDG_STATE_HOME", path, 1);
    unsetenv("OCTUPLE_WEIGHTS");
    unsetenv("OCTUPLE_DATA_DIR");
    unsetenv("NO_COLOR");
    return home;
}

static void exec_engine(const char *const *args)
{
    const char *argv[64];
    int count = 0;
    argv[count++] = OCTUPLE_BINARY;
    for (int i = 0; args[i] && count < 63; ++i)
        argv[count++] = args[i];
    argv[count] = NULL;
    execv(OCTUPLE_BINARY, (char *const *)argv);
    perror("execv " OCTUPLE_BINARY);
    _exit(127);
}

bool child_start(Child *child, const char *const *args, bool pty)
{
    session_home();
    memset(child, 0, sizeof *child);
    child->pty = pty;
    child->capacity = 1 << 16;
    child->output = calloc(1, child->capacity);
    if (!child->output)
        return false;
    if (pty) {
        int master = posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || grantpt(master) || unlockpt(master))
            return false;
        const char *slave_name = ptsname(master);
        if (!slave_name)
            return false;
        char name[128];
        snprintf(name, sizeof name, "%s", slave_name);
        pid_t pid = fork();
        if (pid < 0)
            return false;
        if (pid == 0) {
            setsid();
            int slave = open(name, O_RDWR); /* becomes the controlling terminal */
            if (slave < 0)
                _exit(127);
            ioctl(slave, TIOCSCTTY, 0);
            struct winsize size = {24, 80, 0, 0};
            ioctl(slave, TIOCSWINSZ, &size);
            dup2(slave, 0);
            dup2(slave, 1);
            dup2(slave, 2);
            if (slave > 2)
                close(slave);
            close(master);
            setenv("TERM", "vt100", 1);
            exec_engine(args);
        }
        child->pid = pid;
        child->in = child->out = master;
        return true;
    }
    int to_child[2], from_child[2];
    if (pipe(to_child) || pipe(from_child))
        return false;
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        dup2(from_child[1], 2);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        exec_engine(args);
    }
    close(to_child[0]);
    close(from_child[1]);
    child->pid = pid;
    child->in = to_child[1];
    child->out = from_child[0];
    signal(SIGPIPE, SIG_IGN);
    return true;
}

void child_send(Child *child, const char *text)
{
    child_send_bytes(child, text, strlen(text));
}

void child_send_bytes(Child *child, const char *text, size_t length)
{
    while (length) {
        ssize_t written = write(child->in, text, length);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        text += written;
        length -= (size_t)written;
    }
}

void child_close_input(Child *child)
{
    if (child->pty) {
        child_send(child, "\004"); /* Ctrl-D */
        return;
    }
    if (child->in >= 0)
        close(child->in);
    child->in = -1;
}

bool child_pump(Child *child, double seconds)
{
    if (child->out < 0)
        return false;
    struct pollfd fd = {child->out, POLLIN, 0};
    int ready = poll(&fd, 1, seconds <= 0 ? 0 : (int)(seconds * 1000) + 1);
    if (ready <= 0)
        return false;
    if (child->used + 4097 > child->capacity) {
        size_t capacity = child->capacity * 2;
        char *bigger = realloc(child->output, capacity);
        if (!bigger)
            return false;
        child->output = bigger;
        child->capacity = capacity;
    }
    ssize_t got = read(child->out, child->output + child->used, 4096);
    if (got <= 0) { /* end of output (a pty reports EIO once the child is gone) */
        if (got < 0 && errno == EINTR)
            return true;
        close(child->out);
        if (child->in == child->out)
            child->in = -1;
        child->out = -1;
        return false;
    }
    /* terminal padding (vt100 pads with NUL bytes) would cut the text short */
    char *chunk = child->output + child->used;
    size_t kept = 0;
    for (ssize_t i = 0; i < got; ++i)
        if (chunk[i] != '\0')
            chunk[kept++] = chunk[i];
    child->used += kept;
    child->output[child->used] = '\0';
    return true;
}

long child_wait_for(Child *child, size_t from, const char *needle, double seconds)
{
    double deadline = session_now() + seconds;
    for (;;) {
        if (from <= child->used) {
            char *hit = strstr(child->output + from, needle);
            if (hit)
                return hit - child->output;
        }
        double left = deadline - session_now();
        if (left <= 0 || (!child_pump(child, left) && child->out < 0))
            return -1;
    }
}

char *child_read_line(Child *child, double seconds)
{
    double deadline = session_now() + seconds;
    for (;;) {
        char *begin = child->output + child->line_start;
        char *newline = memchr(begin, '\n', child->used - child->line_start);
        if (newline) {
            size_t length = (size_t)(newline - begin);
            char *line = malloc(length + 1);
            memcpy(line, begin, length);
            line[length] = '\0';
            if (length && line[length - 1] == '\r')
                line[length - 1] = '\0';
            child->line_start += length + 1;
            return line;
        }
        double left = deadline - session_now();
        if (left <= 0 || (!child_pump(child, left) && child->out < 0))
            return NULL;
    }
}

char *child_expect(Child *child, const char *prefix, double seconds, char *skipped,
                   size_t skipped_size)
{
    double deadline = session_now() + seconds;
    for (;;) {
        double left = deadline - session_now();
        char *line = child_read_line(child, left > 0 ? left : 0);
        if (!line)
            return NULL;
        if (!strncmp(line, prefix, strlen(prefix)))
            return line;
        if (skipped) {
            size_t used = strlen(skipped);
            snprintf(skipped + used, skipped_size - used, "%s\n", line);
        }
        free(line);
    }
}

int child_finish(Child *child, double seconds)
{
    child_close_input(child);
    double deadline = session_now() + seconds;
    int status = 0;
    bool killed = false;
    for (;;) {
        pid_t done = waitpid(child->pid, &status, WNOHANG);
        if (done == child->pid)
            break;
        if (session_now() > deadline) {
            kill(child->pid, SIGKILL);
            waitpid(child->pid, &status, 0);
            killed = true;
            break;
        }
        if (!child_pump(child, 0.05) && child->out < 0)
            usleep(10000);
    }
    while (child->out >= 0 && child_pump(child, 0.2))
        continue;
    if (child->in >= 0)
        close(child->in);
    if (child->out >= 0 && child->out != child->in)
        close(child->out);
    child->in = child->out = -1;
    if (killed || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

int child_run(const char *const *args, const char *input, char **output, double seconds)
{
    Child child;
    if (!child_start(&child, args, false))
        return -1;
    child_send(&child, input);
    child_close_input(&child);
    double deadline = session_now() + seconds;
    while (session_now() < deadline && (child_pump(&child, deadline - session_now()) ||
                                        child.out >= 0))
        continue;
    int status = child_finish(&child, deadline - session_now() > 1 ? deadline - session_now() : 1);
    *output = child.output;
    return status;
}

bool session_text_clean(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n') || c == 0x7f)
                return false;
            ++p;
            continue;
        }
        int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;
        if (extra < 0 || c > 0xf4)
            return false;
        unsigned long value = c & (0x3fu >> extra);
        for (int i = 1; i <= extra; ++i) {
            if ((p[i] & 0xc0) != 0x80)
                return false;
            value = value << 6 | (p[i] & 0x3fu);
        }
        static const unsigned long smallest[] = {0, 0x80, 0x800, 0x10000};
        if (value < smallest[extra] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)
            || (value >= 0x80 && value < 0xa0) /* C1 controls */
            || value == 0x61c || value == 0x200e || value == 0x200f /* bidirectional marks */
            || (value >= 0x2028 && value <= 0x202e) /* separators, embeddings, overrides */
            || (value >= 0x2066 && value <= 0x2069)) /* isolates */
            return false;
        p += extra + 1;
    }
    return true;
}

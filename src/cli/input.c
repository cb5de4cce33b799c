#include "cli/input.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { READ_CHUNK = 4096 };

void input_init(Input *input, int fd)
{
    memset(input, 0, sizeof *input);
    input->fd = fd;
}

void input_free(Input *input)
{
    free(input->buffer);
    free(input->line);
    for (size_t i = 0; i < input->held_count; ++i)
        free(input->held[i]);
    free(input->held);
    memset(input, 0, sizeof *input);
}

static bool set_line(Input *input, const char *text, size_t length)
{
    if (length + 1 > input->line_capacity) {
        char *bigger = realloc(input->line, length + 1);
        if (!bigger)
            return false;
        input->line = bigger;
        input->line_capacity = length + 1;
    }
    if (length && text[length - 1] == '\r')
        --length;
    memcpy(input->line, text, length);
    input->line[length] = '\0';
    /* a NUL byte would end the line early and hide what follows it: it becomes the ASCII
     * substitute character, which no command accepts, so the line is refused whole */
    for (char *nul = memchr(input->line, '\0', length); nul;
         nul = memchr(nul, '\0', length - (size_t)(nul - input->line)))
        *nul = INPUT_SUBSTITUTE;
    return true;
}

bool input_hold(Input *input, const char *line)
{
    if (input->held_count == input->held_capacity) {
        size_t capacity = input->held_capacity ? input->held_capacity * 2 : 8;
        char **bigger = realloc(input->held, capacity * sizeof *bigger);
        if (!bigger)
            return false;
        input->held = bigger;
        input->held_capacity = capacity;
    }
    char *copy = strdup(line);
    if (!copy)
        return false;
    input->held[input->held_count++] = copy;
    return true;
}

size_t input_held_count(const Input *input)
{
    return input->held_count;
}

bool input_ready(const Input *input, bool use_held)
{
    if (use_held && input->held_count)
        return true;
    if (input->eof)
        return true;
    size_t length = input->end - input->start;
    return length && memchr(input->buffer + input->start, '\n', length) != NULL;
}

size_t input_take_partial(Input *input, char *out, size_t size)
{
    size_t length = input->end - input->start;
    if (input->discarding || length == 0 ||
        memchr(input->buffer + input->start, '\n', length))
        return 0;
    size_t copied = length < size ? length : size - 1;
    memcpy(out, input->buffer + input->start, copied);
    out[copied] = '\0';
    input->start = input->end = 0;
    return length;
}

/* Adds to the kept start of a dropped line (see input_dropped). */
static void keep_dropped(Input *input, const char *bytes, size_t length)
{
    for (size_t i = 0; i < length && input->dropped_length < INPUT_DROPPED_SIZE - 1; ++i) {
        unsigned char c = (unsigned char)bytes[i];
        if (!input->dropped_length && (c <= ' ' || c == 0x7f))
            continue;
        input->dropped[input->dropped_length++] = c ? (char)c : INPUT_SUBSTITUTE;
    }
    input->dropped[input->dropped_length] = '\0';
}

/* Bytes of an over-long line are dropped: the first ones of a new line start its kept
 * start afresh. */
static void drop_bytes(Input *input, const char *bytes, size_t length)
{
    if (!input->discarding)
        input->dropped_length = 0;
    keep_dropped(input, bytes, length);
    input->discarding = true;
}

/* An over-long line ends here: `bytes` are its last part (or all of it). */
static InputStatus drop_line(Input *input, const char *bytes, size_t length)
{
    drop_bytes(input, bytes, length);
    input->discarding = false;
    return INPUT_TOO_LONG;
}

const char *input_dropped(const Input *input)
{
    return input->dropped_length ? input->dropped : "";
}

/* Reads what is available into the buffer; false at the end of input. */
static bool fill(Input *input)
{
    if (input->start > 0) { /* compact */
        memmove(input->buffer, input->buffer + input->start, input->end - input->start);
        input->end -= input->start;
        input->start = 0;
    }
    if (input->capacity - input->end < READ_CHUNK) {
        size_t capacity = input->capacity ? input->capacity * 2 : 2 * READ_CHUNK;
        char *bigger = realloc(input->buffer, capacity);
        if (!bigger)
            return false;
        input->buffer = bigger;
        input->capacity = capacity;
    }
    ssize_t got = read(input->fd, input->buffer + input->end, input->capacity - input->end);
    if (got > 0) {
        input->end += (size_t)got;
        return true;
    }
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    return false;
}

InputStatus input_read(Input *input, bool use_held, int wake_fd, char **line)
{
    if (use_held && input->held_count) {
        char *first = input->held[0];
        memmove(input->held, input->held + 1, (input->held_count - 1) * sizeof *input->held);
        --input->held_count;
        bool ok = set_line(input, first, strlen(first));
        free(first);
        *line = input->line;
        return ok ? INPUT_LINE : INPUT_EOF;
    }
    for (;;) {
        /* no buffer before the first read: neither an offset nor memchr may be applied to
         * a null pointer */
        char *begin = input->buffer ? input->buffer + input->start : NULL;
        size_t length = input->end - input->start;
        char *newline = length ? memchr(begin, '\n', length) : NULL;
        if (newline) {
            size_t line_length = (size_t)(newline - begin);
            input->start += line_length + 1;
            /* the limit holds however the line arrived: whole in one read, or in pieces */
            if (input->discarding || line_length > INPUT_MAX_LINE)
                return drop_line(input, begin, line_length);
            if (!set_line(input, begin, line_length))
                return INPUT_EOF;
            *line = input->line;
            return INPUT_LINE;
        }
        if (input->eof) {
            input->start = input->end = 0;
            if (input->discarding || length > INPUT_MAX_LINE)
                return drop_line(input, begin, length);
            if (length == 0)
                return INPUT_EOF;
            if (!set_line(input, begin, length)) /* a last line without newline */
                return INPUT_EOF;
            *line = input->line;
            return INPUT_LINE;
        }
        if (length > INPUT_MAX_LINE) { /* as above: a line of exactly the limit is kept */
            drop_bytes(input, begin, length);
            input->start = input->end = 0;
        }
        struct pollfd fds[2] = {{input->fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        int ready = poll(fds, wake_fd >= 0 ? 2 : 1, -1);
        if (ready < 0) {
            if (errno == EINTR)
                return INPUT_INTERRUPTED;
            input->eof = true;
            continue;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) {
            if (!fill(input))
                input->eof = true;
            continue;
        }
        if (wake_fd >= 0 && fds[1].revents)
            return INPUT_WAKEUP;
    }
}

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* How much of a message that does not fit is kept from its start: the rest of the room goes
 * to its end, where the reason is ("PATH: cannot open: No such file"), so that a long path
 * loses its middle instead of the message its reason. */
enum { KEPT_HEAD = 160 };

static bool utf8_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* `whole` (`length` bytes) into `out`, cut in the middle when it does not fit, at
 * character boundaries. */
static void message_fit(char *out, const char *whole, size_t length)
{
    if (length < ERROR_MESSAGE_SIZE) {
        memcpy(out, whole, length + 1);
        return;
    }
    static const char gap[] = "...";
    /* at most 3 bytes either way: a UTF-8 character has at most 3 after its first, and text
     * of another encoding must not lose its start or its end to the search */
    size_t head = KEPT_HEAD;
    for (int step = 0; step < 3 && utf8_continuation(whole[head]); ++step)
        --head;
    size_t tail = ERROR_MESSAGE_SIZE - 1 - KEPT_HEAD - (sizeof gap - 1);
    const char *end = whole + length - tail;
    for (int step = 0; step < 3 && *end && utf8_continuation(*end); ++step)
        ++end, --tail;
    memcpy(out, whole, head);
    memcpy(out + head, gap, sizeof gap - 1);
    memcpy(out + head + sizeof gap - 1, end, tail + 1);
}

/* The formatted text in a buffer of its own size (malloc'ed), or NULL. */
static char *format_whole(const char *format, va_list args, size_t *length)
{
    va_list again;
    va_copy(again, args);
    int needed = vsnprintf(NULL, 0, format, args);
    char *whole = needed < 0 ? NULL : malloc((size_t)needed + 1);
    if (whole)
        vsnprintf(whole, (size_t)needed + 1, format, again);
    va_end(again);
    *length = whole ? (size_t)needed : 0;
    return whole;
}

bool error_set(OctError *error, const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        size_t length;
        char *whole = format_whole(format, args, &length);
        va_end(args);
        if (whole) {
            message_fit(error->message, whole, length);
            free(whole);
        } else { /* out of memory: the start at least */
            va_start(args, format);
            vsnprintf(error->message, sizeof error->message, format, args);
            va_end(args);
        }
    }
    return false;
}

bool error_prefix(OctError *error, const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        size_t used;
        char *prefix = format_whole(format, args, &used);
        va_end(args);
        size_t rest = strlen(error->message);
        char *whole = prefix ? realloc(prefix, used + rest + 1) : NULL;
        if (!whole) { /* out of memory: the message as it was */
            free(prefix);
            return false;
        }
        memcpy(whole + used, error->message, rest + 1);
        message_fit(error->message, whole, used + rest);
        free(whole);
    }
    return false;
}

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

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

/* The length of the well-formed UTF-8 character at `p` (up to `end`), 0 when there is none
 * (a stray continuation byte, a cut or overlong sequence, a surrogate). */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
    size_t length = 0;
    if (*p >= 0xC2 && *p <= 0xDF)
        length = 2;
    else if (*p >= 0xE0 && *p <= 0xEF)
        length = 3;
    else if (*p >= 0xF0 && *p <= 0xF4)
        length = 4;
    if (length == 0 || (size_t)(end - p) < length)
        return 0;
    for (size_t i = 1; i < length; ++i)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0)
        || (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
        return 0;
    return length;
}

/* A message is one line of text, whatever input it quotes: control characters (a newline
 * would end a protocol line early; C1's U+009B starts a terminal escape as ESC [ does; the
 * bidirectional controls reorder what follows them) and
 * bytes that are not UTF-8 (a GUI shows garbage or refuses the line) become '?', in
 * place (a byte each). */
static void message_clean(char *text, size_t length)
{
    unsigned char *p = (unsigned char *)text, *end = p + length;
    while (p < end) {
        size_t character = error_printable((const char *)p, (const char *)end);
        if (character) /* else a byte each: a C1 control's second one is a stray then */
            p += character;
        else
            *p++ = '?';
    }
}

size_t error_printable(const char *text, const char *end)
{
    const unsigned char *p = (const unsigned char *)text;
    if (*p < 0x20 || *p == 0x7F)
        return 0;
    if (*p < 0x80)
        return 1;
    if (p[0] == 0xC2 && end - text >= 2 && p[1] < 0xA0) /* U+0080-U+009F: C1 controls */
        return 0;
    size_t length = utf8_length(p, (const unsigned char *)end);
    if (length == 2 && p[0] == 0xD8 && p[1] == 0x9C) /* U+061C, the Arabic letter mark */
        return 0;
    /* U+200E-U+200F and U+202A-U+202E, U+2066-U+2069: marks and embeddings that reorder
     * the rest of a terminal's or a GUI's line; U+2028-U+2029: line and paragraph
     * separators, which some readers take for the end of a line */
    if (length == 3 && p[0] == 0xE2
        && ((p[1] == 0x80 && ((p[2] >= 0x8E && p[2] <= 0x8F) || (p[2] >= 0xA8 && p[2] <= 0xAE)))
            || (p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)))
        return 0;
    return length;
}

void error_clean(char *text)
{
    message_clean(text, strlen(text));
}

/* The formatted text in a buffer of its own size (malloc'ed), or NULL; one line of text
 * (message_clean). */
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
    if (whole)
        message_clean(whole, *length);
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
            message_clean(error->message, strlen(error->message));
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

void error_copy(const OctError *error, char *out, size_t size)
{
    if (!out || !size)
        return;
    size_t length = strlen(error->message);
    if (length >= size) {
        /* a message is UTF-8 (message_clean): a character the cut would split goes whole */
        length = size - 1;
        while (length > 0 && utf8_continuation(error->message[length]))
            --length;
    }
    memcpy(out, error->message, length);
    out[length] = '\0';
}

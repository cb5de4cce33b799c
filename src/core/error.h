/* Error values for everything that reads outside input: one message naming what, where, why. */
#ifndef OCTUPLE_ERROR_H
#define OCTUPLE_ERROR_H

#include <stdbool.h>
#include <stddef.h>

enum { ERROR_MESSAGE_SIZE = 512 };

typedef struct OctError {
    char message[ERROR_MESSAGE_SIZE];
} OctError;

/* printf-style; a NULL error is allowed and ignored. Always returns false so callers can
 * `return error_set(...)` from a bool function. A message longer than the buffer keeps its
 * start and its end, where the reason is, with "..." for the middle (a long path's). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
bool error_set(OctError *error, const char *format, ...);

/* Prefix an existing message with a location, e.g. "games.wtb: record 12: " + message. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
bool error_prefix(OctError *error, const char *format, ...);

/* The message into `out` (`size` bytes; NULL or 0: nothing), cut between characters when
 * it does not fit. */
void error_copy(const OctError *error, char *out, size_t size);

/* Makes `text` one line of UTF-8, in place, as every message is made: control characters
 * and bytes that are not UTF-8 become '?'. For protocol lines that quote their input. */
void error_clean(char *text);

/* The bytes of the character at `text` (before `end`) when it may be shown as it is: 1 for
 * printable ASCII, 2-4 for a well-formed UTF-8 character that is no C1 control, no
 * bidirectional control and no line or paragraph separator; 0 for a byte to replace or
 * escape. */
size_t error_printable(const char *text, const char *end);

#endif

/* Numbers given as whole strings (options, commands, protocol lines): all of the text must
 * be the number (trailing blanks allowed) and within the bounds; and the white space that
 * separates words. */
#ifndef OCTUPLE_PARSE_H
#define OCTUPLE_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* The text after any leading white space. */
const char *skip_space(const char *text);

bool parse_long(const char *text, long low, long high, long *value);
bool parse_int(const char *text, int low, int high, int *value);
bool parse_double(const char *text, double low, double high, double *value);
/* A decimal whole number 0 .. 2^64 - 1 (no sign). */
bool parse_u64(const char *text, uint64_t *value);

#endif

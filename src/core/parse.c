#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *skip_space(const char *text)
{
    while (isspace((unsigned char)*text))
        ++text;
    return text;
}

static bool only_blanks(const char *text)
{
    return *skip_space(text) == '\0';
}

bool parse_long(const char *text, long low, long high, long *value)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || !only_blanks(end) || v < low || v > high)
        return false;
    *value = v;
    return true;
}

bool parse_int(const char *text, int low, int high, int *value)
{
    long v;
    if (!parse_long(text, low, high, &v))
        return false;
    *value = (int)v;
    return true;
}

bool parse_double(const char *text, double low, double high, double *value)
{
    char *end;
    errno = 0;
    /* plain decimals only: strtod would also read hexadecimal (0x10 as 16) */
    if (strpbrk(text, "xX"))
        return false;
    double v = strtod(text, &end);
    if (errno || end == text || !only_blanks(end) || !(v >= low && v <= high))
        return false;
    *value = v;
    return true;
}

bool parse_u64(const char *text, uint64_t *value)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*text)) /* strtoull would take a sign, and wrap "-1" */
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || !only_blanks(end))
        return false;
    *value = (uint64_t)v;
    return true;
}

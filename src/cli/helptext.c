#include "cli/helptext.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void helptext_format(const char *left, const char *help, char *out, size_t size)
{
    if (size == 0)
        return;
    out[0] = '\0';
    size_t used = 0;
#define APPEND(...)                                                                          \
    do {                                                                                     \
        if (used < size)                                                                     \
            used += (size_t)snprintf(out + used, size - used, __VA_ARGS__);                  \
    } while (0)
    APPEND("  %-*s ", HELPTEXT_COLUMN - 3, left);
    size_t column = 2 + strlen(left) + 1;
    if (column < HELPTEXT_COLUMN)
        column = HELPTEXT_COLUMN;
    bool line_empty = true;
    const char *p = help;
    while (*p) {
        while (*p == ' ')
            ++p;
        if (!*p)
            break;
        size_t word = strcspn(p, " ");
        size_t needed = line_empty ? word : word + 1;
        if (!line_empty && column + needed > HELPTEXT_WIDTH) {
            APPEND("\n%*s", HELPTEXT_COLUMN, "");
            column = HELPTEXT_COLUMN;
            line_empty = true;
            needed = word;
        }
        APPEND("%s%.*s", line_empty ? "" : " ", (int)word, p);
        column += needed;
        line_empty = false;
        p += word;
    }
    APPEND("\n");
#undef APPEND
}

/* Two-column help (`--help`, the console's `help`): a name and its text, wrapped so that
 * every line fits a normal terminal. */
#ifndef OCTUPLE_HELPTEXT_H
#define OCTUPLE_HELPTEXT_H

#include <stddef.h>

enum {
    HELPTEXT_WIDTH = 80, /* columns of a normal terminal: no line is longer */
    HELPTEXT_COLUMN = 25 /* where the texts start: "  " and 22 columns of names, a space */
};

/* "  LEFT  HELP\n" as lines of at most HELPTEXT_WIDTH columns (a single word longer than a
 * line excepted): the help wrapped at spaces and continued under HELPTEXT_COLUMN; after a
 * left part that reaches the column, the help starts one space after it. Cut at `size`. */
void helptext_format(const char *left, const char *help, char *out, size_t size);

#endif

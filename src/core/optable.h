/* Command-line options described by one table per program (or per command): the table
 * drives parsing, the errors that name a bad option, and --help. Every program reads its
 * options through this module, so `--name VALUE` and `--name=VALUE` mean the same
 * everywhere and the help always lists what the parser takes. */
#ifndef OCTUPLE_OPTABLE_H
#define OCTUPLE_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

enum { OPTABLE_HELP_COLUMN = 26, OPTABLE_WIDTH = 79 };

typedef struct OptSpec {
    const char *name;     /* without the dashes; NULL: a heading of the help, in `help` */
    const char *argument; /* the value's name in help; NULL: the option takes no value */
    const char *help;     /* one sentence or more, wrapped to the width by the help */
    int id;               /* the program's code for the option */
} OptSpec;

/* Where the reading of a command line stands. */
typedef struct OptScan {
    int argc;
    char **argv;
    int next;               /* the argument to read next */
    bool refuse_dash_value; /* a value "--..." is a missing value (`--out --help`) */
} OptScan;

typedef enum OptResult {
    OPT_END,      /* nothing left */
    OPT_OPTION,   /* an option of the table, with its value when it takes one */
    OPT_ARGUMENT, /* a word that is no option */
    OPT_ERROR     /* an unknown option, a missing value, a value given to a flag */
} OptResult;

/* From argv[first]. */
void optable_begin(OptScan *scan, int argc, char **argv, int first, bool refuse_dash_value);
/* Reads the next option or argument: the option's row in *spec and its value (NULL for a
 * flag), or the argument in *value. An error names the option (or the word). */
OptResult optable_next(OptScan *scan, const OptSpec *table, int count, const OptSpec **spec,
                       const char **value, OctError *error);
/* The row named `name` (its first `length` characters), or NULL. */
const OptSpec *optable_find(const OptSpec *table, int count, const char *name, size_t length);

/* One help line: "  --name ARG" and the help from OPTABLE_HELP_COLUMN, wrapped within
 * OPTABLE_WIDTH columns (the help goes on the next line when the name is long). */
void optable_print(FILE *out, const char *name, const char *argument, const char *help);
/* "  LEFT" and the help from OPTABLE_HELP_COLUMN in the same way: a command's line. */
void optable_print_item(FILE *out, const char *left, const char *help);
/* Each row of the table by optable_print, a heading as "help:". */
void optable_print_all(FILE *out, const OptSpec *table, int count);
/* `text` wrapped within OPTABLE_WIDTH columns, each line indented by `indent`, the first
 * line starting at column `column` (already printed up to there). */
void optable_wrap(FILE *out, const char *text, int indent, int column);

#endif

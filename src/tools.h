/* The engine binary's batch commands: perft, solving test files. They print reports. */
#ifndef OCTUPLE_TOOLS_H
#define OCTUPLE_TOOLS_H

#include <stdio.h>

#include "options.h"

int tools_perft(const Options *options, FILE *out);
/* Solves every position of an OBF file; returns 0 when every score is right, 1 when some
 * score is wrong, 2 when the file cannot be read. */
int tools_solve(const Options *options, const char *path, FILE *out);

#endif

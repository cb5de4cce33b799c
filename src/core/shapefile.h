/* A human-readable shape file: one tuple per line.
 *
 *     # comment (to the end of the line)
 *     name edax-like                      optional, before the first tuple
 *     a1 b1 a2 b2 c1 a3 c2 b3 c3          a tuple, expanded in the 8 symmetries
 *     g1 h1 | h7 h8 | h1 h2               explicit instances separated by '|', no expansion
 *     a1 |                                one explicit instance (a trailing '|')
 *
 * Squares are coordinates (a1..h8, any case) or numbers 0..63 (a1 = 0, h1 = 7, a8 = 56),
 * listed in digit order (the first square is the least significant base-3 digit). */
#ifndef OCTUPLE_SHAPEFILE_H
#define OCTUPLE_SHAPEFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "core/ntuple.h"

/* `source` names the text in messages ("edax.shape"); errors say the line and the token. */
bool shape_parse(const char *text, const char *source, Shape *out, OctError *error);
bool shape_read(const char *path, Shape *out, OctError *error);
/* Writes a tuple as its first instance when the others are its symmetric expansion, as
 * explicit instances otherwise, so shape_parse gives back an equal shape. */
bool shape_write(FILE *file, const Shape *shape);

#endif

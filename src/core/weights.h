/* The Octuple weights file (.ow): a whole model in one binary file.
 *
 * All integers little-endian, whatever the host; floats are IEEE-754 binary32 bit patterns
 * stored as little-endian 32-bit integers.
 *
 *   offset size  field
 *   0      8     magic "\x89OCTW\r\n\x1a" (catches text-mode and 7-bit mangling)
 *   8      4     format version (WEIGHTS_VERSION)
 *   12     4     file size in bytes, checksum included
 *   16     4     weight encoding: 1 = int16, 2 = float32
 *   20     4     shift (weight unit = 2^-shift engine units; model.h)
 *   24     4     perspective: 0 = board inversion, 1 = output negation
 *   28     4     origin: 0 native, 1 Othello League import, 2 WPC
 *   32     64    model name, UTF-8, NUL padded
 *   96     4     shape count S
 *   100    4     weight set count W
 *   104    122   phase table: for move numbers 0..60, shape (1 byte) then weight set (1 byte)
 *   226    ...   S shapes: name length L (1 byte, < 48), L bytes of name, tuple count (2);
 *                per tuple: size n (1), instance count m (1), then m x n squares (1 byte
 *                each, 0..63 with a1 = 0, in digit order)
 *   ...    ...   W weight sets: shape (4), bias (4, signed, weight units)
 *   ...    ...   W weight sets in order, each the 3^n table entries of every tuple of its
 *                shape in order (2 bytes signed or 4 bytes float, weight units)
 *   end-4  4     CRC-32 (ISO-HDLC, as zlib's crc32) of every byte before it
 *
 * Loading reads the whole file and checks, in order: magic, version, size (truncated or
 * trailing bytes), checksum (corrupted), then every field (inconsistent). Nothing is
 * returned unless all checks pass. float32 entries are rounded to int16 on load and must be
 * finite and in range. Saving writes a temporary file and renames it over the target. */
#ifndef OCTUPLE_WEIGHTS_H
#define OCTUPLE_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/model.h"

enum {
    WEIGHTS_VERSION = 1,
    WEIGHTS_INT16 = 1,
    WEIGHTS_FLOAT32 = 2
};

/* Also loads FILE.mpc beside FILE.ow when it exists (the probability-cut model fitted to
 * these weights); a bad .mpc fails the load with its message. */
bool model_load(const char *path, Model **out, OctError *error);
/* From memory: `name` is used in messages. */
bool model_parse(const unsigned char *data, size_t size, const char *name, Model **out,
                 OctError *error);

/* int16 encoding, the same numbers as in memory. */
bool model_save(const Model *model, const char *path, OctError *error);

/* float32 encoding with the model's shapes, phase table and header, but the table entries
 * taken from `values` (model_weight_count of them, weight set by weight set in the model's
 * layout, in weight units): how a trainer that keeps float weights saves them. NULL writes
 * the model's own int16 entries as floats. */
bool weights_save_float(const Model *model, const float *values, const char *path,
                        OctError *error);

/* The file image in memory (malloc'ed), for tests and tools. */
bool weights_encode(const Model *model, int encoding, const float *values,
                    unsigned char **data, size_t *size, OctError *error);

#endif

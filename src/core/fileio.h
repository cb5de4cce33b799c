/* Whole-file reads and crash-safe writes for the evaluation files (shapes, weights). */
#ifndef OCTUPLE_FILEIO_H
#define OCTUPLE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"

/* Opens `path` for reading without waiting for ever when it is a named pipe that no process
 * writes (after a few seconds with no writer it reads as empty); -1 with an error naming
 * the path on failure. */
int file_open_read(const char *path, OctError *error);

/* file_open_read as a stdio stream; NULL with an error on failure. */
FILE *file_open_stream(const char *path, OctError *error);

/* Opens `path` to append to, with `flags` more (O_CREAT, O_TRUNC), without waiting for a
 * reader when it is a named pipe (one with none is an error); -1 with an error on failure. */
int file_open_append(const char *path, int flags, OctError *error);

/* Reads all of `path` into a malloc'ed buffer with a NUL after the last byte (so text can
 * be parsed in place). Refuses files larger than `limit` bytes. */
bool file_read_all(const char *path, size_t limit, char **data, size_t *size, OctError *error);

/* A binary format's header length: called once with the first bytes of the file (64 KB, or
 * all of a shorter file), it returns the file length they declare, or 0 when they are not
 * such a header (wrong magic, too short): the read then stops there and the caller's parser
 * says what is wrong. Without it a device such as /dev/urandom would be read to the limit. */
typedef size_t FileDeclaredSize(const unsigned char *head, size_t have);

/* file_read_all that reads no further than the header's declared length: a longer file is
 * an error saying so. */
bool file_read_declared(const char *path, size_t limit, FileDeclaredSize *declared,
                        char **data, size_t *size, OctError *error);

/* file_read_all for a text format: a NUL byte inside is an error naming its line, since
 * the parsers would take it for the end of the text. The read stops at the first NUL. */
bool file_read_text(const char *path, size_t limit, char **text, OctError *error);

/* Writes `size` bytes to a temporary file beside `path`, flushes it to disk, then renames
 * it over `path`: readers see the old file or the new one, never a partial one. Ctrl-C and
 * kills wait until the temporary file is renamed or removed; a replaced file keeps its mode,
 * and a symbolic link its target, which is what gets replaced. A path that names anything but
 * a regular file (a directory, a device, a pipe) is refused and left alone. */
bool file_write_atomic(const char *path, const void *data, size_t size, OctError *error);

/* How long a temporary file must have been left unchanged before file_remove_stale takes it
 * for one whose writer died. */
enum { FILE_STALE_SECONDS = 60 };

/* Removes the temporary files that file_write_atomic left for the file `name` in `dir` when
 * its process was killed with a signal that cannot wait (SIGKILL): files named
 * NAME.tmp-XXXXXX, regular, owned by this user, unchanged for FILE_STALE_SECONDS, and whose
 * lock no live writer holds. Returns how many it removed. */
int file_remove_stale(const char *dir, const char *name);

/* Whether two paths name the same file: the same inode when both exist, else the same
 * place once their directories are resolved (m/./t.ow and m/t.ow, before either is made). */
bool file_same(const char *a, const char *b);

#endif

/* A file of games in any of the formats a user has at hand: GGF records (NBoard, GGS), or
 * one game per line as a Logistello logbook line (+d3-c3...: +04) or a move string from the
 * standard start (f5d6c3...). Blank lines and lines starting with '#' are skipped. */
#ifndef OCTUPLE_GAMELIST_H
#define OCTUPLE_GAMELIST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/game.h"

/* All games of `path` into a malloc'ed array (free() it). On the first bad game nothing is
 * returned and the message names the file and the line (or GGF record). */
bool gamelist_read(const char *path, Game **games, size_t *count, OctError *error);

#endif

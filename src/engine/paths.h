/* Where Octuple finds its data and keeps the user's files, independent of the working
 * directory and of PATH (the NBoard GUI starts engines in a directory of the user's choice).
 *
 * Data (weights, the opening book) is searched in this order of directories:
 *   1. $OCTUPLE_DATA_DIR;
 *   2. ../weights and ../book beside the executable's directory (the build tree:
 *      src/octuple);
 *   3. the executable's own directory (a binary unpacked with its data);
 *   4. the source tree's weights/ and book/ when the executable is the one this build tree
 *      made (VPATH builds keep the data in the source tree);
 *   5. the installed $(pkgdatadir).
 * User files follow the XDG base directories: learned games and the book they grow in
 * $XDG_DATA_HOME/octuple
 * (default ~/.local/share/octuple), the line-editing history in $XDG_STATE_HOME/octuple
 * (default ~/.local/state/octuple). */
#ifndef OCTUPLE_PATHS_H
#define OCTUPLE_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

enum {
    PATHS_SIZE = 4096,
    PATHS_MAX_DIRS = 7
};

typedef struct DataDirs {
    int count;
    char dirs[PATHS_MAX_DIRS][PATHS_SIZE];
} DataDirs;

/* The directory holding the running executable; `program` (argv[0], may be NULL) is the
 * fallback where /proc/self/exe is unavailable. False when it cannot be found. */
bool paths_executable_dir(const char *program, char *out, size_t size);

/* The data directories in search order (only those that exist). */
void paths_data_dirs(const char *program, DataDirs *dirs);

/* The first file named names[0] (else names[1], ...) in the first data directory holding
 * any of them. False when none exists; `searched` (may be NULL) then lists the
 * directories tried, separated by ", ". */
bool paths_find_data(const char *program, const char *const *names, int name_count,
                     char *out, size_t size, char *searched, size_t searched_size);

typedef enum UserDir { USER_DATA, USER_STATE } UserDir;

/* $XDG_DATA_HOME/octuple or $XDG_STATE_HOME/octuple (home-based defaults), created with
 * its parents when `create` is set. */
bool paths_user_dir(UserDir kind, bool create, char *out, size_t size, OctError *error);

/* mkdir -p with mode 0700 for the directories it creates. */
bool paths_make_dirs(const char *path, OctError *error);

/* Appends `text` to `path` so that readers see the whole old file or the whole new one:
 * under an exclusive lock on `path`.lock (concurrent engines lose no record), the old
 * contents plus `text` go to a temporary file that is renamed over `path`. */
bool paths_append_atomic(const char *path, const char *text, OctError *error);

/* Writes `text` atomically (temporary file, then rename). */
bool paths_write_atomic(const char *path, const char *text, OctError *error);

#endif

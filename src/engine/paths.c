#include "engine/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"

/* Learned-game files are small; this only guards against reading a wrong, huge file. */
enum { APPEND_LIMIT = 1 << 30 };

static bool copy_text(char *out, size_t size, const char *text)
{
    size_t length = strlen(text);
    if (length + 1 > size)
        return false;
    memcpy(out, text, length + 1);
    return true;
}

static bool is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

static bool is_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/* Drops the last path component ("/a/b/c" -> "/a/b"; "/a" -> "/"). */
static void strip_last(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash)
        strcpy(path, ".");
    else if (slash == path)
        path[1] = '\0';
    else
        *slash = '\0';
}

bool paths_executable_dir(const char *program, char *out, size_t size)
{
    char path[PATHS_SIZE];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length > 0) {
        path[length] = '\0';
    } else {
        /* argv[0] names the executable only when it holds a slash (else PATH found it) */
        if (!program || !strchr(program, '/') || !realpath(program, path))
            return false;
    }
    strip_last(path);
    return copy_text(out, size, path);
}

static void add_dir(DataDirs *dirs, const char *dir)
{
    if (dirs->count >= PATHS_MAX_DIRS || !dir || !*dir || !is_directory(dir))
        return;
    char resolved[PATHS_SIZE];
    if (!realpath(dir, resolved))
        return;
    for (int i = 0; i < dirs->count; ++i)
        if (!strcmp(dirs->dirs[i], resolved))
            return;
    copy_text(dirs->dirs[dirs->count++], PATHS_SIZE, resolved);
}

void paths_data_dirs(const char *program, DataDirs *dirs)
{
    dirs->count = 0;
    add_dir(dirs, getenv("OCTUPLE_DATA_DIR"));
    char exe[PATHS_SIZE];
    bool have_exe = paths_executable_dir(program, exe, sizeof exe);
    if (have_exe) {
        char candidate[PATHS_SIZE + 16];
        snprintf(candidate, sizeof candidate, "%s/../weights", exe);
        add_dir(dirs, candidate);
        snprintf(candidate, sizeof candidate, "%s/../book", exe);
        add_dir(dirs, candidate);
        add_dir(dirs, exe);
    }
#if defined(OCTUPLE_BUILDDIR) && defined(OCTUPLE_SRCDIR)
    /* only for the executable of this build tree, so an installed binary never reads a
     * source tree that happens to still exist */
    char built[PATHS_SIZE];
    if (have_exe && realpath(OCTUPLE_BUILDDIR "/src", built) && !strcmp(built, exe)) {
        add_dir(dirs, OCTUPLE_SRCDIR "/weights");
        add_dir(dirs, OCTUPLE_SRCDIR "/book");
    }
#endif
#ifdef OCTUPLE_PKGDATADIR
    add_dir(dirs, OCTUPLE_PKGDATADIR);
#endif
}

bool paths_find_data(const char *program, const char *const *names, int name_count,
                     char *out, size_t size, char *searched, size_t searched_size)
{
    DataDirs dirs;
    paths_data_dirs(program, &dirs);
    if (searched && searched_size)
        searched[0] = '\0';
    for (int d = 0; d < dirs.count; ++d) {
        for (int n = 0; n < name_count; ++n) {
            char candidate[PATHS_SIZE * 2];
            snprintf(candidate, sizeof candidate, "%s/%s", dirs.dirs[d], names[n]);
            if (is_file(candidate))
                return copy_text(out, size, candidate);
        }
        if (searched && searched_size) {
            size_t used = strlen(searched);
            snprintf(searched + used, searched_size - used, "%s%s", used ? ", " : "",
                     dirs.dirs[d]);
        }
    }
    if (searched && searched_size && !searched[0])
        snprintf(searched, searched_size, "no data directory exists");
    return false;
}

static const char *home_dir(void)
{
    const char *home = getenv("HOME");
    if (home && *home)
        return home;
    struct passwd *entry = getpwuid(getuid());
    return entry && entry->pw_dir && *entry->pw_dir ? entry->pw_dir : NULL;
}

bool paths_user_dir(UserDir kind, bool create, char *out, size_t size, OctError *error)
{
    const char *variable = kind == USER_DATA ? "XDG_DATA_HOME" : "XDG_STATE_HOME";
    const char *fallback = kind == USER_DATA ? ".local/share" : ".local/state";
    const char *base = getenv(variable);
    int written;
    /* the XDG specification says to ignore relative values */
    if (base && base[0] == '/') {
        written = snprintf(out, size, "%s/octuple", base);
    } else {
        const char *home = home_dir();
        if (!home)
            return error_set(error, "neither $%s nor $HOME is set", variable);
        written = snprintf(out, size, "%s/%s/octuple", home, fallback);
    }
    if (written < 0 || (size_t)written >= size)
        return error_set(error, "the %s directory path is too long", variable);
    return !create || paths_make_dirs(out, error);
}

bool paths_make_dirs(const char *path, OctError *error)
{
    char work[PATHS_SIZE];
    if (!copy_text(work, sizeof work, path))
        return error_set(error, "%s: path too long", path);
    for (char *p = work + 1;; ++p) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(work, 0700) != 0 && errno != EEXIST)
            return error_set(error, "%s: cannot create the directory: %s", work, strerror(errno));
        if (!is_directory(work))
            return error_set(error, "%s: exists and is not a directory", work);
        *p = saved;
        if (!saved)
            return true;
    }
}

bool paths_write_atomic(const char *path, const char *text, OctError *error)
{
    return file_write_atomic(path, text, strlen(text), error);
}

bool paths_append_atomic(const char *path, const char *text, OctError *error)
{
    char lock_path[PATHS_SIZE + 8];
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0)
        return error_set(error, "%s: cannot open: %s", lock_path, strerror(errno));
    bool ok;
    if (flock(lock, LOCK_EX) != 0) {
        ok = error_set(error, "%s: cannot lock: %s", lock_path, strerror(errno));
    } else {
        char *old = NULL;
        size_t old_size = 0;
        ok = !is_file(path) || file_read_all(path, APPEND_LIMIT, &old, &old_size, error);
        if (ok) {
            size_t added = strlen(text);
            char *joined = malloc(old_size + added + 1);
            if (!joined) {
                ok = error_set(error, "%s: out of memory", path);
            } else {
                if (old_size)
                    memcpy(joined, old, old_size);
                memcpy(joined + old_size, text, added + 1);
                ok = file_write_atomic(path, joined, old_size + added, error);
                free(joined);
            }
        }
        free(old);
        flock(lock, LOCK_UN);
    }
    close(lock);
    return ok;
}

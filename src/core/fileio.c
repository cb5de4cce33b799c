#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How long a named pipe that has had no writer gets for one to come. */
enum { PIPE_WRITER_WAIT_MS = 3000 };

/* Opens `path` with O_NONBLOCK, which a named pipe needs so that the open does not wait for
 * the other end, then clears it so that reads and writes wait for data as usual; -1 with
 * an error saying `doing` otherwise. */
static int open_without_waiting(const char *path, int flags, const char *doing,
                                OctError *error)
{
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        int code = errno;
        struct stat info; /* ENXIO also comes from sockets and absent devices */
        bool pipe = code == ENXIO && stat(path, &info) == 0 && S_ISFIFO(info.st_mode);
        error_set(error, "%s: cannot open%s: %s", path, doing,
                  pipe ? "a named pipe that no process reads" : strerror(code));
        return -1;
    }
    int status = fcntl(fd, F_GETFL);
    if (status < 0 || fcntl(fd, F_SETFL, status & ~O_NONBLOCK) < 0) {
        error_set(error, "%s: cannot open%s: %s", path, doing, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int file_open_read(const char *path, OctError *error)
{
    /* a plain open of a named pipe waits until some process opens it for writing, which may
     * be never. Opened without waiting, a pipe that has had no writer reads as empty at
     * once: it gets a few seconds for one to come (and write), then is read as it is. A pipe
     * with a writer (`<(command)`) is read to its end, however slow. */
    int fd = open_without_waiting(path, O_RDONLY, "", error);
    struct stat info;
    if (fd >= 0 && fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode)) {
        struct pollfd ready = {fd, POLLIN, 0};
        poll(&ready, 1, PIPE_WRITER_WAIT_MS);
    }
    return fd;
}

FILE *file_open_stream(const char *path, OctError *error)
{
    int fd = file_open_read(path, error);
    if (fd < 0)
        return NULL;
    FILE *file = fdopen(fd, "rb");
    if (!file) {
        error_set(error, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return file;
}

int file_open_append(const char *path, int flags, OctError *error)
{
    /* as for reading: a named pipe with no reader is an error, not an open that waits */
    return open_without_waiting(path, flags | O_WRONLY | O_APPEND, " for writing", error);
}

/* What bounds a read besides the caller's limit. */
typedef struct ReadBounds {
    FileDeclaredSize *declared; /* a binary header's own length, or NULL */
    bool stop_at_nul;           /* text: the first NUL ends the read (the caller names it) */
} ReadBounds;

static bool read_bounded(const char *path, size_t limit, const ReadBounds *bounds, char **data,
                         size_t *size, OctError *error)
{
    FILE *file = file_open_stream(path, error);
    if (!file)
        return false;
    /* a regular file says its size: one too large is refused before any read */
    struct stat info;
    if (fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode)
        && (unsigned long long)info.st_size > limit) {
        fclose(file);
        return error_set(error, "%s: larger than %zu bytes", path, limit);
    }
    char *buffer = NULL;
    size_t capacity = 0, used = 0;
    size_t declared = 0; /* the header's length once read; 0 while unknown */
    bool ok = true, head_seen = false;
    for (;;) {
        if (declared && used > declared) {
            ok = error_set(error, "%s: longer than the %zu bytes its header declares", path,
                           declared);
            break;
        }
        if (used == capacity) {
            if (capacity > limit) { /* limit + 1 bytes read: a device or a growing file */
                ok = error_set(error, "%s: larger than %zu bytes", path, limit);
                break;
            }
            size_t next = capacity ? capacity * 2 : (size_t)1 << 16;
            if (next > limit + 1)
                next = limit + 1;
            if (declared && next > declared + 1)
                next = declared + 1; /* one byte past the header's length shows any excess */
            char *bigger = realloc(buffer, next + 1);
            if (!bigger) {
                ok = error_set(error, "%s: out of memory", path);
                break;
            }
            buffer = bigger;
            capacity = next;
        }
        size_t got = fread(buffer + used, 1, capacity - used, file);
        if (bounds->stop_at_nul && memchr(buffer + used, '\0', got)) {
            used += got; /* a NUL: not text, and no reason to read a device to the limit */
            break;
        }
        used += got;
        if (got == 0) {
            if (ferror(file))
                ok = error_set(error, "%s: read error: %s", path, strerror(errno));
            break;
        }
        if (bounds->declared && !head_seen) {
            /* fread fills its request unless the file ends: these are the first 64 KB, or
             * all of a shorter file */
            head_seen = true;
            declared = bounds->declared((const unsigned char *)buffer, used);
            if (!declared) { /* not the format's header: the caller's parser says why */
                if (ferror(file)) /* unless the read failed: that is the error */
                    ok = error_set(error, "%s: read error: %s", path, strerror(errno));
                break;
            }
            if (declared > limit)
                declared = 0; /* the limit speaks first */
        }
    }
    fclose(file);
    if (!ok) {
        free(buffer);
        return false;
    }
    buffer[used] = '\0';
    *data = buffer;
    *size = used;
    return true;
}

bool file_read_all(const char *path, size_t limit, char **data, size_t *size, OctError *error)
{
    const ReadBounds bounds = {NULL, false};
    return read_bounded(path, limit, &bounds, data, size, error);
}

bool file_read_declared(const char *path, size_t limit, FileDeclaredSize *declared,
                        char **data, size_t *size, OctError *error)
{
    const ReadBounds bounds = {declared, false};
    return read_bounded(path, limit, &bounds, data, size, error);
}

bool file_read_text(const char *path, size_t limit, char **text, OctError *error)
{
    size_t size;
    const ReadBounds bounds = {NULL, true};
    if (!read_bounded(path, limit, &bounds, text, &size, error))
        return false;
    const char *nul = memchr(*text, '\0', size);
    if (!nul)
        return true;
    int line = 1;
    for (const char *c = *text; c < nul; ++c)
        line += *c == '\n';
    free(*text);
    *text = NULL;
    return error_set(error, "%s: line %d: a NUL byte (not a text file)", path, line);
}

/* The file a write to `path` should replace: the target of a symbolic link, so that the
 * link stays a link; `path` itself otherwise. `*resolved` is malloc'ed when it differs. */
static const char *write_target(const char *path, char **resolved)
{
    struct stat link;
    *resolved = NULL;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
        *resolved = realpath(path, NULL); /* NULL for a dangling link: replace the link */
    return *resolved ? *resolved : path;
}

/* The longest file name (one path component) of the usual file systems, and the length of
 * the temporary file's suffix. */
enum { NAME_LIMIT = 255, TEMPORARY_SUFFIX = 11 };

bool file_write_atomic(const char *path, const void *data, size_t size, OctError *error)
{
    /* a rename would put a regular file in the place of a device or a pipe (save /dev/null,
     * or a link to the engine's own output), and cannot replace a directory */
    struct stat existing;
    if (stat(path, &existing) == 0 && !S_ISREG(existing.st_mode))
        return error_set(error, "%s: not a regular file (%s): nothing written", path,
                         S_ISDIR(existing.st_mode) ? "a directory"
                         : S_ISFIFO(existing.st_mode) ? "a pipe"
                         : S_ISCHR(existing.st_mode) || S_ISBLK(existing.st_mode) ? "a device"
                         : "a special file");
    char *resolved;
    const char *target = write_target(path, &resolved);
    size_t length = strlen(target);
    char *temporary = malloc(length + 16);
    if (!temporary) {
        free(resolved);
        return error_set(error, "%s: out of memory", path);
    }
    /* the temporary name is the target's with a suffix, its last part cut so that the whole
     * stays within the longest name a directory takes (a name of 250 bytes is valid) */
    const char *slash = strrchr(target, '/');
    size_t name = slash ? length - (size_t)(slash + 1 - target) : length;
    size_t kept = name + TEMPORARY_SUFFIX > NAME_LIMIT ? length - name + NAME_LIMIT
                                                       - TEMPORARY_SUFFIX : length;
    for (int step = 0; step < 3 && kept < length && ((unsigned char)target[kept] & 0xC0) == 0x80;
         ++step)
        --kept; /* not inside a UTF-8 character: some file systems refuse such names */
    memcpy(temporary, target, kept);
    memcpy(temporary + kept, ".tmp-XXXXXX", 12);
    /* Ctrl-C or a kill between mkstemp and rename would leave the temporary file behind:
     * such signals wait until it is renamed or removed, a fraction of a second */
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGINT);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGHUP);
    sigaddset(&blocked, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    int fd = mkstemp(temporary);
    bool ok = fd >= 0;
    /* a lock on the temporary file for as long as it has its name (a second descriptor of
     * it outlives fclose): file_remove_stale leaves a locked one alone, and a kill -9,
     * which cannot wait, releases it */
    int held = -1;
    if (ok && flock(fd, LOCK_EX) == 0)
        held = dup(fd);
    if (!ok) {
        error_set(error, "%s: cannot create a temporary file: %s", path, strerror(errno));
    } else {
        /* mkstemp makes 0600; a replaced file keeps its mode, a new one is data anyone may
         * read */
        struct stat old;
        fchmod(fd, stat(target, &old) == 0 ? (old.st_mode & 07777) : 0644);
        FILE *file = fdopen(fd, "wb");
        ok = file != NULL;
        int code = errno;
        if (!ok) {
            close(fd);
        } else {
            ok = fwrite(data, 1, size, file) == size && fflush(file) == 0 && fsync(fd) == 0;
            code = ok ? 0 : errno;
            if (fclose(file) != 0 && ok) {
                ok = false;
                code = errno;
            }
        }
        /* a full disk or the file-size limit (EFBIG: the programs ignore SIGXFSZ, which
         * would kill them otherwise) leaves the old file as it was */
        if (!ok)
            error_set(error, "%s: cannot write: %s%s; the file is as it was", path,
                      strerror(code), code == EFBIG ? " (the file-size limit, ulimit -f)" : "");
        else if (rename(temporary, target) != 0)
            ok = error_set(error, "%s: cannot rename the temporary file: %s", path,
                           strerror(errno));
        if (!ok)
            remove(temporary);
    }
    if (held >= 0)
        close(held);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    free(temporary);
    free(resolved);
    return ok;
}

/* Whether `entry` is NAME.tmp-XXXXXX, the name file_write_atomic gives its temporary file. */
static bool is_temporary_of(const char *entry, const char *name)
{
    size_t length = strlen(name);
    if (strncmp(entry, name, length) != 0 || strncmp(entry + length, ".tmp-", 5) != 0)
        return false;
    const char *random = entry + length + 5;
    if (strlen(random) != 6)
        return false;
    for (const char *c = random; *c; ++c)
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", *c))
            return false;
    return true;
}

int file_remove_stale(const char *dir, const char *name)
{
    DIR *listing = opendir(dir);
    if (!listing)
        return 0;
    int removed = 0;
    time_t now = time(NULL);
    for (struct dirent *entry; (entry = readdir(listing));) {
        if (!is_temporary_of(entry->d_name, name))
            continue;
        int fd = openat(dirfd(listing), entry->d_name,
                        O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            continue; /* a link, gone already, or not ours to read */
        struct stat opened, named;
        /* a regular file of ours, unchanged for a while (a writer locks its file right after
         * making it), that no live writer holds, and still the file of that name */
        if (fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_uid == geteuid()
            && now - opened.st_mtime >= FILE_STALE_SECONDS && flock(fd, LOCK_EX | LOCK_NB) == 0
            && fstatat(dirfd(listing), entry->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0
            && named.st_dev == opened.st_dev && named.st_ino == opened.st_ino
            && unlinkat(dirfd(listing), entry->d_name, 0) == 0)
            ++removed;
        close(fd);
    }
    closedir(listing);
    return removed;
}

/* `path` with its directory resolved (symbolic links, . and ..), malloc'ed; NULL when the
 * directory does not exist. */
static char *file_place(const char *path)
{
    char *whole = realpath(path, NULL);
    if (whole)
        return whole;
    const char *slash = strrchr(path, '/');
    char *directory = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                            : strdup(".");
    char *resolved = directory ? realpath(directory, NULL) : NULL;
    free(directory);
    if (!resolved)
        return NULL;
    const char *name = slash ? slash + 1 : path;
    size_t size = strlen(resolved) + strlen(name) + 2;
    char *place = malloc(size);
    if (place)
        snprintf(place, size, "%s/%s", resolved, name);
    free(resolved);
    return place;
}

bool file_same(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    struct stat first, second;
    if (stat(a, &first) == 0 && stat(b, &second) == 0)
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
    char *x = file_place(a), *y = file_place(b);
    bool same = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool file_read_all(const char *path, size_t limit, char **data, size_t *size, OctError *error)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return error_set(error, "%s: cannot open: %s", path, strerror(errno));
    char *buffer = NULL;
    size_t capacity = 0, used = 0;
    bool ok = true;
    for (;;) {
        if (used == capacity) {
            if (capacity > limit) {
                ok = error_set(error, "%s: larger than %zu bytes", path, limit);
                break;
            }
            size_t next = capacity ? capacity * 2 : (size_t)1 << 16;
            char *bigger = realloc(buffer, next + 1);
            if (!bigger) {
                ok = error_set(error, "%s: out of memory", path);
                break;
            }
            buffer = bigger;
            capacity = next;
        }
        size_t got = fread(buffer + used, 1, capacity - used, file);
        used += got;
        if (got == 0) {
            if (ferror(file))
                ok = error_set(error, "%s: read error: %s", path, strerror(errno));
            break;
        }
    }
    fclose(file);
    if (ok && used > limit)
        ok = error_set(error, "%s: larger than %zu bytes", path, limit);
    if (!ok) {
        free(buffer);
        return false;
    }
    buffer[used] = '\0';
    *data = buffer;
    *size = used;
    return true;
}

bool file_write_atomic(const char *path, const void *data, size_t size, OctError *error)
{
    size_t length = strlen(path);
    char *temporary = malloc(length + 16);
    if (!temporary)
        return error_set(error, "%s: out of memory", path);
    memcpy(temporary, path, length);
    memcpy(temporary + length, ".tmp-XXXXXX", 12);
    int fd = mkstemp(temporary);
    if (fd < 0) {
        error_set(error, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(temporary);
        return false;
    }
    fchmod(fd, 0644); /* mkstemp makes 0600; weights are data anyone may read */
    FILE *file = fdopen(fd, "wb");
    bool ok = file != NULL;
    if (!ok) {
        close(fd);
    } else {
        ok = fwrite(data, 1, size, file) == size && fflush(file) == 0 && fsync(fd) == 0;
        ok = (fclose(file) == 0) && ok;
    }
    if (!ok)
        error_set(error, "%s: write failed: %s", temporary, strerror(errno));
    else if (rename(temporary, path) != 0)
        ok = error_set(error, "%s: cannot rename the temporary file: %s", path, strerror(errno));
    if (!ok)
        remove(temporary);
    free(temporary);
    return ok;
}

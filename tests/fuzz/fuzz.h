/* Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c, built by `make fuzz`): the input
 * as a file without touching the disk, and the engine the protocol harnesses drive. */
#ifndef OCTUPLE_TESTS_FUZZ_H
#define OCTUPLE_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memory file holding `data`, its path in `path` ("/proc/self/fd/N"): the readers open
 * it as they open any file. Returns the descriptor (close it), -1 when none could be made. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("octuple-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t wrote = write(fd, data + done, size - done);
        if (wrote <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)wrote;
    }
    lseek(fd, 0, SEEK_SET);
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}

/* The input as a NUL-terminated string (malloc'ed): text parsers stop at a NUL, as the file
 * readers do (file_read_text). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#endif

/* The protocol harnesses' engine and input. One engine serves every input (made once: a
 * new game at the start of each), with the built-in SWH evaluation, no book, a 1 MB table,
 * one thread, depth 1 and exact solves from 4 empties, so that each search is cheap. Lines
 * that would change those settings, search deeply (solve, perft, mode), or read or write
 * files (save, load, book, weights, learn) are left out: the harness must neither write the
 * disk nor time out on a search the input asked for. What is left goes through the
 * protocol's own reader and loop, as a GUI's lines would. */
#ifndef OCTUPLE_TESTS_FUZZ_PROTOCOL_H
#define OCTUPLE_TESTS_FUZZ_PROTOCOL_H

#include <ctype.h>
#include <stdbool.h>
#include <strings.h>

#include "cli/input.h"
#include "engine/engine.h"
#include "engine/settings.h"
#include "fuzz.h"

static inline Engine *fuzz_engine(void)
{
    static Engine *engine;
    if (engine)
        return engine;
    /* nothing of the user's: no data directory, no weights, and user files in a place
     * that does not exist (learn is left out anyway) */
    setenv("OCTUPLE_DATA_DIR", "/nonexistent/octuple-fuzz", 1);
    unsetenv("OCTUPLE_WEIGHTS");
    setenv("HOME", "/nonexistent/octuple-fuzz", 1);
    setenv("XDG_DATA_HOME", "/nonexistent/octuple-fuzz/data", 1);
    setenv("XDG_STATE_HOME", "/nonexistent/octuple-fuzz/state", 1);
    EngineSettings settings;
    settings_init(&settings, NULL);
    settings.threads = 1;
    settings.hash_megabytes = 1;
    settings.depth = 1;
    settings.exact = 4;
    settings.wld = 0;
    settings.use_book = false;
    settings.verbose = 2;
    OctError error;
    if (!engine_create(&settings, &engine, &error)) {
        fprintf(stderr, "fuzz: %s\n", error.message);
        abort();
    }
    return engine;
}

/* Whether a line holds one of `words` (case-insensitive, anywhere). */
static inline bool fuzz_line_has(const char *line, size_t length, const char *const *words)
{
    for (const char *const *word = words; *word; ++word) {
        size_t n = strlen(*word);
        for (size_t i = 0; i + n <= length; ++i)
            if (!strncasecmp(line + i, *word, n))
                return true;
    }
    return false;
}

/* The input without the lines that hold any of `words`, as a memory file for an Input;
 * the descriptor, or -1. */
static inline int fuzz_filtered(const uint8_t *data, size_t size, const char *const *words)
{
    uint8_t *kept = malloc(size + 1);
    if (!kept)
        abort();
    size_t used = 0;
    for (size_t start = 0; start < size;) {
        const uint8_t *newline = memchr(data + start, '\n', size - start);
        size_t end = newline ? (size_t)(newline - data) + 1 : size;
        if (!fuzz_line_has((const char *)data + start, end - start, words)) {
            memcpy(kept + used, data + start, end - start);
            used += end - start;
        }
        start = end;
    }
    char path[64];
    int fd = fuzz_file(kept, used, path, sizeof path);
    free(kept);
    return fd;
}

static inline FILE *fuzz_null_output(void)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    if (!null)
        abort();
    return null;
}

#endif

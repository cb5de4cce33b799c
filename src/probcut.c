/* Probability-cut error model: levels, shallow depths, sigma, and its file. */
#include "probcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "parse.h"

enum { PROBCUT_FILE_LIMIT = 1 << 16 };

static const char PROBCUT_MAGIC[] = "octuple-probcut 1";

double probcut_t(int level)
{
    /* one narrow pass measured best (FForum #45, #49): wider or more passes cost more than
     * the exact search saves from their results */
    static const double widths[PROBCUT_LEVELS] = {1.1};
    return widths[level < 0 ? 0 : level >= PROBCUT_LEVELS ? PROBCUT_LEVELS - 1 : level];
}

double probcut_sigma(const Probcut *probcut, int empties, int depth)
{
    double sigma = probcut->base + probcut->per_empty * empties + probcut->per_depth * depth;
    return sigma < 1.0 ? 1.0 : sigma; /* a model extrapolated too far never cuts on nothing */
}

/* Splits the next line off [*cursor, end): comments and blank lines are skipped. Returns
 * false at the end; `number` counts lines for messages. */
static bool next_line(char **cursor, char *end, char **line, int *number)
{
    while (*cursor < end) {
        char *start = *cursor;
        char *newline = memchr(start, '\n', (size_t)(end - start));
        char *stop = newline ? newline : end;
        *cursor = newline ? newline + 1 : end;
        ++*number;
        *stop = '\0';
        char *hash = strchr(start, '#');
        if (hash)
            *hash = '\0';
        size_t length = strlen(start);
        while (length > 0 && strchr(" \t\r", start[length - 1]))
            start[--length] = '\0';
        while (*start == ' ' || *start == '\t')
            ++start;
        if (*start) {
            *line = start;
            return true;
        }
    }
    return false;
}

bool probcut_load(Probcut *probcut, const char *path, OctError *error)
{
    char *data;
    size_t size;
    if (!file_read_all(path, PROBCUT_FILE_LIMIT, &data, &size, error))
        return false;
    char *cursor = data, *end = data + size, *line;
    int number = 0;
    Probcut loaded = {true, 0, 0, 0};
    bool have_sigma = false, ok = true;
    if (!next_line(&cursor, end, &line, &number))
        ok = error_set(error, "%s: empty, not a probcut file", path);
    else if (strcmp(line, PROBCUT_MAGIC) != 0)
        ok = error_set(error, "%s: line %d: not a probcut file (the first line must be '%s')",
                       path, number, PROBCUT_MAGIC);
    while (ok && next_line(&cursor, end, &line, &number)) {
        char *words[5] = {NULL};
        int count = 0;
        for (char *word = strtok(line, " \t"); word; word = strtok(NULL, " \t"))
            if (count < 5)
                words[count++] = word;
            else
                ++count;
        if (strcmp(words[0], "sigma") == 0) {
            if (count != 4 || !parse_double(words[1], -100, 100, &loaded.base)
                || !parse_double(words[2], -10, 10, &loaded.per_empty)
                || !parse_double(words[3], -10, 10, &loaded.per_depth))
                ok = error_set(error, "%s: line %d: expected 'sigma BASE PER_EMPTY PER_DEPTH' "
                               "with numbers", path, number);
            have_sigma = true;
        } else {
            ok = error_set(error, "%s: line %d: unknown key '%s'", path, number, words[0]);
        }
    }
    if (ok && !have_sigma)
        ok = error_set(error, "%s: no 'sigma' line", path);
    free(data);
    if (ok)
        *probcut = loaded;
    return ok;
}

bool probcut_save(const Probcut *probcut, const char *path, const char *comment,
                  OctError *error)
{
    char text[4096];
    int length = snprintf(text, sizeof text, "%s\n", PROBCUT_MAGIC);
    for (const char *c = comment; c && *c && length < (int)sizeof text - 200;) {
        const char *newline = strchr(c, '\n');
        int n = newline ? (int)(newline - c) : (int)strlen(c);
        if (n > (int)sizeof text - 200 - length)
            n = (int)sizeof text - 200 - length;
        length += snprintf(text + length, sizeof text - (size_t)length, "# %.*s\n", n, c);
        c += n + (newline ? 1 : 0);
    }
    length += snprintf(text + length, sizeof text - (size_t)length, "sigma %.6f %.6f %.6f\n",
                       probcut->base, probcut->per_empty, probcut->per_depth);
    return file_write_atomic(path, text, (size_t)length, error);
}

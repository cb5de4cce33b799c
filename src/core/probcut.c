/* Probability-cut error model: levels, shallow depths, sigma, and its file. */
#include "core/probcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/parse.h"
#include "core/scale.h"

enum {
    PROBCUT_FILE_LIMIT = 1 << 16,
    PROBCUT_COMMENT_LIMIT = 3800 /* bytes of comment lines a saved file keeps at most */
};

static const char PROBCUT_MAGIC[] = "octuple-probcut 1";

double probcut_t(int level)
{
    /* a narrow pass, then (far from the end only: see worker_run) a wider one. Over
     * 22-25 empties one narrow pass measured best (FForum #45, #49; a 2.0 pass after it
     * took `make solvebench` from 1,704.7 M nodes to 1,736.2 M) */
    static const double widths[PROBCUT_LEVELS] = {1.1, 2.0};
    return widths[level < 0 ? 0 : level >= PROBCUT_LEVELS ? PROBCUT_LEVELS - 1 : level];
}

double probcut_sigma(const Probcut *probcut, int empties, int depth)
{
    double sigma = probcut->base + probcut->per_empty * empties + probcut->per_depth * depth;
    return sigma < 1.0 ? 1.0 : sigma; /* a model extrapolated too far never cuts on nothing */
}

int probcut_mid_shallow(int depth)
{
    return 2 * (depth / 4) + (depth & 1);
}

const ProbcutPair *probcut_mid(const Probcut *probcut, int depth, int empties)
{
    if (!probcut->mid_enabled || depth < PROBCUT_MID_MIN_DEPTH || empties < 0
        || empties > PROBCUT_MID_MAX_EMPTIES)
        return NULL;
    int deepest = probcut->mid_deepest[depth & 1];
    if (deepest == 0)
        deepest = probcut->mid_deepest[(depth & 1) ^ 1];
    if (depth > deepest)
        depth = deepest;
    const ProbcutPair *pair = &probcut->mid[depth][empties];
    return pair->sigma > 0 ? pair : NULL;
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
    if (!file_read_text(path, PROBCUT_FILE_LIMIT, &data, error))
        return false;
    char *cursor = data, *end = data + strlen(data), *line;
    int number = 0;
    Probcut *loaded = calloc(1, sizeof *loaded);
    if (!loaded) {
        free(data);
        return error_set(error, "%s: out of memory", path);
    }
    bool have_sigma = false, ok = true;
    /* the line that gave each part (0: none yet): a part given twice is a slip, and which
     * of the two was meant cannot be told */
    int sigma_line = 0;
    int mid_lines[PROBCUT_MID_MAX_DEPTH + 1][PROBCUT_MID_MAX_EMPTIES + 1] = {{0}};
    if (!next_line(&cursor, end, &line, &number))
        ok = error_set(error, "%s: empty, not a probcut file", path);
    else if (strcmp(line, PROBCUT_MAGIC) != 0)
        ok = error_set(error, "%s: line %d: not a probcut file (the first line must be '%s')",
                       path, number, PROBCUT_MAGIC);
    while (ok && next_line(&cursor, end, &line, &number)) {
        char *words[8] = {NULL};
        int count = 0;
        for (char *word = strtok(line, " \t"); word; word = strtok(NULL, " \t"))
            if (count < 8)
                words[count++] = word;
            else
                ++count;
        if (strcmp(words[0], "sigma") == 0) {
            if (sigma_line) {
                ok = error_set(error, "%s: line %d: a second 'sigma' line (the first is line %d)",
                               path, number, sigma_line);
                continue;
            }
            sigma_line = number;
            if (count != 4 || !parse_double(words[1], -100, 100, &loaded->base)
                || !parse_double(words[2], -10, 10, &loaded->per_empty)
                || !parse_double(words[3], -10, 10, &loaded->per_depth))
                ok = error_set(error, "%s: line %d: expected 'sigma BASE PER_EMPTY PER_DEPTH' "
                               "with numbers", path, number);
            have_sigma = true;
        } else if (strcmp(words[0], "mid") == 0) {
            int depth, low, high;
            double a, b, sigma;
            if (count != 7 || !parse_int(words[1], PROBCUT_MID_MIN_DEPTH, PROBCUT_MID_MAX_DEPTH, &depth)
                || !parse_int(words[2], 0, PROBCUT_MID_MAX_EMPTIES, &low)
                || !parse_int(words[3], low, PROBCUT_MID_MAX_EMPTIES, &high)
                || !parse_double(words[4], 0.1, 10, &a) || !parse_double(words[5], -64, 64, &b)
                || !parse_double(words[6], 0.01, 64, &sigma)) {
                ok = error_set(error, "%s: line %d: expected 'mid DEPTH MIN_EMPTIES MAX_EMPTIES "
                               "A B SIGMA' (depth %d..%d, empties 0..%d in order, A 0.1..10, "
                               "B -64..64, SIGMA 0.01..64)", path, number, PROBCUT_MID_MIN_DEPTH,
                               PROBCUT_MID_MAX_DEPTH, PROBCUT_MID_MAX_EMPTIES);
                continue;
            }
            for (int e = low; ok && e <= high; ++e)
                if (mid_lines[depth][e])
                    ok = error_set(error, "%s: line %d: depth %d at %d empties was given at line "
                                   "%d already", path, number, depth, e, mid_lines[depth][e]);
            for (int e = low; ok && e <= high; ++e) {
                loaded->mid[depth][e] = (ProbcutPair){(float)a, (float)(b * EVAL_DISC),
                                                      (float)(sigma * EVAL_DISC)};
                mid_lines[depth][e] = number;
            }
            if (depth > loaded->mid_deepest[depth & 1])
                loaded->mid_deepest[depth & 1] = depth;
            loaded->mid_enabled = true;
        } else {
            ok = error_set(error, "%s: line %d: unknown key '%s'", path, number, words[0]);
        }
    }
    if (ok && !have_sigma && !loaded->mid_enabled)
        ok = error_set(error, "%s: neither a 'sigma' nor a 'mid' line", path);
    loaded->enabled = have_sigma;
    free(data);
    if (ok)
        *probcut = *loaded;
    free(loaded);
    return ok;
}

bool probcut_save(const Probcut *probcut, const char *path, const char *comment,
                  OctError *error)
{
    /* the header, the comment, the sigma line (256 bytes for those beyond the comment's
     * limit), and at most one line of under 80 bytes per midgame cell */
    size_t capacity = PROBCUT_COMMENT_LIMIT + 256
                    + (size_t)(PROBCUT_MID_MAX_DEPTH + 1) * (PROBCUT_MID_MAX_EMPTIES + 1) * 80;
    char *text = malloc(capacity);
    if (!text)
        return error_set(error, "%s: out of memory", path);
    int length = snprintf(text, capacity, "%s\n", PROBCUT_MAGIC);
    for (const char *c = comment; c && *c && length < PROBCUT_COMMENT_LIMIT;) {
        const char *newline = strchr(c, '\n');
        int n = newline ? (int)(newline - c) : (int)strlen(c);
        if (n > PROBCUT_COMMENT_LIMIT - length)
            n = PROBCUT_COMMENT_LIMIT - length;
        length += snprintf(text + length, capacity - (size_t)length, "# %.*s\n", n, c);
        c += n + (newline ? 1 : 0);
    }
    if (probcut->enabled)
        length += snprintf(text + length, capacity - (size_t)length, "sigma %.6f %.6f %.6f\n",
                           probcut->base, probcut->per_empty, probcut->per_depth);
    for (int d = PROBCUT_MID_MIN_DEPTH; probcut->mid_enabled && d <= PROBCUT_MID_MAX_DEPTH; ++d)
        for (int e = 0; e <= PROBCUT_MID_MAX_EMPTIES; ++e) {
            const ProbcutPair *pair = &probcut->mid[d][e];
            if (pair->sigma <= 0)
                continue;
            int high = e; /* a run of equal cells is one line */
            while (high < PROBCUT_MID_MAX_EMPTIES
                   && memcmp(&probcut->mid[d][high + 1], pair, sizeof *pair) == 0)
                ++high;
            length += snprintf(text + length, capacity - (size_t)length,
                               "mid %d %d %d %.4f %.4f %.4f\n", d, e, high, pair->a,
                               pair->b / EVAL_DISC, pair->sigma / EVAL_DISC);
            e = high;
        }
    bool ok = file_write_atomic(path, text, (size_t)length, error);
    free(text);
    return ok;
}

/* Probability-cut error model: levels, shallow depths, sigma, and its file. */
#include "core/probcut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/parse.h"
#include "core/scale.h"

#include <zlib.h>

enum {
    PROBCUT_FILE_LIMIT = 1 << 16,
    PROBCUT_COMMENT_LIMIT = 3800 /* bytes of comment lines a saved file keeps at most */
};

/* The header is the magic and the format's version: version 1 had no end line. */
static const char PROBCUT_MAGIC[] = "octuple-probcut ";
enum { PROBCUT_VERSION = 2 };

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
 * false at the end; `number` counts lines for messages, `offset` is where the line begins
 * in the text. */
static bool next_line(char **cursor, char *text, char *end, char **line, int *number,
                      size_t *offset)
{
    while (*cursor < end) {
        char *start = *cursor;
        char *newline = memchr(start, '\n', (size_t)(end - start));
        char *stop = newline ? newline : end;
        *cursor = newline ? newline + 1 : end;
        ++*number;
        *offset = (size_t)(start - text);
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

/* The checksum of the end line: CRC-32 (zlib's) of every byte before that line. */
static unsigned long probcut_checksum(const char *text, size_t length)
{
    return crc32(0L, (const Bytef *)text, (uInt)length);
}

/* Version 2's integrity, checked before anything is parsed: the last line that is not blank
 * or a comment must be the end line, and its checksum that of every byte before it. Sets
 * where the end line begins and the count of parameter lines it declares. */
static bool probcut_check_end(const char *raw, size_t size, const char *path,
                              size_t *end_offset, int *declared, OctError *error)
{
    char *data = malloc(size + 1);
    if (!data)
        return error_set(error, "%s: out of memory", path);
    memcpy(data, raw, size + 1);
    char *cursor = data, *line, *last = NULL;
    int number = 0, last_number = 0;
    size_t offset = 0;
    while (next_line(&cursor, data, data + size, &line, &number, &offset)) {
        last = line;
        last_number = number;
        *end_offset = offset;
    }
    char *words[4] = {NULL};
    int count = 0;
    for (char *word = last ? strtok(last, " \t") : NULL; word; word = strtok(NULL, " \t"))
        if (count < 4)
            words[count++] = word;
        else
            ++count;
    bool ok = true;
    unsigned long stored = 0;
    char *stop = NULL;
    if (count == 3 && strlen(words[2]) == 8)
        stored = strtoul(words[2], &stop, 16);
    if (!last || strcmp(words[0], "end") != 0) {
        /* a file cut short anywhere loses its end line */
        ok = error_set(error, "%s: line %d: the file ends without its end line "
                       "('end LINES CHECKSUM'): it is cut short or damaged", path, last_number);
    } else if (count != 3 || !parse_int(words[1], 0, 1 << 20, declared) || !stop || *stop) {
        ok = error_set(error, "%s: line %d: expected 'end LINES CHECKSUM' (the count of "
                       "parameter lines, 8 hex digits): the file is damaged", path, last_number);
    } else if (stored != probcut_checksum(raw, *end_offset)) {
        ok = error_set(error, "%s: line %d: the checksum of the lines before the end line is "
                       "%08lx, the end line says %s: the file is damaged", path, last_number,
                       probcut_checksum(raw, *end_offset), words[2]);
    }
    free(data);
    return ok;
}

/* What a parse found beside the model: the format's version, where its header line is, how
 * many parameter lines there were. */
typedef struct ProbcutText {
    int version;
    size_t header_offset, header_length;
    int parameter_lines;
} ProbcutText;

/* Parses the `size` bytes at `raw` (NUL after them). Version 1 (no end line) is read only
 * when `old_ok` is set, for probcut_upgrade. */
static bool probcut_parse(const char *raw, size_t size, const char *path, bool old_ok,
                          Probcut *loaded, ProbcutText *found, OctError *error)
{
    char *data = malloc(size + 1);
    if (!data)
        return error_set(error, "%s: out of memory", path);
    memcpy(data, raw, size + 1);
    char *cursor = data, *end = data + size, *line;
    int number = 0;
    size_t offset = 0;
    bool have_sigma = false, ok = true, ended = false;
    /* the line that gave each part (0: none yet): a part given twice is a slip, and which
     * of the two was meant cannot be told */
    int sigma_line = 0;
    int mid_lines[PROBCUT_MID_MAX_DEPTH + 1][PROBCUT_MID_MAX_EMPTIES + 1] = {{0}};
    *found = (ProbcutText){0};
    if (!next_line(&cursor, data, end, &line, &number, &offset)) {
        ok = error_set(error, "%s: empty, not a probcut file", path);
    } else if (strncmp(line, PROBCUT_MAGIC, strlen(PROBCUT_MAGIC)) != 0
               || !parse_int(line + strlen(PROBCUT_MAGIC), 1, 1000, &found->version)) {
        ok = error_set(error, "%s: line %d: not a probcut file (the first line must be '%s%d')",
                       path, number, PROBCUT_MAGIC, PROBCUT_VERSION);
    } else if (found->version == 1 && !old_ok) {
        ok = error_set(error, "%s: line %d: version 1 of the probcut format, which has no end "
                       "line and checksum, is no longer read; convert it with "
                       "'octuple-train mpc-upgrade %s --out NEW.mpc'", path, number, path);
    } else if (found->version != 1 && found->version != PROBCUT_VERSION) {
        ok = error_set(error, "%s: line %d: version %d of the probcut format (this program "
                       "reads version %d)", path, number, found->version, PROBCUT_VERSION);
    }
    size_t end_offset = 0;
    int declared = 0;
    if (ok && found->version >= 2
        && !probcut_check_end(raw, size, path, &end_offset, &declared, error))
        ok = false;
    if (ok) {
        found->header_offset = offset;
        const char *newline = memchr(raw + offset, '\n', size - offset);
        found->header_length = (newline ? (size_t)(newline - raw) : size) - offset;
    }
    while (ok && next_line(&cursor, data, end, &line, &number, &offset)) {
        char *words[8] = {NULL};
        int count = 0;
        for (char *word = strtok(line, " \t"); word; word = strtok(NULL, " \t"))
            if (count < 8)
                words[count++] = word;
            else
                ++count;
        if (ended) { /* only comments follow the end line (probcut_check_end) */
            ok = error_set(error, "%s: line %d: text after the end line", path, number);
        } else if (strcmp(words[0], "end") == 0 && found->version >= 2) {
            if (offset != end_offset)
                ok = error_set(error, "%s: line %d: an end line before the last line", path,
                               number);
            else if (declared != found->parameter_lines)
                ok = error_set(error, "%s: line %d: the end line counts %d parameter lines, "
                               "the file has %d: the file is damaged", path, number, declared,
                               found->parameter_lines);
            ended = true;
        } else if (strcmp(words[0], "sigma") == 0) {
            ++found->parameter_lines;
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
            ++found->parameter_lines;
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
    return ok;
}

bool probcut_load(Probcut *probcut, const char *path, OctError *error)
{
    char *data;
    if (!file_read_text(path, PROBCUT_FILE_LIMIT, &data, error))
        return false;
    Probcut *loaded = calloc(1, sizeof *loaded);
    ProbcutText found;
    bool ok = loaded ? probcut_parse(data, strlen(data), path, false, loaded, &found, error)
                     : error_set(error, "%s: out of memory", path);
    free(data);
    if (ok)
        *probcut = *loaded;
    free(loaded);
    return ok;
}

/* Appends the end line to the `length` bytes of `text` (room for it must be there). */
static int probcut_seal(char *text, int length, size_t capacity, int parameter_lines)
{
    unsigned long checksum = probcut_checksum(text, (size_t)length);
    return length + snprintf(text + length, capacity - (size_t)length, "end %d %08lx\n",
                             parameter_lines, checksum);
}

bool probcut_upgrade(const char *path, const char *out, OctError *error)
{
    char *data;
    if (!file_read_text(path, PROBCUT_FILE_LIMIT, &data, error))
        return false;
    size_t size = strlen(data);
    Probcut *loaded = calloc(1, sizeof *loaded);
    ProbcutText found;
    bool ok = loaded ? probcut_parse(data, size, path, true, loaded, &found, error)
                     : error_set(error, "%s: out of memory", path);
    free(loaded);
    if (ok && found.version != 1)
        ok = error_set(error, "%s: version %d already, nothing to upgrade", path, found.version);
    /* the same bytes, the header's version changed and the end line added: every number
     * stays as it was written */
    size_t capacity = size + 128;
    char *text = ok ? malloc(capacity) : NULL;
    if (ok && !text)
        ok = error_set(error, "%s: out of memory", path);
    if (ok) {
        const char *rest = data + found.header_offset + found.header_length;
        int length = snprintf(text, capacity, "%.*s%s%d%s%s", (int)found.header_offset, data,
                              PROBCUT_MAGIC, PROBCUT_VERSION, rest,
                              size && data[size - 1] != '\n' ? "\n" : "");
        length = probcut_seal(text, length, capacity, found.parameter_lines);
        ok = file_write_atomic(out, text, (size_t)length, error);
    }
    free(text);
    free(data);
    return ok;
}

bool probcut_save(const Probcut *probcut, const char *path, const char *comment,
                  OctError *error)
{
    /* the header, the comment, the sigma line (256 bytes for those beyond the comment's
     * limit), and at most one line of under 80 bytes per midgame cell */
    size_t capacity = PROBCUT_COMMENT_LIMIT + 256 + 64
                    + (size_t)(PROBCUT_MID_MAX_DEPTH + 1) * (PROBCUT_MID_MAX_EMPTIES + 1) * 80;
    char *text = malloc(capacity);
    if (!text)
        return error_set(error, "%s: out of memory", path);
    int length = snprintf(text, capacity, "%s%d\n", PROBCUT_MAGIC, PROBCUT_VERSION);
    int parameter_lines = 0;
    for (const char *c = comment; c && *c && length < PROBCUT_COMMENT_LIMIT;) {
        const char *newline = strchr(c, '\n');
        int n = newline ? (int)(newline - c) : (int)strlen(c);
        if (n > PROBCUT_COMMENT_LIMIT - length)
            n = PROBCUT_COMMENT_LIMIT - length;
        length += snprintf(text + length, capacity - (size_t)length, "# %.*s\n", n, c);
        c += n + (newline ? 1 : 0);
    }
    if (probcut->enabled && ++parameter_lines)
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
            ++parameter_lines;
            e = high;
        }
    length = probcut_seal(text, length, capacity, parameter_lines);
    bool ok = file_write_atomic(path, text, (size_t)length, error);
    free(text);
    return ok;
}

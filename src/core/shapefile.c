/* Shape files: parse, read and write. */
#include "core/shapefile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"

enum { SHAPE_FILE_LIMIT = 1 << 20 };

/* One square token: "a1".."h8" (any case) or a number 0..63; -1 otherwise. */
static int square_parse(const char *token, size_t length)
{
    if (length == 2 && isalpha((unsigned char)token[0])) {
        int col = tolower((unsigned char)token[0]) - 'a';
        int row = token[1] - '1';
        return col >= 0 && col < 8 && row >= 0 && row < 8 ? row * 8 + col : -1;
    }
    if (length < 1 || length > 2)
        return -1;
    int value = 0;
    for (size_t i = 0; i < length; ++i) {
        if (!isdigit((unsigned char)token[i]))
            return -1;
        value = value * 10 + token[i] - '0';
    }
    return value < SQUARE_COUNT ? value : -1;
}

static bool is_separator(char c)
{
    return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

/* Parses one tuple line [line, end): squares, with '|' closing an explicit instance. */
static bool tuple_line_parse(const char *line, const char *end, Tuple *out, OctError *error)
{
    uint8_t squares[TUPLE_MAX_INSTANCES * TUPLE_MAX_SIZE];
    int group_sizes[TUPLE_MAX_INSTANCES];
    int groups = 0, size = 0, total = 0;
    bool explicit = false;
    for (const char *p = line; p < end;) {
        if (is_separator(*p)) {
            ++p;
        } else if (*p == '|') {
            if (size == 0)
                return error_set(error, "an instance without squares before '|'");
            group_sizes[groups++] = size;
            size = 0;
            explicit = true;
            ++p;
        } else {
            const char *token = p;
            while (p < end && !is_separator(*p) && *p != '|')
                ++p;
            int square = square_parse(token, (size_t)(p - token));
            if (square < 0)
                return error_set(error, "'%.*s' is not a square (a1..h8 or 0..63)",
                                 (int)(p - token), token);
            if (groups == TUPLE_MAX_INSTANCES)
                return error_set(error, "more than %d instances", TUPLE_MAX_INSTANCES);
            if (size == TUPLE_MAX_SIZE)
                return error_set(error, "a tuple has more than %d squares", TUPLE_MAX_SIZE);
            squares[total++] = (uint8_t)square;
            ++size;
        }
    }
    if (size > 0)
        group_sizes[groups++] = size;
    if (groups == 0)
        return error_set(error, "a tuple without squares");
    for (int g = 1; g < groups; ++g)
        if (group_sizes[g] != group_sizes[0])
            return error_set(error, "instance %d has %d squares, the first has %d", g + 1,
                             group_sizes[g], group_sizes[0]);
    if (!explicit)
        return tuple_expand(squares, group_sizes[0], out, error);
    return tuple_explicit(squares, group_sizes[0], groups, out, error);
}

bool shape_parse(const char *text, const char *source, Shape *out, OctError *error)
{
    Tuple *tuples = malloc(sizeof *tuples * SHAPE_MAX_INSTANCES);
    if (!tuples)
        return error_set(error, "%s: out of memory", source);
    char name[SHAPE_NAME_SIZE] = "";
    int count = 0, line_number = 0;
    bool ok = true;
    for (const char *line = text; ok && *line;) {
        const char *next = strchr(line, '\n');
        const char *end = next ? next : line + strlen(line);
        ++line_number;
        const char *comment = memchr(line, '#', (size_t)(end - line));
        const char *stop = comment ? comment : end;
        const char *p = line;
        while (p < stop && is_separator(*p))
            ++p;
        if (p == stop) {
            /* blank or comment only */
        } else if ((size_t)(stop - p) > 4 && strncmp(p, "name", 4) == 0 && is_separator(p[4])) {
            if (count > 0)
                ok = error_set(error, "%s:%d: 'name' must come before the first tuple", source,
                               line_number);
            p += 5;
            while (p < stop && is_separator(*p))
                ++p;
            const char *q = stop;
            while (q > p && is_separator(q[-1]))
                --q;
            snprintf(name, sizeof name, "%.*s", (int)(q - p), p);
        } else if (count == SHAPE_MAX_INSTANCES) {
            ok = error_set(error, "%s:%d: more than %d tuples", source, line_number,
                           SHAPE_MAX_INSTANCES);
        } else if (!tuple_line_parse(p, stop, &tuples[count++], error)) {
            ok = error_prefix(error, "%s:%d: ", source, line_number);
        }
        line = next ? next + 1 : end;
    }
    if (ok && count == 0)
        ok = error_set(error, "%s: no tuples", source);
    if (ok && !shape_build(out, name, tuples, count, error))
        ok = error_prefix(error, "%s: ", source);
    free(tuples);
    return ok;
}

bool shape_read(const char *path, Shape *out, OctError *error)
{
    char *text;
    if (!file_read_text(path, SHAPE_FILE_LIMIT, &text, error))
        return false;
    bool ok = shape_parse(text, path, out, error);
    free(text);
    return ok;
}

static bool tuple_is_expansion(const Tuple *tuple)
{
    Tuple expanded;
    if (!tuple_expand(tuple->squares[0], tuple->size, &expanded, NULL)
        || expanded.instance_count != tuple->instance_count)
        return false;
    for (int i = 0; i < tuple->instance_count; ++i)
        if (memcmp(expanded.squares[i], tuple->squares[i], tuple->size) != 0)
            return false;
    return true;
}

static void squares_write(FILE *file, const uint8_t *squares, int size)
{
    for (int j = 0; j < size; ++j)
        fprintf(file, "%s%c%d", j ? " " : "", 'a' + squares[j] % 8, 1 + squares[j] / 8);
}

bool shape_write(FILE *file, const Shape *shape)
{
    fprintf(file, "# Octuple shape: %d tuples, %d instances\n", shape->tuple_count,
            shape->instance_count);
    if (shape->name[0])
        fprintf(file, "name %s\n", shape->name);
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        bool expansion = tuple_is_expansion(tuple);
        int written = expansion ? 1 : tuple->instance_count;
        for (int i = 0; i < written; ++i) {
            fputs(i ? " | " : "", file);
            squares_write(file, tuple->squares[i], tuple->size);
        }
        /* a lone explicit instance needs the bar that says "do not expand" */
        fputs(!expansion && written == 1 ? " |\n" : "\n", file);
    }
    return !ferror(file);
}

/* Othello League text import: tokenizer, parser, conversion to a side-to-move model. */
#include "core/league.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"

enum { LEAGUE_FILE_LIMIT = 64 << 20, LEAGUE_SCALE = 100 };

typedef struct Lexer {
    const char *p;
    int line; /* for messages */
} Lexer;

typedef struct LeagueTuple {
    Tuple tuple;
    double *values; /* 3^n, as written */
} LeagueTuple;

static long round_half_away(double x)
{
    return x >= 0 ? (long)(x + 0.5) : -(long)(0.5 - x);
}

static void lexer_skip(Lexer *lexer)
{
    while (isspace((unsigned char)*lexer->p)) {
        lexer->line += *lexer->p == '\n';
        ++lexer->p;
    }
}

static bool expect(Lexer *lexer, char c, const char *what, OctError *error)
{
    lexer_skip(lexer);
    if (*lexer->p != c) {
        return error_set(error, "expected '%c' %s, found %s", c, what,
                         *lexer->p ? "something else" : "the end of the text");
    }
    ++lexer->p;
    return true;
}

static bool at(Lexer *lexer, char c)
{
    lexer_skip(lexer);
    return *lexer->p == c;
}

static bool number_read(Lexer *lexer, double *value, const char *what, OctError *error)
{
    lexer_skip(lexer);
    char *end;
    *value = strtod(lexer->p, &end);
    if (end == lexer->p || !isfinite(*value)
        || (*end && !isspace((unsigned char)*end) && *end != '{' && *end != '}')) {
        return error_set(error, "expected %s, found '%.12s'", what, lexer->p);
    }
    lexer->p = end;
    return true;
}

static bool integer_read(Lexer *lexer, int low, int high, int *value, const char *what,
                         OctError *error)
{
    double number;
    if (!number_read(lexer, &number, what, error))
        return false;
    if (number < low || number > high || number != (double)(long)number) {
        return error_set(error, "%s is %g (an integer from %d to %d expected)", what, number,
                         low, high);
    }
    *value = (int)number;
    return true;
}

static bool tuple_read(Lexer *lexer, LeagueTuple *out, OctError *error)
{
    int size, instances;
    if (!expect(lexer, '{', "to open a tuple", error)
        || !integer_read(lexer, 1, TUPLE_MAX_SIZE, &size, "the tuple size", error)
        || !integer_read(lexer, 1, TUPLE_MAX_INSTANCES, &instances, "the instance count", error))
        return false;
    uint8_t squares[TUPLE_MAX_INSTANCES * TUPLE_MAX_SIZE];
    for (int i = 0; i < instances; ++i) {
        if (!expect(lexer, '{', "to open an instance", error))
            return false;
        for (int j = 0; j < size; ++j) {
            int square;
            if (!integer_read(lexer, 0, SQUARE_COUNT - 1, &square, "a square", error))
                return false;
            squares[i * size + j] = (uint8_t)square;
        }
        if (!expect(lexer, '}', "after the instance's squares", error))
            return false;
    }
    if (!tuple_explicit(squares, size, instances, &out->tuple, error))
        return false;
    uint32_t entries = tuple_table_size(size);
    out->values = malloc(sizeof *out->values * entries);
    if (!out->values)
        return error_set(error, "out of memory");
    if (!expect(lexer, '{', "to open the table values", error))
        return false;
    for (uint32_t i = 0; i < entries; ++i) {
        if (at(lexer, '}'))
            return error_set(error, "the table has %u values, a %d-tuple needs %u", i, size,
                             entries);
        if (!number_read(lexer, &out->values[i], "a table value", error))
            return false;
    }
    if (!at(lexer, '}'))
        return error_set(error, "the table has more than the %u values a %d-tuple needs",
                         entries, size);
    return expect(lexer, '}', "", error) && expect(lexer, '}', "to close the tuple", error);
}

/* The power of two 2^j (j from -LEAGUE_SHIFT up to MODEL_MAX_SHIFT - LEAGUE_SHIFT) by
 * which the scale grows as far as every value still fits int16: c = 100 * 2^j, so that
 * small values (a TD-trained network's are around 0.001) keep their precision and large
 * ones (Figure 7's reach 284.39: j = 0) fit. One more than the largest j when nothing
 * fits; `where` then holds the tuple (0-based) and entry of the largest value. */
static int scale_power(const LeagueTuple *tuples, int count, int where[2])
{
    double largest = 0;
    where[0] = where[1] = 0;
    for (int t = 0; t < count; ++t)
        for (uint32_t i = 0; i < tuple_table_size(tuples[t].tuple.size); ++i)
            if (tuples[t].values[i] > largest || -tuples[t].values[i] > largest) {
                largest = tuples[t].values[i] > 0 ? tuples[t].values[i] : -tuples[t].values[i];
                where[0] = t;
                where[1] = (int)i;
            }
    /* compared as doubles: a huge value converted to long first would be undefined (and
     * on x86 LONG_MIN, which "fits") */
    for (int j = MODEL_MAX_SHIFT - LEAGUE_SHIFT; j >= -LEAGUE_SHIFT; --j)
        if (largest * LEAGUE_SCALE * ldexp(1.0, j) < 32767.5)
            return j;
    return MODEL_MAX_SHIFT - LEAGUE_SHIFT + 1;
}

static bool model_from_league(const LeagueTuple *tuples, int count, const char *name,
                              ModelPerspective perspective, Model **out, OctError *error)
{
    int where[2];
    int power = scale_power(tuples, count, where);
    if (power > MODEL_MAX_SHIFT - LEAGUE_SHIFT)
        return error_set(error, "tuple %d: value %d (%g) is too large for the int16 encoding "
                         "(it takes values below %g)", where[0] + 1, where[1] + 1,
                         tuples[where[0]].values[where[1]],
                         32767.5 / (LEAGUE_SCALE * ldexp(1.0, -LEAGUE_SHIFT)));
    Tuple *list = malloc(sizeof *list * (size_t)count);
    if (!list)
        return error_set(error, "out of memory");
    for (int t = 0; t < count; ++t)
        list[t] = tuples[t].tuple;
    Shape shape;
    bool ok = shape_build(&shape, "league", list, count, error);
    free(list);
    if (!ok)
        return false;
    PhaseTable phase;
    phase_single(&phase);
    Model *model;
    ok = model_create(&shape, 1, &phase, &model, error);
    shape_free(&shape);
    if (!ok)
        return false;
    double scale = LEAGUE_SCALE * ldexp(1.0, power);
    int16_t *values = model->sets[0].values;
    for (int t = 0; t < count; ++t) {
        uint32_t entries = tuple_table_size(tuples[t].tuple.size);
        int16_t *table = values + model->shapes[0].tuple_offsets[t];
        for (uint32_t i = 0; i < entries; ++i) {
            /* inversion: the side to move's value is minus the mover's, read with the
             * players' digits swapped (index reversed) */
            if (perspective == PERSPECTIVE_INVERSION)
                table[i] = (int16_t)-round_half_away(scale * tuples[t].values[entries - 1 - i]);
            else
                table[i] = (int16_t)round_half_away(scale * tuples[t].values[i]);
        }
    }
    snprintf(model->name, sizeof model->name, "%s", name);
    model->shift = LEAGUE_SHIFT + power;
    model->perspective = perspective;
    model->origin = ORIGIN_LEAGUE;
    *out = model;
    return true;
}

bool league_parse(const char *text, const char *source, ModelPerspective perspective,
                  Model **out, OctError *error)
{
    Lexer lexer = {text, 1};
    int count;
    if (!expect(&lexer, '{', "at the start of the network", error)
        || !integer_read(&lexer, 1, SHAPE_MAX_INSTANCES, &count, "the tuple count", error))
        return error_prefix(error, "%s:%d: ", source, lexer.line);
    LeagueTuple *tuples = calloc((size_t)count, sizeof *tuples);
    if (!tuples)
        return error_set(error, "%s: out of memory", source);
    bool ok = true;
    for (int t = 0; ok && t < count; ++t) {
        if (at(&lexer, '}')) {
            error_set(error, "the network ends after %d of its %d tuples", t, count);
            ok = error_prefix(error, "%s:%d: ", source, lexer.line);
        } else if (!tuple_read(&lexer, &tuples[t], error)) {
            ok = error_prefix(error, "%s:%d: tuple %d: ", source, lexer.line, t + 1);
        }
    }
    if (ok && !expect(&lexer, '}', "after the last tuple", error))
        ok = error_prefix(error, "%s:%d: ", source, lexer.line);
    if (ok) {
        lexer_skip(&lexer);
        if (*lexer.p) {
            error_set(error, "unexpected text after the network");
            ok = error_prefix(error, "%s:%d: ", source, lexer.line);
        }
    }
    if (ok)
        ok = model_from_league(tuples, count, source, perspective, out, error)
          || error_prefix(error, "%s: ", source);
    for (int t = 0; t < count; ++t)
        free(tuples[t].values);
    free(tuples);
    return ok;
}

bool league_import(const char *path, ModelPerspective perspective, Model **out,
                   OctError *error)
{
    char *text;
    if (!file_read_text(path, LEAGUE_FILE_LIMIT, &text, error))
        return false;
    bool ok = league_parse(text, path, perspective, out, error);
    free(text);
    if (ok) {
        /* the model is named after the file, without its directory */
        const char *base = strrchr(path, '/');
        snprintf((*out)->name, sizeof (*out)->name, "%s", base ? base + 1 : path);
    }
    return ok;
}

bool model_import_league(const char *path, Model **out, OctError *error)
{
    return league_import(path, PERSPECTIVE_INVERSION, out, error);
}

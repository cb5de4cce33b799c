/* Float n-tuple networks: values, updates, conversion to the engine's model and to the
 * Othello League text format. */
#include "train/fnet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"

bool fnet_create(FloatNet *net, const Shape *shape, ModelPerspective perspective,
                 OctError *error)
{
    if (!shape_copy(&net->shape, shape, error))
        return false;
    net->values = calloc(net->shape.table_size, sizeof *net->values);
    if (!net->values) {
        shape_free(&net->shape);
        return error_set(error, "out of memory for %u network entries", shape->table_size);
    }
    net->perspective = perspective;
    net->linear = false;
    return true;
}

void fnet_free(FloatNet *net)
{
    if (!net->values)
        return;
    free(net->values);
    net->values = NULL;
    shape_free(&net->shape);
}

int fnet_entries(const FloatNet *net, uint64_t black, uint64_t white, Color color,
                 uint32_t *entries)
{
    bool as_white = net->perspective == PERSPECTIVE_INVERSION && color == COLOR_WHITE;
    uint64_t own = as_white ? white : black, other = as_white ? black : white;
    const Shape *shape = &net->shape;
    int k = 0;
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        for (int i = 0; i < tuple->instance_count; ++i)
            entries[k++] = shape->tuple_offsets[t]
                         + tuple_index(tuple->squares[i], tuple->size, own, other);
    }
    return k;
}

double fnet_sum(const FloatNet *net, const uint32_t *entries, int count)
{
    double sum = 0;
    for (int k = 0; k < count; ++k)
        sum += net->values[entries[k]];
    return sum;
}

double fnet_value(const FloatNet *net, uint64_t black, uint64_t white, Color color)
{
    uint32_t entries[SHAPE_MAX_INSTANCES];
    int count = fnet_entries(net, black, white, color, entries);
    double sum = fnet_sum(net, entries, count);
    return net->perspective == PERSPECTIVE_NEGATION && color == COLOR_WHITE ? -sum : sum;
}

void fnet_add(FloatNet *net, const uint32_t *entries, int count, float delta)
{
    if (!net->linear) {
        for (int k = 0; k < count; ++k)
            net->values[entries[k]] += delta;
        return;
    }
    /* single-square tables of three entries each: the digit is the entry's place in it */
    for (int k = 0; k < count; ++k) {
        uint32_t base = entries[k] - entries[k] % 3;
        int digit = (int)(entries[k] % 3);
        float step = digit == 2 ? delta : digit == 0 ? -delta : 0.0f;
        net->values[base + 2] += step;
        net->values[base] -= step;
    }
}

void fnet_tie(const FloatNet *net, float *values)
{
    if (!net->linear)
        return;
    for (uint32_t base = 0; base + 2 < net->shape.table_size; base += 3) {
        values[base] = -values[base + 2];
        values[base + 1] = 0;
    }
}

bool fnet_can_be_linear(const Shape *shape)
{
    for (int t = 0; t < shape->tuple_count; ++t)
        if (shape->tuples[t].size != 1)
            return false;
    return shape->tuple_count > 0;
}

bool fnet_to_model(const FloatNet *net, const char *name, double discs_per_unit, Model **out,
                   OctError *error)
{
    if (!(discs_per_unit > 0))
        return error_set(error, "the disc scale must be positive");
    double largest = 0;
    for (uint32_t i = 0; i < net->shape.table_size; ++i) {
        double v = fabs(net->values[i]);
        if (!isfinite(v))
            return error_set(error, "network entry %u is not a finite number", i);
        if (v > largest)
            largest = v;
    }
    /* weight units per unit of f: discs_per_unit discs of 128 engine units, times 2^shift */
    double base = discs_per_unit * 128.0;
    /* an entry fits when it rounds to at most 32767, i.e. lies below 32767.5 */
    int shift = MODEL_MAX_SHIFT;
    while (shift > 0 && largest * base * (double)(1 << shift) >= 32767.5)
        --shift;
    if (largest * base * (double)(1 << shift) >= 32767.5)
        return error_set(error, "network entries up to %g do not fit int16 at %g discs a unit",
                         largest, discs_per_unit);
    PhaseTable phase;
    phase_single(&phase);
    Model *model;
    if (!model_create(&net->shape, 1, &phase, &model, error))
        return false;
    double scale = base * (double)(1 << shift);
    int16_t *values = model->sets[0].values;
    for (int t = 0; t < net->shape.tuple_count; ++t) {
        uint32_t entries = tuple_table_size(net->shape.tuples[t].size);
        const float *from = net->values + net->shape.tuple_offsets[t];
        int16_t *table = values + model->shapes[0].tuple_offsets[t];
        for (uint32_t i = 0; i < entries; ++i) {
            /* inversion: the side to move reads the mover's digits swapped (index reversed)
             * and takes minus the mover's value; negation keeps black's value as it is */
            if (net->perspective == PERSPECTIVE_INVERSION)
                table[i] = (int16_t)-lround(scale * from[entries - 1 - i]);
            else
                table[i] = (int16_t)lround(scale * from[i]);
        }
    }
    snprintf(model->name, sizeof model->name, "%s", name);
    model->shift = shift;
    model->perspective = net->perspective;
    model->origin = ORIGIN_NATIVE;
    *out = model;
    return true;
}

bool fnet_save_league(const FloatNet *net, const char *path, OctError *error)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return error_set(error, "%s: out of memory", path);
    fprintf(out, "{ %d\n", net->shape.tuple_count);
    for (int t = 0; t < net->shape.tuple_count; ++t) {
        const Tuple *tuple = &net->shape.tuples[t];
        fprintf(out, "  { %d %d", tuple->size, tuple->instance_count);
        for (int i = 0; i < tuple->instance_count; ++i) {
            fputs(" {", out);
            for (int j = 0; j < tuple->size; ++j)
                fprintf(out, " %d", tuple->squares[i][j]);
            fputs(" }", out);
        }
        fputs("\n    {", out);
        const float *values = net->values + net->shape.tuple_offsets[t];
        for (uint32_t i = 0; i < tuple_table_size(tuple->size); ++i)
            fprintf(out, " %.9g", (double)values[i]); /* 9 digits bring a float back exactly */
        fputs(" } }\n", out);
    }
    fputs("}\n", out);
    bool ok = !ferror(out);
    ok = fclose(out) == 0 && ok;
    ok = ok ? file_write_atomic(path, text, size, error)
            : error_set(error, "%s: out of memory", path);
    free(text);
    return ok;
}

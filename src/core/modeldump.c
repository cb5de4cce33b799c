#include "core/modeldump.h"

#include <stdlib.h>

static const char *origin_name(ModelOrigin origin)
{
    switch (origin) {
    case ORIGIN_NATIVE: return "native (trained by octuple-train: regress, td, evolve or coevolve)";
    case ORIGIN_LEAGUE: return "Othello League import (1-ply network, converted to side to move)";
    case ORIGIN_WPC: return "weighted piece counter";
    }
    return "unknown";
}

static void squares_print(FILE *file, const uint8_t *squares, int size)
{
    for (int j = 0; j < size; ++j)
        fprintf(file, "%s%c%d", j ? " " : "", 'a' + squares[j] % 8, 1 + squares[j] / 8);
}

static void shape_print(FILE *file, int number, const Shape *shape)
{
    fprintf(file, "shape %d \"%s\": %d tuples, %d instances, %u entries per weight set\n",
            number, shape->name, shape->tuple_count, shape->instance_count, shape->table_size);
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        fprintf(file, "  tuple %d: %d squares, %d instances%s:", t + 1, tuple->size,
                tuple->instance_count, tuple_is_symmetric(tuple) ? "" : " (not a symmetric expansion)");
        for (int i = 0; i < tuple->instance_count; ++i) {
            fputs(i ? " | " : " ", file);
            squares_print(file, tuple->squares[i], tuple->size);
        }
        fputc('\n', file);
    }
}

/* Runs of moves with one shape and either one weight set or one set per move. */
static void phase_print(FILE *file, const PhaseTable *phase)
{
    fputs("phase table (move number = discs - 4):\n", file);
    int move = 0;
    while (move < MODEL_MOVES) {
        int end = move + 1;
        bool stepping = end < MODEL_MOVES && phase->set[end] == phase->set[move] + 1;
        while (end < MODEL_MOVES && phase->shape[end] == phase->shape[move]
               && phase->set[end] == phase->set[end - 1] + (stepping ? 1 : 0))
            ++end;
        if (stepping)
            fprintf(file, "  moves %d-%d: shape %d, weight sets %d-%d (one per move)\n", move,
                    end - 1, phase->shape[move], phase->set[move], phase->set[end - 1]);
        else
            fprintf(file, "  moves %d-%d: shape %d, weight set %d\n", move, end - 1,
                    phase->shape[move], phase->set[move]);
        move = end;
    }
}

static void set_print(FILE *file, int number, const WeightSet *set, const Shape *shape)
{
    int low = 0, high = 0;
    long long total = 0, magnitude = 0;
    size_t nonzero = 0;
    for (uint32_t i = 0; i < shape->table_size; ++i) {
        int value = set->values[i];
        low = i == 0 || value < low ? value : low;
        high = i == 0 || value > high ? value : high;
        total += value;
        magnitude += abs(value);
        nonzero += value != 0;
    }
    double count = shape->table_size;
    fprintf(file, "  set %d (shape %d): bias %ld, min %d, max %d, mean %.2f, mean |w| %.2f, "
            "nonzero %zu of %u\n", number, set->shape, (long)set->bias, low, high,
            (double)total / count, (double)magnitude / count, nonzero, shape->table_size);
}

void model_dump(FILE *file, const Model *model)
{
    fprintf(file, "model \"%s\"\n", model->name);
    fprintf(file, "  origin: %s\n", origin_name(model->origin));
    fprintf(file, "  perspective: %s\n", model->perspective == PERSPECTIVE_INVERSION
            ? "board inversion (tables read from the side to move)"
            : "output negation (tables read from black, negated for white to move)");
    fprintf(file, "  score: eval_sum / 2^%d engine units, 1 disc = 128 engine units = %ld "
            "weight units\n", model->shift, 128L << model->shift);
    fprintf(file, "  symmetric: %s\n", model_is_symmetric(model) ? "yes" : "no");
    fprintf(file, "  %d shapes, %d weight sets, %zu weights\n", model->shape_count,
            model->set_count, model_weight_count(model));
    for (int s = 0; s < model->shape_count; ++s)
        shape_print(file, s, &model->shapes[s]);
    phase_print(file, &model->phase);
    fputs("weight sets (weight units):\n", file);
    for (int s = 0; s < model->set_count; ++s)
        set_print(file, s, &model->sets[s], &model->shapes[model->sets[s].shape]);
}

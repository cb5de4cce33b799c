/* Models: phase tables, construction, symmetry of the weight tables. */
#include "core/model.h"
#include "core/rng.h"

#include <stdlib.h>
#include <string.h>

void phase_single(PhaseTable *phase)
{
    memset(phase, 0, sizeof *phase);
}

void phase_buckets(PhaseTable *phase, int width)
{
    if (width < 1)
        width = 1;
    for (int move = 0; move < MODEL_MOVES; ++move) {
        phase->shape[move] = 0;
        phase->set[move] = (uint8_t)(move / width);
    }
}

void phase_stages(PhaseTable *phase, const int *first_moves, int stage_count)
{
    int stage = 0;
    for (int move = 0; move < MODEL_MOVES; ++move) {
        while (stage + 1 < stage_count && move >= first_moves[stage + 1])
            ++stage;
        phase->shape[move] = (uint8_t)stage;
        phase->set[move] = (uint8_t)move;
    }
}

bool phase_check(const PhaseTable *phase, int shape_count, int *set_count, OctError *error)
{
    int set_shape[MODEL_MAX_SETS];
    int sets = 0;
    for (int i = 0; i < MODEL_MAX_SETS; ++i)
        set_shape[i] = -1;
    bool shape_used[MODEL_MAX_SHAPES] = {false};
    for (int move = 0; move < MODEL_MOVES; ++move) {
        int shape = phase->shape[move], set = phase->set[move];
        if (shape >= shape_count)
            return error_set(error, "move %d uses shape %d but there are %d shapes", move,
                             shape, shape_count);
        if (set >= MODEL_MAX_SETS)
            return error_set(error, "move %d uses weight set %d (at most %d sets)", move, set,
                             MODEL_MAX_SETS);
        if (set_shape[set] >= 0 && set_shape[set] != shape)
            return error_set(error, "weight set %d is used with shape %d and, at move %d, with "
                             "shape %d", set, set_shape[set], move, shape);
        set_shape[set] = shape;
        shape_used[shape] = true;
        if (set >= sets)
            sets = set + 1;
    }
    for (int set = 0; set < sets; ++set)
        if (set_shape[set] < 0)
            return error_set(error, "weight set %d is used by no move", set);
    for (int shape = 0; shape < shape_count; ++shape)
        if (!shape_used[shape])
            return error_set(error, "shape %d is used by no move", shape);
    *set_count = sets;
    return true;
}

void model_free(Model *model)
{
    if (!model)
        return;
    free(model->storage);
    for (int s = 0; s < model->shape_count; ++s)
        shape_free(&model->shapes[s]);
    free(model->sets);
    free(model->shapes);
    free(model);
}

/* All tables in one block of cache-line-aligned sets (huge-page advice was tried for the
 * 27 MB of an Edax-like model with a set per move and showed no gain in tests/evalbench). */
static bool weights_allocate(Model *model)
{
    enum { LINE = 64 };
    size_t bytes = 0;
    for (int s = 0; s < model->set_count; ++s) {
        size_t entries = model->shapes[model->sets[s].shape].table_size;
        bytes += (entries * sizeof(int16_t) + LINE - 1) / LINE * LINE;
    }
    size_t rounded = bytes + LINE; /* a line more: eval_sum may read 2 bytes past the end */
    unsigned char *storage = aligned_alloc(LINE, rounded);
    if (!storage)
        return false;
    memset(storage, 0, rounded);
    model->storage = storage;
    size_t used = 0;
    for (int s = 0; s < model->set_count; ++s) {
        size_t entries = model->shapes[model->sets[s].shape].table_size;
        model->sets[s].values = (int16_t *)(storage + used);
        used += (entries * sizeof(int16_t) + LINE - 1) / LINE * LINE;
    }
    return true;
}

bool model_create(const Shape *shapes, int shape_count, const PhaseTable *phase,
                  Model **out, OctError *error)
{
    if (shape_count < 1 || shape_count > MODEL_MAX_SHAPES)
        return error_set(error, "%d shapes (1 to %d allowed)", shape_count, MODEL_MAX_SHAPES);
    int set_count;
    if (!phase_check(phase, shape_count, &set_count, error))
        return false;
    Model *model = calloc(1, sizeof *model);
    if (!model)
        return error_set(error, "out of memory");
    model->phase = *phase;
    model->shapes = calloc((size_t)shape_count, sizeof *model->shapes);
    model->sets = calloc((size_t)set_count, sizeof *model->sets);
    if (!model->shapes || !model->sets) {
        model_free(model);
        return error_set(error, "out of memory");
    }
    for (int s = 0; s < shape_count; ++s) {
        if (!shape_copy(&model->shapes[s], &shapes[s], error)) {
            model_free(model);
            return error_prefix(error, "shape %d: ", s);
        }
        model->shape_count = s + 1;
    }
    for (int move = 0; move < MODEL_MOVES; ++move)
        model->sets[phase->set[move]].shape = phase->shape[move];
    model->set_count = set_count;
    if (!weights_allocate(model)) {
        model_free(model);
        return error_set(error, "out of memory");
    }
    *out = model;
    return true;
}

size_t model_weight_count(const Model *model)
{
    size_t count = 0;
    for (int s = 0; s < model->set_count; ++s)
        count += model->shapes[model->sets[s].shape].table_size;
    return count;
}

/* Calls `visit` on each table with its tuple's stabilizer permutations. */
typedef bool TableVisitor(int16_t *table, const Tuple *tuple,
                          uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE], int perm_count);

static bool model_visit_tables(const Model *model, TableVisitor *visit)
{
    for (int s = 0; s < model->set_count; ++s) {
        const WeightSet *set = &model->sets[s];
        const Shape *shape = &model->shapes[set->shape];
        for (int t = 0; t < shape->tuple_count; ++t) {
            uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE];
            int count = tuple_stabilizer(&shape->tuples[t], perms);
            if (!visit(set->values + shape->tuple_offsets[t], &shape->tuples[t], perms, count))
                return false;
        }
    }
    return true;
}

static bool table_is_invariant(int16_t *table, const Tuple *tuple,
                               uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE], int perm_count)
{
    if (!tuple_is_symmetric(tuple))
        return false;
    uint32_t entries = tuple_table_size(tuple->size);
    for (int p = 1; p < perm_count; ++p)
        for (uint32_t i = 0; i < entries; ++i)
            if (table[i] != table[tuple_permute_index(i, perms[p], tuple->size)])
                return false;
    return true;
}

static bool table_symmetrize(int16_t *table, const Tuple *tuple,
                             uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE], int perm_count)
{
    if (perm_count < 2)
        return true;
    uint32_t entries = tuple_table_size(tuple->size);
    for (uint32_t i = 0; i < entries; ++i) {
        uint32_t orbit[TUPLE_MAX_INSTANCES];
        int size = 0;
        bool smallest = true;
        for (int p = 0; p < perm_count; ++p) {
            uint32_t image = tuple_permute_index(i, perms[p], tuple->size);
            smallest &= image >= i;
            bool seen = false;
            for (int o = 0; o < size; ++o)
                seen |= orbit[o] == image;
            if (!seen)
                orbit[size++] = image;
        }
        if (!smallest || size == 1)
            continue; /* each orbit is averaged once, from its smallest index */
        long total = 0;
        for (int o = 0; o < size; ++o)
            total += table[orbit[o]];
        long mean = total >= 0 ? (total + size / 2) / size : -((-total + size / 2) / size);
        for (int o = 0; o < size; ++o)
            table[orbit[o]] = (int16_t)mean;
    }
    return true;
}

bool model_is_symmetric(const Model *model)
{
    return model_visit_tables(model, table_is_invariant);
}

void model_symmetrize(Model *model)
{
    model_visit_tables(model, table_symmetrize);
}

void model_fill_random(Model *model, uint64_t seed, int amplitude)
{
    uint64_t state = seed;
    uint64_t span = 2 * (uint64_t)amplitude + 1;
    for (int s = 0; s < model->set_count; ++s) {
        WeightSet *set = &model->sets[s];
        size_t entries = model->shapes[set->shape].table_size;
        set->bias = 0;
        for (size_t i = 0; i < entries; ++i) {
            uint64_t z = rng_next(&state);
            set->values[i] = (int16_t)((int64_t)(z % span) - amplitude);
        }
    }
}

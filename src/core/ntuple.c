/* N-tuples: symmetric expansion, indexing, and the incremental-update tables of a shape. */
#include "core/ntuple.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t tuple_table_size(int size)
{
    uint32_t entries = 1;
    while (size-- > 0)
        entries *= 3;
    return entries;
}

static uint64_t squares_mask(const uint8_t *squares, int size)
{
    uint64_t mask = 0;
    for (int j = 0; j < size; ++j)
        mask |= 1ULL << squares[j];
    return mask;
}

static bool squares_check(const uint8_t *squares, int size, OctError *error)
{
    if (size < 1 || size > TUPLE_MAX_SIZE)
        return error_set(error, "a tuple has %d squares (1 to %d allowed)", size, TUPLE_MAX_SIZE);
    uint64_t seen = 0;
    for (int j = 0; j < size; ++j) {
        if (squares[j] >= SQUARE_COUNT)
            return error_set(error, "square %d is out of range (0-63)", squares[j]);
        if (seen >> squares[j] & 1)
            return error_set(error, "square %d appears twice in one tuple", squares[j]);
        seen |= 1ULL << squares[j];
    }
    return true;
}

bool tuple_expand(const uint8_t *squares, int size, Tuple *out, OctError *error)
{
    if (!squares_check(squares, size, error))
        return false;
    memset(out, 0, sizeof *out);
    out->size = (uint8_t)size;
    uint64_t masks[SYMMETRY_COUNT];
    for (int s = 0; s < SYMMETRY_COUNT; ++s) {
        uint8_t image[TUPLE_MAX_SIZE];
        for (int j = 0; j < size; ++j)
            image[j] = (uint8_t)square_symmetry(squares[j], s);
        uint64_t mask = squares_mask(image, size);
        bool seen = false;
        for (int k = 0; k < out->instance_count; ++k)
            seen |= masks[k] == mask;
        if (seen)
            continue;
        masks[out->instance_count] = mask;
        memcpy(out->squares[out->instance_count++], image, (size_t)size);
    }
    return true;
}

bool tuple_explicit(const uint8_t *squares, int size, int instance_count, Tuple *out,
                    OctError *error)
{
    if (instance_count < 1 || instance_count > TUPLE_MAX_INSTANCES)
        return error_set(error, "a tuple has %d instances (1 to %d allowed)", instance_count,
                         TUPLE_MAX_INSTANCES);
    memset(out, 0, sizeof *out);
    out->size = (uint8_t)size;
    out->instance_count = (uint8_t)instance_count;
    for (int k = 0; k < instance_count; ++k) {
        if (!squares_check(squares + k * size, size, error))
            return error_prefix(error, "instance %d: ", k + 1);
        memcpy(out->squares[k], squares + k * size, (size_t)size);
    }
    return true;
}

uint32_t tuple_index(const uint8_t *squares, int size, uint64_t player, uint64_t opponent)
{
    uint32_t index = 0;
    for (int j = size - 1; j >= 0; --j) {
        uint32_t digit = 1 + (uint32_t)(player >> squares[j] & 1) - (uint32_t)(opponent >> squares[j] & 1);
        index = index * 3 + digit;
    }
    return index;
}

int tuple_stabilizer(const Tuple *tuple, uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE])
{
    const uint8_t *first = tuple->squares[0];
    int size = tuple->size;
    uint64_t mask = squares_mask(first, size);
    int count = 0;
    for (int s = 0; s < SYMMETRY_COUNT; ++s) {
        uint8_t image[TUPLE_MAX_SIZE];
        for (int j = 0; j < size; ++j)
            image[j] = (uint8_t)square_symmetry(first[j], s);
        if (squares_mask(image, size) != mask)
            continue;
        for (int j = 0; j < size; ++j)
            for (int i = 0; i < size; ++i)
                if (first[i] == image[j])
                    perms[count][j] = (uint8_t)i;
        ++count; /* symmetry 0 is the identity, so perms[0] is too */
    }
    return count;
}

uint32_t tuple_permute_index(uint32_t index, const uint8_t *perm, int size)
{
    uint32_t digits[TUPLE_MAX_SIZE];
    for (int j = 0; j < size; ++j) {
        digits[j] = index % 3;
        index /= 3;
    }
    uint32_t result = 0;
    for (int j = size - 1; j >= 0; --j)
        result = result * 3 + digits[perm[j]];
    return result;
}

bool tuple_is_symmetric(const Tuple *tuple)
{
    Tuple expected;
    if (!tuple_expand(tuple->squares[0], tuple->size, &expected, NULL))
        return false;
    if (expected.instance_count != tuple->instance_count)
        return false;
    uint64_t used = 0; /* which expected images are matched, by set */
    for (int k = 0; k < tuple->instance_count; ++k) {
        bool ordered_image = false;
        for (int s = 0; s < SYMMETRY_COUNT && !ordered_image; ++s) {
            bool same = true;
            for (int j = 0; j < tuple->size; ++j)
                same &= square_symmetry(tuple->squares[0][j], s) == tuple->squares[k][j];
            ordered_image = same;
        }
        if (!ordered_image)
            return false;
        uint64_t mask = squares_mask(tuple->squares[k], tuple->size);
        for (int e = 0; e < expected.instance_count; ++e) {
            if (squares_mask(expected.squares[e], tuple->size) == mask) {
                if (used >> e & 1)
                    return false;
                used |= 1ULL << e;
            }
        }
    }
    return true;
}

void shape_free(Shape *shape)
{
    free(shape->tuples);
    free(shape->tuple_offsets);
    free(shape->instances);
    free(shape->square_powers);
    free(shape->empty_indices);
    free(shape->lane_offsets);
    memset(shape, 0, sizeof *shape);
}

static void *zeroed_blocks(size_t bytes)
{
    /* 64-byte aligned so no 32-byte block of lanes straddles two cache lines */
    size_t rounded = (bytes + 63) / 64 * 64;
    void *memory = aligned_alloc(64, rounded ? rounded : 64);
    if (memory)
        memset(memory, 0, rounded);
    return memory;
}

static bool shape_derive(Shape *shape, OctError *error)
{
    int instances = 0;
    for (int t = 0; t < shape->tuple_count; ++t)
        instances += shape->tuples[t].instance_count;
    if (instances > SHAPE_MAX_INSTANCES)
        return error_set(error, "the shape has %d tuple instances (at most %d allowed)",
                         instances, SHAPE_MAX_INSTANCES);
    int lanes = (instances + SHAPE_LANE_BLOCK - 1) / SHAPE_LANE_BLOCK * SHAPE_LANE_BLOCK;
    shape->instance_count = instances;
    shape->lane_count = lanes;
    shape->tuple_offsets = malloc(sizeof *shape->tuple_offsets * (size_t)shape->tuple_count);
    shape->instances = malloc(sizeof *shape->instances * (size_t)instances);
    shape->square_powers = zeroed_blocks(sizeof *shape->square_powers * SQUARE_COUNT * (size_t)lanes);
    shape->empty_indices = zeroed_blocks(sizeof *shape->empty_indices * (size_t)lanes);
    shape->lane_offsets = zeroed_blocks(sizeof *shape->lane_offsets * 2 * (size_t)lanes);
    if (!shape->tuple_offsets || !shape->instances || !shape->square_powers || !shape->empty_indices
        || !shape->lane_offsets)
        return error_set(error, "out of memory");

    uint32_t offset = 0;
    int k = 0;
    for (int t = 0; t < shape->tuple_count; ++t) {
        const Tuple *tuple = &shape->tuples[t];
        uint32_t entries = tuple_table_size(tuple->size);
        shape->tuple_offsets[t] = offset;
        for (int i = 0; i < tuple->instance_count; ++i, ++k) {
            shape->instances[k].offset = offset;
            shape->instances[k].max_index = (uint16_t)(entries - 1);
            shape->instances[k].tuple = (uint16_t)t;
            shape->empty_indices[k] = (uint16_t)((entries - 1) / 2); /* every digit 1 */
            shape->lane_offsets[k] = offset;
            shape->lane_offsets[lanes + k] = offset + entries - 1;
            uint32_t power = 1;
            for (int j = 0; j < tuple->size; ++j, power *= 3)
                shape->square_powers[tuple->squares[i][j] * lanes + k] = (uint16_t)power;
        }
        offset += entries;
    }
    shape->table_size = offset;
    return true;
}

bool shape_build(Shape *shape, const char *name, const Tuple *tuples, int tuple_count,
                 OctError *error)
{
    memset(shape, 0, sizeof *shape);
    if (tuple_count < 1 || tuple_count > SHAPE_MAX_INSTANCES)
        return error_set(error, "a shape has %d tuples (1 to %d allowed)", tuple_count,
                         SHAPE_MAX_INSTANCES);
    for (int t = 0; t < tuple_count; ++t) {
        const Tuple *tuple = &tuples[t];
        if (tuple->instance_count < 1 || tuple->instance_count > TUPLE_MAX_INSTANCES)
            return error_set(error, "tuple %d has %d instances (1 to %d allowed)", t + 1,
                             tuple->instance_count, TUPLE_MAX_INSTANCES);
        for (int i = 0; i < tuple->instance_count; ++i)
            if (!squares_check(tuple->squares[i], tuple->size, error))
                return error_prefix(error, "tuple %d instance %d: ", t + 1, i + 1);
    }
    snprintf(shape->name, sizeof shape->name, "%s", name ? name : "");
    shape->tuples = malloc(sizeof *tuples * (size_t)tuple_count);
    if (!shape->tuples)
        return error_set(error, "out of memory");
    memcpy(shape->tuples, tuples, sizeof *tuples * (size_t)tuple_count);
    shape->tuple_count = tuple_count;
    if (!shape_derive(shape, error)) {
        shape_free(shape);
        return false;
    }
    return true;
}

bool shape_copy(Shape *copy, const Shape *shape, OctError *error)
{
    return shape_build(copy, shape->name, shape->tuples, shape->tuple_count, error);
}

bool shape_equal(const Shape *a, const Shape *b)
{
    if (a->tuple_count != b->tuple_count)
        return false;
    for (int t = 0; t < a->tuple_count; ++t) {
        const Tuple *x = &a->tuples[t], *y = &b->tuples[t];
        if (x->size != y->size || x->instance_count != y->instance_count)
            return false;
        for (int i = 0; i < x->instance_count; ++i)
            if (memcmp(x->squares[i], y->squares[i], x->size) != 0)
                return false;
    }
    return true;
}

/* Shape generators for the architectures of the papers. */
#include "core/shapes.h"
#include "core/rng.h"

#include <stdio.h>
#include <string.h>

enum { LINE_DIRECTIONS = 4, SNAKE_LUCAS_SQUARES = 6, SNAKE_MAX_WALK = 100000 };

static const int line_dx[LINE_DIRECTIONS] = {1, 0, 1, -1};
static const int line_dy[LINE_DIRECTIONS] = {0, 1, 1, 1};

static uint64_t mask_of(const uint8_t *squares, int size)
{
    uint64_t mask = 0;
    for (int j = 0; j < size; ++j)
        mask |= 1ULL << squares[j];
    return mask;
}

/* The smallest image of a square set under the 8 symmetries names its class. */
static uint64_t class_of(uint64_t mask)
{
    uint64_t best = mask;
    for (int s = 1; s < SYMMETRY_COUNT; ++s) {
        uint64_t image = board_symmetry_bits(mask, s);
        if (image < best)
            best = image;
    }
    return best;
}

bool shapes_all_n(int n, Shape *out, OctError *error)
{
    if (n < 1 || n > 8)
        return error_set(error, "all-%d: n must be 1 to 8", n);
    Tuple tuples[SHAPE_MAX_INSTANCES];
    uint64_t classes[SHAPE_MAX_INSTANCES];
    int count = 0;
    /* Lines in a fixed order (start square row by row, then direction) make the chosen
     * representative of every class, and its digit order, reproducible. */
    for (int start = 0; start < SQUARE_COUNT; ++start) {
        for (int d = 0; d < LINE_DIRECTIONS; ++d) {
            int x = start % 8, y = start / 8;
            int end_x = x + (n - 1) * line_dx[d], end_y = y + (n - 1) * line_dy[d];
            if (end_x < 0 || end_x > 7 || end_y > 7)
                continue;
            uint8_t squares[8];
            for (int j = 0; j < n; ++j)
                squares[j] = (uint8_t)((y + j * line_dy[d]) * 8 + x + j * line_dx[d]);
            uint64_t cls = class_of(mask_of(squares, n));
            bool known = false;
            for (int c = 0; c < count; ++c)
                known |= classes[c] == cls;
            if (known)
                continue;
            classes[count] = cls;
            if (!tuple_expand(squares, n, &tuples[count], error))
                return false;
            ++count;
        }
    }
    char name[SHAPE_NAME_SIZE];
    snprintf(name, sizeof name, "all-%d", n);
    return shape_build(out, name, tuples, count, error);
}

static int snake_step(int square, uint64_t *state)
{
    /* a uniformly chosen neighbour among the 3 to 8 that exist */
    int neighbours[8], count = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            int x = square % 8 + dx, y = square / 8 + dy;
            if ((dx || dy) && x >= 0 && x < 8 && y >= 0 && y < 8)
                neighbours[count++] = y * 8 + x;
        }
    }
    return neighbours[rng_next(state) % (uint64_t)count];
}

bool shapes_snakes(int count, int length, uint64_t seed, Shape *out, OctError *error)
{
    if (count < 1 || count > SHAPE_MAX_INSTANCES)
        return error_set(error, "snakes: count %d (1 to %d allowed)", count, SHAPE_MAX_INSTANCES);
    if (length < 0 || length > TUPLE_MAX_SIZE)
        return error_set(error, "snakes: length %d (0 = Lucas's walks, or 1 to %d)", length,
                         TUPLE_MAX_SIZE);
    Tuple tuples[SHAPE_MAX_INSTANCES];
    uint64_t state = seed;
    for (int t = 0; t < count; ++t) {
        uint8_t squares[TUPLE_MAX_SIZE];
        int square = (int)(rng_next(&state) % SQUARE_COUNT);
        int size = 0, visited = 0;
        uint64_t seen = 0;
        /* Lucas: 6 squares visited (the start and 5 steps) give the papers' 2 to 6 distinct
         * squares; fixed length: walk until that many distinct squares. */
        while (length ? size < length : visited < SNAKE_LUCAS_SQUARES) {
            if (!(seen >> square & 1)) {
                seen |= 1ULL << square;
                squares[size++] = (uint8_t)square;
            }
            ++visited;
            if (visited > SNAKE_MAX_WALK)
                return error_set(error, "snakes: walk did not find %d squares", length);
            square = snake_step(square, &state);
        }
        if (!tuple_expand(squares, size, &tuples[t], error))
            return false;
    }
    char name[SHAPE_NAME_SIZE];
    if (length)
        snprintf(name, sizeof name, "rand-%dx%d seed %llu", count, length, (unsigned long long)seed);
    else
        snprintf(name, sizeof name, "lucas-%d seed %llu", count, (unsigned long long)seed);
    return shape_build(out, name, tuples, count, error);
}

static bool shapes_from_lists(const char *name, const uint8_t (*lists)[TUPLE_MAX_SIZE],
                              const int *sizes, int count, Shape *out, OctError *error)
{
    Tuple tuples[16];
    for (int t = 0; t < count; ++t)
        if (!tuple_expand(lists[t], sizes[t], &tuples[t], error))
            return false;
    return shape_build(out, name, tuples, count, error);
}

/* Squares as row * 8 + col: a1 = 0, h1 = 7, a2 = 8. */
#define SQ(col, row) ((uint8_t)(((row) - 1) * 8 + ((col) - 'a')))

bool shapes_edax(Shape *out, OctError *error)
{
    static const uint8_t lists[][TUPLE_MAX_SIZE] = {
        {SQ('a', 1), SQ('b', 1), SQ('a', 2), SQ('b', 2), SQ('c', 1), SQ('a', 3), SQ('c', 2), SQ('b', 3), SQ('c', 3)},
        {SQ('a', 5), SQ('a', 4), SQ('a', 3), SQ('a', 2), SQ('a', 1), SQ('b', 2), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1)},
        {SQ('b', 2), SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1), SQ('f', 1), SQ('g', 1), SQ('h', 1), SQ('g', 2)},
        {SQ('a', 1), SQ('c', 1), SQ('d', 1), SQ('c', 2), SQ('d', 2), SQ('e', 2), SQ('f', 2), SQ('e', 1), SQ('f', 1), SQ('h', 1)},
        {SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2), SQ('e', 2), SQ('f', 2), SQ('g', 2), SQ('h', 2)},
        {SQ('a', 3), SQ('b', 3), SQ('c', 3), SQ('d', 3), SQ('e', 3), SQ('f', 3), SQ('g', 3), SQ('h', 3)},
        {SQ('a', 4), SQ('b', 4), SQ('c', 4), SQ('d', 4), SQ('e', 4), SQ('f', 4), SQ('g', 4), SQ('h', 4)},
        {SQ('a', 1), SQ('b', 2), SQ('c', 3), SQ('d', 4), SQ('e', 5), SQ('f', 6), SQ('g', 7), SQ('h', 8)},
        {SQ('b', 1), SQ('c', 2), SQ('d', 3), SQ('e', 4), SQ('f', 5), SQ('g', 6), SQ('h', 7)},
        {SQ('c', 1), SQ('d', 2), SQ('e', 3), SQ('f', 4), SQ('g', 5), SQ('h', 6)},
        {SQ('d', 1), SQ('e', 2), SQ('f', 3), SQ('g', 4), SQ('h', 5)},
        {SQ('d', 1), SQ('c', 2), SQ('b', 3), SQ('a', 4)},
    };
    static const int sizes[] = {9, 10, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4};
    return shapes_from_lists("edax", lists, sizes, 12, out, error);
}

bool shapes_edax_2x5(Shape *out, OctError *error)
{
    static const uint8_t lists[][TUPLE_MAX_SIZE] = {
        {SQ('a', 1), SQ('b', 1), SQ('a', 2), SQ('b', 2), SQ('c', 1), SQ('a', 3), SQ('c', 2), SQ('b', 3), SQ('c', 3)},
        {SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1), SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2), SQ('e', 2)},
        {SQ('b', 2), SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1), SQ('f', 1), SQ('g', 1), SQ('h', 1), SQ('g', 2)},
        {SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2), SQ('e', 2), SQ('f', 2), SQ('g', 2), SQ('h', 2)},
        {SQ('a', 3), SQ('b', 3), SQ('c', 3), SQ('d', 3), SQ('e', 3), SQ('f', 3), SQ('g', 3), SQ('h', 3)},
        {SQ('a', 4), SQ('b', 4), SQ('c', 4), SQ('d', 4), SQ('e', 4), SQ('f', 4), SQ('g', 4), SQ('h', 4)},
        {SQ('a', 1), SQ('b', 2), SQ('c', 3), SQ('d', 4), SQ('e', 5), SQ('f', 6), SQ('g', 7), SQ('h', 8)},
        {SQ('b', 1), SQ('c', 2), SQ('d', 3), SQ('e', 4), SQ('f', 5), SQ('g', 6), SQ('h', 7)},
        {SQ('c', 1), SQ('d', 2), SQ('e', 3), SQ('f', 4), SQ('g', 5), SQ('h', 6)},
        {SQ('d', 1), SQ('e', 2), SQ('f', 3), SQ('g', 4), SQ('h', 5)},
        {SQ('d', 1), SQ('c', 2), SQ('b', 3), SQ('a', 4)},
    };
    static const int sizes[] = {9, 10, 10, 8, 8, 8, 8, 7, 6, 5, 4};
    return shapes_from_lists("edax-2x5", lists, sizes, 11, out, error);
}

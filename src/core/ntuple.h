/* N-tuples and network shapes (Jaskowski, "Systematic N-tuple Networks for Position
 * Evaluation: Exceeding 90% in the Othello League", 2014; Lucas, "Learning to Play Othello
 * with N-Tuple Systems", 2008).
 *
 * A tuple is an ordered list of n squares with one look-up table of 3^n entries. It is
 * applied at several instances (its symmetric expansions); all instances share the table.
 * The index of an instance reads its squares as base-3 digits, first square least
 * significant, from one player's view: that player's disc = 2, empty = 1, the other
 * player's disc = 0 (Lucas's white = 0, empty = 1, black = 2 with "black" = the viewer).
 *
 * A shape is a list of tuples plus the tables that let an evaluation state update the
 * indices of every instance incrementally when discs appear or flip: for every square, the
 * power of 3 it carries in each instance (0 when it is not in it), laid out as one row of
 * `lane_count` uint16 lanes, so a changed square updates all indices with a few vector
 * additions and no branches. */
#ifndef OCTUPLE_NTUPLE_H
#define OCTUPLE_NTUPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"

enum {
    TUPLE_MAX_SIZE = 10,        /* 3^10 = 59049 entries: indices fit in uint16_t */
    TUPLE_MAX_INSTANCES = 8,    /* the 8 symmetries of the board */
    SHAPE_MAX_INSTANCES = 256,  /* bounds EvalState; all-2 has 210, 30 snakes up to 240 */
    SHAPE_NAME_SIZE = 48,
    SHAPE_LANE_BLOCK = 16       /* lanes per 32-byte block of uint16 indices */
};

typedef struct Tuple {
    uint8_t size;           /* n, 1..TUPLE_MAX_SIZE */
    uint8_t instance_count; /* 1..TUPLE_MAX_INSTANCES */
    uint8_t squares[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE]; /* per instance, digit order */
} Tuple;

/* Per instance: its tuple's table offset within a weight set and the largest index. */
typedef struct ShapeInstance {
    uint32_t offset;
    uint16_t max_index; /* 3^n - 1: index from the other player's view = max - index */
    uint16_t tuple;
} ShapeInstance;

typedef struct Shape {
    char name[SHAPE_NAME_SIZE];
    int tuple_count;
    Tuple *tuples;
    /* Derived by shape_build, never edited by hand: */
    int instance_count;
    uint32_t table_size;            /* weights per weight set: sum of 3^n over tuples */
    uint32_t *tuple_offsets;        /* per tuple: first entry of its table in a weight set */
    ShapeInstance *instances;       /* instance_count entries, tuple by tuple */
    int lane_count;                 /* instance_count rounded up to SHAPE_LANE_BLOCK */
    uint16_t *square_powers;        /* [square * lane_count + instance]: 3^j or 0 */
    uint16_t *empty_indices;        /* [instance]: the index of an all-empty instance */
    /* [lane]: the instance's offset, then [lane_count + lane]: offset + max_index, for
     * reading the tables a vector of lanes at a time (0 in padding lanes) */
    uint32_t *lane_offsets;
} Shape;

/* 3^n */
uint32_t tuple_table_size(int size);

/* Fills `out` with the squares expanded in the 8 symmetries (board_symmetry order); images
 * covering the same set of squares are kept once, the first one in symmetry order.
 * Returns false with a message when the squares are out of range, repeated or too many. */
bool tuple_expand(const uint8_t *squares, int size, Tuple *out, OctError *error);

/* A tuple with the given instances exactly as listed (no expansion), checked. */
bool tuple_explicit(const uint8_t *squares, int size, int instance_count, Tuple *out,
                    OctError *error);

/* Index of `squares` from the view of the owner of `player`. */
uint32_t tuple_index(const uint8_t *squares, int size, uint64_t player, uint64_t opponent);

/* The digit permutations under which the table must be invariant for symmetric sampling
 * to give a symmetric evaluation: one per symmetry that maps the first instance onto the
 * same set of squares (e.g. a line read from either end). perms[k][j] = the digit of the
 * first instance that digit j becomes. perms[0] is the identity. Returns the count. */
int tuple_stabilizer(const Tuple *tuple, uint8_t perms[TUPLE_MAX_INSTANCES][TUPLE_MAX_SIZE]);
uint32_t tuple_permute_index(uint32_t index, const uint8_t *perm, int size);

/* True when the instances are exactly the distinct symmetric images of the first one
 * (each instance an ordered image, every image set present once). */
bool tuple_is_symmetric(const Tuple *tuple);

/* Copies the tuples into `shape` and builds the derived tables. On failure `shape` holds
 * nothing to free. */
bool shape_build(Shape *shape, const char *name, const Tuple *tuples, int tuple_count,
                 OctError *error);
bool shape_copy(Shape *copy, const Shape *shape, OctError *error);
void shape_free(Shape *shape);
bool shape_equal(const Shape *a, const Shape *b); /* same tuples and instances, in order */

#endif

#include "core/stability.h"

#define BORDER (STABILITY_COLUMN_A | STABILITY_COLUMN_H | STABILITY_ROW_1 | STABILITY_ROW_8)

/* Squares on full rows: a disc there cannot be flipped horizontally. Halving ANDs leave,
 * in column a, the AND of the whole row. */
static inline uint64_t full_rows(uint64_t filled)
{
    uint64_t full = filled;
    full &= full >> 4;
    full &= full >> 2;
    full &= full >> 1;
    return (full & STABILITY_COLUMN_A) * 0xff;
}

static inline uint64_t full_columns(uint64_t filled)
{
    uint64_t full = filled;
    /* AND the 8 rows together: a bit survives when its whole column is filled */
    full &= full >> 32;
    full &= full >> 16;
    full &= full >> 8;
    return (full & STABILITY_ROW_1) * STABILITY_COLUMN_A;
}

/* For the diagonal steps of 9 and 7 squares, towards higher and lower bits: ends[k][j] holds
 * the squares with fewer than 2^j further squares on that ray (built once). */
enum { DIAGONAL_RAYS = 4 };
static uint64_t ray_ends[DIAGONAL_RAYS][3];
static const int ray_steps[DIAGONAL_RAYS][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1}};

__attribute__((constructor)) static void stability_tables_init(void)
{
    for (int k = 0; k < DIAGONAL_RAYS; ++k)
        for (int square = 0; square < 64; ++square) {
            int row = square / 8, col = square % 8, further = 0;
            for (int r = row + ray_steps[k][0], c = col + ray_steps[k][1];
                 r >= 0 && r < 8 && c >= 0 && c < 8; r += ray_steps[k][0], c += ray_steps[k][1])
                ++further;
            for (int j = 0; j < 3; ++j)
                if (further < 1 << j)
                    ray_ends[k][j] |= 1ULL << square;
        }
}

/* Squares filled together with every square beyond them on one ray; rays grow by doubling
 * steps, a square near the board's edge stopping where its ray ends. */
static inline uint64_t filled_up(uint64_t filled, int shift, const uint64_t *ends)
{
    uint64_t run = filled & ((filled >> shift) | ends[0]);
    run &= (run >> 2 * shift) | ends[1];
    run &= (run >> 4 * shift) | ends[2];
    return run;
}

static inline uint64_t filled_down(uint64_t filled, int shift, const uint64_t *ends)
{
    uint64_t run = filled & ((filled << shift) | ends[0]);
    run &= (run << 2 * shift) | ends[1];
    run &= (run << 4 * shift) | ends[2];
    return run;
}

/* Squares on full diagonals of each direction, without loops or branches. */
static inline uint64_t full_diagonals9(uint64_t filled)
{
    return filled_up(filled, 9, ray_ends[0]) & filled_down(filled, 9, ray_ends[1]);
}

static inline uint64_t full_diagonals7(uint64_t filled)
{
    /* a step of +7 goes one row up and one column left */
    return filled_up(filled, 7, ray_ends[2]) & filled_down(filled, 7, ray_ends[3]);
}

uint64_t stability_discs(uint64_t discs, uint64_t others)
{
    uint64_t filled = discs | others;
    /* per line direction: squares already safe along it (full line or border) */
    uint64_t safe_h = full_rows(filled) | STABILITY_COLUMN_A | STABILITY_COLUMN_H;
    uint64_t safe_v = full_columns(filled) | STABILITY_ROW_1 | STABILITY_ROW_8;
    uint64_t safe_d = full_diagonals9(filled) | BORDER;
    uint64_t safe_u = full_diagonals7(filled) | BORDER;

    uint64_t stable = discs & safe_h & safe_v & safe_d & safe_u;
    if (stable == 0)
        return 0;
    for (;;) {
        uint64_t h = safe_h | (stable << 1 & ~STABILITY_COLUMN_A)
                   | (stable >> 1 & ~STABILITY_COLUMN_H);
        uint64_t v = safe_v | stable << 8 | stable >> 8;
        uint64_t d = safe_d | (stable << 9 & ~STABILITY_COLUMN_A)
                   | (stable >> 9 & ~STABILITY_COLUMN_H);
        uint64_t u = safe_u | (stable << 7 & ~STABILITY_COLUMN_H)
                   | (stable >> 7 & ~STABILITY_COLUMN_A);
        uint64_t grown = discs & h & v & d & u;
        if (grown == stable)
            return stable;
        stable = grown;
    }
}

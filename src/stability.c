#include "stability.h"

#define COLUMN_A 0x0101010101010101ULL
#define COLUMN_H 0x8080808080808080ULL
#define ROW_1 0x00000000000000ffULL
#define ROW_8 0xff00000000000000ULL
#define BORDER (COLUMN_A | COLUMN_H | ROW_1 | ROW_8)

/* Squares on full lines of one direction: a disc there cannot be flipped along it. */
static uint64_t full_rows(uint64_t filled)
{
    uint64_t full = 0;
    for (int row = 0; row < 8; ++row) {
        uint64_t line = ROW_1 << (8 * row);
        if ((filled & line) == line)
            full |= line;
    }
    return full;
}

static uint64_t full_columns(uint64_t filled)
{
    uint64_t full = filled;
    /* AND the 8 rows together: a bit survives when its whole column is filled */
    full &= full >> 32;
    full &= full >> 16;
    full &= full >> 8;
    return (full & ROW_1) * COLUMN_A;
}

/* Diagonal masks through each square, built once. */
static uint64_t diagonal_down[64]; /* a1-h8 direction */
static uint64_t diagonal_up[64];   /* a8-h1 direction */

__attribute__((constructor)) static void stability_tables_init(void)
{
    for (int square = 0; square < 64; ++square) {
        int row = square / 8, col = square % 8;
        uint64_t down = 0, up = 0;
        for (int r = 0; r < 8; ++r) {
            int c1 = col + (r - row), c2 = col - (r - row);
            if (c1 >= 0 && c1 < 8)
                down |= 1ULL << (r * 8 + c1);
            if (c2 >= 0 && c2 < 8)
                up |= 1ULL << (r * 8 + c2);
        }
        diagonal_down[square] = down;
        diagonal_up[square] = up;
    }
}

static uint64_t full_diagonals(uint64_t filled, const uint64_t *table)
{
    /* one square per diagonal: the first row and the first column cover them all */
    uint64_t full = 0;
    uint64_t starts = ROW_1 | COLUMN_A | ROW_8;
    for (; starts; starts &= starts - 1) {
        uint64_t line = table[__builtin_ctzll(starts)];
        if ((filled & line) == line)
            full |= line;
    }
    return full;
}

uint64_t stability_discs(uint64_t discs, uint64_t others)
{
    uint64_t filled = discs | others;
    /* per line direction: squares already safe along it (full line or border) */
    uint64_t safe_h = full_rows(filled) | COLUMN_A | COLUMN_H;
    uint64_t safe_v = full_columns(filled) | ROW_1 | ROW_8;
    uint64_t safe_d = full_diagonals(filled, diagonal_down) | BORDER;
    uint64_t safe_u = full_diagonals(filled, diagonal_up) | BORDER;

    uint64_t stable = discs & safe_h & safe_v & safe_d & safe_u;
    if (stable == 0)
        return 0;
    for (;;) {
        uint64_t h = safe_h | (stable << 1 & ~COLUMN_A) | (stable >> 1 & ~COLUMN_H);
        uint64_t v = safe_v | stable << 8 | stable >> 8;
        uint64_t d = safe_d | (stable << 9 & ~COLUMN_A) | (stable >> 9 & ~COLUMN_H);
        uint64_t u = safe_u | (stable << 7 & ~COLUMN_H) | (stable >> 7 & ~COLUMN_A);
        uint64_t grown = discs & h & v & d & u;
        if (grown == stable)
            return stable;
        stable = grown;
    }
}

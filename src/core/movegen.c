/* The tables of movegen.h, built by plain square-by-square walks before main runs. */
#include "core/movegen.h"

_Alignas(64) uint64_t movegen_rays[64][MOVEGEN_DIRECTIONS];
uint64_t movegen_neighbours[64];
uint64_t movegen_diagonals[64][2];
uint8_t movegen_line_flips[8][256];

static const int ray_dx[MOVEGEN_DIRECTIONS] = {1, -1, 0, 1, -1, 1, 0, -1};
static const int ray_dy[MOVEGEN_DIRECTIONS] = {0, 1, 1, 1, 0, -1, -1, -1};

static void rays_build(void)
{
    for (int square = 0; square < 64; ++square) {
        uint64_t neighbours = 0;
        for (int d = 0; d < MOVEGEN_DIRECTIONS; ++d) {
            uint64_t mask = 0;
            int x = square % 8 + ray_dx[d];
            int y = square / 8 + ray_dy[d];
            if (x >= 0 && x < 8 && y >= 0 && y < 8)
                neighbours |= 1ULL << (y * 8 + x);
            while (x >= 0 && x < 8 && y >= 0 && y < 8) {
                mask |= 1ULL << (y * 8 + x);
                x += ray_dx[d];
                y += ray_dy[d];
            }
            movegen_rays[square][d] = mask;
        }
        movegen_neighbours[square] = neighbours;
        /* directions +9/-9 make the a1-h8 diagonal, +7/-7 the a8-h1 one */
        movegen_diagonals[square][0] = movegen_rays[square][3] | movegen_rays[square][7]
                                     | 1ULL << square;
        movegen_diagonals[square][1] = movegen_rays[square][1] | movegen_rays[square][5]
                                     | 1ULL << square;
    }
}

/* A run of the other side's discs from `pos` in one direction counts when a mover's disc
 * closes it before the end of the line. */
static int line_run(int pos, unsigned mover, int step)
{
    int count = 0;
    for (int i = pos + step; i >= 0 && i < 8; i += step) {
        if (mover >> i & 1)
            return count;
        ++count;
    }
    return 0;
}

static void line_flips_build(void)
{
    for (int pos = 0; pos < 8; ++pos)
        for (unsigned mover = 0; mover < 256; ++mover)
            movegen_line_flips[pos][mover] = (mover >> pos & 1)
                ? 0 : (uint8_t)(line_run(pos, mover, 1) + line_run(pos, mover, -1));
}

__attribute__((constructor)) static void movegen_tables_init(void)
{
    rays_build();
    line_flips_build();
}

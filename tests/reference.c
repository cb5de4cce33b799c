#include "reference.h"

void ref_from_bits(RefBoard *ref, uint64_t player, uint64_t opponent)
{
    for (int s = 0; s < 64; ++s)
        ref->cells[s] = (player >> s & 1) ? 1 : (opponent >> s & 1) ? 2 : 0;
}

uint64_t ref_flips(const RefBoard *ref, int square)
{
    if (ref->cells[square] != 0)
        return 0;
    uint64_t flips = 0;
    int row = square / 8, col = square % 8;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0)
                continue;
            uint64_t line = 0;
            int r = row + dy, c = col + dx;
            while (r >= 0 && r < 8 && c >= 0 && c < 8 && ref->cells[r * 8 + c] == 2) {
                line |= 1ULL << (r * 8 + c);
                r += dy;
                c += dx;
            }
            if (line && r >= 0 && r < 8 && c >= 0 && c < 8 && ref->cells[r * 8 + c] == 1)
                flips |= line;
        }
    }
    return flips;
}

uint64_t ref_moves(const RefBoard *ref)
{
    uint64_t moves = 0;
    for (int s = 0; s < 64; ++s)
        if (ref_flips(ref, s))
            moves |= 1ULL << s;
    return moves;
}

static void ref_swap(RefBoard *ref)
{
    for (int s = 0; s < 64; ++s)
        if (ref->cells[s])
            ref->cells[s] = 3 - ref->cells[s];
}

uint64_t ref_perft(const RefBoard *ref, int depth)
{
    if (depth == 0)
        return 1;
    uint64_t moves = ref_moves(ref);
    RefBoard next = *ref;
    if (!moves) {
        ref_swap(&next);
        if (!ref_moves(&next))
            return 1;
        return ref_perft(&next, depth - 1);
    }
    uint64_t total = 0;
    for (int s = 0; s < 64; ++s) {
        if (!(moves >> s & 1))
            continue;
        next = *ref;
        uint64_t flips = ref_flips(ref, s);
        for (int t = 0; t < 64; ++t)
            if (flips >> t & 1)
                next.cells[t] = 1;
        next.cells[s] = 1;
        ref_swap(&next);
        total += ref_perft(&next, depth - 1);
    }
    return total;
}

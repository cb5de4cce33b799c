/* Rules core: the board operations over the kernels of movegen.h, symmetries, hashing. */
#include "core/board.h"

#include <stddef.h>

#include "core/movegen.h"

void board_init(Board *board)
{
    /* d5 and e4 black, d4 and e5 white; black moves first */
    board->player = (1ULL << 28) | (1ULL << 35);
    board->opponent = (1ULL << 27) | (1ULL << 36);
}

uint64_t board_moves(uint64_t player, uint64_t opponent)
{
    return movegen_moves(player, opponent);
}

uint64_t board_flips(uint64_t player, uint64_t opponent, int square)
{
    return movegen_flips(player, opponent, square);
}

void board_pass(Board *board)
{
    uint64_t swap = board->player;
    board->player = board->opponent;
    board->opponent = swap;
}

void board_play(Board *board, int move)
{
    if (move != MOVE_PASS) {
        uint64_t flips = board_flips(board->player, board->opponent, move);
        board->player ^= flips | (1ULL << move);
        board->opponent ^= flips;
    }
    board_pass(board);
}

bool board_try_play(Board *board, int move)
{
    uint64_t moves = board_legal(board);
    if (move == MOVE_PASS) {
        if (moves != 0 || board_moves(board->opponent, board->player) == 0)
            return false;
    } else if (move < 0 || move >= SQUARE_COUNT || !(moves & (1ULL << move))) {
        return false;
    }
    board_play(board, move);
    return true;
}

bool board_can_move(const Board *board)
{
    return board_legal(board) != 0;
}

bool board_is_over(const Board *board)
{
    return board_legal(board) == 0 && board_moves(board->opponent, board->player) == 0;
}

int board_count_player(const Board *board)
{
    return __builtin_popcountll(board->player);
}

int board_count_opponent(const Board *board)
{
    return __builtin_popcountll(board->opponent);
}

int board_count_empties(const Board *board)
{
    return 64 - __builtin_popcountll(board->player | board->opponent);
}

int board_final_score(const Board *board)
{
    int player = board_count_player(board);
    int opponent = board_count_opponent(board);
    int empties = 64 - player - opponent;
    int diff = player - opponent;
    if (diff > 0)
        return diff + empties;
    if (diff < 0)
        return diff - empties;
    return 0;
}

static uint64_t mirror_columns(uint64_t x) /* a <-> h */
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    return x;
}

static uint64_t transpose(uint64_t x) /* (row, col) -> (col, row): the a1-h8 diagonal */
{
    uint64_t t;
    t = 0x0f0f0f0f00000000ULL & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    return x;
}

/* Symmetry s: transpose if bit 2, then mirror columns if bit 0, then mirror rows if bit 1. */
uint64_t board_symmetry_bits(uint64_t bits, int symmetry)
{
    if (symmetry & 4)
        bits = transpose(bits);
    if (symmetry & 1)
        bits = mirror_columns(bits);
    if (symmetry & 2)
        bits = __builtin_bswap64(bits);
    return bits;
}

Board board_symmetry(const Board *board, int symmetry)
{
    Board image = {board_symmetry_bits(board->player, symmetry),
                   board_symmetry_bits(board->opponent, symmetry)};
    return image;
}

int square_symmetry(int square, int symmetry)
{
    return __builtin_ctzll(board_symmetry_bits(1ULL << square, symmetry));
}

bool board_equal(const Board *a, const Board *b)
{
    return a->player == b->player && a->opponent == b->opponent;
}

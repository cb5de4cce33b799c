/* Rules core: an Othello position as two bitboards seen from the side to move.
 * Bit i is square i, with a1 = 0, h1 = 7, a8 = 56, h8 = 63 (row * 8 + col). */
#ifndef OCTUPLE_BOARD_H
#define OCTUPLE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

enum {
    SQUARE_COUNT = 64,
    MOVE_PASS = 64, /* the pseudo-move "pa" */
    MOVE_NONE = 65  /* no move / end of list */
};

/* Side-to-move relative: `player` are the discs of the side to move. */
typedef struct Board {
    uint64_t player;
    uint64_t opponent;
} Board;

/* Disc colours, used where an absolute colour is needed (notation, formats). */
typedef enum Color { COLOR_BLACK = 0, COLOR_WHITE = 1 } Color;

/* The 8 symmetries of the square: index 0 is the identity. */
enum { SYMMETRY_COUNT = 8 };

void board_init(Board *board); /* standard start, black to move */
uint64_t board_moves(uint64_t player, uint64_t opponent);
uint64_t board_flips(uint64_t player, uint64_t opponent, int square);

static inline uint64_t board_legal(const Board *board)
{
    return board_moves(board->player, board->opponent);
}

/* Play a legal move (caller checked) or MOVE_PASS; the board then belongs to the other side. */
void board_play(Board *board, int move);
/* Play `move` if it is legal (MOVE_PASS legal only when there is no move but the game goes on).
 * Returns false and leaves the board unchanged otherwise. */
bool board_try_play(Board *board, int move);
void board_pass(Board *board);

bool board_can_move(const Board *board);
bool board_is_over(const Board *board);
int board_count_player(const Board *board);
int board_count_opponent(const Board *board);
int board_count_empties(const Board *board);
/* Final disc difference from the side to move's view, empties given to the winner. */
int board_final_score(const Board *board);

uint64_t board_symmetry_bits(uint64_t bits, int symmetry);
Board board_symmetry(const Board *board, int symmetry);
int square_symmetry(int square, int symmetry);
static inline uint64_t board_mix64(uint64_t x)
{
    /* A strong 64-bit finaliser: every input bit affects every output bit. */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* A well-mixed 64-bit key of a position (the match openings tell positions apart by it). */
static inline uint64_t board_hash(const Board *board)
{
    return board_mix64(board->player ^ board_mix64(board->opponent + 0x9e3779b97f4a7c15ULL));
}
bool board_equal(const Board *a, const Board *b);

#endif

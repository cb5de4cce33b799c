/* A game: a start position plus a list of moves (passes explicit once normalised). */
#ifndef OCTUPLE_GAME_H
#define OCTUPLE_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/board.h"
#include "core/error.h"

enum { GAME_MOVE_CAPACITY = 128 };

typedef struct Game {
    Board start;      /* start position, relative to start_side */
    Color start_side; /* colour to move in the start position */
    int moves[GAME_MOVE_CAPACITY]; /* squares or MOVE_PASS, always legal, passes explicit */
    int move_count;
} Game;

void game_init(Game *game); /* standard start, no moves */
void game_init_from(Game *game, const Board *start, Color side);
/* Whether the game starts from the standard position with black to move (the databases and
 * the opening book count moves from there). */
bool game_is_standard(const Game *game);
/* Append a move after checking it. A move played while the side to move has no legal move is
 * preceded by an implicit pass when it is legal for the other side. Returns false (game
 * unchanged) with an error naming the move and why when it is illegal. */
bool game_append(Game *game, int move, OctError *error);
/* Appends `move` (a square or MOVE_PASS) played by `color`, as the game files that tag each
 * move with its colour (GGF, Logistello's logbook) give it: a move by the side not to move
 * means that the side to move passed, which it may only do without a legal move. A move of
 * the side to move that has no legal move is refused, rather than read as a pass and a move
 * of the other colour as game_append would. Same return and errors as game_append. */
bool game_append_colored(Game *game, Color color, int move, OctError *error);
/* Position after the first `ply` moves (ply clamped to move_count); `side` may be NULL. */
void game_position(const Game *game, int ply, Board *board, Color *side);
/* Final disc difference from black's view (empties to the winner); game must be over. */
int game_black_score(const Game *game);
bool game_is_over(const Game *game);

/* Move strings: "f5d6c3..." with optional passes "pa"; passes may be implicit. Whitespace is
 * skipped. On error the game is left as it was before the call. */
bool game_parse_moves(Game *game, const char *text, OctError *error);
/* Writes the moves (passes as "pa") into out; returns false when `size` is too small. */
bool game_format_moves(const Game *game, char *out, size_t size);

#endif

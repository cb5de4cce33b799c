#include "core/game.h"

#include <ctype.h>
#include <string.h>

#include "core/notation.h"

void game_init(Game *game)
{
    Board start;
    board_init(&start);
    game_init_from(game, &start, COLOR_BLACK);
}

bool game_is_standard(const Game *game)
{
    Board start;
    board_init(&start);
    return board_equal(&game->start, &start) && game->start_side == COLOR_BLACK;
}

void game_init_from(Game *game, const Board *start, Color side)
{
    game->start = *start;
    game->start_side = side;
    game->move_count = 0;
}

void game_position(const Game *game, int ply, Board *board, Color *side)
{
    Board b = game->start;
    Color s = game->start_side;
    if (ply > game->move_count)
        ply = game->move_count;
    for (int i = 0; i < ply; ++i) {
        board_play(&b, game->moves[i]);
        s = (Color)!s;
    }
    *board = b;
    if (side)
        *side = s;
}

bool game_append(Game *game, int move, OctError *error)
{
    Board board;
    Color side;
    char name[3];
    game_position(game, game->move_count, &board, &side);
    if (board_is_over(&board))
        return error_set(error, "move %d (%s): the game is already over", game->move_count + 1,
                         move_format(move, name));
    int needed = 1;
    if (move != MOVE_PASS && !board_can_move(&board))
        needed = 2; /* implicit pass first */
    if (game->move_count + needed > GAME_MOVE_CAPACITY)
        return error_set(error, "move %d: too many moves", game->move_count + 1);
    Board after = board;
    if (needed == 2)
        board_pass(&after);
    if (!board_try_play(&after, move)) {
        if (move == MOVE_PASS)
            return error_set(error, "move %d (pa): %s cannot pass, it has a legal move",
                             game->move_count + 1, side == COLOR_BLACK ? "black" : "white");
        return error_set(error, "move %d (%s): illegal for %s", game->move_count + 1,
                         move_format(move, name),
                         (side == COLOR_BLACK) == (needed == 1) ? "black" : "white");
    }
    if (needed == 2)
        game->moves[game->move_count++] = MOVE_PASS;
    game->moves[game->move_count++] = move;
    return true;
}

bool game_append_colored(Game *game, Color color, int move, OctError *error)
{
    Board board;
    Color side;
    game_position(game, game->move_count, &board, &side);
    char name[3];
    move_format(move, name);
    const char *mover = color == COLOR_BLACK ? "black" : "white";
    if (board_is_over(&board))
        return error_set(error, "move %d (%s): the game is already over", game->move_count + 1,
                         name);
    if (color != side) {
        if (board_can_move(&board))
            return error_set(error, "move %d (%s): played by %s, but %s is to move and cannot "
                             "pass, it has a legal move", game->move_count + 1, name, mover,
                             side == COLOR_BLACK ? "black" : "white");
        Game work = *game;
        if (!game_append(&work, MOVE_PASS, error) || !game_append(&work, move, error))
            return false;
        *game = work;
        return true;
    }
    if (move != MOVE_PASS && !board_can_move(&board))
        return error_set(error, "move %d (%s): illegal for %s, which has no legal move",
                         game->move_count + 1, name, mover);
    return game_append(game, move, error);
}

bool game_is_over(const Game *game)
{
    Board board;
    game_position(game, game->move_count, &board, NULL);
    return board_is_over(&board);
}

int game_black_score(const Game *game)
{
    Board board;
    Color side;
    game_position(game, game->move_count, &board, &side);
    int score = board_final_score(&board);
    return side == COLOR_BLACK ? score : -score;
}

bool game_parse_moves(Game *game, const char *text, OctError *error)
{
    Game work = *game;
    const char *p = text;
    while (*p) {
        if (isspace((unsigned char)*p)) {
            ++p;
            continue;
        }
        size_t used;
        int move = move_parse(p, &used);
        if (move < 0) {
            return error_set(error, "move string: bad move '%.2s' at character %d",
                             p, (int)(p - text) + 1);
        }
        if (!game_append(&work, move, error))
            return error_prefix(error, "move string: ");
        p += used;
    }
    *game = work;
    return true;
}

bool game_format_moves(const Game *game, char *out, size_t size)
{
    if (size < (size_t)game->move_count * 2 + 1)
        return false;
    for (int i = 0; i < game->move_count; ++i)
        move_format(game->moves[i], out + 2 * i);
    out[game->move_count * 2] = '\0';
    return true;
}

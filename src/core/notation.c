#include "core/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int move_parse(const char *text, size_t *length)
{
    size_t used = 0;
    int move = -1;
    if (strncasecmp(text, "pass", 4) == 0) {
        move = MOVE_PASS;
        used = 4;
    } else if (strncasecmp(text, "pa", 2) == 0 || strncmp(text, "--", 2) == 0) {
        move = MOVE_PASS;
        used = 2;
    } else {
        int col = tolower((unsigned char)text[0]) - 'a';
        int row = text[0] ? text[1] - '1' : -1;
        if (col >= 0 && col < 8 && row >= 0 && row < 8) {
            move = row * 8 + col;
            used = 2;
        }
    }
    if (length)
        *length = used;
    return move;
}

char *move_format(int move, char *out)
{
    if (move == MOVE_PASS) {
        strcpy(out, "pa");
    } else if (move >= 0 && move < SQUARE_COUNT) {
        out[0] = (char)('a' + move % 8);
        out[1] = (char)('1' + move / 8);
        out[2] = '\0';
    } else {
        strcpy(out, "--");
    }
    return out;
}

char *move_format_colored(int move, Color color, char *out)
{
    move_format(move, out);
    /* a pass is PA whoever passes: the spelling every GUI's move reader knows, where the
     * case of a move inside a line only shows whose move it is */
    if (color == COLOR_BLACK || move == MOVE_PASS)
        for (char *c = out; *c; ++c)
            *c = (char)toupper((unsigned char)*c);
    return out;
}

char *board_format(const Board *board, Color side, char *out)
{
    char mine = side == COLOR_BLACK ? 'X' : 'O';
    char theirs = side == COLOR_BLACK ? 'O' : 'X';
    for (int square = 0; square < SQUARE_COUNT; ++square) {
        uint64_t bit = 1ULL << square;
        out[square] = (board->player & bit) ? mine : (board->opponent & bit) ? theirs : '-';
    }
    out[64] = ' ';
    out[65] = side == COLOR_BLACK ? 'X' : 'O';
    out[66] = '\0';
    return out;
}

/* 0 black, 1 white, 2 empty, -1 not a square character */
static int square_char(char c)
{
    switch (c) {
    case 'X': case 'x': case 'B': case 'b': case '*': return 0;
    case 'O': case 'o': case 'W': case 'w': case '0': return 1;
    case '-': case '.': case '_': return 2;
    default: return -1;
    }
}

bool board_parse(const char *text, Board *board, Color *side, OctError *error)
{
    uint64_t discs[2] = {0, 0};
    int square = 0;
    const char *p = text;
    for (; *p && square < SQUARE_COUNT; ++p) {
        if (isspace((unsigned char)*p))
            continue;
        int kind = square_char(*p);
        if (kind < 0)
            return error_set(error, "board: unexpected character '%c' at square %d "
                             "(expected X, O or -)", *p, square + 1);
        if (kind < 2)
            discs[kind] |= 1ULL << square;
        ++square;
    }
    if (square < SQUARE_COUNT)
        return error_set(error, "board: only %d of 64 squares given", square);
    while (isspace((unsigned char)*p))
        ++p;
    Color color;
    switch (*p) {
    case 'X': case 'x': case 'B': case 'b': case '*': color = COLOR_BLACK; break;
    case 'O': case 'o': case 'W': case 'w': color = COLOR_WHITE; break;
    case '\0': return error_set(error, "board: side to move missing after the 64 squares");
    default: return error_set(error, "board: bad side to move '%c' (expected X or O)", *p);
    }
    board->player = discs[color];
    board->opponent = discs[!color];
    *side = color;
    return true;
}

bool board_parse_line(const char *text, Board *board, Color *side, OctError *error)
{
    Board parsed;
    Color color;
    if (!board_parse(text, &parsed, &color, error))
        return false;
    /* the 64 squares and the side are the first 65 characters that are not spaces */
    const char *rest = text;
    for (int seen = 0; seen < SQUARE_COUNT + 1; ++rest)
        seen += !isspace((unsigned char)*rest);
    while (isspace((unsigned char)*rest))
        ++rest;
    if (*rest)
        return error_set(error, "board: unexpected '%.20s' after the side to move", rest);
    *board = parsed;
    *side = color;
    return true;
}

char *board_diagram(const Board *board, Color side, char *out)
{
    uint64_t black = side == COLOR_BLACK ? board->player : board->opponent;
    uint64_t white = side == COLOR_BLACK ? board->opponent : board->player;
    uint64_t legal = board_legal(board);
    char *w = out;
    w += sprintf(w, "  A B C D E F G H\n");
    for (int row = 0; row < 8; ++row) {
        w += sprintf(w, "%d", row + 1);
        for (int col = 0; col < 8; ++col) {
            uint64_t bit = 1ULL << (row * 8 + col);
            char c = (black & bit) ? '*' : (white & bit) ? 'O' : (legal & bit) ? '.' : '-';
            w += sprintf(w, " %c", c);
        }
        w += sprintf(w, " %d", row + 1);
        if (row == 1)
            w += sprintf(w, "   * black: %2d", __builtin_popcountll(black));
        else if (row == 2)
            w += sprintf(w, "   O white: %2d", __builtin_popcountll(white));
        else if (row == 4) {
            if (board_is_over(board))
                w += sprintf(w, "   game over");
            else
                w += sprintf(w, "   %s to move (%d moves)", side == COLOR_BLACK ? "black" : "white",
                             __builtin_popcountll(legal));
        }
        *w++ = '\n';
    }
    sprintf(w, "  A B C D E F G H\n");
    return out;
}

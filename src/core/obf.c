#include "core/obf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/notation.h"
#include "core/parse.h"

/* Longest line the file reader accepts; real lines are under 200 characters. */
enum {
    OBF_READ_LINE_SIZE = 4096,
    OBF_FILE_LIMIT = 1 << 28 /* 256 MB: millions of positions */
};
/* The board field may carry spaces between rows; anything longer than this is not a board. */
enum { OBF_BOARD_FIELD_SIZE = 512 };

/* Length of the token starting at p, for quoting it in a message (stops at space or ';'). */
static int token_length(const char *p)
{
    int n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ';' && n < 12)
        ++n;
    return n;
}

static bool move_is_legal(const Board *board, int move)
{
    if (move == MOVE_PASS)
        return !board_can_move(board) && !board_is_over(board);
    return (board_legal(board) >> move) & 1;
}

/* Parses "+38", "-2", "0": a sign is optional, at most two digits (|score| <= 64). */
static bool parse_score(const char **cursor, int *score)
{
    const char *p = *cursor;
    int sign = 1;
    if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        ++p;
    }
    int value = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 3) {
        value = value * 10 + (*p - '0');
        ++digits;
        ++p;
    }
    if (digits == 0 || isdigit((unsigned char)*p) || value > 64)
        return false;
    *score = sign * value;
    *cursor = p;
    return true;
}

/* The "<squares> <side>" part before the first ';'. */
static bool parse_board_field(const char *begin, const char *end, ObfPosition *work,
                              OctError *error)
{
    size_t length = (size_t)(end - begin);
    int characters = 0;
    for (const char *p = begin; p < end; ++p)
        if (!isspace((unsigned char)*p))
            ++characters;
    /* Count first: board_parse alone would take a missing square's place from the side. */
    if (characters != SQUARE_COUNT + 1)
        return error_set(error, "board: expected 64 squares and a side to move before ';', "
                         "found %d characters", characters);
    if (length >= OBF_BOARD_FIELD_SIZE)
        return error_set(error, "board: field too long (%zu characters)", length);
    char field[OBF_BOARD_FIELD_SIZE];
    memcpy(field, begin, length);
    field[length] = '\0';
    return board_parse(field, &work->board, &work->side, error);
}

ObfStatus obf_parse_line(const char *line, ObfPosition *position, OctError *error)
{
    const char *p = skip_space(line);
    if (*p == '\0' || *p == '%')
        return OBF_NOT_POSITION;
    const char *semicolon = strchr(p, ';');
    if (!semicolon) {
        error_set(error, "missing ';' after the side to move");
        return OBF_ERROR;
    }
    ObfPosition work;
    memset(&work, 0, sizeof work);
    if (!parse_board_field(p, semicolon, &work, error))
        return OBF_ERROR;

    p = semicolon + 1;
    for (;;) {
        p = skip_space(p);
        if (*p == '\0' || *p == '%')
            break;
        int index = work.move_count + 1;
        if (work.move_count == OBF_MOVE_CAPACITY) {
            error_set(error, "move %d: more than %d moves", index, OBF_MOVE_CAPACITY);
            return OBF_ERROR;
        }
        size_t used = 0;
        int move = move_parse(p, &used);
        if (move < 0) {
            error_set(error, "move %d: bad move '%.*s' (expected a square like A2)", index,
                      token_length(p), p);
            return OBF_ERROR;
        }
        char name[3];
        move_format(move, name);
        if (!move_is_legal(&work.board, move)) {
            error_set(error, "move %d (%s): not legal in this position", index, name);
            return OBF_ERROR;
        }
        for (int i = 0; i < work.move_count; ++i) {
            if (work.moves[i] == move) {
                error_set(error, "move %d (%s): listed twice", index, name);
                return OBF_ERROR;
            }
        }
        p = skip_space(p + used);
        if (*p != ':') {
            error_set(error, "move %d (%s): expected ':' and a score after the move", index,
                      name);
            return OBF_ERROR;
        }
        p = skip_space(p + 1);
        int score;
        if (!parse_score(&p, &score)) {
            error_set(error, "move %d (%s): bad score '%.*s' (expected -64..+64)", index, name,
                      token_length(p), p);
            return OBF_ERROR;
        }
        p = skip_space(p);
        /* The last pair may omit its ';'. */
        if (*p == ';')
            ++p;
        else if (*p != '\0' && *p != '%') {
            error_set(error, "move %d (%s): expected ';' after the score", index, name);
            return OBF_ERROR;
        }
        /* kept best first, as the readers take the first pair for the best: a file that
         * lists them in another order (by hand, by square) is judged by its scores */
        int at = work.move_count;
        for (; at > 0 && work.scores[at - 1] < score; --at) {
            work.moves[at] = work.moves[at - 1];
            work.scores[at] = work.scores[at - 1];
        }
        work.moves[at] = move;
        work.scores[at] = score;
        ++work.move_count;
    }
    *position = work;
    return OBF_POSITION;
}

bool obf_format_line(const ObfPosition *position, char *out, size_t size, OctError *error)
{
    if (position->move_count < 0 || position->move_count > OBF_MOVE_CAPACITY)
        return error_set(error, "OBF: bad move count %d", position->move_count);
    char text[OBF_LINE_SIZE];
    board_format(&position->board, position->side, text);
    size_t used = strlen(text);
    text[used++] = ';';
    for (int i = 0; i < position->move_count; ++i) {
        int move = position->moves[i];
        int score = position->scores[i];
        if (move < 0 || move > MOVE_PASS)
            return error_set(error, "OBF: move %d: bad square %d", i + 1, move);
        if (score < -64 || score > 64)
            return error_set(error, "OBF: move %d: score %d out of range", i + 1, score);
        char name[3];
        move_format_colored(move, COLOR_BLACK, name); /* upper case, as FForum files have */
        used += (size_t)snprintf(text + used, sizeof text - used, " %s:%+d;", name, score);
    }
    text[used] = '\0';
    if (used + 1 > size)
        return error_set(error, "OBF: line needs %zu bytes, buffer has %zu", used + 1, size);
    memcpy(out, text, used + 1);
    return true;
}

bool obf_read_file(const char *path, ObfPosition **positions, size_t *count, OctError *error)
{
    /* read whole, as text: a NUL byte is an error (it would end a line early), and a device
     * that never ends (/dev/zero) stops at the limit */
    char *text;
    if (!file_read_text(path, OBF_FILE_LIMIT, &text, error))
        return false;
    ObfPosition *list = NULL;
    size_t used = 0;
    size_t capacity = 0;
    long number = 0;
    bool ok = true;
    char *next = text;
    while (ok && *next) {
        char *line = next;
        char *newline = strchr(line, '\n');
        next = newline ? newline + 1 : line + strlen(line);
        if (newline)
            *newline = '\0';
        ++number;
        if (strlen(line) > OBF_READ_LINE_SIZE - 2) {
            ok = error_set(error, "%s: line %ld: longer than %d characters", path, number,
                           OBF_READ_LINE_SIZE - 2);
            break;
        }
        ObfPosition position;
        ObfStatus status = obf_parse_line(line, &position, error);
        if (status == OBF_NOT_POSITION)
            continue;
        if (status == OBF_ERROR) {
            ok = error_prefix(error, "%s: line %ld: ", path, number);
            break;
        }
        if (used == capacity) {
            size_t grown = capacity ? capacity * 2 : 64;
            ObfPosition *bigger = realloc(list, grown * sizeof *bigger);
            if (!bigger) {
                ok = error_set(error, "%s: line %ld: out of memory", path, number);
                break;
            }
            list = bigger;
            capacity = grown;
        }
        list[used++] = position;
    }
    free(text);
    if (!ok) {
        free(list);
        return false;
    }
    *positions = list;
    *count = used;
    return true;
}

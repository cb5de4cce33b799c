#include "core/logbook.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/fileio.h"

#include "core/notation.h"

/* Real lines are about 190 characters; anything past this is not a game line. */
enum { LOGBOOK_READ_LINE_SIZE = 1024 };

struct LogbookReader {
    gzFile file;
    char *path;
    long line;
    bool finished; /* end of file or a read error: later calls return LOGBOOK_END */
};

int logbook_final_score(const Game *game)
{
    Board board;
    Color side;
    game_position(game, game->move_count, &board, &side);
    int difference = board_count_player(&board) - board_count_opponent(&board);
    return side == COLOR_BLACK ? difference : -difference;
}

bool logbook_parse_line(const char *line, LogbookGame *out, OctError *error)
{
    LogbookGame work;
    game_init(&work.game);
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        ++p;
    int token = 0;
    while (*p == '+' || *p == '-') {
        ++token;
        int column = (int)(p - line) + 1;
        int col = p[1] ? tolower((unsigned char)p[1]) - 'a' : -1;
        int row = p[1] ? p[2] - '1' : -1;
        if (col < 0 || col > 7 || row < 0 || row > 7)
            return error_set(error, "column %d: bad token %d '%.3s' (expected + or - and a "
                             "square like d3)", column, token, p);
        Color color = *p == '+' ? COLOR_BLACK : COLOR_WHITE;
        if (!game_append_colored(&work.game, color, row * 8 + col, error))
            return error_prefix(error, "column %d: ", column);
        p += 3;
    }
    if (*p != ':') {
        int column = (int)(p - line) + 1;
        if (*p == '\0' || *p == '\n' || *p == '\r')
            return error_set(error, "column %d: missing ':' and the score after the moves",
                             column);
        return error_set(error, "column %d: bad token '%.3s' (expected + or - and a square, "
                         "or ':')", column, p);
    }
    ++p;
    while (*p == ' ' || *p == '\t')
        ++p;
    const char *number = p;
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    int value = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 3) {
        value = value * 10 + (*p++ - '0');
        ++digits;
    }
    if (digits == 0 || isdigit((unsigned char)*p) || value > 64 ||
        (*p && !isspace((unsigned char)*p)))
        return error_set(error, "column %d: bad score '%.5s' (expected -64..+64)",
                         (int)(number - line) + 1, number);
    work.score = sign * value;
    /* The field after the score is not used by anyone; it is not checked. */
    if (game_is_over(&work.game)) {
        int replayed = logbook_final_score(&work.game);
        if (replayed != work.score) {
            Board board;
            Color side;
            game_position(&work.game, work.game.move_count, &board, &side);
            int black = side == COLOR_BLACK ? board_count_player(&board)
                                            : board_count_opponent(&board);
            int white = SQUARE_COUNT - board_count_empties(&board) - black;
            return error_set(error, "stated score %+d, but the game ends %d-%d (%+d)",
                             work.score, black, white, replayed);
        }
    }
    *out = work;
    return true;
}

bool logbook_format_line(const LogbookGame *game, char *out, size_t size, OctError *error)
{
    const Game *g = &game->game;
    if (!game_is_standard(g))
        return error_set(error, "logbook: game does not start from the standard position");
    if (game->score < -64 || game->score > 64)
        return error_set(error, "logbook: score %d out of range", game->score);
    if (g->move_count < 0 || g->move_count > GAME_MOVE_CAPACITY)
        return error_set(error, "logbook: bad move count %d", g->move_count);
    char text[3 * GAME_MOVE_CAPACITY + 16];
    size_t used = 0;
    Color side = COLOR_BLACK;
    for (int i = 0; i < g->move_count; ++i) {
        int move = g->moves[i];
        if (move >= 0 && move < SQUARE_COUNT) { /* passes show as a repeated sign */
            text[used++] = side == COLOR_BLACK ? '+' : '-';
            move_format(move, text + used);
            used += 2;
        }
        side = (Color)!side;
    }
    used += (size_t)snprintf(text + used, sizeof text - used, ": %+03d 0", game->score);
    if (used + 1 > size)
        return error_set(error, "logbook: line needs %zu bytes, buffer has %zu", used + 1,
                         size);
    memcpy(out, text, used + 1);
    return true;
}

LogbookReader *logbook_open(const char *path, OctError *error)
{
    LogbookReader *reader = calloc(1, sizeof *reader);
    char *copy = strdup(path);
    if (!reader || !copy) {
        free(reader);
        free(copy);
        error_set(error, "%s: out of memory", path);
        return NULL;
    }
    int fd = file_open_read(path, error);
    /* gzdopen reads plain files as they are, so one reader serves both. */
    reader->file = fd < 0 ? NULL : gzdopen(fd, "rb");
    if (!reader->file) {
        if (fd >= 0) {
            error_set(error, "%s: cannot open: out of memory", path);
            close(fd);
        }
        free(reader);
        free(copy);
        return NULL;
    }
    gzbuffer(reader->file, 1 << 16);
    reader->path = copy;
    return reader;
}

static bool is_blank(const char *line)
{
    for (; *line; ++line)
        if (!isspace((unsigned char)*line))
            return false;
    return true;
}

LogbookStatus logbook_next(LogbookReader *reader, LogbookGame *out, OctError *error)
{
    char line[LOGBOOK_READ_LINE_SIZE];
    while (!reader->finished) {
        if (!gzgets(reader->file, line, sizeof line)) {
            reader->finished = true;
            int code;
            const char *message = gzerror(reader->file, &code);
            if (code != Z_OK && code != Z_STREAM_END) {
                error_set(error, "%s: line %ld: read error: %s", reader->path,
                          reader->line + 1, code == Z_ERRNO ? strerror(errno) : message);
                return LOGBOOK_ERROR;
            }
            return LOGBOOK_END;
        }
        ++reader->line;
        size_t length = strlen(line);
        if (length == sizeof line - 1 && line[length - 1] != '\n' && !gzeof(reader->file)) {
            /* Skip the rest of the overlong line so the next call starts on a fresh one. */
            int c;
            while ((c = gzgetc(reader->file)) != -1 && c != '\n')
                ;
            error_set(error, "%s: line %ld: longer than %d characters", reader->path,
                      reader->line, LOGBOOK_READ_LINE_SIZE - 2);
            return LOGBOOK_ERROR;
        }
        if (is_blank(line))
            continue;
        if (!logbook_parse_line(line, out, error)) {
            /* a last line cut off by a damaged or truncated gzip stream: say that, not
             * which of its tokens broke off */
            int code;
            gzerror(reader->file, &code);
            if (code != Z_OK && code != Z_STREAM_END && line[length - 1] != '\n') {
                reader->finished = true;
                error_set(error, "%s: line %ld: the data ends inside this line (%s)",
                          reader->path, reader->line, code == Z_ERRNO ? strerror(errno)
                          : "the compressed stream breaks off: a truncated or damaged file");
                return LOGBOOK_ERROR;
            }
            error_prefix(error, "%s: line %ld: ", reader->path, reader->line);
            return LOGBOOK_ERROR;
        }
        return LOGBOOK_GAME;
    }
    return LOGBOOK_END;
}

long logbook_line_number(const LogbookReader *reader)
{
    return reader->line;
}

void logbook_close(LogbookReader *reader)
{
    if (!reader)
        return;
    gzclose(reader->file);
    free(reader->path);
    free(reader);
}

bool logbook_read_file(const char *path, LogbookCallback callback, void *user, OctError *error)
{
    LogbookReader *reader = logbook_open(path, error);
    if (!reader)
        return false;
    bool ok = true;
    LogbookGame game;
    for (;;) {
        LogbookStatus status = logbook_next(reader, &game, error);
        if (status == LOGBOOK_END)
            break;
        if (status == LOGBOOK_ERROR) {
            ok = false;
            break;
        }
        if (!callback(&game, user))
            break;
    }
    logbook_close(reader);
    return ok;
}

#include "core/ggf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fileio.h"
#include "core/notation.h"
#include "core/parse.h"

/* Values are unescaped into a buffer this big; only comments get longer, and those are skipped
 * or truncated, so longer BO or move values are errors. */
enum { GGF_VALUE_SIZE = 1024 };
/* Tag names are two letters in practice; a longer run of letters is not a tag. */
enum { GGF_NAME_SIZE = 9 };
/* Whole-file reads stop here; GGS archives are far smaller. */
#define GGF_FILE_LIMIT ((size_t)1 << 30)

void ggf_init(GgfRecord *record)
{
    memset(record, 0, sizeof *record);
    game_init(&record->game);
    for (int i = 0; i < GAME_MOVE_CAPACITY; ++i) {
        record->evals[i] = NAN;
        record->times[i] = NAN;
    }
}

/* Copies at most size - 1 bytes, never ending inside a UTF-8 sequence when it has to cut. */
static void copy_truncated(char *out, size_t size, const char *text, size_t length)
{
    size_t cut = length < size - 1 ? length : size - 1;
    if (cut < length) {
        size_t backed = 0;
        while (cut > 0 && backed < 3 && ((unsigned char)text[cut] & 0xC0) == 0x80) {
            --cut;
            ++backed;
        }
    }
    memcpy(out, text, cut);
    out[cut] = '\0';
}

/* Strips leading and trailing whitespace in place; returns the start. */
static char *trim(char *text)
{
    while (*text && isspace((unsigned char)*text))
        ++text;
    size_t length = strlen(text);
    while (length > 0 && isspace((unsigned char)text[length - 1]))
        text[--length] = '\0';
    return text;
}

/* An optional number of a move value: empty means absent (NAN). */
static bool parse_number(const char *text, double *value)
{
    if (*text == '\0') {
        *value = NAN;
        return true;
    }
    char *end;
    errno = 0;
    /* plain decimals only: strtod would also read hexadecimal (0x10 as 16) */
    if (strpbrk(text, "xX"))
        return false;
    double v = strtod(text, &end);
    /* ERANGE with a finite result is an underflow: a tiny number, as written, is kept */
    if (end == text || *end != '\0' || !isfinite(v))
        return false;
    *value = v;
    return true;
}

/* A record under construction plus where the parser is. */
typedef struct Parser {
    GgfRecord record;
    bool has_moves;
} Parser;

static bool parse_board(Parser *parser, char *value, OctError *error)
{
    if (parser->has_moves)
        return error_set(error, "BO: start position given after the first move");
    char *p = trim(value);
    int size = 0;
    int digits = 0;
    while (isdigit((unsigned char)*p) && digits < 3) {
        size = size * 10 + (*p++ - '0');
        ++digits;
    }
    if (digits == 0)
        return error_set(error, "BO: board size missing (expected 'BO[8 ...]')");
    if (size != 8 || isdigit((unsigned char)*p))
        return error_set(error, "BO: board size %d not supported (only 8)", size);
    int characters = 0;
    for (const char *c = p; *c; ++c)
        if (!isspace((unsigned char)*c))
            ++characters;
    /* Count first: board_parse alone would take a missing square's place from the side. */
    if (characters != SQUARE_COUNT + 1)
        return error_set(error, "BO: expected 64 squares and a side to move, found %d "
                         "characters", characters);
    Board board;
    Color side;
    if (!board_parse(p, &board, &side, error))
        return error_prefix(error, "BO: ");
    game_init_from(&parser->record.game, &board, side);
    return true;
}

static bool parse_move(Parser *parser, Color color, char *value, OctError *error)
{
    const char *tag = color == COLOR_BLACK ? "B" : "W";
    char none_eval[1] = "";
    char none_time[1] = "";
    char *fields[3] = {value, none_eval, none_time};
    int field_count = 1;
    for (char *c = value; *c; ++c) {
        if (*c == '/') {
            if (field_count == 3)
                return error_set(error, "%s[%.40s]: more than move/eval/time", tag, value);
            *c = '\0';
            fields[field_count++] = c + 1;
        }
    }
    char *square = trim(fields[0]);
    size_t used = 0;
    int move = move_parse(square, &used);
    if (move < 0 || used != strlen(square))
        return error_set(error, "%s[%.40s]: bad move (expected a square like F5 or PA)", tag,
                         square);
    double eval;
    double seconds;
    if (!parse_number(trim(fields[1]), &eval))
        return error_set(error, "%s[%s]: bad evaluation '%.40s'", tag, square, fields[1]);
    if (!parse_number(trim(fields[2]), &seconds))
        return error_set(error, "%s[%s]: bad time '%.40s'", tag, square, fields[2]);
    GgfRecord *record = &parser->record;
    if (!game_append_colored(&record->game, color, move, error))
        return error_prefix(error, "%s[%s]: ", tag, square);
    record->evals[record->game.move_count - 1] = eval;
    record->times[record->game.move_count - 1] = seconds;
    parser->has_moves = true;
    return true;
}

static char *metadata_field(GgfRecord *record, const char *name)
{
    static const struct {
        const char *name;
        size_t offset;
    } fields[] = {
        {"PB", offsetof(GgfRecord, black)},  {"PW", offsetof(GgfRecord, white)},
        {"PC", offsetof(GgfRecord, place)},  {"DT", offsetof(GgfRecord, date)},
        {"RE", offsetof(GgfRecord, result)}, {"TI", offsetof(GgfRecord, clock)},
        {"TY", offsetof(GgfRecord, type)},   {"TB", offsetof(GgfRecord, black_clock)},
        {"TW", offsetof(GgfRecord, white_clock)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if (strcmp(name, fields[i].name) == 0)
            return (char *)record + fields[i].offset;
    return NULL;
}

/* Reads "[value]" at p (p points at '['); unescapes `\x` into `value` (bounded). */
static const char *read_value(const char *p, char *value, size_t *length, bool *truncated)
{
    size_t n = 0;
    *truncated = false;
    for (++p; *p && *p != ']'; ++p) {
        if (*p == '\\' && p[1])
            ++p;
        if (n < GGF_VALUE_SIZE - 1)
            value[n++] = *p;
        else
            *truncated = true;
    }
    value[n] = '\0';
    *length = n;
    return *p == ']' ? p + 1 : NULL;
}

/* The parser proper. `where` receives the position of an error, for the callers' messages. */
static bool parse_record(const char *text, GgfRecord *out, const char **end, const char **where,
                         OctError *error)
{
    const char *p = strstr(text, "(;");
    *where = text;
    if (!p)
        return error_set(error, "no record: '(;' not found");
    Parser parser;
    ggf_init(&parser.record);
    parser.has_moves = false;
    p += 2;
    for (;;) {
        p = skip_space(p);
        *where = p;
        if (*p == '\0')
            return error_set(error, "record not closed: ';)' missing at the end");
        if (p[0] == ';' && p[1] == ')') {
            p += 2;
            break;
        }
        if (p[0] == '(' && p[1] == ';')
            return error_set(error, "record not closed: ';)' missing before the next '(;'");
        if (*p == ';') { /* GGS separates nodes with ';' in some records */
            ++p;
            continue;
        }
        char name[GGF_NAME_SIZE];
        int length = 0;
        while (isalpha((unsigned char)*p) && length < GGF_NAME_SIZE - 1)
            name[length++] = (char)toupper((unsigned char)*p++);
        name[length] = '\0';
        if (length == 0)
            return error_set(error, "unexpected character '%c' where a tag was expected", *p);
        if (isalpha((unsigned char)*p))
            return error_set(error, "tag name '%s...' too long", name);
        p = skip_space(p);
        if (*p != '[')
            return error_set(error, "tag %s: expected '[' after the name", name);
        char value[GGF_VALUE_SIZE];
        size_t value_length;
        bool truncated;
        const char *next = read_value(p, value, &value_length, &truncated);
        if (!next)
            return error_set(error, "tag %s: value not closed by ']'", name);
        char *field = metadata_field(&parser.record, name);
        bool ok = true;
        if (field) {
            copy_truncated(field, GGF_TEXT_SIZE, value, value_length);
        } else if (strcmp(name, "GM") == 0) {
            if (strcasecmp(trim(value), "Othello") != 0)
                ok = error_set(error, "GM[%.40s]: not an Othello game", value);
        } else if (strcmp(name, "BO") == 0 || strcmp(name, "B") == 0 || strcmp(name, "W") == 0) {
            if (truncated)
                ok = error_set(error, "tag %s: value longer than %d characters", name,
                               GGF_VALUE_SIZE - 1);
            else if (name[0] == 'B' && name[1] == 'O')
                ok = parse_board(&parser, value, error);
            else
                ok = parse_move(&parser, name[0] == 'B' ? COLOR_BLACK : COLOR_WHITE, value,
                                error);
        } /* any other tag is skipped */
        if (!ok)
            return false;
        p = next;
    }
    *out = parser.record;
    if (end)
        *end = p;
    return true;
}

bool ggf_parse(const char *text, GgfRecord *record, const char **end, OctError *error)
{
    const char *where;
    if (!parse_record(text, record, end, &where, error))
        return error_prefix(error, "GGF: character %td: ", where - text + 1);
    return true;
}

/* Shortest fixed-point text that reads back as exactly `value`. */
static void format_number(double value, char *out, size_t size)
{
    for (int decimals = 0; decimals <= 17; ++decimals) {
        int n = snprintf(out, size, "%.*f", decimals, value);
        if (n < 0 || (size_t)n >= size)
            break;
        if (strtod(out, NULL) == value)
            return;
    }
    snprintf(out, size, "%.17g", value);
}

/* Appends to a bounded buffer; `*used` keeps growing past `size` so overflow is detected once. */
typedef struct Writer {
    char *out;
    size_t size;
    size_t used;
} Writer;

static void write_text(Writer *w, const char *text)
{
    for (; *text; ++text) {
        if (w->used + 1 < w->size)
            w->out[w->used] = *text;
        ++w->used;
    }
}

static void write_escaped(Writer *w, const char *text)
{
    char one[3] = {0, 0, 0};
    for (; *text; ++text) {
        bool special = *text == ']' || *text == '\\';
        one[0] = special ? '\\' : *text;
        one[1] = special ? *text : '\0';
        write_text(w, one);
    }
}

static void write_tag(Writer *w, const char *name, const char *value)
{
    /* Bounded copy: a caller may have filled the whole field without a terminating NUL. */
    char text[GGF_TEXT_SIZE];
    size_t length = strnlen(value, GGF_TEXT_SIZE - 1);
    memcpy(text, value, length);
    text[length] = '\0';
    if (!text[0])
        return;
    write_text(w, name);
    write_text(w, "[");
    write_escaped(w, text);
    write_text(w, "]");
}

bool ggf_format(const GgfRecord *record, char *out, size_t size, OctError *error)
{
    const Game *game = &record->game;
    if (game->move_count < 0 || game->move_count > GAME_MOVE_CAPACITY)
        return error_set(error, "GGF: bad move count %d", game->move_count);
    Writer w = {out, size, 0};
    write_text(&w, "(;GM[Othello]");
    write_tag(&w, "PC", record->place);
    write_tag(&w, "DT", record->date);
    write_tag(&w, "PB", record->black);
    write_tag(&w, "PW", record->white);
    write_tag(&w, "RE", record->result);
    write_tag(&w, "TI", record->clock);
    write_tag(&w, "TB", record->black_clock);
    write_tag(&w, "TW", record->white_clock);
    write_tag(&w, "TY", record->type);

    char squares[BOARD_TEXT_SIZE];
    board_format(&game->start, game->start_side, squares);
    for (int i = 0; i < SQUARE_COUNT; ++i)
        if (squares[i] == 'X')
            squares[i] = '*';
    squares[65] = game->start_side == COLOR_BLACK ? '*' : 'O';
    write_text(&w, "BO[8 ");
    write_text(&w, squares);
    write_text(&w, "]");

    Color side = game->start_side;
    for (int i = 0; i < game->move_count; ++i) {
        char name[3];
        char number[64];
        write_text(&w, side == COLOR_BLACK ? "B[" : "W[");
        write_text(&w, move_format_colored(game->moves[i], COLOR_BLACK, name));
        bool has_eval = isfinite(record->evals[i]);
        bool has_time = isfinite(record->times[i]);
        if (has_eval || has_time) {
            write_text(&w, "/");
            if (has_eval) {
                format_number(record->evals[i], number, sizeof number);
                write_text(&w, number);
            }
        }
        if (has_time) {
            format_number(record->times[i], number, sizeof number);
            write_text(&w, "/");
            write_text(&w, number);
        }
        write_text(&w, "]");
        side = (Color)!side;
    }
    write_text(&w, ";)");
    if (w.used + 1 > size)
        return error_set(error, "GGF: record needs %zu bytes, buffer has %zu", w.used + 1, size);
    out[w.used] = '\0';
    return true;
}

static long count_lines(const char *from, const char *to)
{
    long lines = 0;
    for (const char *c = from; c < to; ++c)
        if (*c == '\n')
            ++lines;
    return lines;
}

bool ggf_read_each(const char *path, GgfCallback callback, void *user, OctError *error)
{
    char *text; /* as text: a NUL byte would hide the records after it */
    if (!file_read_text(path, GGF_FILE_LIMIT, &text, error))
        return false;
    GgfRecord *record = malloc(sizeof *record);
    if (!record) {
        free(text);
        return error_set(error, "%s: out of memory", path);
    }
    const char *p = text;
    const char *counted = text; /* lines are counted incrementally up to here */
    long line = 1;
    bool ok = true;
    for (long number = 1;; ++number) {
        const char *start = strstr(p, "(;");
        if (!start)
            break;
        line += count_lines(counted, start);
        counted = start;
        const char *end;
        const char *where;
        if (!parse_record(start, record, &end, &where, error)) {
            long error_line = line + count_lines(start, where);
            ok = error_prefix(error, "%s: record %ld, line %ld: ", path, number, error_line);
            break;
        }
        if (!callback(record, user))
            break;
        p = end;
    }
    free(record);
    free(text);
    return ok;
}

typedef struct Collector {
    GgfRecord *records;
    size_t count;
    size_t capacity;
    bool out_of_memory;
} Collector;

static bool collect(const GgfRecord *record, void *user)
{
    Collector *c = user;
    if (c->count == c->capacity) {
        size_t grown = c->capacity ? c->capacity * 2 : 16;
        GgfRecord *bigger = realloc(c->records, grown * sizeof *bigger);
        if (!bigger) {
            c->out_of_memory = true;
            return false;
        }
        c->records = bigger;
        c->capacity = grown;
    }
    c->records[c->count++] = *record;
    return true;
}

bool ggf_read_file(const char *path, GgfRecord **records, size_t *count, OctError *error)
{
    Collector c = {NULL, 0, 0, false};
    bool ok = ggf_read_each(path, collect, &c, error);
    if (ok && c.out_of_memory)
        ok = error_set(error, "%s: out of memory after %zu records", path, c.count);
    if (!ok) {
        free(c.records);
        return false;
    }
    *records = c.records;
    *count = c.count;
    return true;
}

#include "core/wthor.h"

#include <dirent.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"

static unsigned read_u16(const unsigned char *b)
{
    return (unsigned)b[0] | (unsigned)b[1] << 8;
}

static uint32_t read_u32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void write_u16(unsigned char *b, unsigned value)
{
    b[0] = (unsigned char)(value & 0xFF);
    b[1] = (unsigned char)(value >> 8 & 0xFF);
}

static void write_u32(unsigned char *b, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        b[i] = (unsigned char)(value >> (8 * i) & 0xFF);
}

static void decode_header(const unsigned char *b, WthorHeader *h)
{
    h->century = b[0];
    h->year = b[1];
    h->month = b[2];
    h->day = b[3];
    h->game_count = read_u32(b + 4);
    h->record_count = (uint16_t)read_u16(b + 8);
    h->game_year = (uint16_t)read_u16(b + 10);
    h->board_size = b[12];
    h->game_type = b[13];
    h->depth = b[14];
    h->reserved = b[15];
}

/* Reads the header and all records of a file whose record count comes from the header. The
 * size is checked before anything is allocated, so a lying header cannot make us allocate or
 * read past the file. *records is malloc'ed (NULL when there are none). */
static bool load(const char *path, bool games, size_t record_size, WthorHeader *header,
                 unsigned char **records, size_t *record_count, OctError *error)
{
    FILE *file = file_open_stream(path, error);
    if (!file)
        return false;
    struct stat info;
    if (fstat(fileno(file), &info) != 0 || !S_ISREG(info.st_mode)) {
        fclose(file);
        return error_set(error, "%s: not a regular file", path);
    }
    unsigned long long size = (unsigned long long)info.st_size;
    unsigned char head[WTHOR_HEADER_SIZE];
    if (size < WTHOR_HEADER_SIZE || fread(head, 1, sizeof head, file) != sizeof head) {
        fclose(file);
        return error_set(error, "%s: truncated header (%llu bytes, need %d)", path, size,
                         WTHOR_HEADER_SIZE);
    }
    WthorHeader h;
    decode_header(head, &h);
    unsigned long long n = games ? h.game_count : h.record_count;
    unsigned long long expected = WTHOR_HEADER_SIZE + record_size * n;
    if (size != expected) {
        fclose(file);
        if (size < expected)
            return error_set(error, "%s: record %llu: truncated (file has %llu bytes, the "
                             "header's %llu records need %llu)", path,
                             (size - WTHOR_HEADER_SIZE) / record_size + 1, size, n, expected);
        return error_set(error, "%s: file size %llu does not match 16 + %zu * %llu records = "
                         "%llu bytes", path, size, record_size, n, expected);
    }
    if (games && h.board_size != 8 && h.board_size != 0) {
        fclose(file);
        return error_set(error, "%s: board size %d not supported (only 8)", path,
                         h.board_size);
    }
    unsigned char *bytes = NULL;
    size_t length = (size_t)(expected - WTHOR_HEADER_SIZE);
    if (length > 0) {
        bytes = malloc(length);
        if (!bytes) {
            fclose(file);
            return error_set(error, "%s: out of memory for %llu records", path, n);
        }
        size_t got = fread(bytes, 1, length, file);
        if (got != length) { /* the file shrank since fstat */
            free(bytes);
            fclose(file);
            return error_set(error, "%s: record %zu: truncated while reading", path,
                             got / record_size + 1);
        }
    }
    fclose(file);
    *header = h;
    *records = bytes;
    *record_count = (size_t)n;
    return true;
}

/* One 68-byte record into `out`; errors say which move and why (the caller adds the record). */
static bool decode_game(const unsigned char *r, WthorGame *out, OctError *error)
{
    WthorGame g;
    game_init(&g.game);
    g.tournament = (int)read_u16(r);
    g.black = (int)read_u16(r + 2);
    g.white = (int)read_u16(r + 4);
    g.real_score = r[6];
    g.theoretical_score = r[7];
    const unsigned char *moves = r + 8;
    for (int i = 0; i < WTHOR_GAME_MOVES; ++i) {
        int byte = moves[i];
        if (byte == 0) {
            /* 0 ends the list; anything after it would be a damaged record. */
            for (int j = i + 1; j < WTHOR_GAME_MOVES; ++j)
                if (moves[j] != 0)
                    return error_set(error, "move byte %d: %d after the end marker 0", j + 1,
                                     moves[j]);
            break;
        }
        int row = byte / 10;
        int col = byte % 10;
        if (row < 1 || row > 8 || col < 1 || col > 8)
            return error_set(error, "move byte %d: bad value %d (expected 10*row+col, 11..88)",
                             i + 1, byte);
        /* Passes are not stored: game_append inserts them when the side to move is stuck. */
        if (!game_append(&g.game, (row - 1) * 8 + (col - 1), error))
            return false;
    }
    *out = g;
    return true;
}

bool wthor_read_games(const char *path, WthorHeader *header, WthorGame **games, size_t *count,
                      OctError *error)
{
    WthorHeader h;
    unsigned char *bytes;
    size_t n;
    if (!load(path, true, WTHOR_GAME_SIZE, &h, &bytes, &n, error))
        return false;
    WthorGame *list = NULL;
    if (n > 0) {
        list = malloc(n * sizeof *list);
        if (!list) {
            free(bytes);
            return error_set(error, "%s: out of memory for %zu games", path, n);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (!decode_game(bytes + i * WTHOR_GAME_SIZE, &list[i], error)) {
            free(list);
            free(bytes);
            return error_prefix(error, "%s: record %zu: ", path, i + 1);
        }
        list[i].depth = h.depth;
    }
    free(bytes);
    *header = h;
    *games = list;
    *count = n;
    return true;
}

static bool read_names(const char *path, size_t name_size, WthorHeader *header,
                       WthorName **names, size_t *count, OctError *error)
{
    WthorHeader h;
    unsigned char *bytes;
    size_t n;
    if (!load(path, false, name_size, &h, &bytes, &n, error))
        return false;
    WthorName *list = NULL;
    if (n > 0) {
        list = malloc(n * sizeof *list);
        if (!list) {
            free(bytes);
            return error_set(error, "%s: out of memory for %zu names", path, n);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        const unsigned char *field = bytes + i * name_size;
        size_t length = 0;
        while (length < name_size && field[length] != 0)
            ++length;
        memcpy(list[i].text, field, length);
        list[i].text[length] = '\0';
    }
    free(bytes);
    *header = h;
    *names = list;
    *count = n;
    return true;
}

bool wthor_read_players(const char *path, WthorHeader *header, WthorName **names,
                        size_t *count, OctError *error)
{
    return read_names(path, WTHOR_PLAYER_SIZE, header, names, count, error);
}

bool wthor_read_tournaments(const char *path, WthorHeader *header, WthorName **names,
                            size_t *count, OctError *error)
{
    return read_names(path, WTHOR_TOURNAMENT_SIZE, header, names, count, error);
}

static bool check_byte(const char *path, const char *field, int value, OctError *error)
{
    if (value < 0 || value > 255)
        return error_set(error, "%s: header %s %d does not fit in a byte", path, field, value);
    return true;
}

static bool encode_header(const char *path, const WthorHeader *h, uint32_t games,
                          unsigned records, unsigned char *b, OctError *error)
{
    if (!check_byte(path, "century", h->century, error) ||
        !check_byte(path, "year", h->year, error) ||
        !check_byte(path, "month", h->month, error) ||
        !check_byte(path, "day", h->day, error) ||
        !check_byte(path, "board size", h->board_size, error) ||
        !check_byte(path, "game type", h->game_type, error) ||
        !check_byte(path, "depth", h->depth, error) ||
        !check_byte(path, "reserved", h->reserved, error))
        return false;
    b[0] = (unsigned char)h->century;
    b[1] = (unsigned char)h->year;
    b[2] = (unsigned char)h->month;
    b[3] = (unsigned char)h->day;
    write_u32(b + 4, games);
    write_u16(b + 8, records);
    write_u16(b + 10, h->game_year);
    b[12] = (unsigned char)h->board_size;
    b[13] = (unsigned char)h->game_type;
    b[14] = (unsigned char)h->depth;
    b[15] = (unsigned char)h->reserved;
    return true;
}

static bool encode_game(const WthorGame *g, unsigned char *r, OctError *error)
{
    if (!game_is_standard(&g->game))
        return error_set(error, "does not start from the standard position");
    const int fields[5] = {g->tournament, g->black, g->white, g->real_score,
                           g->theoretical_score};
    const char *names[5] = {"tournament index", "black player index", "white player index",
                            "real score", "theoretical score"};
    const int limits[5] = {65535, 65535, 65535, 255, 255};
    for (int i = 0; i < 5; ++i)
        if (fields[i] < 0 || fields[i] > limits[i])
            return error_set(error, "%s %d out of range 0..%d", names[i], fields[i],
                             limits[i]);
    write_u16(r, (unsigned)g->tournament);
    write_u16(r + 2, (unsigned)g->black);
    write_u16(r + 4, (unsigned)g->white);
    r[6] = (unsigned char)g->real_score;
    r[7] = (unsigned char)g->theoretical_score;
    memset(r + 8, 0, WTHOR_GAME_MOVES);
    int stored = 0;
    for (int i = 0; i < g->game.move_count; ++i) {
        int move = g->game.moves[i];
        if (move == MOVE_PASS)
            continue; /* not stored: the reader re-creates passes */
        if (move < 0 || move >= SQUARE_COUNT || stored == WTHOR_GAME_MOVES)
            return error_set(error, "move %d: cannot be stored", i + 1);
        r[8 + stored++] = (unsigned char)(10 * (move / 8 + 1) + move % 8 + 1);
    }
    return true;
}

bool wthor_write_games(const char *path, const WthorHeader *header, const WthorGame *games,
                       size_t count, OctError *error)
{
    if (count > UINT32_MAX)
        return error_set(error, "%s: %zu games do not fit in a WTHOR file", path, count);
    size_t size = WTHOR_HEADER_SIZE + WTHOR_GAME_SIZE * count;
    unsigned char *bytes = malloc(size);
    if (!bytes)
        return error_set(error, "%s: out of memory", path);
    bool ok = encode_header(path, header, (uint32_t)count, 0, bytes, error);
    for (size_t i = 0; ok && i < count; ++i) {
        if (!encode_game(&games[i], bytes + WTHOR_HEADER_SIZE + i * WTHOR_GAME_SIZE, error))
            ok = error_prefix(error, "%s: game %zu: ", path, i + 1);
    }
    if (ok)
        ok = file_write_atomic(path, bytes, size, error);
    free(bytes);
    return ok;
}

static bool write_names(const char *path, const char *kind, size_t name_size,
                        const WthorHeader *header, const WthorName *names, size_t count,
                        OctError *error)
{
    if (count > 65535)
        return error_set(error, "%s: %zu %ss do not fit in a WTHOR file", path, count, kind);
    size_t size = WTHOR_HEADER_SIZE + name_size * count;
    unsigned char *bytes = calloc(1, size);
    if (!bytes)
        return error_set(error, "%s: out of memory", path);
    bool ok = encode_header(path, header, 0, (unsigned)count, bytes, error);
    for (size_t i = 0; ok && i < count; ++i) {
        size_t length = strnlen(names[i].text, sizeof names[i].text);
        if (length > name_size)
            ok = error_set(error, "%s: %s %zu: name '%.*s' longer than %zu bytes", path, kind,
                           i + 1, (int)length, names[i].text, name_size);
        else /* the rest of the field stays NUL, as the format pads it */
            memcpy(bytes + WTHOR_HEADER_SIZE + i * name_size, names[i].text, length);
    }
    if (ok)
        ok = file_write_atomic(path, bytes, size, error);
    free(bytes);
    return ok;
}

bool wthor_write_players(const char *path, const WthorHeader *header, const WthorName *names,
                         size_t count, OctError *error)
{
    return write_names(path, "player", WTHOR_PLAYER_SIZE, header, names, count, error);
}

bool wthor_write_tournaments(const char *path, const WthorHeader *header,
                             const WthorName *names, size_t count, OctError *error)
{
    return write_names(path, "tournament", WTHOR_TOURNAMENT_SIZE, header, names, count, error);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool wthor_read_directory(const char *directory, WthorGame **games, size_t *count,
                          OctError *error)
{
    DIR *dir = opendir(directory);
    if (!dir)
        return error_set(error, "%s: cannot open the directory: %s", directory, strerror(errno));
    char **names = NULL;
    size_t name_count = 0, name_capacity = 0;
    bool ok = true;
    struct dirent *entry;
    while (ok && (entry = readdir(dir))) {
        size_t length = strlen(entry->d_name);
        if (length <= 8 || strncmp(entry->d_name, "WTH_", 4) || strcmp(entry->d_name + length - 4, ".wtb"))
            continue;
        if (name_count == name_capacity) {
            size_t capacity = name_capacity ? 2 * name_capacity : 64;
            char **grown = realloc(names, capacity * sizeof *grown);
            ok = grown != NULL;
            if (ok) {
                names = grown;
                name_capacity = capacity;
            }
        }
        if (ok)
            ok = (names[name_count++] = strdup(entry->d_name)) != NULL;
    }
    closedir(dir);
    if (!ok)
        error_set(error, "%s: out of memory listing the directory", directory);
    if (ok && name_count == 0)
        ok = error_set(error, "%s: no WTH_*.wtb files", directory);
    if (ok)
        qsort(names, name_count, sizeof *names, compare_names);
    WthorGame *all = NULL;
    size_t total = 0;
    for (size_t i = 0; ok && i < name_count; ++i) {
        size_t size = strlen(directory) + strlen(names[i]) + 2;
        char *path = malloc(size);
        WthorHeader header;
        WthorGame *file_games;
        size_t file_count;
        ok = path != NULL || error_set(error, "%s: out of memory", directory);
        if (ok) {
            snprintf(path, size, "%s/%s", directory, names[i]);
            ok = wthor_read_games(path, &header, &file_games, &file_count, error);
        }
        free(path);
        if (!ok)
            break;
        WthorGame *grown = realloc(all, sizeof *all * (total + file_count + 1));
        if (grown) {
            all = grown;
            if (file_count) /* a file of no games may hand back no array */
                memcpy(all + total, file_games, sizeof *all * file_count);
            total += file_count;
        } else {
            ok = error_set(error, "%s: out of memory for %zu games", directory, total + file_count);
        }
        free(file_games);
    }
    for (size_t i = 0; i < name_count; ++i)
        free(names[i]);
    free(names);
    if (!ok) {
        free(all);
        return false;
    }
    *games = all;
    *count = total;
    return true;
}

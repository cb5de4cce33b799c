/* The labelled-positions file (.opos): encoding, reading with checks, whole-file writes. */
#include "train/posfile.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/fileio.h"

static const unsigned char MAGIC[8] = {'O', 'C', 'T', 'P', 'O', 'S', '\r', '\n'};
static const unsigned char GAME_MAGIC[4] = {'G', 'A', 'M', 'E'};

/* A file of positions may be large: 4 GB holds about 200 M positions. */
static const size_t POSFILE_LIMIT = (size_t)4 << 30;

static uint32_t checksum(const unsigned char *data, size_t size)
{
    return (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
}

static void put_u16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get_u16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

void posfile_header_encode(const PosHeader *header, unsigned char out[POSFILE_HEADER_SIZE])
{
    memset(out, 0, POSFILE_HEADER_SIZE);
    memcpy(out, MAGIC, sizeof MAGIC);
    put_u32(out + 8, POSFILE_VERSION);
    put_u32(out + 12, POSFILE_HEADER_SIZE);
    put_u64(out + 16, header->seed);
    put_u64(out + 24, header->first_game);
    put_u32(out + 32, header->settings);
    put_u32(out + 36, header->kind);
    put_u32(out + 60, checksum(out, 60));
}

size_t posfile_block_size(int count)
{
    return POSFILE_BLOCK_OVERHEAD + (size_t)count * POSFILE_RECORD_SIZE;
}

size_t posfile_block_encode(const PosGame *game, unsigned char *out)
{
    memcpy(out, GAME_MAGIC, sizeof GAME_MAGIC);
    put_u32(out + 4, (uint32_t)game->count);
    put_u64(out + 8, game->seed);
    put_u64(out + 16, game->number);
    unsigned char *p = out + 24;
    for (int i = 0; i < game->count; ++i, p += POSFILE_RECORD_SIZE) {
        const PosRecord *record = &game->records[i];
        put_u64(p, record->board.player);
        put_u64(p + 8, record->board.opponent);
        p[16] = (unsigned char)record->score;
        p[17] = record->flags;
        put_u16(p + 18, (uint16_t)record->search);
    }
    put_u32(p, checksum(out, (size_t)(p - out)));
    return (size_t)(p - out) + 4;
}

/* The declared length of a positions file is its real length: blocks carry their own. */
static size_t no_declared_size(const unsigned char *head, size_t have)
{
    (void)head;
    (void)have;
    return POSFILE_LIMIT;
}

static bool header_decode(const char *path, const unsigned char *data, size_t size,
                          PosHeader *header, OctError *error)
{
    if (size < sizeof MAGIC || memcmp(data, MAGIC, sizeof MAGIC) != 0)
        return error_set(error, "%s: not an Octuple positions file (no OCTPOS header)", path);
    if (size < POSFILE_HEADER_SIZE)
        return error_set(error, "%s: the header is cut short (%zu of %d bytes)", path, size,
                         POSFILE_HEADER_SIZE);
    if (get_u32(data + 60) != checksum(data, 60))
        return error_set(error, "%s: the header's checksum does not match (damaged file)", path);
    uint32_t version = get_u32(data + 8);
    if (version != POSFILE_VERSION || get_u32(data + 12) != POSFILE_HEADER_SIZE)
        return error_set(error, "%s: version %u of the positions format; this program reads "
                         "version %d", path, version, POSFILE_VERSION);
    header->seed = get_u64(data + 16);
    header->first_game = get_u64(data + 24);
    header->settings = get_u32(data + 32);
    header->kind = get_u32(data + 36);
    if (header->kind != POSFILE_KIND_GENERATED && header->kind != POSFILE_KIND_MERGED)
        return error_set(error, "%s: unknown kind %u in the header", path, header->kind);
    return true;
}

/* Checks the block at `offset`: its length, or 0 with *partial set when it runs past the
 * end of the data (a cut-short tail), or 0 with an error when it is damaged. */
static size_t block_check(const char *path, const unsigned char *data, size_t size,
                          size_t offset, bool *partial, OctError *error)
{
    size_t left = size - offset;
    *partial = false;
    if (left < 8) {
        *partial = true;
        return 0;
    }
    if (memcmp(data + offset, GAME_MAGIC, sizeof GAME_MAGIC) != 0) {
        error_set(error, "%s: byte %zu: no game block starts here (damaged file)", path, offset);
        return 0;
    }
    uint32_t count = get_u32(data + offset + 4);
    if (count > POSFILE_MAX_GAME_POSITIONS) {
        error_set(error, "%s: byte %zu: a game of %u positions (at most %d; damaged file)", path,
                  offset, count, POSFILE_MAX_GAME_POSITIONS);
        return 0;
    }
    size_t length = posfile_block_size((int)count);
    if (left < length) {
        *partial = true;
        return 0;
    }
    if (get_u32(data + offset + length - 4) != checksum(data + offset, length - 4)) {
        /* a torn last write can also look like this: only the final block may be so */
        *partial = offset + length == size;
        if (!*partial)
            error_set(error, "%s: byte %zu: the game block's checksum does not match (damaged "
                      "file)", path, offset);
        return 0;
    }
    return length;
}

static bool record_decode(const char *path, size_t offset, const unsigned char *p,
                          PosRecord *record, OctError *error)
{
    record->board.player = get_u64(p);
    record->board.opponent = get_u64(p + 8);
    record->score = (int8_t)p[16];
    record->flags = p[17];
    record->search = (int16_t)get_u16(p + 18);
    if (record->board.player & record->board.opponent)
        return error_set(error, "%s: byte %zu: a square holds discs of both sides", path, offset);
    if (record->flags & ~(POSFILE_GAME_LABEL | POSFILE_EXACT | POSFILE_SEARCH_LABEL))
        return error_set(error, "%s: byte %zu: unknown flags %#x", path, offset, record->flags);
    if (record->score < -64 || record->score > 64 || record->search < -64 * 128
        || record->search > 64 * 128)
        return error_set(error, "%s: byte %zu: a label out of the range -64..64", path, offset);
    return true;
}

bool posfile_read(const char *path, bool allow_partial_tail, PosFile *file,
                  size_t *valid_length, OctError *error)
{
    memset(file, 0, sizeof *file);
    char *raw;
    size_t size;
    if (!file_read_declared(path, POSFILE_LIMIT, no_declared_size, &raw, &size, error))
        return false;
    const unsigned char *data = (const unsigned char *)raw;
    bool ok = header_decode(path, data, size, &file->header, error);
    /* a first pass counts, a second decodes: no reallocation of large arrays */
    size_t offset = POSFILE_HEADER_SIZE, games = 0, positions = 0;
    bool partial = false;
    while (ok && offset < size) {
        size_t length = block_check(path, data, size, offset, &partial, error);
        if (!length)
            break;
        ++games;
        positions += (length - POSFILE_BLOCK_OVERHEAD) / POSFILE_RECORD_SIZE;
        offset += length;
    }
    if (ok && offset < size && !partial)
        ok = false; /* the error is set */
    if (ok && partial && !allow_partial_tail)
        ok = error_set(error, "%s: the last game block (byte %zu) is cut short: an interrupted "
                       "run; resume it to repair the file", path, offset);
    size_t end = offset;
    if (ok) {
        file->games = malloc(sizeof *file->games * (games ? games : 1));
        file->records = malloc(sizeof *file->records * (positions ? positions : 1));
        if (!file->games || !file->records)
            ok = error_set(error, "%s: out of memory for %zu positions", path, positions);
    }
    offset = POSFILE_HEADER_SIZE;
    for (size_t g = 0; ok && g < games; ++g) {
        PosGameInfo *game = &file->games[g];
        game->count = (int)get_u32(data + offset + 4);
        game->seed = get_u64(data + offset + 8);
        game->number = get_u64(data + offset + 16);
        game->first = file->positions;
        const unsigned char *p = data + offset + 24;
        for (int i = 0; ok && i < game->count; ++i, p += POSFILE_RECORD_SIZE)
            ok = record_decode(path, (size_t)(p - data), p, &file->records[file->positions++],
                               error);
        offset += posfile_block_size(game->count);
        file->count = g + 1;
    }
    free(raw);
    if (!ok) {
        posfile_free(file);
        return false;
    }
    if (valid_length)
        *valid_length = end;
    return true;
}

void posfile_free(PosFile *file)
{
    free(file->games);
    free(file->records);
    memset(file, 0, sizeof *file);
}

bool posfile_write(const char *path, const PosFile *file, OctError *error)
{
    size_t size = POSFILE_HEADER_SIZE;
    for (size_t g = 0; g < file->count; ++g)
        size += posfile_block_size(file->games[g].count);
    unsigned char *data = malloc(size);
    if (!data)
        return error_set(error, "%s: out of memory for %zu bytes", path, size);
    posfile_header_encode(&file->header, data);
    size_t offset = POSFILE_HEADER_SIZE;
    PosGame *game = malloc(sizeof *game);
    if (!game) {
        free(data);
        return error_set(error, "%s: out of memory", path);
    }
    for (size_t g = 0; g < file->count; ++g) {
        const PosGameInfo *info = &file->games[g];
        game->seed = info->seed;
        game->number = info->number;
        game->count = info->count;
        memcpy(game->records, file->records + info->first,
               sizeof *game->records * (size_t)info->count);
        offset += posfile_block_encode(game, data + offset);
    }
    free(game);
    bool ok = file_write_atomic(path, data, size, error);
    free(data);
    return ok;
}

Board posfile_canonical(const Board *board)
{
    Board best = *board;
    for (int s = 1; s < SYMMETRY_COUNT; ++s) {
        Board image = board_symmetry(board, s);
        if (image.player < best.player
            || (image.player == best.player && image.opponent < best.opponent))
            best = image;
    }
    return best;
}

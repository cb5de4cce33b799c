#include "core/book.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/rng.h"

/* The file: a 32-byte header, `count` records of 24 bytes in increasing key order, and a
 * 64-bit FNV-1a checksum of everything before it. All numbers little-endian.
 *   header: "OCTBOOK1", u32 version (1), u32 plies, u32 depth, u32 zero, u64 count
 *   record: u64 player, u64 opponent, u32 games, i8 value, i8 leaf, u8 leaf_move, u8 depth
 * Sorted records make the file independent of the order games were added in, so a rebuild
 * from the same sources gives the same bytes. */
enum {
    HEADER_SIZE = 32,
    RECORD_SIZE = 24,
    CHECKSUM_SIZE = 8,
    FILE_VERSION = 1,
    MIN_CAPACITY = 64
};
/* A bound on the file read: 40 M positions, far more than any opening book holds. */
static const size_t BOOK_FILE_LIMIT = (size_t)1 << 30;
static const char file_magic[8] = {'O', 'C', 'T', 'B', 'O', 'O', 'K', '1'};

struct Book {
    BookEntry *slots; /* open addressing; an empty slot has no discs */
    size_t capacity;  /* a power of two, at least twice the count */
    size_t count;
    int plies, depth;
    bool grown; /* positions were added since deviations were last checked against them */
};

static bool slot_used(const BookEntry *entry)
{
    return (entry->player | entry->opponent) != 0;
}

static bool key_less(const BookEntry *a, const BookEntry *b)
{
    return a->player != b->player ? a->player < b->player : a->opponent < b->opponent;
}

Board book_key(const Board *board, int *symmetry)
{
    /* the images built from each other (one transpose instead of four: a book's load and
     * its negamax take keys of every child of every position) in board_symmetry's
     * numbering: bit 4 transposes, then bit 1 mirrors the columns, then bit 2 the rows */
    Board images[SYMMETRY_COUNT];
    images[0] = *board;
    images[4] = board_symmetry(board, 4);
    for (int base = 0; base < SYMMETRY_COUNT; base += 4) {
        images[base + 1] = board_symmetry(&images[base], 1);
        images[base + 2] = (Board){__builtin_bswap64(images[base].player),
                                   __builtin_bswap64(images[base].opponent)};
        images[base + 3] = (Board){__builtin_bswap64(images[base + 1].player),
                                   __builtin_bswap64(images[base + 1].opponent)};
    }
    int chosen = 0;
    for (int s = 1; s < SYMMETRY_COUNT; ++s)
        if (images[s].player < images[chosen].player
            || (images[s].player == images[chosen].player
                && images[s].opponent < images[chosen].opponent))
            chosen = s;
    if (symmetry)
        *symmetry = chosen;
    return images[chosen];
}

/* The square that `symmetry` maps onto `image` (symmetries are not all their own inverse). */
static int square_unmap(int image, int symmetry)
{
    if (image >= SQUARE_COUNT)
        return image;
    for (int square = 0; square < SQUARE_COUNT; ++square)
        if (square_symmetry(square, symmetry) == image)
            return square;
    return MOVE_NONE;
}

Book *book_create(int plies, int depth)
{
    Book *book = calloc(1, sizeof *book);
    if (!book)
        return NULL;
    book->capacity = MIN_CAPACITY;
    book->slots = calloc(book->capacity, sizeof *book->slots);
    if (!book->slots) {
        free(book);
        return NULL;
    }
    book->plies = plies < 0 ? 0 : plies > BOOK_MAX_PLIES ? BOOK_MAX_PLIES : plies;
    book->depth = depth < 1 ? 1 : depth > BOOK_MAX_DEPTH ? BOOK_MAX_DEPTH : depth;
    return book;
}

Book *book_copy(const Book *book)
{
    Book *copy = malloc(sizeof *copy);
    if (!copy)
        return NULL;
    *copy = *book;
    copy->slots = malloc(book->capacity * sizeof *book->slots);
    if (!copy->slots) {
        free(copy);
        return NULL;
    }
    memcpy(copy->slots, book->slots, book->capacity * sizeof *book->slots);
    return copy;
}

void book_free(Book *book)
{
    if (!book)
        return;
    free(book->slots);
    free(book);
}

int book_plies(const Book *book)
{
    return book->plies;
}

int book_depth(const Book *book)
{
    return book->depth;
}

void book_set_depth(Book *book, int depth)
{
    book->depth = depth < 1 ? 1 : depth > BOOK_MAX_DEPTH ? BOOK_MAX_DEPTH : depth;
}

size_t book_count(const Book *book)
{
    return book->count;
}

static size_t slot_of(const Book *book, const Board *key)
{
    size_t mask = book->capacity - 1;
    size_t i = (size_t)board_hash(key) & mask;
    while (slot_used(&book->slots[i])
           && (book->slots[i].player != key->player || book->slots[i].opponent != key->opponent))
        i = (i + 1) & mask;
    return i;
}

static BookEntry *find_key(const Book *book, const Board *key)
{
    BookEntry *entry = &book->slots[slot_of(book, key)];
    return slot_used(entry) ? entry : NULL;
}

const BookEntry *book_find(const Book *book, const Board *board)
{
    Board key = book_key(board, NULL);
    return find_key(book, &key);
}

static bool grow(Book *book, size_t capacity)
{
    BookEntry *slots = calloc(capacity, sizeof *slots);
    if (!slots)
        return false;
    BookEntry *old = book->slots;
    size_t old_capacity = book->capacity;
    book->slots = slots;
    book->capacity = capacity;
    for (size_t i = 0; i < old_capacity; ++i) {
        if (slot_used(&old[i])) {
            Board key = {old[i].player, old[i].opponent};
            book->slots[slot_of(book, &key)] = old[i];
        }
    }
    free(old);
    return true;
}

/* The entry of a key, created (stale, no games) when missing; NULL without memory. */
static BookEntry *insert_key(Book *book, const Board *key, bool *created)
{
    *created = false;
    if (2 * (book->count + 1) > book->capacity && !grow(book, book->capacity * 2))
        return NULL;
    BookEntry *entry = &book->slots[slot_of(book, key)];
    if (!slot_used(entry)) {
        *entry = (BookEntry){key->player, key->opponent, 0, 0, BOOK_NO_LEAF, MOVE_NONE,
                             BOOK_DEPTH_STALE, false};
        ++book->count;
        *created = true;
    }
    return entry;
}

/* The position after `move` (a square or MOVE_PASS) of a key position. */
static Board child_of(const BookEntry *entry, int move)
{
    Board board = {entry->player, entry->opponent};
    board_play(&board, move);
    return board;
}

static const BookEntry *child_entry(const Book *book, const BookEntry *entry, int move)
{
    Board child = child_of(entry, move);
    return book_find(book, &child);
}

/* A deviation that now leads into the book must be found again. One pass over the book
 * after any number of added games, not one per game: adding a file of games stays linear. */
static void mark_stale_parents(Book *book)
{
    if (!book->grown)
        return;
    book->grown = false;
    for (size_t i = 0; i < book->capacity; ++i) {
        BookEntry *entry = &book->slots[i];
        if (!slot_used(entry) || entry->depth == BOOK_DEPTH_STALE
            || entry->depth == BOOK_DEPTH_OVER || entry->leaf_move > MOVE_PASS)
            continue;
        if (child_entry(book, entry, entry->leaf_move))
            entry->depth = BOOK_DEPTH_STALE;
    }
}

bool book_add_game(Book *book, const Game *game, int *added, OctError *error)
{
    if (added)
        *added = 0;
    if (!game_is_standard(game))
        return error_set(error, "the game does not start from the standard position");
    int last = game->move_count < book->plies ? game->move_count : book->plies;
    int fresh = 0;
    for (int ply = 0; ply <= last; ++ply) {
        Board board, key;
        Color side;
        game_position(game, ply, &board, &side);
        key = book_key(&board, NULL);
        bool created;
        BookEntry *entry = insert_key(book, &key, &created);
        if (!entry) {
            if (added)
                *added = fresh;
            return error_set(error, "out of memory for the book (%zu positions)", book->count);
        }
        if (entry->games < UINT32_MAX)
            ++entry->games;
        fresh += created;
    }
    if (fresh)
        book->grown = true;
    if (added)
        *added = fresh;
    return true;
}

bool book_merge(Book *into, const Book *from, size_t *changed)
{
    *changed = 0;
    size_t missing = 0;
    for (size_t i = 0; i < from->capacity; ++i) {
        const BookEntry *entry = &from->slots[i];
        Board key = {entry->player, entry->opponent};
        missing += slot_used(entry) && !find_key(into, &key);
    }
    /* room for all of them first, so that no insertion below can fail half-way */
    size_t capacity = into->capacity;
    while (2 * (into->count + missing + 1) > capacity)
        capacity *= 2;
    if (capacity != into->capacity && !grow(into, capacity))
        return false;
    for (size_t i = 0; i < from->capacity; ++i) {
        const BookEntry *entry = &from->slots[i];
        if (!slot_used(entry))
            continue;
        Board key = {entry->player, entry->opponent};
        bool created;
        BookEntry *own = insert_key(into, &key, &created);
        if (created) {
            *own = *entry;
            ++*changed;
            continue;
        }
        if (entry->games > own->games)
            own->games = entry->games;
        /* a stale entry's depth is 0 and a finished game's the largest of all */
        if (entry->depth > own->depth) {
            own->leaf = entry->leaf;
            own->leaf_move = entry->leaf_move;
            own->depth = entry->depth;
            ++*changed;
        }
    }
    if (*changed) {
        into->grown = true; /* a deviation may lead into the positions just added */
        if (from->plies > into->plies)
            into->plies = from->plies;
        book_negamax(into);
    }
    return true;
}

void book_prune(Book *book, uint32_t min_games)
{
    Board start;
    board_init(&start);
    Board start_key = book_key(&start, NULL);
    size_t kept = 0;
    BookEntry *list = malloc(sizeof *list * (book->count ? book->count : 1));
    if (!list)
        return; /* nothing removed: the book stays as it was */
    for (size_t i = 0; i < book->capacity; ++i) {
        const BookEntry *entry = &book->slots[i];
        if (slot_used(entry) && (entry->games >= min_games
                                 || (entry->player == start_key.player
                                     && entry->opponent == start_key.opponent)))
            list[kept++] = *entry;
    }
    memset(book->slots, 0, sizeof *book->slots * book->capacity);
    book->count = kept;
    for (size_t i = 0; i < kept; ++i) {
        Board key = {list[i].player, list[i].opponent};
        book->slots[slot_of(book, &key)] = list[i];
    }
    free(list);
    /* a removed position is a move out of the book now, maybe better than the deviation
     * found before: every deviation is searched again */
    for (size_t i = 0; i < book->capacity; ++i)
        if (slot_used(&book->slots[i]))
            book->slots[i].depth = BOOK_DEPTH_STALE;
}

static int compare_entries(const void *a, const void *b)
{
    const BookEntry *x = *(BookEntry *const *)a, *y = *(BookEntry *const *)b;
    return key_less(x, y) ? -1 : key_less(y, x) ? 1 : 0;
}

size_t book_stale_count(Book *book)
{
    mark_stale_parents(book);
    size_t count = 0;
    for (size_t i = 0; i < book->capacity; ++i)
        count += slot_used(&book->slots[i]) && book->slots[i].depth == BOOK_DEPTH_STALE;
    return count;
}

size_t book_stale_entries(Book *book, BookEntry **out, size_t size)
{
    mark_stale_parents(book);
    size_t count = 0;
    for (size_t i = 0; i < book->capacity; ++i) {
        BookEntry *entry = &book->slots[i];
        if (slot_used(entry) && entry->depth == BOOK_DEPTH_STALE) {
            if (count < size)
                out[count] = entry;
            ++count;
        }
    }
    if (count <= size)
        qsort(out, count, sizeof *out, compare_entries);
    return count;
}

uint64_t book_outside_moves(const Book *book, const BookEntry *entry, bool *pass_out)
{
    Board board = {entry->player, entry->opponent};
    uint64_t legal = board_legal(&board), outside = 0;
    *pass_out = false;
    if (!legal) {
        Board passed = {board.opponent, board.player};
        *pass_out = board_legal(&passed) != 0 && !book_find(book, &passed);
        return 0;
    }
    for (uint64_t m = legal; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        if (!child_entry(book, entry, square))
            outside |= 1ULL << square;
    }
    return outside;
}

/* ---- values ---- */

enum { VISIT_NEW = 0, VISIT_OPEN = 1, VISIT_DONE = 2 };

static void entry_value(Book *book, BookEntry *entry, uint8_t *visit);

/* The child's value from the mover's view; false when the child is not in the book or the
 * book knows nothing of it yet (it must not count as a 0). */
static bool child_value(Book *book, const BookEntry *entry, int move, uint8_t *visit, int *value)
{
    Board child = child_of(entry, move);
    Board key = book_key(&child, NULL);
    BookEntry *next = find_key(book, &key);
    if (!next)
        return false;
    entry_value(book, next, visit);
    *value = -next->value;
    return next->known;
}

/* Depth-first with marks: a position is worked out once however many lines reach it.
 * Lines only grow (discs never decrease and two passes end the game), so the recursion is
 * at most 60 deep and meets no cycle. */
static void entry_value(Book *book, BookEntry *entry, uint8_t *visit)
{
    size_t index = (size_t)(entry - book->slots);
    if (visit[index] != VISIT_NEW)
        return;
    visit[index] = VISIT_OPEN;
    Board board = {entry->player, entry->opponent};
    bool known = entry->leaf != BOOK_NO_LEAF;
    int best = known ? entry->leaf : -64, value;
    uint64_t legal = board_legal(&board);
    if (!legal && !board_is_over(&board) && child_value(book, entry, MOVE_PASS, visit, &value)
        && (!known || value > best))
        best = value, known = true;
    for (uint64_t m = legal; m; m &= m - 1)
        if (child_value(book, entry, __builtin_ctzll(m), visit, &value) && (!known || value > best))
            best = value, known = true;
    entry->value = (int8_t)(known ? best : 0);
    entry->known = known;
    visit[index] = VISIT_DONE;
}

bool book_negamax(Book *book)
{
    uint8_t *visit = calloc(book->capacity, 1);
    if (!visit)
        return false; /* values stay as they were */
    for (size_t i = 0; i < book->capacity; ++i)
        if (slot_used(&book->slots[i]))
            entry_value(book, &book->slots[i], visit);
    free(visit);
    return true;
}

/* ---- choosing ---- */

static int compare_moves(const void *a, const void *b)
{
    const BookMove *x = a, *y = b;
    if (x->value != y->value)
        return y->value - x->value;
    if (x->games != y->games)
        return y->games > x->games ? 1 : -1;
    return x->move - y->move;
}

int book_moves(const Book *book, const Board *board, BookMove *out)
{
    int symmetry;
    Board key = book_key(board, &symmetry);
    const BookEntry *entry = find_key(book, &key);
    if (!entry)
        return 0;
    int count = 0;
    uint64_t legal = board_legal(board);
    if (!legal && !board_is_over(board)) {
        Board passed = {board->opponent, board->player};
        const BookEntry *next = book_find(book, &passed);
        if (next && next->known)
            out[count++] = (BookMove){MOVE_PASS, -next->value, next->games, true};
    }
    for (uint64_t m = legal; m; m &= m - 1) {
        int square = __builtin_ctzll(m);
        Board child = *board;
        board_play(&child, square);
        const BookEntry *next = book_find(book, &child);
        if (next && next->known)
            out[count++] = (BookMove){square, -next->value, next->games, true};
    }
    if (entry->leaf != BOOK_NO_LEAF && entry->leaf_move <= MOVE_PASS) {
        int move = square_unmap(entry->leaf_move, symmetry);
        Board child = *board;
        bool joined = board_try_play(&child, move) && book_find(book, &child);
        if (!joined) /* else a stale deviation that has since joined the book */
            out[count++] = (BookMove){move, entry->leaf, 0, false};
    }
    qsort(out, (size_t)count, sizeof *out, compare_moves);
    return count;
}

int book_choose(const Book *book, const Board *board, int randomness, uint64_t *rng,
                BookMove *chosen)
{
    BookMove all[BOOK_MAX_MOVES], moves[BOOK_MAX_MOVES];
    int total = book_moves(book, board, all), count = 0;
    /* the deviation is a search result, and a search of the caller's own settings can do
     * better than a fixed depth: the book answers only when a book move is the best */
    if (total == 0 || !all[0].in_book)
        return MOVE_NONE;
    for (int i = 0; i < total; ++i)
        if (all[i].in_book)
            moves[count++] = all[i];
    int pick = 0;
    if (randomness > 0 && rng) {
        int near = 1;
        while (near < count && moves[near].value >= moves[0].value - randomness)
            ++near;
        pick = (int)(rng_next(rng) % (uint64_t)near);
    }
    if (chosen)
        *chosen = moves[pick];
    return moves[pick].move;
}

int book_line(const Book *book, const Board *board, int move, int *pv, int size)
{
    int length = 0;
    Board position = *board;
    while (length < size) {
        pv[length++] = move;
        board_play(&position, move);
        BookMove moves[BOOK_MAX_MOVES];
        /* follow the line only through positions the book itself holds */
        if (!book_find(book, &position) || book_moves(book, &position, moves) == 0
            || !moves[0].in_book)
            break;
        move = moves[0].move;
    }
    return length;
}

/* ---- files ---- */

static void put_u32(unsigned char *at, uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        at[i] = (unsigned char)(value >> (8 * i));
}

static void put_u64(unsigned char *at, uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        at[i] = (unsigned char)(value >> (8 * i));
}

static uint32_t get_u32(const unsigned char *at)
{
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
        value = value << 8 | at[i];
    return value;
}

static uint64_t get_u64(const unsigned char *at)
{
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = value << 8 | at[i];
    return value;
}

static uint64_t checksum(const unsigned char *data, size_t size)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size; ++i)
        hash = (hash ^ data[i]) * 0x100000001b3ULL;
    return hash;
}

bool book_save(const Book *book, const char *path, OctError *error)
{
    size_t size = HEADER_SIZE + RECORD_SIZE * book->count + CHECKSUM_SIZE;
    unsigned char *data = malloc(size);
    const BookEntry **order = malloc(sizeof *order * (book->count ? book->count : 1));
    if (!data || !order) {
        free(data);
        free(order);
        return error_set(error, "%s: out of memory", path);
    }
    size_t n = 0;
    for (size_t i = 0; i < book->capacity; ++i)
        if (slot_used(&book->slots[i]))
            order[n++] = &book->slots[i];
    qsort(order, n, sizeof *order, compare_entries);
    memcpy(data, file_magic, sizeof file_magic);
    put_u32(data + 8, FILE_VERSION);
    put_u32(data + 12, (uint32_t)book->plies);
    put_u32(data + 16, (uint32_t)book->depth);
    put_u32(data + 20, 0);
    put_u64(data + 24, (uint64_t)n);
    for (size_t i = 0; i < n; ++i) {
        unsigned char *at = data + HEADER_SIZE + RECORD_SIZE * i;
        const BookEntry *entry = order[i];
        put_u64(at, entry->player);
        put_u64(at + 8, entry->opponent);
        put_u32(at + 16, entry->games);
        at[20] = (unsigned char)entry->value;
        at[21] = (unsigned char)entry->leaf;
        at[22] = entry->leaf_move;
        at[23] = entry->depth;
    }
    put_u64(data + size - CHECKSUM_SIZE, checksum(data, size - CHECKSUM_SIZE));
    bool ok = file_write_atomic(path, data, size, error);
    free(data);
    free(order);
    return ok;
}

/* One record read and checked; the message names the record. */
static bool read_record(const unsigned char *at, size_t index, const char *path,
                        BookEntry *entry, OctError *error)
{
    entry->player = get_u64(at);
    entry->opponent = get_u64(at + 8);
    entry->games = get_u32(at + 16);
    entry->value = (int8_t)at[20];
    entry->leaf = (int8_t)at[21];
    entry->leaf_move = at[22];
    entry->depth = at[23];
    Board board = {entry->player, entry->opponent};
    Board key = book_key(&board, NULL);
    const char *problem = NULL;
    if (entry->player & entry->opponent)
        problem = "a square holds discs of both sides";
    else if (__builtin_popcountll(entry->player | entry->opponent) < 4)
        problem = "fewer than 4 discs";
    else if (key.player != board.player || key.opponent != board.opponent)
        problem = "the position is not in its key orientation";
    else if (entry->games == 0)
        problem = "no games";
    else if (entry->value < -64 || entry->value > 64)
        problem = "a value outside -64..64";
    else if (entry->leaf != BOOK_NO_LEAF && (entry->leaf < -64 || entry->leaf > 64))
        problem = "a deviation value outside -64..64";
    else if (entry->leaf_move > MOVE_NONE)
        problem = "a deviation move that is no square";
    else if (entry->depth > BOOK_MAX_DEPTH && entry->depth != BOOK_DEPTH_OVER)
        problem = "a depth outside 0..60";
    else if ((entry->depth == BOOK_DEPTH_OVER)
             != (board_is_over(&board) && entry->leaf == board_final_score(&board)
                 && entry->leaf_move == MOVE_NONE))
        problem = "a finished game without its final score, or a final score of a game that "
                  "goes on";
    else if ((entry->leaf == BOOK_NO_LEAF) != (entry->leaf_move == MOVE_NONE)
             && entry->depth != BOOK_DEPTH_OVER)
        problem = "a deviation value without a move, or a move without a value";
    else if (entry->leaf_move < SQUARE_COUNT && !(board_legal(&board) >> entry->leaf_move & 1))
        problem = "a deviation move that is not legal";
    else if (entry->leaf_move == MOVE_PASS && (board_legal(&board) || board_is_over(&board)))
        problem = "a deviation pass where the side to move need not pass";
    if (problem)
        return error_set(error, "%s: record %zu: %s", path, index + 1, problem);
    return true;
}

/* The length a book header declares by its record count (FileDeclaredSize): 0 when the head
 * is no book header; a count beyond any file leaves the read to the limit, so that
 * book_load's error gives the file's true size. */
static size_t declared_size(const unsigned char *head, size_t have)
{
    if (have < HEADER_SIZE || memcmp(head, file_magic, sizeof file_magic) != 0)
        return 0;
    uint64_t count = get_u64(head + 24);
    if (count > (BOOK_FILE_LIMIT - HEADER_SIZE - CHECKSUM_SIZE) / RECORD_SIZE)
        return SIZE_MAX;
    return HEADER_SIZE + RECORD_SIZE * (size_t)count + CHECKSUM_SIZE;
}

bool book_load(const char *path, Book **out, OctError *error)
{
    char *data;
    size_t size;
    if (!file_read_declared(path, BOOK_FILE_LIMIT, declared_size, &data, &size, error))
        return false;
    const unsigned char *bytes = (const unsigned char *)data;
    Book *book = NULL;
    bool ok = false;
    uint64_t count = 0;
    if (size < sizeof file_magic || memcmp(bytes, file_magic, sizeof file_magic)) {
        error_set(error, "%s: not an Octuple book file (no OCTBOOK1 header)", path);
        goto done;
    }
    if (size < HEADER_SIZE + CHECKSUM_SIZE) {
        error_set(error, "%s: truncated: %zu bytes, shorter than a book's header and checksum "
                  "(%d)", path, size, HEADER_SIZE + CHECKSUM_SIZE);
        goto done;
    }
    uint32_t version = get_u32(bytes + 8), plies = get_u32(bytes + 12),
             depth = get_u32(bytes + 16), reserved = get_u32(bytes + 20);
    count = get_u64(bytes + 24);
    if (version != FILE_VERSION) {
        error_set(error, "%s: book format version %u (this build reads %d)", path, version,
                  FILE_VERSION);
        goto done;
    }
    if (plies > BOOK_MAX_PLIES || depth < 1 || depth > BOOK_MAX_DEPTH || reserved != 0) {
        error_set(error, "%s: header: plies %u, depth %u or reserved field %u out of range",
                  path, plies, depth, reserved);
        goto done;
    }
    if (count > (size - HEADER_SIZE - CHECKSUM_SIZE) / RECORD_SIZE
        || HEADER_SIZE + RECORD_SIZE * count + CHECKSUM_SIZE != size) {
        error_set(error, "%s: %zu bytes do not hold the %llu records the header announces "
                  "(truncated or padded)", path, size, (unsigned long long)count);
        goto done;
    }
    if (get_u64(bytes + size - CHECKSUM_SIZE) != checksum(bytes, size - CHECKSUM_SIZE)) {
        error_set(error, "%s: checksum mismatch (the file is damaged)", path);
        goto done;
    }
    book = book_create((int)plies, (int)depth);
    if (!book) {
        error_set(error, "%s: out of memory", path);
        goto done;
    }
    size_t capacity = MIN_CAPACITY;
    while (capacity < 2 * count)
        capacity *= 2;
    if (capacity > book->capacity && !grow(book, capacity)) {
        error_set(error, "%s: out of memory for %llu positions", path, (unsigned long long)count);
        goto done;
    }
    BookEntry previous = {0};
    size_t stale = 0;
    for (size_t i = 0; i < count; ++i) {
        BookEntry entry;
        if (!read_record(bytes + HEADER_SIZE + RECORD_SIZE * i, i, path, &entry, error))
            goto done;
        if (i > 0 && !key_less(&previous, &entry)) {
            error_set(error, "%s: record %zu: keys out of order or repeated", path, i + 1);
            goto done;
        }
        Board key = {entry.player, entry.opponent};
        book->slots[slot_of(book, &key)] = entry;
        stale += entry.depth == BOOK_DEPTH_STALE;
        previous = entry;
    }
    book->count = count;
    /* A finished book's stored values are its negamax (book_save writes what book_evaluate
     * left, and the checksum guards the bytes): recomputing them would cost a GUI's engine
     * start 0.3 s. A book with positions still to search is negamaxed here, so that nothing
     * unknown counts as a 0. */
    if (stale) {
        if (!book_negamax(book)) {
            error_set(error, "%s: out of memory for the book's values", path);
            goto done;
        }
    } else {
        for (size_t i = 0; i < book->capacity; ++i)
            book->slots[i].known = slot_used(&book->slots[i]);
    }
    ok = true;
done:
    free(data);
    if (!ok) {
        book_free(book);
        return false;
    }
    *out = book;
    return true;
}

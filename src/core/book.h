/* The opening book: the positions of opening lines, each with the number of games that
 * went through it, the best move outside the book with its value from a search, and the
 * negamax value over both (book children and that deviation), in discs for the side to move.
 *
 * Positions are stored once for their 8 symmetric images (the least image is the key), so
 * a line met in a rotated or mirrored game finds the same entry. Moves stored in an entry
 * are in the key's orientation; the functions here return them in the caller's.
 *
 * This module knows no search: book_eval.h fills in the deviations. File format: see
 * book.c (a fixed header, then sorted fixed-size records and a checksum). */
#ifndef OCTUPLE_BOOK_H
#define OCTUPLE_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"

enum {
    BOOK_NO_LEAF = -128,      /* `leaf` when no move is left outside the book */
    BOOK_DEPTH_STALE = 0,     /* `depth` when the deviation must be (re)evaluated */
    BOOK_DEPTH_OVER = 100,    /* `depth` of a finished game: `leaf` is its final score */
    BOOK_MAX_DEPTH = 60,      /* deepest search a deviation may come from */
    /* deepest search the engine grows a book with (`book store`, NBoard's `learn`, whose
     * GUI waits): about 4 s a new position on one core, a game adding up to 30 of them;
     * each ply more costs about half as much again (24: about 20 s a position) */
    BOOK_GROW_MAX_DEPTH = 20,
    BOOK_MAX_PLIES = 60,
    BOOK_MAX_MOVES = 34,      /* book_moves: at most the legal moves plus one */
    BOOK_PV_SIZE = 24
};

typedef struct BookEntry {
    uint64_t player, opponent; /* the key: the least symmetric image, side to move first */
    uint32_t games;            /* games of the sources that reached the position */
    int8_t value;              /* negamax value, discs, side to move */
    int8_t leaf;               /* the best move outside the book: its value, or BOOK_NO_LEAF */
    uint8_t leaf_move;         /* its square in the key's orientation, MOVE_PASS, MOVE_NONE */
    uint8_t depth;             /* the search depth behind `leaf`, or BOOK_DEPTH_* */
    bool known;                /* not in the file: book_negamax found a value (a stale entry
                                  without a deviation or known children has none) */
} BookEntry;

typedef struct Book Book;

/* A candidate move of a book position, best first. */
typedef struct BookMove {
    int move;       /* square or MOVE_PASS, in the caller's orientation */
    int value;      /* discs, the mover's view */
    uint32_t games; /* games through the position after it (0: the deviation) */
    bool in_book;   /* the position after it is in the book */
} BookMove;

/* An empty book whose games are added up to `plies` moves (passes count) and whose
 * deviations come from searches of `depth` plies. */
Book *book_create(int plies, int depth);
/* A copy to change while `book` stays as it is (NULL when out of memory). */
Book *book_copy(const Book *book);
void book_free(Book *book);

int book_plies(const Book *book);
int book_depth(const Book *book);
/* The depth of the searches of positions evaluated from now on (1..BOOK_MAX_DEPTH). */
void book_set_depth(Book *book, int depth);
size_t book_count(const Book *book);
/* Entries with a deviation still to evaluate: new ones, and those whose deviation has
 * joined the book since. */
size_t book_stale_count(Book *book);

/* The key of a position, and the symmetry that maps `board` onto it. */
Board book_key(const Board *board, int *symmetry);

/* The entry of a position (any orientation), NULL when it is not in the book. */
const BookEntry *book_find(const Book *book, const Board *board);

/* Adds the positions of `game` after 0..plies moves, one more game for each; the game must
 * start from the standard position with black to move (an error otherwise: move counts from
 * another start would mean something else); `added` (may be NULL) receives how many positions were new. New entries are stale;
 * so is, from the next book_stale_count or book_stale_entries on, any entry whose deviation
 * became a book move. */
bool book_add_game(Book *book, const Game *game, int *added, OctError *error);

/* Adds to `into` what `from` knows that it does not: the positions it lacks, whole, and
 * deviations from deeper searches than its own (game counts take the larger). Values are
 * worked out again when anything changed; `*changed` counts the positions added or given a
 * deeper deviation. False, with `into` as it was, when memory runs out (should the values'
 * work then run out, they stay as they were). Keys are compared as stored: both books hold
 * least images, as book_load's do. */
bool book_merge(Book *into, const Book *from, size_t *changed);

/* Drops the positions fewer than `min_games` games reached (the start always stays); every
 * entry is stale afterwards. */
void book_prune(Book *book, uint32_t min_games);

/* Stale entries, in key order (deterministic work lists): writes up to `size` pointers and
 * returns how many there are. The pointers stay valid until entries are added or removed. */
size_t book_stale_entries(Book *book, BookEntry **out, size_t size);
/* The moves of an entry's position that lead out of the book (MOVE_PASS as bit 64 is not
 * representable: `*pass_out` is set when the side to move must pass and the position after
 * the pass is not in the book). */
uint64_t book_outside_moves(const Book *book, const BookEntry *entry, bool *pass_out);

/* Recomputes every value: the best of the deviation and the known book children's negated
 * values. book_load runs it for a file with positions still to search; a finished file's
 * values are its negamax already. */
bool book_negamax(Book *book); /* false: out of memory, nothing changed */

/* The candidates of a book position, best first (value, then games, then square): the moves
 * to positions the book knows a value of, and the deviation; 0 when the position is not in
 * the book or nothing is known of it. `games` counts the games through the position after
 * the move, so moves to the same position (the four first moves) show the same count. */
int book_moves(const Book *book, const Board *board, BookMove *out);

/* A book move to play (never the deviation): the best, or with `randomness` > 0 any book
 * move within that many discs of the best, drawn uniformly with `rng`. MOVE_NONE when the
 * book has none, or when the deviation is better than every book move: the position is
 * then left to a search. */
int book_choose(const Book *book, const Board *board, int randomness, uint64_t *rng,
                BookMove *chosen);

/* The book line after `move`: the move, then the best book moves while the book knows the
 * positions; returns its length (at most `size`). */
int book_line(const Book *book, const Board *board, int move, int *pv, int size);

bool book_load(const char *path, Book **out, OctError *error);
/* Written to a temporary file and renamed: the old file stays whole on any error. */
bool book_save(const Book *book, const char *path, OctError *error);

#endif

/* libFuzzer harness: the opening book reader, then the lookups a loaded book serves. */
#include "core/board.h"
#include "core/book.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    Book *book = NULL;
    OctError error;
    if (book_load(path, &book, &error)) {
        Board board;
        board_init(&board);
        BookMove moves[64];
        book_moves(book, &board, moves);
        book_negamax(book);
        book_free(book);
    }
    close(fd);
    return 0;
}

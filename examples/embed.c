/* A program that embeds Octuple: plays the moves given on its command line from the start,
 * prints the board, then the move the engine would play and its three best moves.
 *
 *     cc embed.c -o embed $(pkg-config --cflags --libs octuple)
 *     ./embed f5d6c3d3c4
 */
#include <stdio.h>
#include <string.h>

#include <octuple.h>

static void print_result(const char *label, const OctupleResult *result)
{
    char name[3];
    printf("%s %s %+.2f%s, depth %d, line", label, octuple_move_name(result->move, name),
           result->score,
           result->exact ? " (exact)" : result->from_book ? " (book)" : "", result->depth);
    for (int i = 0; i < result->line_length; ++i)
        printf(" %s", octuple_move_name(result->line[i], name));
    printf("\n");
}

int main(int argc, char **argv)
{
    char error[OCTUPLE_ERROR_SIZE];
    Octuple *octuple = octuple_open(NULL, error, sizeof error); /* the installed weights */
    if (!octuple) {
        fprintf(stderr, "embed: %s\n", error);
        return 1;
    }
    const char *moves = argc > 1 ? argv[1] : "";
    for (size_t i = 0; moves[i]; i += 2) {
        char text[3] = {moves[i], moves[i + 1], '\0'}; /* a lone last letter: not a move */
        int move = octuple_move_parse(text);
        if (move < 0 || !octuple_play(octuple, move, error, sizeof error)) {
            fprintf(stderr, "embed: move %s: %s\n", text, move < 0 ? "not a move" : error);
            octuple_close(octuple);
            return 1;
        }
    }
    char board[OCTUPLE_BOARD_TEXT];
    for (int row = 0; row < 8; ++row)
        printf("%d %.8s\n", row + 1, octuple_board(octuple, board) + 8 * row);
    printf("  abcdefgh   %s to move\n",
           octuple_side_to_move(octuple) == OCTUPLE_BLACK ? "black (X)"
           : octuple_side_to_move(octuple) == OCTUPLE_WHITE ? "white (O)" : "nobody");

    OctupleResult best, hints[3];
    if (!octuple_think(octuple, NULL, &best, error, sizeof error)) {
        fprintf(stderr, "embed: %s\n", error);
        octuple_close(octuple);
        return 1;
    }
    print_result("best:", &best);
    int count = octuple_hint(octuple, 3, hints, error, sizeof error);
    for (int i = 0; i < count; ++i)
        print_result("hint:", &hints[i]);
    octuple_close(octuple);
    return count < 0;
}

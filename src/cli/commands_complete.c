/* Tab completion for the text console: command names from the command table, then each
 * command's argument by its Completion kind (legal moves, file names, help topics, book
 * sub-commands). */
#include "cli/commands.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/notation.h"
#include "engine/paths.h"

enum { WORD_SIZE = 64 }; /* a command name or a move string being typed */

typedef struct Matches {
    char **items;
    int count, capacity;
} Matches;

static void add_match(Matches *matches, const char *prefix, const char *candidate)
{
    if (strncasecmp(candidate, prefix, strlen(prefix)) != 0)
        return;
    for (int i = 0; i < matches->count; ++i)
        if (!strcmp(matches->items[i], candidate))
            return;
    if (matches->count == matches->capacity) {
        int capacity = matches->capacity ? matches->capacity * 2 : 16;
        char **bigger = realloc(matches->items, sizeof *bigger * (size_t)capacity);
        if (!bigger)
            return;
        matches->items = bigger;
        matches->capacity = capacity;
    }
    char *copy = strdup(candidate);
    if (copy)
        matches->items[matches->count++] = copy;
}

/* Moves: `word` is a move string being typed; completes its next move after the whole
 * moves already typed (which must be legal). */
static void complete_moves(Session *session, const char *word, Matches *matches)
{
    Game game = *engine_game(session->engine);
    size_t whole = 0, length = strlen(word);
    while (length - whole >= 2) {
        size_t used;
        int move = move_parse(word + whole, &used);
        if (move < 0 || !game_append(&game, move, NULL))
            return;
        whole += used;
    }
    Board board;
    game_position(&game, game.move_count, &board, NULL);
    if (board_is_over(&board))
        return;
    char typed[WORD_SIZE];
    snprintf(typed, sizeof typed, "%.*s", (int)whole, word);
    uint64_t legal = board_legal(&board);
    Board passed = {board.opponent, board.player};
    if (!legal) /* the side to move passes; the opponent's moves follow implicitly */
        legal = board_legal(&passed);
    for (int square = 0; square < 64; ++square) {
        if (!(legal >> square & 1))
            continue;
        char name[3], candidate[WORD_SIZE + 4];
        snprintf(candidate, sizeof candidate, "%s%s", typed, move_format(square, name));
        add_match(matches, word, candidate);
    }
}

static void complete_files(const char *word, Matches *matches)
{
    char dir[PATHS_SIZE];
    const char *slash = strrchr(word, '/');
    const char *base = slash ? slash + 1 : word;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - word + 1), word);
    else
        dir[0] = '\0';
    DIR *handle = opendir(dir[0] ? dir : ".");
    if (!handle)
        return;
    struct dirent *entry;
    while ((entry = readdir(handle))) {
        const char *name = entry->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..") || (name[0] == '.' && base[0] != '.'))
            continue;
        if (strncmp(name, base, strlen(base)) != 0)
            continue;
        char candidate[PATHS_SIZE * 2];
        snprintf(candidate, sizeof candidate, "%s%s", dir, name);
        char full[PATHS_SIZE * 2];
        snprintf(full, sizeof full, "%s", candidate);
        DIR *sub = opendir(full);
        if (sub) {
            closedir(sub);
            strncat(candidate, "/", sizeof candidate - strlen(candidate) - 1);
        }
        add_match(matches, word, candidate);
    }
    closedir(handle);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int commands_complete(Session *session, const char *line, size_t cursor, size_t *word_start,
                      char ***out)
{
    Matches matches = {NULL, 0, 0};
    /* the words before the cursor */
    size_t start = cursor;
    while (start > 0 && !isspace((unsigned char)line[start - 1]))
        --start;
    *word_start = start;
    char word[WORD_SIZE * 4];
    snprintf(word, sizeof word, "%.*s", (int)(cursor - start), line + start);
    char first[WORD_SIZE] = "";
    int index = 0; /* which word the cursor is in, `set` not counted */
    const char *p = line;
    while ((size_t)(p - line) < start) {
        while (isspace((unsigned char)*p))
            ++p;
        if ((size_t)(p - line) >= start)
            break;
        size_t length = 0;
        while (p[length] && !isspace((unsigned char)p[length]))
            ++length;
        char current[WORD_SIZE];
        snprintf(current, sizeof current, "%.*s", (int)length, p);
        if (!(index == 0 && !strcasecmp(current, "set"))) {
            if (index == 0)
                snprintf(first, sizeof first, "%s", current);
            ++index;
        }
        p += length;
    }
    int command_count;
    const Command *table = commands_table(&command_count);
    if (index == 0) {
        for (int i = 0; i < command_count; ++i)
            add_match(&matches, word, table[i].name);
        if (word[0])
            complete_moves(session, word, &matches);
    } else if (index == 1) {
        const Command *command = commands_find(first);
        Completion kind = command ? command->completion : COMPLETE_NONE;
        static const char *const book_words[] = {"on", "off", "show", "info", "add", "store",
                                                 "load", "save", "randomness", "depth"};
        switch (kind) {
        case COMPLETE_MOVES:
            complete_moves(session, word, &matches);
            break;
        case COMPLETE_FILES:
            complete_files(word, &matches);
            break;
        case COMPLETE_COMMANDS:
            for (int i = 0; i < command_count; ++i)
                add_match(&matches, word, table[i].name);
            break;
        case COMPLETE_BOOK:
            for (size_t i = 0; i < sizeof book_words / sizeof book_words[0]; ++i)
                add_match(&matches, word, book_words[i]);
            break;
        case COMPLETE_NONE:
            break;
        }
    }
    if (matches.count > 1)
        qsort(matches.items, (size_t)matches.count, sizeof *matches.items, compare_strings);
    *out = matches.items;
    return matches.count;
}

void commands_free_matches(char **matches, int count)
{
    for (int i = 0; i < count; ++i)
        free(matches[i]);
    free(matches);
}

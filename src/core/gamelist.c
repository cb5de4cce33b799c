#include "core/gamelist.h"

#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/ggf.h"
#include "core/logbook.h"

enum { GAMELIST_LIMIT = 1 << 28 }; /* a file of games; anything bigger is not one */

static bool from_ggf(const char *path, Game **games, size_t *count, OctError *error)
{
    GgfRecord *records;
    size_t n;
    if (!ggf_read_file(path, &records, &n, error))
        return false;
    Game *list = malloc(sizeof *list * (n ? n : 1));
    if (!list) {
        free(records);
        return error_set(error, "%s: out of memory", path);
    }
    for (size_t i = 0; i < n; ++i)
        list[i] = records[i].game;
    free(records);
    *games = list;
    *count = n;
    return true;
}

/* GGF when the first line that is neither blank nor a comment opens a record. */
static bool first_is_ggf(const char *text)
{
    for (const char *line = text; *line;) {
        const char *start = line + strspn(line, " \t\r\n");
        if (*start != '#')
            return start[0] == '(' && start[1] == ';';
        const char *next = strchr(start, '\n');
        if (!next)
            return false;
        line = next + 1;
    }
    return false;
}

bool gamelist_read(const char *path, Game **games, size_t *count, OctError *error)
{
    char *text;
    if (!file_read_text(path, GAMELIST_LIMIT, &text, error))
        return false;
    if (first_is_ggf(text)) {
        free(text);
        return from_ggf(path, games, count, error);
    }
    Game *list = NULL;
    size_t n = 0, capacity = 0;
    bool ok = true;
    long number = 0;
    for (char *line = text; ok && line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ++number;
        size_t length = strlen(line);
        if (length && line[length - 1] == '\r')
            line[--length] = '\0';
        const char *start = line + strspn(line, " \t");
        if (*start && *start != '#') {
            if (n == capacity) {
                capacity = capacity ? capacity * 2 : 64;
                Game *grown = realloc(list, sizeof *list * capacity);
                if (!grown) {
                    ok = error_set(error, "%s: out of memory", path);
                    break;
                }
                list = grown;
            }
            OctError line_error;
            if (*start == '+' || *start == '-') {
                LogbookGame game;
                ok = logbook_parse_line(start, &game, &line_error);
                if (ok)
                    list[n++] = game.game;
            } else {
                game_init(&list[n]);
                ok = game_parse_moves(&list[n], start, &line_error);
                n += ok;
            }
            if (!ok)
                error_set(error, "%s:%ld: %s", path, number, line_error.message);
        }
        line = next;
    }
    free(text);
    if (!ok) {
        free(list);
        return false;
    }
    *games = list;
    *count = n;
    return true;
}

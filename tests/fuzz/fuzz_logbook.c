/* libFuzzer harness: Logistello's logbook, through the file reader and line by line with
 * each game written back and read again. */
#include "core/logbook.h"
#include "fuzz.h"

static bool count_game(const LogbookGame *game, void *user)
{
    (void)game;
    ++*(size_t *)user;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd >= 0) {
        size_t games = 0;
        OctError error;
        logbook_read_file(path, count_game, &games, &error);
        close(fd);
    }
    char *text = fuzz_text(data, size);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        static LogbookGame game, again;
        OctError error;
        char out[1024];
        if (logbook_parse_line(line, &game, &error)
            && logbook_format_line(&game, out, sizeof out, &error)
            && !logbook_parse_line(out, &again, &error))
            abort();
    }
    free(text);
    return 0;
}

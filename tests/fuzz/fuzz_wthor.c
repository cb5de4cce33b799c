/* libFuzzer harness: the WTHOR readers (.wtb games, .jou players, .trn tournaments). */
#include "core/wthor.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    WthorHeader header;
    OctError error;
    WthorGame *games = NULL;
    size_t count = 0;
    if (wthor_read_games(path, &header, &games, &count, &error))
        free(games);
    WthorName *names = NULL;
    if (wthor_read_players(path, &header, &names, &count, &error))
        free(names);
    names = NULL;
    if (wthor_read_tournaments(path, &header, &names, &count, &error))
        free(names);
    close(fd);
    return 0;
}

/* libFuzzer harness: the NBoard protocol, lines as the GUI sends them (see protocol.h for
 * what is left out). */
#include "cli/nboard.h"
#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const unsafe[] = {"depth", "exact", "wld", "thread", "hash", "time",
                                         "learn", NULL};
    Engine *engine = fuzz_engine();
    engine_new_game(engine);
    int fd = fuzz_filtered(data, size, unsafe);
    if (fd < 0)
        return 0;
    Input input;
    input_init(&input, fd);
    nboard_run(engine, &input, fuzz_null_output(), 0);
    input_free(&input);
    close(fd);
    return 0;
}

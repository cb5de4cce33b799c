/* libFuzzer harness: the console's command lines, through its loop (see protocol.h for
 * what is left out). */
#include "cli/repl.h"
#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const unsafe[] = {"save", "load", "book", "weights", "solve", "perft",
                                         "mode", "level", "depth", "exact", "wld", "thread",
                                         "hash", "time", "learn", "nboard", "gtp", NULL};
    Engine *engine = fuzz_engine();
    engine_new_game(engine);
    int fd = fuzz_filtered(data, size, unsafe);
    if (fd < 0)
        return 0;
    Input input;
    input_init(&input, fd);
    repl_run(engine, &input, fuzz_null_output(), COLOR_MODE_NEVER);
    input_free(&input);
    close(fd);
    return 0;
}

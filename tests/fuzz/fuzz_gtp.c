/* libFuzzer harness: the Go Text Protocol front end (see protocol.h). GTP changes no
 * search setting, so nothing is left out. */
#include "cli/gtp.h"
#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const unsafe[] = {NULL};
    Engine *engine = fuzz_engine();
    engine_new_game(engine);
    int fd = fuzz_filtered(data, size, unsafe);
    if (fd < 0)
        return 0;
    Input input;
    input_init(&input, fd);
    gtp_run(engine, &input, fuzz_null_output());
    input_free(&input);
    close(fd);
    return 0;
}

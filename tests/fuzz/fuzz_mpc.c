/* libFuzzer harness: the ProbCut parameters file (.mpc), loaded and converted from
 * version 1. */
#include "core/probcut.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    static Probcut probcut;
    OctError error;
    if (probcut_load(&probcut, path, &error)) {
        for (int depth = 0; depth <= PROBCUT_MID_MAX_DEPTH + 2; ++depth)
            for (int empties = -1; empties <= PROBCUT_MID_MAX_EMPTIES + 1; ++empties)
                probcut_mid(&probcut, depth, empties);
        probcut_sigma(&probcut, 20, 4);
    }
    close(fd);
    return 0;
}

/* libFuzzer harness: GGF game records, one after another as in a file, each written back
 * and read again (the round trip must hold). */
#include "core/ggf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    static GgfRecord record, again;
    static char line[GGF_LINE_SIZE];
    const char *at = text;
    for (int i = 0; i < 64 && *at; ++i) {
        const char *end = NULL;
        OctError error;
        if (!ggf_parse(at, &record, &end, &error)) {
            if (!end || end <= at)
                break;
            at = end;
            continue;
        }
        if (ggf_format(&record, line, sizeof line, &error)) {
            const char *stop;
            if (!ggf_parse(line, &again, &stop, &error))
                abort(); /* what the writer wrote, the reader must read */
        }
        if (!end || end <= at)
            break;
        at = end;
    }
    free(text);
    return 0;
}

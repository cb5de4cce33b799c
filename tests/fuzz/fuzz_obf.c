/* libFuzzer harness: OBF positions, line by line as the file reader takes them, each written
 * back and read again. */
#include "core/obf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        ObfPosition position, again;
        OctError error;
        char out[1024];
        if (obf_parse_line(line, &position, &error) == OBF_POSITION
            && obf_format_line(&position, out, sizeof out, &error)
            && obf_parse_line(out, &again, &error) != OBF_POSITION)
            abort();
    }
    free(text);
    return 0;
}

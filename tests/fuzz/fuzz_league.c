/* libFuzzer harness: the Othello League text format (n-tuple networks), both perspectives. */
#include "core/league.h"
#include "core/model.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    for (int p = 0; p < 2; ++p) {
        Model *model = NULL;
        OctError error;
        if (league_parse(text, "fuzz.txt", p ? PERSPECTIVE_NEGATION : PERSPECTIVE_INVERSION,
                         &model, &error))
            model_free(model);
    }
    free(text);
    return 0;
}

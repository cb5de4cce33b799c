/* libFuzzer harness: the weights file (.ow) decoder. */
#include "core/model.h"
#include "core/weights.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Model *model = NULL;
    OctError error;
    if (model_parse(data, size, "fuzz.ow", &model, &error))
        model_free(model);
    return 0;
}

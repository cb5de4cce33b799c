/* Weights files: encoding, checked decoding, atomic saving. */
#include "core/weights.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "core/fileio.h"

static const unsigned char weights_magic[8] = {0x89, 'O', 'C', 'T', 'W', '\r', '\n', 0x1a};

enum {
    HEADER_SIZE = 104 + 2 * MODEL_MOVES, /* through the phase table */
    CHECKSUM_SIZE = 4,
    WEIGHTS_FILE_LIMIT = 1 << 30,
    /* SHAPE_MAX_INSTANCES entries of at most 2^15 add up to 2^23: with a bias within 2^28
     * an evaluation's sum stays far inside an int */
    WEIGHTS_MAX_BIAS = 1 << 28
};

/* ---- writing ---- */

typedef struct Writer {
    unsigned char *data;
    size_t used;
} Writer;

static void put_u8(Writer *w, unsigned value)
{
    w->data[w->used++] = (unsigned char)value;
}

static void put_u16(Writer *w, unsigned value)
{
    put_u8(w, value & 0xff);
    put_u8(w, value >> 8 & 0xff);
}

static void put_u32(Writer *w, uint32_t value)
{
    put_u16(w, value & 0xffff);
    put_u16(w, value >> 16);
}

static void put_bytes(Writer *w, const void *bytes, size_t count)
{
    memcpy(w->data + w->used, bytes, count);
    w->used += count;
}

static uint32_t checksum(const unsigned char *data, size_t size)
{
    return (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
}

static size_t shapes_bytes(const Model *model)
{
    size_t bytes = 0;
    for (int s = 0; s < model->shape_count; ++s) {
        const Shape *shape = &model->shapes[s];
        bytes += 1 + strlen(shape->name) + 2;
        for (int t = 0; t < shape->tuple_count; ++t)
            bytes += 2 + (size_t)shape->tuples[t].size * shape->tuples[t].instance_count;
    }
    return bytes;
}

bool weights_encode(const Model *model, int encoding, const float *values,
                    unsigned char **data, size_t *size, OctError *error)
{
    if (encoding != WEIGHTS_INT16 && encoding != WEIGHTS_FLOAT32)
        return error_set(error, "unknown weight encoding %d", encoding);
    size_t entry_bytes = encoding == WEIGHTS_INT16 ? 2 : 4;
    size_t total = HEADER_SIZE + shapes_bytes(model) + 8 * (size_t)model->set_count
                 + entry_bytes * model_weight_count(model) + CHECKSUM_SIZE;
    if (total > WEIGHTS_FILE_LIMIT)
        return error_set(error, "the model needs %zu bytes, more than the %d a file may hold",
                         total, WEIGHTS_FILE_LIMIT);
    Writer w = {malloc(total), 0};
    if (!w.data)
        return error_set(error, "out of memory");

    put_bytes(&w, weights_magic, sizeof weights_magic);
    put_u32(&w, WEIGHTS_VERSION);
    put_u32(&w, (uint32_t)total);
    put_u32(&w, (uint32_t)encoding);
    put_u32(&w, (uint32_t)model->shift);
    put_u32(&w, (uint32_t)model->perspective);
    put_u32(&w, (uint32_t)model->origin);
    char name[MODEL_NAME_SIZE] = {0};
    memcpy(name, model->name, strnlen(model->name, sizeof name - 1));
    put_bytes(&w, name, sizeof name);
    put_u32(&w, (uint32_t)model->shape_count);
    put_u32(&w, (uint32_t)model->set_count);
    for (int move = 0; move < MODEL_MOVES; ++move) {
        put_u8(&w, model->phase.shape[move]);
        put_u8(&w, model->phase.set[move]);
    }
    for (int s = 0; s < model->shape_count; ++s) {
        const Shape *shape = &model->shapes[s];
        size_t name_length = strlen(shape->name);
        put_u8(&w, (unsigned)name_length);
        put_bytes(&w, shape->name, name_length);
        put_u16(&w, (unsigned)shape->tuple_count);
        for (int t = 0; t < shape->tuple_count; ++t) {
            const Tuple *tuple = &shape->tuples[t];
            put_u8(&w, tuple->size);
            put_u8(&w, tuple->instance_count);
            for (int i = 0; i < tuple->instance_count; ++i)
                put_bytes(&w, tuple->squares[i], tuple->size);
        }
    }
    for (int s = 0; s < model->set_count; ++s) {
        put_u32(&w, (uint32_t)model->sets[s].shape);
        put_u32(&w, (uint32_t)model->sets[s].bias);
    }
    size_t k = 0;
    for (int s = 0; s < model->set_count; ++s) {
        const WeightSet *set = &model->sets[s];
        size_t entries = model->shapes[set->shape].table_size;
        for (size_t i = 0; i < entries; ++i, ++k) {
            if (encoding == WEIGHTS_INT16) {
                put_u16(&w, (uint16_t)set->values[i]);
            } else {
                float value = values ? values[k] : (float)set->values[i];
                uint32_t bits;
                memcpy(&bits, &value, sizeof bits);
                put_u32(&w, bits);
            }
        }
    }
    put_u32(&w, checksum(w.data, w.used));
    *data = w.data;
    *size = w.used;
    return true;
}

static bool weights_write(const Model *model, int encoding, const float *values,
                          const char *path, OctError *error)
{
    unsigned char *data;
    size_t size;
    if (!weights_encode(model, encoding, values, &data, &size, error))
        return error_prefix(error, "%s: ", path);
    bool ok = file_write_atomic(path, data, size, error);
    free(data);
    return ok;
}

bool model_save(const Model *model, const char *path, OctError *error)
{
    return weights_write(model, WEIGHTS_INT16, NULL, path, error);
}

bool weights_save_float(const Model *model, const float *values, const char *path,
                        OctError *error)
{
    return weights_write(model, WEIGHTS_FLOAT32, values, path, error);
}

/* ---- reading ---- */

typedef struct Reader {
    const unsigned char *data;
    size_t used, end;
} Reader;

static bool has(const Reader *r, size_t count)
{
    return r->end - r->used >= count;
}

static unsigned get_u8(Reader *r)
{
    return r->data[r->used++];
}

static unsigned get_u16(Reader *r)
{
    unsigned low = get_u8(r);
    return low | get_u8(r) << 8;
}

static uint32_t get_u32(Reader *r)
{
    uint32_t low = get_u16(r);
    return low | (uint32_t)get_u16(r) << 16;
}

static uint32_t peek_u32(const unsigned char *data)
{
    return (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16
         | (uint32_t)data[3] << 24;
}

#define INCONSISTENT(...) error_prefix((error_set(error, __VA_ARGS__), error), "inconsistent: ")

/* Magic, version, size and checksum: the checks that say the bytes are what was written. */
static bool envelope_check(const unsigned char *data, size_t size, OctError *error)
{
    size_t magic = size < sizeof weights_magic ? size : sizeof weights_magic;
    if (memcmp(data, weights_magic, magic) != 0) {
        if (size > 0 && (data[0] == '{' || data[0] == ' ' || data[0] == '\n'))
            return error_set(error, "not an Octuple weights file (bad magic; it looks like "
                             "text: Othello League networks need the import)");
        return error_set(error, "not an Octuple weights file (bad magic)");
    }
    if (size < 16)
        return error_set(error, "truncated: %zu bytes, the header alone needs %d", size,
                         HEADER_SIZE);
    uint32_t version = peek_u32(data + 8);
    if (version != WEIGHTS_VERSION)
        return error_set(error, "format version %u, this build reads version %d only",
                         version, WEIGHTS_VERSION);
    uint32_t declared = peek_u32(data + 12);
    if (size < declared)
        return error_set(error, "truncated: %zu of the %u bytes the header declares", size,
                         declared);
    if (size > declared)
        return error_set(error, "%zu bytes of trailing data after the declared %u",
                         size - declared, declared);
    if (declared < HEADER_SIZE + CHECKSUM_SIZE)
        return error_set(error, "truncated: %u bytes, the header alone needs %d", declared,
                         HEADER_SIZE);
    uint32_t stored = peek_u32(data + size - CHECKSUM_SIZE);
    uint32_t computed = checksum(data, size - CHECKSUM_SIZE);
    if (stored != computed)
        return error_set(error, "corrupted: checksum %08x, the file says %08x", computed,
                         stored);
    return true;
}

typedef struct Header {
    uint32_t encoding, shift, perspective, origin, shape_count, set_count;
    char name[MODEL_NAME_SIZE];
    PhaseTable phase;
} Header;

static bool header_read(Reader *r, Header *h, OctError *error)
{
    r->used = 16;
    h->encoding = get_u32(r);
    h->shift = get_u32(r);
    h->perspective = get_u32(r);
    h->origin = get_u32(r);
    memcpy(h->name, r->data + r->used, sizeof h->name);
    r->used += sizeof h->name;
    h->shape_count = get_u32(r);
    h->set_count = get_u32(r);
    for (int move = 0; move < MODEL_MOVES; ++move) {
        h->phase.shape[move] = (uint8_t)get_u8(r);
        h->phase.set[move] = (uint8_t)get_u8(r);
    }
    if (h->encoding != WEIGHTS_INT16 && h->encoding != WEIGHTS_FLOAT32)
        return INCONSISTENT("weight encoding %u (1 = int16, 2 = float32)", h->encoding);
    if (h->shift > MODEL_MAX_SHIFT)
        return INCONSISTENT("shift %u (at most %d)", h->shift, MODEL_MAX_SHIFT);
    if (h->perspective > PERSPECTIVE_NEGATION)
        return INCONSISTENT("perspective %u (0 = inversion, 1 = negation)", h->perspective);
    if (h->origin > ORIGIN_WPC)
        return INCONSISTENT("origin %u (0 to 2)", h->origin);
    if (!memchr(h->name, '\0', sizeof h->name))
        return INCONSISTENT("the model name is not NUL terminated");
    if (h->shape_count < 1 || h->shape_count > MODEL_MAX_SHAPES)
        return INCONSISTENT("%u shapes (1 to %d allowed)", h->shape_count, MODEL_MAX_SHAPES);
    if (h->set_count < 1 || h->set_count > MODEL_MAX_SETS)
        return INCONSISTENT("%u weight sets (1 to %d allowed)", h->set_count, MODEL_MAX_SETS);
    int sets;
    if (!phase_check(&h->phase, (int)h->shape_count, &sets, error))
        return error_prefix(error, "inconsistent: phase table: ");
    if ((uint32_t)sets != h->set_count)
        return INCONSISTENT("the header says %u weight sets, the phase table uses %d",
                            h->set_count, sets);
    return true;
}

static bool shape_read_binary(Reader *r, int number, Shape *out, OctError *error)
{
    if (!has(r, 1))
        return INCONSISTENT("shape %d runs past the end", number);
    char name[SHAPE_NAME_SIZE];
    unsigned name_length = get_u8(r);
    if (name_length >= SHAPE_NAME_SIZE)
        return INCONSISTENT("shape %d has a name of %u bytes (at most %d)", number,
                            name_length, SHAPE_NAME_SIZE - 1);
    if (!has(r, name_length + 2))
        return INCONSISTENT("shape %d runs past the end", number);
    memcpy(name, r->data + r->used, name_length);
    name[name_length] = '\0';
    if (strlen(name) != name_length)
        return INCONSISTENT("shape %d has a NUL byte in its name", number);
    r->used += name_length;
    unsigned tuple_count = get_u16(r);
    if (tuple_count < 1 || tuple_count > SHAPE_MAX_INSTANCES)
        return INCONSISTENT("shape %d has %u tuples (1 to %d allowed)", number, tuple_count,
                            SHAPE_MAX_INSTANCES);
    Tuple *tuples = malloc(sizeof *tuples * tuple_count);
    if (!tuples)
        return error_set(error, "out of memory");
    bool ok = true;
    for (unsigned t = 0; ok && t < tuple_count; ++t) {
        if (!has(r, 2)) {
            ok = INCONSISTENT("shape %d tuple %u runs past the end", number, t + 1);
            break;
        }
        unsigned size = get_u8(r), instances = get_u8(r);
        if (size < 1 || size > TUPLE_MAX_SIZE) {
            ok = INCONSISTENT("shape %d tuple %u has %u squares (1 to %d allowed)", number,
                              t + 1, size, TUPLE_MAX_SIZE);
        } else if (!has(r, (size_t)size * instances)) {
            ok = INCONSISTENT("shape %d tuple %u runs past the end", number, t + 1);
        } else if (!tuple_explicit(r->data + r->used, (int)size, (int)instances, &tuples[t], error)) {
            ok = error_prefix(error, "inconsistent: shape %d tuple %u: ", number, t + 1);
        }
        if (ok)
            r->used += (size_t)size * instances;
    }
    if (ok && !shape_build(out, name, tuples, (int)tuple_count, error))
        ok = error_prefix(error, "inconsistent: shape %d: ", number);
    free(tuples);
    return ok;
}

static bool table_entries_read(Reader *r, int encoding, int set_number, WeightSet *set,
                               size_t entries, OctError *error)
{
    size_t bytes = (encoding == WEIGHTS_INT16 ? 2 : 4) * entries;
    if (!has(r, bytes))
        return INCONSISTENT("weight set %d runs past the end", set_number);
    for (size_t i = 0; i < entries; ++i) {
        if (encoding == WEIGHTS_INT16) {
            set->values[i] = (int16_t)get_u16(r);
            continue;
        }
        uint32_t bits = get_u32(r);
        float value;
        memcpy(&value, &bits, sizeof value);
        if (!isfinite(value) || value < -32768.5f || value >= 32767.5f)
            return INCONSISTENT("weight set %d entry %zu is %g, outside the int16 range",
                                set_number, i, (double)value);
        set->values[i] = (int16_t)(value >= 0 ? (int)(value + 0.5f) : -(int)(0.5f - value));
    }
    return true;
}

static bool model_decode(const unsigned char *data, size_t size, Model **out, OctError *error)
{
    Reader r = {data, 0, size - CHECKSUM_SIZE};
    Header h;
    if (!header_read(&r, &h, error))
        return false;
    Shape shapes[MODEL_MAX_SHAPES];
    int built = 0;
    bool ok = true;
    for (; ok && built < (int)h.shape_count; ++built)
        if (!shape_read_binary(&r, built, &shapes[built], error)) {
            ok = false;
            break;
        }
    Model *model = NULL;
    if (ok)
        ok = model_create(shapes, (int)h.shape_count, &h.phase, &model, error)
          || error_prefix(error, "inconsistent: ");
    for (int s = 0; s < built; ++s)
        shape_free(&shapes[s]);
    if (!ok)
        return false;
    if (!has(&r, 8 * (size_t)h.set_count))
        ok = INCONSISTENT("the weight set headers run past the end");
    for (int s = 0; ok && s < model->set_count; ++s) {
        uint32_t shape = get_u32(&r);
        if (shape != (uint32_t)model->sets[s].shape)
            ok = INCONSISTENT("weight set %d says shape %u, the phase table uses it with "
                              "shape %d", s, shape, model->sets[s].shape);
        model->sets[s].bias = (int32_t)get_u32(&r);
        if (ok && (model->sets[s].bias > WEIGHTS_MAX_BIAS || model->sets[s].bias < -WEIGHTS_MAX_BIAS))
            ok = INCONSISTENT("weight set %d has the bias %d, beyond +-%d", s,
                              (int)model->sets[s].bias, WEIGHTS_MAX_BIAS);
    }
    for (int s = 0; ok && s < model->set_count; ++s) {
        WeightSet *set = &model->sets[s];
        ok = table_entries_read(&r, (int)h.encoding, s, set,
                                model->shapes[set->shape].table_size, error);
    }
    if (ok && r.used != r.end)
        ok = INCONSISTENT("%zu bytes left over after the last weight", r.end - r.used);
    if (!ok) {
        model_free(model);
        return false;
    }
    snprintf(model->name, sizeof model->name, "%s", h.name);
    model->shift = (int)h.shift;
    model->perspective = (ModelPerspective)h.perspective;
    model->origin = (ModelOrigin)h.origin;
    *out = model;
    return true;
}

bool model_parse(const unsigned char *data, size_t size, const char *name, Model **out,
                 OctError *error)
{
    if (!envelope_check(data, size, error) || !model_decode(data, size, out, error))
        return error_prefix(error, "%s: ", name);
    return true;
}

/* The length a weights header declares (FileDeclaredSize); envelope_check judges the rest.
 * A declared 0 leaves the read to the limit, so that the error gives the file's true size. */
static size_t declared_size(const unsigned char *head, size_t have)
{
    if (have < 16 || memcmp(head, weights_magic, sizeof weights_magic) != 0
        || peek_u32(head + 8) != WEIGHTS_VERSION)
        return 0;
    uint32_t declared = peek_u32(head + 12);
    return declared ? declared : SIZE_MAX;
}

bool model_load(const char *path, Model **out, OctError *error)
{
    char *data;
    size_t size;
    if (!file_read_declared(path, WEIGHTS_FILE_LIMIT, declared_size, &data, &size, error))
        return false;
    bool ok = model_parse((const unsigned char *)data, size, path, out, error);
    free(data);
    if (!ok)
        return false;
    /* the probability-cut model fitted to these weights, when one was shipped with them */
    char sibling[4096];
    size_t length = strlen(path);
    if (length > 3 && strcmp(path + length - 3, ".ow") == 0)
        length -= 3;
    if (length + 5 > sizeof sibling)
        return true;
    snprintf(sibling, sizeof sibling, "%.*s.mpc", (int)length, path);
    /* lstat, not access: a dangling link named like the model's file is an error to report,
     * not a file that is absent */
    struct stat entry;
    if (lstat(sibling, &entry) != 0)
        return true;
    if (!probcut_load(&(*out)->probcut, sibling, error)) {
        model_free(*out);
        *out = NULL;
        return false;
    }
    return true;
}

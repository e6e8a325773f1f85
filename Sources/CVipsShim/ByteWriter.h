// Internal to CVipsShim: a growable byte buffer and ISOBMFF box writing, for the HEIF files
// put together in memory (a grid file, a single tile handed to libheif).
#ifndef CVIPS_SHIM_BYTE_WRITER_H
#define CVIPS_SHIM_BYTE_WRITER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    int failed;
} Bytes;

static inline void put(Bytes *b, const void *data, size_t length) {
    if (b->failed || length == 0) return;
    if (b->length + length > b->capacity) {
        size_t capacity = (b->capacity + length) * 2;
        uint8_t *grown = realloc(b->bytes, capacity);
        if (!grown) { b->failed = 1; return; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, data, length);
    b->length += length;
}

/// `value` big-endian in `bytes` (at most 8) bytes.
static inline void put_uint(Bytes *b, uint64_t value, int bytes) {
    uint8_t out[8];
    for (int i = 0; i < bytes; i++) out[i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
    put(b, out, (size_t)bytes);
}

/// Starts a box (a full box when `version` >= 0); returns where its size goes.
static inline size_t open_box(Bytes *b, const char *type, int version, uint32_t flags) {
    size_t start = b->length;
    put_uint(b, 0, 4);
    put(b, type, 4);
    if (version >= 0) { put_uint(b, (uint64_t)version, 1); put_uint(b, flags, 3); }
    return start;
}

static inline void close_box(Bytes *b, size_t start) {
    if (b->failed) return;
    size_t size = b->length - start;
    for (int i = 0; i < 4; i++) b->bytes[start + i] = (uint8_t)(size >> (8 * (3 - i)));
}

#endif

// A JPEG decoder for 1/8-scale thumbnails. At 1/8 scale each 8x8 block becomes one pixel, its
// DC coefficient dequantised, so nearly all the work is walking the Huffman-coded AC
// coefficients only to step over them. This decoder steps over them with one table look-up for
// one or two whole coefficients (code and extra bits together) where libjpeg decodes each
// symbol and then drops its extra bits, and it removes the 0xFF00 stuffing once up front so
// that its bit reader never tests for markers. It takes baseline and extended sequential
// Huffman JPEGs with 8-bit samples, one (grey) or three (YCbCr) components, luma sampled 1 or
// 2 times the chroma either way, restart intervals. Anything else, and any data libjpeg would
// warn about, is CVIPS_DC_NOT_HANDLED: the caller then decodes with libjpeg, which reports
// damage as it always has. The output is libjpeg-turbo's at scale 1/8 with plain upsampling
// and fast DCT, bit for bit: the same 1x1 "IDCT", for 4:2:0 chroma the same 2x2 reduced IDCT
// (libjpeg-turbo scales 4:2:0 chroma by IDCT rather than upsampling it), the same range limiting
// and the same fixed-point YCbCr->RGB.
#include "DCDecode.h"
#include <stdlib.h>
#include <string.h>

enum { LOOK = 11, PAD = 4096 + 16, SLOW = 255, END = 64 };

// One Huffman table, canonical form plus look-up tables over the next LOOK bits.
typedef struct {
    int defined;
    uint8_t counts[17];
    uint8_t symbols[256];
} RawTable;

typedef struct {
    int32_t maxcode[17];    // largest code of each length, -1 when none
    int32_t offset[17];     // symbol index of a code of that length: code + offset
    uint8_t symbols[256];
    // code length | symbol << 8, or 0 when the code is longer than LOOK (or invalid)
    uint16_t single[1 << LOOK];
    // for AC tables, how far one look-up gets: bits of the whole step | coefficient advance << 8
    // | bits of its first coefficient << 16 | that one's advance << 24. The advance counts
    // zigzag positions; END (64) ends the block; SLOW marks codes longer than LOOK.
    uint32_t step[1 << LOOK];
} Table;

typedef struct {
    int id, h, v, tq, td, ta;
} Component;

typedef struct {
    const uint8_t *data;
    size_t length, pos;
    int width, height, ncomp, restart, frames, adobe, adobe_transform;
    Component comp[3];
    int quant_defined[4];
    uint16_t quant[4][64];      // natural order
    RawTable raw[2][4];         // [DC, AC][slot]
} Header;

static const uint8_t zigzag[64 + 16] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    // a run past the end of the block lands on the last coefficient, as in libjpeg
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
};

static int read16(const Header *h, size_t at) { return h->data[at] << 8 | h->data[at + 1]; }

// Builds the decoding tables; 0 when the code lengths overflow (libjpeg refuses such a table).
static int build_table(const RawTable *raw, int ac, Table *t) {
    int code = 0, index = 0;
    memset(t->single, 0, sizeof t->single);
    memcpy(t->symbols, raw->symbols, sizeof t->symbols);
    t->maxcode[0] = -1;
    t->offset[0] = 0;
    for (int length = 1; length <= 16; length++) {
        int n = raw->counts[length];
        t->offset[length] = index - code;
        for (int i = 0; i < n; i++, code++, index++) {
                        uint8_t symbol = raw->symbols[index];
            if (!ac && symbol > 15) return 0;
            if (length <= LOOK) {
                int first = code << (LOOK - length), last = (code + 1) << (LOOK - length);
                for (int j = first; j < last; j++) t->single[j] = (uint16_t)(length | symbol << 8);
            }
        }
        t->maxcode[length] = n ? code - 1 : -1;
        if (code >= (1 << length)) return 0;
        code <<= 1;
    }
    if (!ac) return 1;
    for (int j = 0; j < (1 << LOOK); j++) {
        uint16_t first = t->single[j];
        if (!first) { t->step[j] = SLOW << 8; continue; }
        int r = first >> 12, s = (first >> 8) & 15;
        int bits = (first & 255) + s, advance = s ? r + 1 : (r == 15 ? 16 : END);
        uint32_t single = (uint32_t)(bits | advance << 8);
        t->step[j] = single | single << 16;
        if (advance == END || bits >= LOOK) continue;
        uint16_t second = t->single[(j << bits) & ((1 << LOOK) - 1)];
        if (!second) continue;
        int r2 = second >> 12, s2 = (second >> 8) & 15;
        int bits2 = (second & 255) + s2, advance2 = s2 ? r2 + 1 : (r2 == 15 ? 16 : END);
        if (bits + bits2 > LOOK) continue;
        t->step[j] = (uint32_t)((bits + bits2) | (advance + advance2) << 8) | single << 16;
    }
    return 1;
}

// A code longer than LOOK bits, the canonical way: length | symbol << 8, or 0 for no code.
static uint32_t slow_symbol(const Table *t, uint64_t bits) {
    for (int length = 1; length <= 16; length++) {
        int32_t code = (int32_t)(bits >> (64 - length));
        if (code <= t->maxcode[length]) {
            int index = code + t->offset[length];
            if (index < 0 || index > 255) return 0;
            return (uint32_t)(length | t->symbols[index] << 8);
        }
    }
    return 0;
}

static int parse_frame(Header *h, size_t at, int length) {
    if (h->frames++ || length < 8) return 0;
    if (h->data[at] != 8) return 0;
    h->height = read16(h, at + 1);
    h->width = read16(h, at + 3);
    h->ncomp = h->data[at + 5];
    if (h->width == 0 || h->height == 0 || h->width > 65500 || h->height > 65500 || (h->ncomp != 1 && h->ncomp != 3) || length != 6 + 3 * h->ncomp) return 0;
    for (int c = 0; c < h->ncomp; c++) {
        Component *comp = &h->comp[c];
        comp->id = h->data[at + 6 + 3 * c];
        comp->h = h->data[at + 7 + 3 * c] >> 4;
        comp->v = h->data[at + 7 + 3 * c] & 15;
        comp->tq = h->data[at + 8 + 3 * c];
        if (comp->h < 1 || comp->h > 4 || comp->v < 1 || comp->v > 4 || comp->tq > 3) return 0;
    }
    if (h->ncomp == 3) {
        if (h->comp[0].h > 2 || h->comp[0].v > 2) return 0;
        for (int c = 1; c < 3; c++) if (h->comp[c].h != 1 || h->comp[c].v != 1) return 0;
        // libjpeg reads these as RGB, not YCbCr
        if (h->comp[0].id == 'R' && h->comp[1].id == 'G' && h->comp[2].id == 'B') return 0;
    }
    return 1;
}

static int parse_quant(Header *h, size_t at, int length) {
    size_t end = at + (size_t)length;
    while (at < end) {
        int precision = h->data[at] >> 4, slot = h->data[at] & 15;
        size_t size = precision ? 128 : 64;
        if (precision > 1 || slot > 3 || at + 1 + size > end) return 0;
        for (int i = 0; i < 64; i++)
            h->quant[slot][zigzag[i]] = (uint16_t)(precision ? read16(h, at + 1 + 2 * (size_t)i) : h->data[at + 1 + i]);
        h->quant_defined[slot] = 1;
        at += 1 + size;
    }
    return 1;
}

static int parse_huffman(Header *h, size_t at, int length) {
    size_t end = at + (size_t)length;
    while (at < end) {
        int class = h->data[at] >> 4, slot = h->data[at] & 15;
        if (class > 1 || slot > 3 || at + 17 > end) return 0;
        RawTable *raw = &h->raw[class][slot];
        int total = 0;
        raw->counts[0] = 0;
        for (int i = 1; i <= 16; i++) total += raw->counts[i] = h->data[at + i];
        if (total > 256 || at + 17 + (size_t)total > end) return 0;
        memset(raw->symbols, 0, sizeof raw->symbols);
        memcpy(raw->symbols, h->data + at + 17, (size_t)total);
        raw->defined = 1;
        at += 17 + (size_t)total;
    }
    return 1;
}

// Reads the markers up to and including the scan header; 1 when the file is one this decoder
// takes, with h->pos at the first byte of entropy-coded data.
static int parse_header(Header *h) {
    if (h->length < 4 || h->data[0] != 0xFF || h->data[1] != 0xD8) return 0;
    h->pos = 2;
    for (;;) {
        if (h->pos + 4 > h->length || h->data[h->pos] != 0xFF) return 0;
        while (h->pos < h->length && h->data[h->pos] == 0xFF) h->pos++;
        if (h->pos + 3 > h->length) return 0;
        int marker = h->data[h->pos++];
        int length = read16(h, h->pos);
        if (length < 2 || h->pos + (size_t)length > h->length) return 0;
        size_t at = h->pos + 2;
        int size = length - 2;
        h->pos += (size_t)length;
        switch (marker) {
        case 0xC0: case 0xC1:
            if (!parse_frame(h, at, size)) return 0;
            break;
        case 0xC4:
            if (!parse_huffman(h, at, size)) return 0;
            break;
        case 0xDB:
            if (!parse_quant(h, at, size)) return 0;
            break;
        case 0xDD:
            if (size != 2) return 0;
            h->restart = read16(h, at);
            break;
        case 0xE0:
            // libjpeg warns about a JFIF version it does not know
            if (size >= 14 && memcmp(h->data + at, "JFIF", 5) == 0 && h->data[at + 5] != 1) return 0;
            break;
        case 0xEE:
            if (size >= 12 && memcmp(h->data + at, "Adobe", 5) == 0) {
                h->adobe = 1;
                h->adobe_transform = h->data[at + 11];
            }
            break;
        case 0xDA: {
            if (!h->frames || size < 1) return 0;
            int n = h->data[at];
            if (n != h->ncomp || size != 4 + 2 * n) return 0;
            for (int c = 0; c < n; c++) {
                Component *comp = &h->comp[c];
                if (h->data[at + 1 + 2 * c] != comp->id) return 0;
                comp->td = h->data[at + 2 + 2 * c] >> 4;
                comp->ta = h->data[at + 2 + 2 * c] & 15;
                if (comp->td > 3 || comp->ta > 3 || !h->raw[0][comp->td].defined || !h->raw[1][comp->ta].defined ||
                    !h->quant_defined[comp->tq]) return 0;
            }
            size_t tail = at + 1 + 2 * (size_t)n;
            if (h->data[tail] != 0 || h->data[tail + 1] != 63 || h->data[tail + 2] != 0) return 0;
            if (h->ncomp == 3 && h->adobe && h->adobe_transform != 1) return 0;
            return 1;
        }
        default:
            // APPn and COM are skipped; any other frame type, DNL, EOI or a stray marker is not ours
            if (!((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE)) return 0;
        }
    }
}

// The entropy-coded data without stuffing, cut into restart segments.
typedef struct {
    uint8_t *bytes;
    size_t *ends;           // end of each segment in `bytes`
    uint8_t *markers;       // the marker that ended each segment (0 when the data just ended)
    size_t count, capacity;
} Segments;

static int add_segment(Segments *s, size_t end, uint8_t marker) {
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? s->capacity * 2 : 64;
        size_t *ends = realloc(s->ends, capacity * sizeof *ends);
        if (!ends) return 0;
        s->ends = ends;
        uint8_t *markers = realloc(s->markers, capacity);
        if (!markers) return 0;
        s->markers = markers;
        s->capacity = capacity;
    }
    s->ends[s->count] = end;
    s->markers[s->count++] = marker;
    return 1;
}

static int unstuff(const uint8_t *data, size_t length, Segments *s) {
    if (!(s->bytes = malloc(length + PAD))) return 0;
    size_t n = 0, at = 0;
    for (;;) {
        const uint8_t *ff = at < length ? memchr(data + at, 0xFF, length - at) : NULL;
        size_t run = (ff ? (size_t)(ff - data) : length) - at;
        memcpy(s->bytes + n, data + at, run);
        n += run;
        if (!ff) { if (!add_segment(s, n, 0)) return 0; break; }
        at = (size_t)(ff - data) + 1;
        while (at < length && data[at] == 0xFF) at++;
        if (at >= length) { if (!add_segment(s, n, 0)) return 0; break; }
        uint8_t marker = data[at++];
        if (marker == 0) { s->bytes[n++] = 0xFF; continue; }
        if (!add_segment(s, n, marker)) return 0;
        if (marker < 0xD0 || marker > 0xD7) break;
    }
    memset(s->bytes + n, 0, PAD);
    return 1;
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

// The bit reader: `bits` holds the next bits at the top, `count` of them valid; `at` is where
// the next load starts. Refilling keeps at least 56 bits valid.
#define REFILL() do { bits |= load64(at) >> count; at += (63 - count) >> 3; count |= 56; } while (0)
#define DROP(n) do { bits <<= (n); count -= (n); } while (0)
// Decodes the DC difference that starts every block into *diff; returns 0 from the caller on a
// bad code. Uses the caller's at, bits and count, as REFILL and DROP do.
#define DECODE_DC(table, diff) do { \
    REFILL(); \
    uint32_t dc_symbol = (table)->single[bits >> (64 - LOOK)]; \
    if (!dc_symbol && !(dc_symbol = slow_symbol((table), bits))) return 0; \
    DROP(dc_symbol & 255); \
    int dc_size = (int)(dc_symbol >> 8); \
    *(diff) = 0; \
    if (dc_size) { *(diff) = extend((uint32_t)(bits >> (64 - dc_size)), dc_size); DROP(dc_size); } \
} while (0)

typedef struct {
    uint8_t idct_limit[1024];   // libjpeg's post-IDCT range limit, indexed by value & 1023
    const Table *dc[3], *ac[3];
    int16_t q0[3];
} Tables;

// Extends `n` bits `v` to a signed value the way JPEG codes magnitudes.
static inline int32_t extend(uint32_t v, int n) {
    return v < (1u << (n - 1)) ? (int32_t)v - (int32_t)(1u << n) + 1 : (int32_t)v;
}

// Dequantised coefficients of 8-bit data stay well within this; beyond it libjpeg-turbo's SIMD
// 2x2 IDCT (16-bit lanes) and its C one part ways, so such (damaged) data is left to libjpeg.
enum { COEFFICIENT_LIMIT = 2048 };

static inline int dequantise(const int16_t *coef, const uint16_t *quant, int at, int64_t *out) {
    *out = (int64_t)coef[at] * (int16_t)quant[at];
    return *out >= -COEFFICIENT_LIMIT && *out <= COEFFICIENT_LIMIT;
}

// The reduced 2x2 inverse DCT libjpeg-turbo applies to 4:2:0 chroma at 1/8 scale (LL&M with
// 13-bit constants; only coefficients in rows and columns 0, 1, 3, 5 and 7 count); 0 when a
// coefficient is out of range.
static int idct_2x2(const int16_t *coef, const uint16_t *quant, const uint8_t *limit, uint8_t *out, int stride) {
    int32_t work[2][8];
    static const int columns[5] = {0, 1, 3, 5, 7};
    for (int i = 0; i < 5; i++) {
        int c = columns[i];
        int64_t z0, z1, z3, z5, z7;
        if (!dequantise(coef, quant, c, &z0) || !dequantise(coef, quant, 8 + c, &z1) ||
            !dequantise(coef, quant, 24 + c, &z3) || !dequantise(coef, quant, 40 + c, &z5) ||
            !dequantise(coef, quant, 56 + c, &z7)) return 0;
        int64_t even = z0 * 32768, odd = z7 * -5906 + z5 * 6967 + z3 * -10426 + z1 * 29692;
        work[0][c] = (int32_t)((even + odd + 4096) >> 13);
        work[1][c] = (int32_t)((even - odd + 4096) >> 13);
    }
    for (int r = 0; r < 2; r++) {
        const int32_t *w = work[r];
        int64_t even = (int64_t)w[0] * 32768;
        int64_t odd = (int64_t)w[7] * -5906 + (int64_t)w[5] * 6967 + (int64_t)w[3] * -10426 + (int64_t)w[1] * 29692;
        out[r * stride] = limit[((even + odd + (1 << 19)) >> 20) & 1023];
        out[r * stride + 1] = limit[((even - odd + (1 << 19)) >> 20) & 1023];
    }
    return 1;
}

typedef struct {
    const uint8_t *at;
    uint64_t bits;
    int count;
} Reader;

// Decodes one block's DC difference and steps over its AC coefficients; 0 on a bad code.
static inline int skip_block(Reader *reader, const Table *dc, const Table *ac, int32_t *diff) {
    const uint8_t *at = reader->at;
    uint64_t bits = reader->bits;
    int count = reader->count;
    DECODE_DC(dc, diff);
    int k = 1;
    for (;;) {
        REFILL();
        uint32_t step = ac->step[bits >> (64 - LOOK)];
        int advance = (step >> 8) & 255;
        if (__builtin_expect(k + advance >= 64, 0)) {
            if (advance == SLOW) {
                uint32_t symbol = slow_symbol(ac, bits);
                if (!symbol) return 0;
                int r = (int)(symbol >> 12), size = (int)(symbol >> 8) & 15;
                DROP((symbol & 255) + size);
                if (!size && r != 15) break;
                k += size ? r + 1 : 16;
                if (k >= 64) break;
                continue;
            }
            // the block ends within this step: after its first coefficient, or after both
            if (k + (int)(step >> 24) >= 64) DROP((step >> 16) & 255);
            else DROP(step & 255);
            break;
        }
        DROP(step & 255);
        k += advance;
    }
    reader->at = at;
    reader->bits = bits;
    reader->count = count;
    return 1;
}

// Decodes one block with its AC coefficients (for the 2x2 IDCT); 0 on a bad code.
static int decode_block(Reader *reader, const Table *dc, const Table *ac, int32_t *diff, int16_t *coef) {
    const uint8_t *at = reader->at;
    uint64_t bits = reader->bits;
    int count = reader->count;
    DECODE_DC(dc, diff);
    for (int k = 1; k < 64; k++) {
        REFILL();
        uint32_t e = ac->single[bits >> (64 - LOOK)];
        if (!e && !(e = slow_symbol(ac, bits))) return 0;
        DROP(e & 255);
        int r = (int)(e >> 12), size = (int)(e >> 8) & 15;
        if (size) {
            k += r;
            coef[zigzag[k]] = (int16_t)extend((uint32_t)(bits >> (64 - size)), size);
            DROP(size);
        } else {
            if (r != 15) break;
            k += 15;
        }
    }
    reader->at = at;
    reader->bits = bits;
    reader->count = count;
    return 1;
}

static inline uint8_t dc_pixel(const Tables *t, int c, uint32_t dc) {
    int value = (int16_t)dc * t->q0[c];
    return t->idct_limit[((value + 4) >> 3) & 1023];
}

typedef struct {
    int width, height;      // in pixels of the 1/8 image (per component plane)
    uint8_t *pixels;
} Plane;

// YCbCr to RGB with libjpeg's fixed-point tables (16 fractional bits).
static void to_rgb(const Plane *luma, const Plane *cb, const Plane *cr, int xshift, int yshift,
                   int width, int height, uint8_t *out) {
    int cr_r[256], cb_b[256], cr_g[256], cb_g[256];
    for (int i = 0; i < 256; i++) {
        int64_t x = i - 128;
        cr_r[i] = (int)((91881 * x + 32768) >> 16);
        cb_b[i] = (int)((116130 * x + 32768) >> 16);
        cr_g[i] = (int)(-46802 * x);
        cb_g[i] = (int)(-22554 * x + 32768);
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *ly = luma->pixels + (size_t)y * luma->width;
        const uint8_t *by = cb->pixels + (size_t)(y >> yshift) * cb->width;
        const uint8_t *ry = cr->pixels + (size_t)(y >> yshift) * cr->width;
        uint8_t *o = out + (size_t)y * width * 3;
        for (int x = 0; x < width; x++) {
            int l = ly[x], b = by[x >> xshift], r = ry[x >> xshift];
            int red = l + cr_r[r], green = l + ((cb_g[b] + cr_g[r]) >> 16), blue = l + cb_b[b];
            o[0] = (uint8_t)(red < 0 ? 0 : red > 255 ? 255 : red);
            o[1] = (uint8_t)(green < 0 ? 0 : green > 255 ? 255 : green);
            o[2] = (uint8_t)(blue < 0 ? 0 : blue > 255 ? 255 : blue);
            o += 3;
        }
    }
}

static int decode(Header *h, Segments *segments, Table *tables, cvips_dc_image *out) {
    Tables t;
    for (int i = 0; i < 1024; i++) {
        int v = (i < 512 ? i : i - 1024) + 128;
        t.idct_limit[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    // tables[slot] DC, tables[4 + slot] AC, built once each
    int built[8] = {0};
    for (int c = 0; c < h->ncomp; c++) {
        int d = h->comp[c].td, a = 4 + h->comp[c].ta;
        if (!built[d] && !build_table(&h->raw[0][h->comp[c].td], 0, &tables[d])) return CVIPS_DC_NOT_HANDLED;
        if (!built[a] && !build_table(&h->raw[1][h->comp[c].ta], 1, &tables[a])) return CVIPS_DC_NOT_HANDLED;
        built[d] = built[a] = 1;
        t.dc[c] = &tables[d];
        t.ac[c] = &tables[a];
        t.q0[c] = (int16_t)h->quant[h->comp[c].tq][0];
    }
    int hmax = h->comp[0].h, vmax = h->comp[0].v;
    if (h->ncomp == 1) hmax = vmax = 1;
    int mcux = (h->width + 8 * hmax - 1) / (8 * hmax), mcuy = (h->height + 8 * vmax - 1) / (8 * vmax);
    int chroma_idct = h->ncomp == 3 && hmax == 2 && vmax == 2;
    Plane planes[3] = {{mcux * hmax, mcuy * vmax, NULL}};
    for (int c = 1; c < h->ncomp; c++) planes[c] = (Plane){mcux << chroma_idct, mcuy << chroma_idct, NULL};
    int result = CVIPS_DC_NO_MEMORY;
    for (int c = 0; c < h->ncomp; c++)
        if (!(planes[c].pixels = malloc((size_t)planes[c].width * planes[c].height))) goto done;
    result = CVIPS_DC_NOT_HANDLED;
    size_t total = (size_t)mcux * mcuy, interval = h->restart ? (size_t)h->restart : total;
    size_t needed = (total + interval - 1) / interval;
    // the data must go on to a marker: libjpeg warns when the file just ends
    if (segments->count < needed || segments->markers[needed - 1] == 0) goto done;
    Reader reader = {segments->bytes, 0, 0};
    const uint8_t *start = segments->bytes;
    size_t segment = 0, left = interval;
    uint32_t pred[3] = {0, 0, 0};
    int32_t diff;
    for (int my = 0; my < mcuy; my++) {
        for (int mx = 0; mx < mcux; mx++) {
            if (left == 0) {
                // restart: the segment must be used up (but for its padding bits) and end in
                // the expected RSTn marker
                size_t length = segments->ends[segment] - (size_t)(start - segments->bytes);
                size_t used = (size_t)(reader.at - start) * 8 - (size_t)reader.count;
                if (used + 8 <= length * 8 || segments->markers[segment] != 0xD0 + (segment & 7)) goto done;
                start = segments->bytes + segments->ends[segment++];
                reader = (Reader){start, 0, 0};
                pred[0] = pred[1] = pred[2] = 0;
                left = interval;
            }
            left--;
            for (int by = 0; by < vmax; by++) {
                for (int bx = 0; bx < hmax; bx++) {
                    if (!skip_block(&reader, t.dc[0], t.ac[0], &diff)) goto done;
                    pred[0] += (uint32_t)diff;
                    planes[0].pixels[(size_t)(my * vmax + by) * planes[0].width + mx * hmax + bx] = dc_pixel(&t, 0, pred[0]);
                }
            }
            for (int c = 1; c < h->ncomp; c++) {
                if (chroma_idct) {
                    int16_t coef[64] = {0};
                    if (!decode_block(&reader, t.dc[c], t.ac[c], &diff, coef)) goto done;
                    pred[c] += (uint32_t)diff;
                    coef[0] = (int16_t)pred[c];
                    if (!idct_2x2(coef, h->quant[h->comp[c].tq], t.idct_limit,
                                  planes[c].pixels + (size_t)my * 2 * planes[c].width + mx * 2, planes[c].width)) goto done;
                } else {
                    if (!skip_block(&reader, t.dc[c], t.ac[c], &diff)) goto done;
                    pred[c] += (uint32_t)diff;
                    planes[c].pixels[(size_t)my * planes[c].width + mx] = dc_pixel(&t, c, pred[c]);
                }
            }
            // never read past the segment (libjpeg would warn of corrupt data there), which
            // also keeps every load within the padding
            size_t length = segments->ends[segment] - (size_t)(start - segments->bytes);
            if ((size_t)(reader.at - start) * 8 - (size_t)reader.count > length * 8) goto done;
        }
    }
    out->width = (h->width + 7) / 8;
    out->height = (h->height + 7) / 8;
    out->bands = h->ncomp;
    result = CVIPS_DC_NO_MEMORY;
    if (!(out->pixels = malloc((size_t)out->width * out->height * out->bands))) goto done;
    if (h->ncomp == 1) {
        for (int y = 0; y < out->height; y++)
            memcpy(out->pixels + (size_t)y * out->width, planes[0].pixels + (size_t)y * planes[0].width, (size_t)out->width);
    } else {
        int xshift = chroma_idct ? 0 : hmax - 1, yshift = chroma_idct ? 0 : vmax - 1;
        to_rgb(&planes[0], &planes[1], &planes[2], xshift, yshift, out->width, out->height, out->pixels);
    }
    result = CVIPS_DC_DECODED;
done:
    for (int c = 0; c < 3; c++) free(planes[c].pixels);
    return result;
}

int cvips_dc_decode(const uint8_t *jpeg, size_t length, cvips_dc_image *out) {
    Header *h = calloc(1, sizeof(Header));
    Table *tables = calloc(8, sizeof(Table));
    Segments segments = {0};
    int result = CVIPS_DC_NO_MEMORY;
    out->pixels = NULL;
    if (!h || !tables) goto done;
    h->data = jpeg;
    h->length = length;
    result = CVIPS_DC_NOT_HANDLED;
    if (!parse_header(h)) goto done;
    result = CVIPS_DC_NO_MEMORY;
    if (!unstuff(jpeg + h->pos, length - h->pos, &segments)) goto done;
    result = decode(h, &segments, tables, out);
done:
    free(h);
    free(tables);
    free(segments.bytes);
    free(segments.ends);
    free(segments.markers);
    return result;
}

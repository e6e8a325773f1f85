// A separable Lanczos-3 reduction, the kernel libvips' thumbnail reduces with, for the JPEG
// thumbnail path: vertical pass first (one output row at a time from a window of input rows,
// vectorised across the row), then horizontal, computing only the pixels of the requested
// rectangle (a centre crop leaves a quarter of a 4:3 photo's columns out of the work, and out
// of the decode). Weights are exact for every output position (libvips rounds positions to
// 1/8 pixel) and in 14-bit fixed point.
#include "Reduce.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WEIGHT_BITS 14
#define WEIGHT_ONE (1 << WEIGHT_BITS)

static double lanczos3(double x) {
    if (x == 0.0) return 1.0;
    if (x <= -3.0 || x >= 3.0) return 0.0;
    double px = M_PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

// The taps of `count` consecutive output positions from `first` along an axis of `size`
// input samples shrunk by `shrink`: output i reads inputs start[i] ..< start[i] + taps[i].
typedef struct {
    int *start;
    int *taps;
    int16_t *weights;   // max_taps per output position
    int max_taps;
} Filter;

static void free_filter(Filter *filter) {
    free(filter->start);
    free(filter->taps);
    free(filter->weights);
}

static int make_filter(Filter *filter, int size, double shrink, int first, int count) {
    // A shrink a hair under 1 (a coarse decode rounded down) keeps the unstretched kernel.
    double scale = shrink < 1.0 ? 1.0 : shrink, support = 3.0 * scale;
    filter->max_taps = (int)ceil(support) * 2 + 1;
    filter->start = malloc(sizeof(int) * count);
    filter->taps = malloc(sizeof(int) * count);
    filter->weights = calloc((size_t)count * filter->max_taps, sizeof(int16_t));
    double *exact = malloc(sizeof(double) * filter->max_taps);
    if (!filter->start || !filter->taps || !filter->weights || !exact) {
        free(exact);
        free_filter(filter);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        // Centre convention: output pixel o covers input [o * shrink, (o + 1) * shrink).
        double centre = (first + i + 0.5) * shrink;
        int lo = (int)floor(centre - support + 0.5), hi = (int)floor(centre + support + 0.5);
        if (lo < 0) lo = 0;
        if (hi > size) hi = size;
        if (hi - lo > filter->max_taps) hi = lo + filter->max_taps;
        if (hi <= lo) { lo = (int)centre < size ? (int)centre : size - 1; hi = lo + 1; }
        double sum = 0;
        for (int k = 0; k < hi - lo; k++) {
            exact[k] = lanczos3((lo + k + 0.5 - centre) / scale);
            sum += exact[k];
        }
        int16_t *w = filter->weights + (size_t)i * filter->max_taps;
        int total = 0, biggest = 0;
        for (int k = 0; k < hi - lo; k++) {
            w[k] = (int16_t)lround(exact[k] / sum * WEIGHT_ONE);
            total += w[k];
            if (w[k] > w[biggest]) biggest = k;
        }
        w[biggest] += WEIGHT_ONE - total;   // the weights sum to exactly one
        filter->start[i] = lo;
        filter->taps[i] = hi - lo;
    }
    free(exact);
    return 0;
}

static inline uint8_t clamp_round(int32_t sum) {
    int32_t v = (sum + WEIGHT_ONE / 2) >> WEIGHT_BITS;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

// One output row of the vertical pass over `length` bytes of the input rows `in`.
__attribute__((target_clones("avx2", "default")))
static void vertical_row(const uint8_t *const *in, const int16_t *weights, int taps, int length, int bands,
                         int32_t *sums, uint8_t *row) {
    for (int x = 0; x < length; x++) sums[x] = 0;
    for (int k = 0; k < taps; k++) {
        const uint8_t *source = in[k];
        int32_t w = weights[k];
        for (int x = 0; x < length; x++) sums[x] += w * source[x];
    }
    if (bands == 3) {
        for (int x = 0, p = 0; x < length; x += 3, p += 4) {
            row[p] = clamp_round(sums[x]); row[p + 1] = clamp_round(sums[x + 1]); row[p + 2] = clamp_round(sums[x + 2]); row[p + 3] = 0;
        }
    } else {
        for (int x = 0; x < length; x++) row[x] = clamp_round(sums[x]);
    }
}

// Three-band pixels are padded to four in `row` (see vertical_row), so each tap is one
// four-lane multiply-add the compiler vectorises.
__attribute__((target_clones("avx2", "default")))
static void horizontal_row(const uint8_t *row, int bands, const Filter *filter, int first_input, int count, uint8_t *out) {
    int stride = bands == 3 ? 4 : bands;
    for (int i = 0; i < count; i++) {
        const int16_t *w = filter->weights + (size_t)i * filter->max_taps;
        const uint8_t *source = row + (size_t)(filter->start[i] - first_input) * stride;
        int taps = filter->taps[i];
        if (bands == 3) {
            int32_t sum[4] = {0, 0, 0, 0};
            for (int k = 0; k < taps; k++, source += 4) {
                for (int band = 0; band < 4; band++) sum[band] += w[k] * source[band];
            }
            out[0] = clamp_round(sum[0]); out[1] = clamp_round(sum[1]); out[2] = clamp_round(sum[2]);
            out += 3;
        } else {
            for (int band = 0; band < bands; band++) {
                int32_t sum = 0;
                for (int k = 0; k < taps; k++) sum += w[k] * source[k * bands + band];
                *out++ = clamp_round(sum);
            }
        }
    }
}

struct cvips_reduction {
    Filter across, down;
    int bands, out_width, out_height;
    int first_column, columns;
    // Work space, held here rather than in cvips_reduction_run: a row source may longjmp out
    // of a run (libjpeg does on damaged data), and cvips_reduction_free must still free it.
    int32_t *sums;
    uint8_t *row;
    const uint8_t **window;
};

cvips_reduction *cvips_reduction_new(int width, int height, int bands, double hshrink, double vshrink,
                                     int x, int y, int out_width, int out_height) {
    cvips_reduction *reduction = calloc(1, sizeof(*reduction));
    if (!reduction) return NULL;
    if (make_filter(&reduction->across, width, hshrink, x, out_width) != 0) { free(reduction); return NULL; }
    if (make_filter(&reduction->down, height, vshrink, y, out_height) != 0) {
        free_filter(&reduction->across);
        free(reduction);
        return NULL;
    }
    reduction->bands = bands;
    reduction->out_width = out_width;
    reduction->out_height = out_height;
    reduction->first_column = reduction->across.start[0];
    reduction->columns = reduction->across.start[out_width - 1] + reduction->across.taps[out_width - 1] - reduction->first_column;
    reduction->sums = malloc(sizeof(int32_t) * reduction->columns * bands);
    reduction->row = malloc((size_t)reduction->columns * 4);
    reduction->window = malloc(sizeof(*reduction->window) * reduction->down.max_taps);
    if (!reduction->sums || !reduction->row || !reduction->window) {
        cvips_reduction_free(reduction);
        return NULL;
    }
    return reduction;
}

void cvips_reduction_free(cvips_reduction *reduction) {
    if (!reduction) return;
    free_filter(&reduction->across);
    free_filter(&reduction->down);
    free(reduction->sums);
    free(reduction->row);
    free(reduction->window);
    free(reduction);
}

void cvips_reduction_inputs(const cvips_reduction *reduction, int *first_column, int *columns, int *first_row, int *rows) {
    const Filter *down = &reduction->down;
    int last = reduction->out_height - 1;
    *first_column = reduction->first_column;
    *columns = reduction->columns;
    *first_row = down->start[0];
    *rows = down->start[last] + down->taps[last] - down->start[0];
}

int cvips_reduction_window(const cvips_reduction *reduction) { return reduction->down.max_taps; }

int cvips_reduction_run(const cvips_reduction *reduction, cvips_row_source rows, void *context, uint8_t *out) {
    const Filter *down = &reduction->down;
    int length = reduction->columns * reduction->bands;
    for (int j = 0; j < reduction->out_height; j++) {
        for (int k = 0; k < down->taps[j]; k++) {
            if (!(reduction->window[k] = rows(context, down->start[j] + k))) return -1;
        }
        vertical_row(reduction->window, down->weights + (size_t)j * down->max_taps, down->taps[j], length, reduction->bands,
                     reduction->sums, reduction->row);
        horizontal_row(reduction->row, reduction->bands, &reduction->across, reduction->first_column, reduction->out_width,
                       out + (size_t)j * reduction->out_width * reduction->bands);
    }
    return 0;
}

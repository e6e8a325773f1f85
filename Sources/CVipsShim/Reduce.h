// Internal to CVipsShim: the Lanczos-3 reduction and the orientation mapping the JPEG
// thumbnail path uses. Not part of the Swift-facing header.
#ifndef CVIPS_SHIM_REDUCE_H
#define CVIPS_SHIM_REDUCE_H

#include <stdint.h>

/// A planned Lanczos-3 reduction (the kernel libvips' thumbnail reduces with) of a
/// `width x height` image by `hshrink` x `vshrink` (about 1 or more), of which only the rectangle
/// (x, y, out_width, out_height) of the reduced image is wanted.
typedef struct cvips_reduction cvips_reduction;

cvips_reduction *cvips_reduction_new(int width, int height, int bands, double hshrink, double vshrink,
                                     int x, int y, int out_width, int out_height);
void cvips_reduction_free(cvips_reduction *reduction);

/// The input rectangle the wanted output reads: nothing outside it need be decoded.
void cvips_reduction_inputs(const cvips_reduction *reduction, int *first_column, int *columns, int *first_row, int *rows);

/// Supplies input row `y`, starting at the first column the reduction reads. Rows are asked
/// for in increasing order with overlap: row `y` is asked for again only while no row past
/// `y + max_rows - 1` has been asked for (see cvips_reduction_window).
typedef const uint8_t *(*cvips_row_source)(void *context, int y);

/// How many consecutive input rows the reduction reads at once (the ring a streaming source keeps).
int cvips_reduction_window(const cvips_reduction *reduction);

/// Runs the reduction into `out` (out_width * bands bytes a row); 0, or -1 when `rows` fails.
int cvips_reduction_run(const cvips_reduction *reduction, cvips_row_source rows, void *context, uint8_t *out);

/// Where upright pixel (x, y) comes from in the stored w x h image, for EXIF orientation o.
static inline void cvips_stored_position(int o, int x, int y, int w, int h, int *sx, int *sy) {
    switch (o) {
    case 2: *sx = w - 1 - x; *sy = y; break;
    case 3: *sx = w - 1 - x; *sy = h - 1 - y; break;
    case 4: *sx = x; *sy = h - 1 - y; break;
    case 5: *sx = y; *sy = x; break;
    case 6: *sx = y; *sy = h - 1 - x; break;
    case 7: *sx = w - 1 - y; *sy = h - 1 - x; break;
    case 8: *sx = w - 1 - y; *sy = x; break;
    default: *sx = x; *sy = y; break;
    }
}

#endif

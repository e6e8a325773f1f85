// Internal to CVipsShim: a JPEG decoder that produces only the 1/8-scale image.
#ifndef CVIPS_SHIM_DC_DECODE_H
#define CVIPS_SHIM_DC_DECODE_H

#include <stddef.h>
#include <stdint.h>

/// An image decoded at 1/8 scale: ceil(width / 8) x ceil(height / 8) pixels, 1 (grey) or 3
/// (RGB) bands, interleaved.
typedef struct {
    int width, height, bands;
    uint8_t *pixels;
} cvips_dc_image;

enum {
    CVIPS_DC_DECODED = 0,
    /// The file is outside what this decoder takes on (progressive, arithmetic, 12-bit, CMYK,
    /// unusual sampling) or its data is damaged: decode it with libjpeg instead.
    CVIPS_DC_NOT_HANDLED = 1,
    CVIPS_DC_NO_MEMORY = -1,
};

/// Decodes the baseline JPEG in `jpeg` at 1/8 scale, pixel for pixel as libjpeg-turbo does with
/// scale 1/8 and plain (not fancy) upsampling, reading each block's DC coefficient and skipping
/// its AC coefficients. On CVIPS_DC_DECODED, free `out->pixels` with free().
int cvips_dc_decode(const uint8_t *jpeg, size_t length, cvips_dc_image *out);

#endif

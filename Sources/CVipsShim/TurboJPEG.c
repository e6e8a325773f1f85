// Small JPEGs (embedded EXIF thumbnails) turned upright with libjpeg-turbo directly, where a
// libvips pipeline costs more than the work (~0.1 ms against ~1 ms).
#include "CVipsShim.h"
#include "Reduce.h"
#include <turbojpeg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cvips_small_jpeg_size(const void *jpeg, size_t length, int *width, int *height) {
    tjhandle decoder = tjInitDecompress();
    if (!decoder) return -1;
    int subsampling = 0, colourspace = 0;
    int result = tjDecompressHeader3(decoder, jpeg, (unsigned long)length, width, height, &subsampling, &colourspace);
    tjDestroy(decoder);
    return result == 0 ? 0 : -1;
}

int cvips_small_jpeg_upright(const void *jpeg, size_t length, int orientation, int quality,
                             void **out, size_t *out_length, int *out_width, int *out_height) {
    int w = 0, h = 0, subsampling = 0, colourspace = 0;
    tjhandle decoder = tjInitDecompress();
    if (!decoder) return -1;
    if (tjDecompressHeader3(decoder, jpeg, (unsigned long)length, &w, &h, &subsampling, &colourspace) != 0 ||
        w <= 0 || h <= 0 || w > 4096 || h > 4096) {
        tjDestroy(decoder);
        return -1;
    }
    unsigned char *stored = malloc((size_t)w * h * 3);
    unsigned char *upright = malloc((size_t)w * h * 3);
    int failed = !stored || !upright ||
        tjDecompress2(decoder, jpeg, (unsigned long)length, stored, w, 0, h, TJPF_RGB, TJFLAG_FASTDCT) != 0;
    tjDestroy(decoder);
    int W = orientation >= 5 ? h : w, H = orientation >= 5 ? w : h;
    if (!failed) {
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int sx, sy;
                cvips_stored_position(orientation, x, y, w, h, &sx, &sy);
                memcpy(upright + ((size_t)y * W + x) * 3, stored + ((size_t)sy * w + sx) * 3, 3);
            }
        }
        tjhandle encoder = tjInitCompress();
        unsigned char *buffer = NULL;
        unsigned long size = 0;
        failed = !encoder || tjCompress2(encoder, upright, W, 0, H, TJPF_RGB, &buffer, &size, TJSAMP_420, quality, TJFLAG_FASTDCT) != 0;
        if (encoder) tjDestroy(encoder);
        if (!failed) {
            *out = buffer;
            *out_length = size;
            *out_width = W;
            *out_height = H;
        } else {
            tjFree(buffer);
        }
    }
    free(stored);
    free(upright);
    return failed ? -1 : 0;
}

void cvips_small_jpeg_free(void *buffer) { tjFree(buffer); }

// Small JPEGs (embedded EXIF thumbnails) turned upright, and pixels already in memory encoded,
// with libjpeg-turbo directly, where a libvips pipeline costs more than the work (~0.1 ms
// against ~1 ms, and a hand-off to a libvips worker thread for each image).
#include "CVipsShim.h"
#include "Reduce.h"
#include <vips/vips.h>
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

int cvips_encode_memory_jpeg(VipsImage *image, int quality, void **buffer, size_t *length) {
    int grey = image->Bands == 1 && image->Type == VIPS_INTERPRETATION_B_W;
    int rgb = image->Bands == 3 && image->Type == VIPS_INTERPRETATION_sRGB;
    int in_memory = image->dtype == VIPS_IMAGE_SETBUF || image->dtype == VIPS_IMAGE_SETBUF_FOREIGN;
    if (!in_memory || !image->data || image->Coding != VIPS_CODING_NONE ||
        image->BandFmt != VIPS_FORMAT_UCHAR || !(grey || rgb)) return 1;
    // libvips' jpegsave with its defaults: accurate DCT, no optimised Huffman tables, and chroma
    // subsampled 4:2:0 below quality 90, not at or above it.
    int subsampling = grey ? TJSAMP_GRAY : quality < 90 ? TJSAMP_420 : TJSAMP_444;
    tjhandle encoder = tjInitCompress();
    if (!encoder) return -1;
    unsigned char *encoded = NULL;
    unsigned long size = 0;
    int failed = tjCompress2(encoder, (const unsigned char *)image->data, image->Xsize, 0, image->Ysize,
                             grey ? TJPF_GRAY : TJPF_RGB, &encoded, &size, subsampling, quality, TJFLAG_ACCURATEDCT) != 0;
    if (failed) vips_error("jpeg", "%s", tjGetErrorStr2(encoder));
    tjDestroy(encoder);
    if (!failed) {
        // The caller frees with cvips_free (g_free), not tjFree.
        *buffer = g_malloc(size);
        memcpy(*buffer, encoded, size);
        *length = size;
    }
    tjFree(encoded);
    return failed ? -1 : 0;
}

// JPEG work done with libjpeg-turbo directly, where a libvips pipeline costs more than the
// work: turning small JPEGs (embedded EXIF thumbnails) upright (~0.1 ms against ~1 ms), and
// the scaled decode of fast thumbnails (fast DCT and upsampling, no pipeline set-up).
#include "CVipsShim.h"
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

// Where upright pixel (x, y) comes from in the stored w x h image, for EXIF orientation o.
static void source_of(int o, int x, int y, int w, int h, int *sx, int *sy) {
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
                source_of(orientation, x, y, w, h, &sx, &sy);
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

int cvips_jpeg_decode_scaled(const char *path, int factor, int fast, int strict, VipsImage **out) {
    FILE *file = fopen(path, "rb");
    if (!file) { vips_error("jpeg", "%s: cannot open", path); return -1; }
    unsigned char *bytes = NULL;
    long length = 0;
    if (fseek(file, 0, SEEK_END) == 0 && (length = ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)length);
        if (bytes && fread(bytes, 1, (size_t)length, file) != (size_t)length) { free(bytes); bytes = NULL; }
    }
    fclose(file);
    if (!bytes) { vips_error("jpeg", "%s: cannot read", path); return -1; }
    tjhandle decoder = tjInitDecompress();
    int w = 0, h = 0, subsampling = 0, colourspace = 0, result = -1;
    if (decoder && tjDecompressHeader3(decoder, bytes, (unsigned long)length, &w, &h, &subsampling, &colourspace) == 0 &&
        colourspace != TJCS_CMYK && colourspace != TJCS_YCCK) {
        int sw = TJSCALED(w, ((tjscalingfactor){1, factor})), sh = TJSCALED(h, ((tjscalingfactor){1, factor}));
        unsigned char *pixels = malloc((size_t)sw * sh * 3);
        int flags = (fast ? TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE : TJFLAG_ACCURATEDCT) | (strict ? TJFLAG_STOPONWARNING : 0);
        if (pixels && tjDecompress2(decoder, bytes, (unsigned long)length, pixels, sw, 0, sh, TJPF_RGB, flags) == 0) {
            *out = vips_image_new_from_memory_copy(pixels, (size_t)sw * sh * 3, sw, sh, 3, VIPS_FORMAT_UCHAR);
            if (*out) {
                (*out)->Type = VIPS_INTERPRETATION_sRGB;
                result = 0;
            }
        } else {
            vips_error("jpeg", "%s: %s", path, tjGetErrorStr2(decoder));
        }
        free(pixels);
    } else {
        vips_error("jpeg", "%s: not a JPEG libjpeg-turbo decodes to RGB", path);
    }
    if (decoder) tjDestroy(decoder);
    free(bytes);
    return result;
}

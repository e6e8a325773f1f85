// Internal to CVipsShim: the direct JPEG thumbnail behind cvips_thumbnail_jpeg_direct.
#ifndef CVIPS_SHIM_JPEG_THUMBNAIL_H
#define CVIPS_SHIM_JPEG_THUMBNAIL_H

#include "CVipsShim.h"

/// A thumbnail of the JPEG at `path`, decoded by libjpeg at 1/`factor` scale (2, 4 or 8; fast
/// DCT and upsampling when `fast`), reduced with a Lanczos-3 filter to fit (crop = 0) or fill
/// (crop = 1, centre) width x height, never enlarged, and turned upright for EXIF
/// `orientation`: 8-bit sRGB or grey. Fast decodes at 1/8 use our DC-only decoder instead of
/// libjpeg when it takes the file (the same 1/8 image, sooner). Its size and crop are laid out
/// as libvips lays out a thumbnail of the image loaded at 1/`layout_factor` (libvips rounds
/// scaled sizes down), so a fast decode at a coarser factor keeps the exact answer's geometry.
/// Fails (with a libvips error) for CMYK/YCCK files and data libjpeg warns about, which the
/// caller then decodes with libvips.
int cvips_jpeg_thumbnail(const char *path, int factor, int layout_factor, int fast, int orientation,
                         int width, int height, int crop, VipsImage **out);

#endif

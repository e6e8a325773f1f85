// Fixed-argument wrappers over libvips (and libjpeg for JPEG thumbnails) for Swift.
//
// Swift cannot call libvips' variadic functions, and importing <vips/vips.h> would pull all of
// glib into Swift's view. This header only forward-declares the image type; the C file does the
// real work. Every function returns 0 on success and -1 on failure; after a failure, call
// cvips_take_error() at once to get (and clear) the message.
#ifndef CVIPS_SHIM_H
#define CVIPS_SHIM_H

#include <stddef.h>

typedef struct _VipsImage VipsImage;

/// How strictly a loader treats damaged data (libvips' VipsFailOn).
typedef enum {
    CVIPS_FAIL_ON_NONE = 0,
    CVIPS_FAIL_ON_TRUNCATED = 1,
    CVIPS_FAIL_ON_ERROR = 2,
    CVIPS_FAIL_ON_WARNING = 3,
} cvips_fail_on;

/// What a header read learns without decoding pixels.
typedef struct {
    int width;
    int height;          // of the first page when the file has several
    int bands;
    int orientation;     // EXIF orientation 1...8; 1 when the file has none
    int pages;           // 1 unless the format holds several pages or frames
    int has_alpha;
    char loader[48];     // libvips' loader name, e.g. "jpegload"
} cvips_header;

int cvips_init(void);

/// Caps glibc's malloc arenas (mallopt M_ARENA_MAX); a no-op elsewhere.
void cvips_limit_malloc_arenas(int arenas);
void cvips_set_concurrency(int threads);

/// Copies libvips' error text into `buffer` and clears it. libvips keeps one buffer per process.
void cvips_take_error(char *buffer, size_t size);

// Whether some libvips loader recognises the file (by its first bytes). Records no error: the
// answer never depends on libvips' process-wide error buffer, which other threads share.
int cvips_can_load(const char *path);

/// Reads the header of `path`; when `exif` is not NULL, also a copy of the raw EXIF block
/// (free it with cvips_free; NULL and 0 when there is none).
int cvips_read_header(const char *path, int fail_on, cvips_header *out, void **exif, size_t *exif_length);

/// Shrink-on-load thumbnail that fits (crop = 0) or fills (crop = 1, centre) width x height,
/// upright, never enlarged. `shrink_factor` > 1 asks a JPEG loader for a coarser decode.
int cvips_thumbnail_file(const char *path, int width, int height, int crop, int fail_on, VipsImage **out);
/// A thumbnail of the JPEG at `path`, whose header (read with cvips_read_header) gave its
/// stored size and orientation. libjpeg decodes it directly at a reduced scale and
/// cvips_jpeg_thumbnail reduces, turns and crops it (other formats take cvips_thumbnail_file).
/// Exact mode decodes at libvips' own scale (twice the target kept for a sharp reduction) with
/// accurate DCT; fast mode at the coarsest scale that covers the target with fast DCT and
/// upsampling. Like vips_thumbnail without import or export profiles, neither converts an
/// embedded colour profile. CMYK files and damaged data go through libvips' loader.
int cvips_thumbnail_jpeg_direct(const char *path, int stored_width, int stored_height, int orientation,
                                int width, int height, int crop, int fail_on, int fast, VipsImage **out);
int cvips_thumbnail_buffer(const void *buffer, size_t length, int width, int height, int crop, int fail_on, VipsImage **out);

/// Shrinks an image already in memory to fit width x height.
int cvips_thumbnail_image(VipsImage *image, int width, int height, VipsImage **out);

/// The thumbnail item of the HEIF file at `path` (the image an iPhone stores beside the photo),
/// upright, decoded lazily: the primary image is not decoded. Returns 1, with no image, when the
/// file has no thumbnail item.
int cvips_heif_thumbnail(const char *path, int fail_on, VipsImage **out);

/// A grid HEIF image (hidden HEVC tiles laid out by a `grid` primary item, as cameras store
/// large photos) shrunk to fit (crop = 0) or fill (crop = 1, centre) width x height, upright
/// (the grid's irot and imir applied), never enlarged, decoded one tile at a time: memory
/// follows a tile and the reduced image, not the photo. Laid out as vips_thumbnail lays out
/// the same file. Returns 1, with no image, for a file it leaves to libvips: not a grid of
/// HEVC tiles, alpha, a clean-aperture crop, or a thumbnail item large enough for the answer
/// (vips_thumbnail decodes only that). The bytes decide, never the path's name.
int cvips_heif_grid_thumbnail(const char *path, int width, int height, int crop, VipsImage **out);

/// The whole grid HEIF image at `path`, upright, encoded to JPEG (libvips' jpegsave defaults)
/// as it is decoded, a row (or column) of tiles at a time. Free `buffer` with cvips_free.
/// Returns 1, with nothing, for a file cvips_heif_grid_thumbnail would leave to libvips too.
int cvips_heif_grid_jpeg(const char *path, int quality, void **buffer, size_t *length, int *width, int *height);

/// Encodes `image` (8-bit RGB) as a grid HEIC of tile_width x tile_height HEVC tiles at
/// `quality`, as a camera stores a large photo, with the grid turned `rotation` quarter turns
/// anticlockwise (irot) and then mirrored (imir axis `mirror`: 0 or 1, -1 for none). For tests
/// and benchmarks. Free `buffer` with cvips_free.
int cvips_heif_grid_write(VipsImage *image, int tile_width, int tile_height, int quality, int rotation, int mirror,
                          void **buffer, size_t *length);

/// Decodes the whole first page of `path` and turns it upright.
int cvips_load_upright(const char *path, int fail_on, VipsImage **out);

/// Turns `image` upright as if it carried EXIF `orientation` (used for embedded thumbnails,
/// which inherit the orientation of the photo they belong to).
int cvips_apply_orientation(VipsImage *image, int orientation, VipsImage **out);

/// Loads an image from memory (no orientation applied).
int cvips_load_buffer(const void *buffer, size_t length, int fail_on, VipsImage **out);

/// Encodes to JPEG (sRGB, metadata stripped: the pixels are already upright) or WebP.
/// A baseline JPEG of 8-bit sRGB or grey pixels already in memory (a thumbnail) is encoded by
/// libjpeg-turbo directly (cvips_encode_memory_jpeg), anything else by libvips' jpegsave.
int cvips_save_jpeg(VipsImage *image, int quality, int interlace, void **buffer, size_t *length);

/// Encodes `image` as libvips' jpegsave would with its defaults (accurate DCT, standard tables,
/// 4:2:0 below quality 90, 4:4:4 at or above, no metadata), with libjpeg-turbo and no libvips
/// pipeline, when its pixels are in memory as 8-bit sRGB or grey without alpha.
/// Returns 0 with `buffer` (free with cvips_free), -1 on failure (libvips' error buffer says
/// why), 1 when the image is not such an image.
int cvips_encode_memory_jpeg(VipsImage *image, int quality, void **buffer, size_t *length);
int cvips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length);
int cvips_save_png(VipsImage *image, void **buffer, size_t *length);

/// The image as 8-bit sRGB pixels, interleaved, row by row; free with cvips_free.
int cvips_to_srgb8(VipsImage *image, void **pixels, size_t *length, int *width, int *height, int *bands);

/// An image from 8-bit interleaved pixels (copied).
int cvips_from_pixels(const void *pixels, int width, int height, int bands, VipsImage **out);

/// A photograph-like test scene: soft noise at several scales over a sky-to-ground gradient,
/// with `label` (may be NULL) drawn large in the upper-left quadrant so orientation can be seen.
int cvips_generate_scene(int width, int height, int seed, const char *label, VipsImage **out);

/// The pixel size of a JPEG from its header (libjpeg-turbo, no decode).
int cvips_small_jpeg_size(const void *jpeg, size_t length, int *width, int *height);

/// Decodes a small JPEG (at most 4096 px a side), turns it upright for EXIF `orientation`
/// and encodes it again at `quality`, with libjpeg-turbo alone. Free `out` with
/// cvips_small_jpeg_free.
int cvips_small_jpeg_upright(const void *jpeg, size_t length, int orientation, int quality,
                             void **out, size_t *out_length, int *out_width, int *out_height);
void cvips_small_jpeg_free(void *buffer);

/// The whole JPEG at `path` at 1/8 scale, decoded as a fast thumbnail at that scale decodes
/// it: by the DC decoder (`dc_decoder` = 1; returns 1, with no pixels, for a file it leaves to
/// libjpeg) or by libjpeg-turbo with the same settings (0: fast DCT, plain upsampling). 8-bit
/// RGB or grey; free `pixels` with cvips_free.
int cvips_jpeg_eighth_scale(const char *path, int dc_decoder, void **pixels, size_t *length, int *width, int *height,
                            int *bands);

int cvips_image_width(const VipsImage *image);
int cvips_image_height(const VipsImage *image);

void cvips_unref(VipsImage *image);
void cvips_free(void *memory);

#endif

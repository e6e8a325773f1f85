#include "CVipsShim.h"
#include "JPEGThumbnail.h"
#include <vips/vips.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// libvips reports damaged input as warnings on stderr as well as in its error buffer; the
// pipeline turns them into typed errors, so the console copies are noise.
static void ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int cvips_init(void) {
    if (VIPS_INIT("assets-picker") != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, ignore_log, NULL);
    // Our own caches are keyed by file version; libvips' operation cache could hand back a
    // result for a file that changed on disk.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

void cvips_limit_malloc_arenas(int arenas) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
#endif
}

void cvips_set_concurrency(int threads) { vips_concurrency_set(threads); }

void cvips_take_error(char *buffer, size_t size) {
    if (size == 0) return;
    const char *text = vips_error_buffer();
    strncpy(buffer, text ? text : "", size - 1);
    buffer[size - 1] = '\0';
    vips_error_clear();
}

int cvips_can_load(const char *path) {
    vips_error_freeze();
    const char *loader = vips_foreign_find_load(path);
    vips_error_thaw();
    return loader != NULL;
}

static int orientation_of(VipsImage *image) {
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION)) {
        if (vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation) != 0) orientation = 1;
    }
    return (orientation >= 1 && orientation <= 8) ? orientation : 1;
}

int cvips_read_header(const char *path, int fail_on, cvips_header *out, void **exif, size_t *exif_length) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL,
                                                "fail_on", (VipsFailOn)fail_on, NULL);
    if (!image) return -1;
    memset(out, 0, sizeof(*out));
    out->width = vips_image_get_width(image);
    out->height = vips_image_get_page_height(image);
    out->bands = vips_image_get_bands(image);
    out->orientation = orientation_of(image);
    out->pages = vips_image_get_n_pages(image);
    out->has_alpha = vips_image_hasalpha(image);
    const char *loader = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) &&
        vips_image_get_string(image, VIPS_META_LOADER, &loader) == 0 && loader) {
        strncpy(out->loader, loader, sizeof(out->loader) - 1);
    }
    if (exif) {
        *exif = NULL;
        *exif_length = 0;
        const void *data = NULL;
        size_t length = 0;
        if (vips_image_get_typeof(image, VIPS_META_EXIF_NAME) &&
            vips_image_get_blob(image, VIPS_META_EXIF_NAME, &data, &length) == 0 && length > 0) {
            *exif = g_memdup2(data, length);
            *exif_length = length;
        }
    }
    g_object_unref(image);
    return 0;
}

int cvips_thumbnail_file(const char *path, int width, int height, int crop, int fail_on, VipsImage **out) {
    return vips_thumbnail(path, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                          "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                          "fail_on", (VipsFailOn)fail_on, NULL);
}

// How much the stored image must shrink to fill (crop) or fit the upright `width x height` box.
static double box_shrink(int stored_width, int stored_height, int orientation, int width, int height, int crop) {
    if (orientation >= 5) { int swap = width; width = height; height = swap; }
    double hscale = (double)stored_width / width, vscale = (double)stored_height / height;
    return crop ? (hscale < vscale ? hscale : vscale) : (hscale > vscale ? hscale : vscale);
}

// The largest JPEG shrink-on-load factor whose result still covers the box (fill) or still
// reaches the fitted size (fit).
static int coarsest_jpeg_shrink(int stored_width, int stored_height, int orientation, int width, int height, int crop) {
    double shrink = box_shrink(stored_width, stored_height, orientation, width, height, crop);
    int factor = 1;
    while (factor < 8 && shrink >= factor * 2) factor *= 2;
    return factor;
}

// libvips' own choice for an exact thumbnail (vips_thumbnail_find_jpegshrink): the largest
// factor that still leaves at least a factor of two for the final, sharper reduction.
static int exact_jpeg_shrink(int stored_width, int stored_height, int orientation, int width, int height, int crop) {
    double shrink = box_shrink(stored_width, stored_height, orientation, width, height, crop);
    return shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1;
}

int cvips_thumbnail_jpeg_direct(const char *path, int stored_width, int stored_height, int orientation,
                                int width, int height, int crop, int fail_on, int fast, VipsImage **out) {
    int exact = exact_jpeg_shrink(stored_width, stored_height, orientation, width, height, crop);
    int factor = fast ? coarsest_jpeg_shrink(stored_width, stored_height, orientation, width, height, crop) : exact;
    if (factor > 1) {
        if (cvips_jpeg_thumbnail(path, factor, exact, fast, orientation, width, height, crop, out) == 0) return 0;
        vips_error_clear();   // libjpeg could not take it (CMYK, damaged data): libvips decides
    }
    if (!fast || factor == 1) return cvips_thumbnail_file(path, width, height, crop, fail_on, out);
    VipsImage *shrunk = NULL;
    if (vips_jpegload(path, &shrunk, "shrink", factor, "access", VIPS_ACCESS_SEQUENTIAL,
                      "fail_on", (VipsFailOn)fail_on, NULL) != 0) return -1;
    int result = vips_thumbnail_image(shrunk, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                      "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE, NULL);
    g_object_unref(shrunk);
    return result;
}

int cvips_thumbnail_buffer(const void *buffer, size_t length, int width, int height, int crop, int fail_on, VipsImage **out) {
    return vips_thumbnail_buffer((void *)buffer, length, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                 "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                                 "fail_on", (VipsFailOn)fail_on, NULL);
}

int cvips_thumbnail_image(VipsImage *image, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(image, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

int cvips_load_upright(const char *path, int fail_on, VipsImage **out) {
    // Turning an image needs random access; an upright one streams, so memory stays flat.
    VipsImage *header = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", (VipsFailOn)fail_on, NULL);
    if (!header) return -1;
    VipsAccess access = orientation_of(header) == 1 ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM;
    g_object_unref(header);
    VipsImage *image = vips_image_new_from_file(path, "access", access, "fail_on", (VipsFailOn)fail_on, NULL);
    if (!image) return -1;
    int result = vips_autorot(image, out, NULL);
    g_object_unref(image);
    return result;
}

int cvips_apply_orientation(VipsImage *image, int orientation, VipsImage **out) {
    VipsImage *tagged = NULL;
    if (vips_copy(image, &tagged, NULL) != 0) return -1;
    vips_image_set_int(tagged, VIPS_META_ORIENTATION, orientation);
    int result = vips_autorot(tagged, out, NULL);
    g_object_unref(tagged);
    return result;
}

int cvips_load_buffer(const void *buffer, size_t length, int fail_on, VipsImage **out) {
    *out = vips_image_new_from_buffer(buffer, length, "", "fail_on", (VipsFailOn)fail_on, NULL);
    return *out ? 0 : -1;
}

// Converts to 8-bit sRGB (or grey) so that encoders get what browsers show.
static int to_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *colour = NULL;
    VipsInterpretation target = in->Bands < 3 && in->Type != VIPS_INTERPRETATION_CMYK
        ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    if (vips_colourspace(in, &colour, target, NULL) != 0) return -1;
    int result = vips_cast(colour, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(colour);
    return result;
}

int cvips_save_jpeg(VipsImage *image, int quality, int interlace, void **buffer, size_t *length) {
    if (!interlace) {
        int direct = cvips_encode_memory_jpeg(image, quality, buffer, length);
        if (direct <= 0) return direct;
    }
    VipsImage *ready = NULL;
    if (to_srgb8(image, &ready) != 0) return -1;
    VipsImage *flat = ready;
    if (vips_image_hasalpha(ready)) {
        double white[1] = {255};
        VipsArrayDouble *background = vips_array_double_new(white, 1);
        int failed = vips_flatten(ready, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(ready);
        if (failed) return -1;
    }
    int result = vips_jpegsave_buffer(flat, buffer, length, "Q", quality, "strip", TRUE,
                                      "interlace", interlace ? TRUE : FALSE, NULL);
    g_object_unref(flat);
    return result;
}

int cvips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length) {
    VipsImage *ready = NULL;
    if (to_srgb8(image, &ready) != 0) return -1;
    int result = vips_webpsave_buffer(ready, buffer, length, "Q", quality, "strip", TRUE, NULL);
    g_object_unref(ready);
    return result;
}

int cvips_save_png(VipsImage *image, void **buffer, size_t *length) {
    VipsImage *ready = NULL;
    if (to_srgb8(image, &ready) != 0) return -1;
    int result = vips_pngsave_buffer(ready, buffer, length, "strip", TRUE, NULL);
    g_object_unref(ready);
    return result;
}

int cvips_to_srgb8(VipsImage *image, void **pixels, size_t *length, int *width, int *height, int *bands) {
    VipsImage *ready = NULL;
    if (to_srgb8(image, &ready) != 0) return -1;
    *pixels = vips_image_write_to_memory(ready, length);
    *width = ready->Xsize;
    *height = ready->Ysize;
    *bands = ready->Bands;
    g_object_unref(ready);
    return *pixels ? 0 : -1;
}

int cvips_from_pixels(const void *pixels, int width, int height, int bands, VipsImage **out) {
    *out = vips_image_new_from_memory_copy(pixels, (size_t)width * height * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!*out) return -1;
    (*out)->Type = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W;
    return 0;
}

int cvips_image_width(const VipsImage *image) { return image->Xsize; }
int cvips_image_height(const VipsImage *image) { return image->Ysize; }

void cvips_unref(VipsImage *image) { if (image) g_object_unref(image); }
void cvips_free(void *memory) { g_free(memory); }

int cvips_generate_scene(int width, int height, int seed, const char *label, VipsImage **out) {
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **)vips_object_local_array(scope, 16);
    int cell = width / 6 > 8 ? width / 6 : 8;
    // Three noise fields, coarse to fine, make a texture that compresses like a photo.
    if (vips_perlin(&t[0], width, height, "cell_size", cell, "seed", seed, NULL) ||
        vips_perlin(&t[1], width, height, "cell_size", cell / 4 + 1, "seed", seed + 1, NULL) ||
        vips_gaussnoise(&t[2], width, height, "sigma", 8.0, "mean", 0.0, "seed", seed + 2, NULL) ||
        vips_xyz(&t[3], width, height, NULL)) goto fail;
    // Vertical gradient from the y coordinate: sky above, ground below.
    if (vips_extract_band(t[3], &t[4], 1, NULL) ||
        vips_linear1(t[4], &t[5], 255.0 / (height > 1 ? height : 1), 0.0, NULL)) goto fail;
    double hue = (seed * 47) % 255;
    double a[3] = {90, 70, 80}, b[3] = {hue / 3 + 40, 120 - hue / 4, 200 - hue / 2};
    if (vips_linear(t[0], &t[6], a, b, 3, NULL) ||
        vips_linear1(t[1], &t[7], 30.0, 0.0, NULL) ||
        vips_add(t[6], t[7], &t[8], NULL) ||
        vips_add(t[8], t[2], &t[9], NULL)) goto fail;
    double g[3] = {-0.25, -0.05, -0.45}, zero[3] = {0, 0, 0};
    if (vips_linear(t[5], &t[10], g, zero, 3, NULL) ||
        vips_add(t[9], t[10], &t[11], NULL) ||
        vips_cast(t[11], &t[12], VIPS_FORMAT_UCHAR, "shift", FALSE, NULL)) goto fail;
    t[12]->Type = VIPS_INTERPRETATION_sRGB;
    VipsImage *scene = t[12];
    if (label && *label) {
        int text_height = height / 4 > 8 ? height / 4 : 8;
        double white[1] = {255};
        if (vips_text(&t[13], label, "height", text_height, "dpi", 300, NULL) ||
            vips_draw_mask(scene, white, 1, t[13], width / 12, height / 12, NULL)) {
            // Text rendering is decoration: a scene without a label is still a scene.
            vips_error_clear();
        }
    }
    *out = scene;
    g_object_ref(scene);
    g_object_unref(scope);
    return 0;
fail:
    g_object_unref(scope);
    return -1;
}

int cvips_heif_thumbnail(const char *path, int fail_on, VipsImage **out) {
    VipsImage *primary = NULL;
    if (vips_heifload(path, &primary, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", (VipsFailOn)fail_on, NULL) != 0) return -1;
    int primary_width = primary->Xsize, primary_height = primary->Ysize;
    g_object_unref(primary);
    VipsImage *thumbnail = NULL;
    if (vips_heifload(path, &thumbnail, "thumbnail", TRUE, "access", VIPS_ACCESS_SEQUENTIAL,
                      "fail_on", (VipsFailOn)fail_on, NULL) != 0) return -1;
    // Without a thumbnail item heifload answers the primary image itself: that is no thumbnail.
    if (thumbnail->Xsize == primary_width && thumbnail->Ysize == primary_height) {
        g_object_unref(thumbnail);
        return 1;
    }
    // libheif turns the thumbnail as its item's transformations say; an EXIF orientation libvips
    // kept (older libheif) is applied here.
    int result = vips_autorot(thumbnail, out, NULL);
    g_object_unref(thumbnail);
    return result;
}

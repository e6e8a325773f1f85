// JPEG thumbnails without a libvips pipeline: libjpeg decodes at a reduced scale
// (shrink-on-load) only the columns and rows the answer needs, row by row into a small ring,
// a Lanczos-3 filter reduces them as they come, and the orientation and centre crop are
// applied while copying the result out. Same steps and kernel as libvips' thumbnail, without
// its per-call set-up (operation graph, Orc code generation, a worker thread, region buffers)
// or a decoded image in memory. Fast thumbnails at 1/8 scale take the DC decoder (DCDecode.c)
// instead of libjpeg when it takes the file, and reduce its whole 1/8 image the same way.
#include "JPEGThumbnail.h"
#include "DCDecode.h"
#include "Reduce.h"
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    unsigned char *bytes = NULL;
    long size = 0;
    if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) > 0 && fseek(file, 0, SEEK_SET) == 0) {
        bytes = malloc((size_t)size);
        if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) { free(bytes); bytes = NULL; }
    }
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

// The reduced image's size and the part of it the answer keeps, in stored (not upright)
// coordinates, following vips_thumbnail's arithmetic: one shrink for both axes (the smaller
// for fill, the larger for fit), never below 1, sizes rounded, centre crop in upright
// coordinates.
typedef struct {
    double shrink;
    int reduced_width, reduced_height;      // stored
    int left, top, width, height;           // upright crop of the upright reduced image
    int x, y, stored_width, stored_height;  // that crop in stored coordinates
} Plan;

static Plan plan_for(int width, int height, int orientation, int target_width, int target_height, int crop) {
    Plan plan;
    if (orientation >= 5) { int swap = target_width; target_width = target_height; target_height = swap; }
    double hshrink = (double)width / target_width, vshrink = (double)height / target_height;
    double shrink = crop ? (hshrink < vshrink ? hshrink : vshrink) : (hshrink > vshrink ? hshrink : vshrink);
    plan.shrink = shrink < 1.0 ? 1.0 : shrink;
    plan.reduced_width = (int)(width / plan.shrink + 0.5);
    plan.reduced_height = (int)(height / plan.shrink + 0.5);
    if (plan.reduced_width < 1) plan.reduced_width = 1;
    if (plan.reduced_height < 1) plan.reduced_height = 1;
    int upright_width = orientation >= 5 ? plan.reduced_height : plan.reduced_width;
    int upright_height = orientation >= 5 ? plan.reduced_width : plan.reduced_height;
    int wanted_width = orientation >= 5 ? target_height : target_width;
    int wanted_height = orientation >= 5 ? target_width : target_height;
    plan.width = crop && wanted_width < upright_width ? wanted_width : upright_width;
    plan.height = crop && wanted_height < upright_height ? wanted_height : upright_height;
    plan.left = (upright_width - plan.width) / 2;
    plan.top = (upright_height - plan.height) / 2;
    int ax, ay, bx, by;
    cvips_stored_position(orientation, plan.left, plan.top, plan.reduced_width, plan.reduced_height, &ax, &ay);
    cvips_stored_position(orientation, plan.left + plan.width - 1, plan.top + plan.height - 1,
                          plan.reduced_width, plan.reduced_height, &bx, &by);
    plan.x = ax < bx ? ax : bx;
    plan.y = ay < by ? ay : by;
    plan.stored_width = (ax > bx ? ax - bx : bx - ax) + 1;
    plan.stored_height = (ay > by ? ay - by : by - ay) + 1;
    return plan;
}

// Copies the stored-orientation crop into `out`, upright.
static void turn_upright(const uint8_t *stored, const Plan *plan, int orientation, int bands, uint8_t *out) {
    for (int y = 0; y < plan->height; y++) {
        for (int x = 0; x < plan->width; x++) {
            int sx, sy;
            cvips_stored_position(orientation, plan->left + x, plan->top + y, plan->reduced_width, plan->reduced_height, &sx, &sy);
            memcpy(out + ((size_t)y * plan->width + x) * bands,
                   stored + ((size_t)(sy - plan->y) * plan->stored_width + (sx - plan->x)) * bands, bands);
        }
    }
}

// Everything one decode holds, on the heap so that it survives libjpeg's longjmp intact.
typedef struct {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    jmp_buf failed;
    char message[JMSG_LENGTH_MAX];
    unsigned char *bytes;
    size_t length;
    cvips_dc_image eighth;  // the DC decoder's image, when it took the file
    cvips_reduction *reduction;
    uint8_t *ring, *stored, *upright;
    size_t row_bytes;
    int capacity, next_row, offset;
} Decode;

// Errors and warnings both stop the decode: the caller then hands the file to libvips,
// whose fail-on setting decides what damaged data means.
static void stop(j_common_ptr info) {
    Decode *decode = (Decode *)info->client_data;
    info->err->format_message(info, decode->message);
    longjmp(decode->failed, 1);
}

static void on_message(j_common_ptr info, int level) {
    if (level < 0) stop(info);
}

// The reduction's row source: decodes forward into the ring until row `y` is there.
static const uint8_t *row_at(void *context, int y) {
    Decode *decode = context;
    while (decode->next_row <= y) {
        JSAMPROW slot = decode->ring + (size_t)(decode->next_row % decode->capacity) * decode->row_bytes;
        if (jpeg_read_scanlines(&decode->info, &slot, 1) != 1) return NULL;
        decode->next_row++;
    }
    return decode->ring + (size_t)(y % decode->capacity) * decode->row_bytes + decode->offset;
}

// The DC decoder's rows, from the first column the reduction reads.
static const uint8_t *eighth_row_at(void *context, int y) {
    Decode *decode = context;
    return decode->eighth.pixels + (size_t)y * decode->row_bytes + decode->offset;
}

// Reads the file and its header and sets libjpeg up for a decode at 1/`factor` scale; the
// number of bands, or -1.
static int open_jpeg(Decode *decode, const char *path, int factor, int fast) {
    struct jpeg_decompress_struct *info = &decode->info;
    if (!(decode->bytes = read_file(path, &decode->length))) { vips_error("jpeg", "%s: cannot read", path); return -1; }
    jpeg_mem_src(info, decode->bytes, (unsigned long)decode->length);
    jpeg_read_header(info, TRUE);
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        vips_error("jpeg", "%s: CMYK, left to libvips", path);
        return -1;
    }
    int grey = info->jpeg_color_space == JCS_GRAYSCALE;
    info->out_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    info->scale_num = 1;
    info->scale_denom = factor;
    info->dct_method = fast ? JDCT_IFAST : JDCT_ISLOW;
    info->do_fancy_upsampling = fast ? FALSE : TRUE;
    jpeg_calc_output_dimensions(info);
    return grey ? 1 : 3;
}

// Decodes the whole 1/8 image with the DC decoder, for a file libjpeg's header says is a
// sequential Huffman 8-bit YCbCr or grey JPEG: CVIPS_DC_DECODED when it took the file and its
// size is libjpeg's.
static int decode_eighth(Decode *decode) {
    const struct jpeg_decompress_struct *info = &decode->info;
    int colour = (info->jpeg_color_space == JCS_YCbCr && info->num_components == 3) ||
                 (info->jpeg_color_space == JCS_GRAYSCALE && info->num_components == 1);
    if (info->progressive_mode || info->arith_code || info->data_precision != 8 || !colour) return CVIPS_DC_NOT_HANDLED;
    int result = cvips_dc_decode(decode->bytes, decode->length, &decode->eighth);
    if (result == CVIPS_DC_DECODED && (decode->eighth.width != (int)info->output_width ||
                                       decode->eighth.height != (int)info->output_height ||
                                       decode->eighth.bands != info->output_components)) {
        free(decode->eighth.pixels);
        decode->eighth.pixels = NULL;
        return CVIPS_DC_NOT_HANDLED;
    }
    return result;
}

// Runs the reduction on libjpeg's decode of the columns and rows it reads, row by row through
// the ring; -1 when the data ends early, -2 without memory for the ring.
static int reduce_with_libjpeg(Decode *decode, int first_column, int columns, int first_row, int scaled_width, int bands) {
    struct jpeg_decompress_struct *info = &decode->info;
    jpeg_start_decompress(info);
    JDIMENSION column = (JDIMENSION)first_column, decoded_columns = (JDIMENSION)columns;
    if (columns < scaled_width) jpeg_crop_scanline(info, &column, &decoded_columns);
    decode->row_bytes = (size_t)info->output_width * bands;
    decode->offset = (first_column - (int)column) * bands;
    decode->capacity = cvips_reduction_window(decode->reduction);
    if (!(decode->ring = malloc(decode->row_bytes * decode->capacity))) return -2;
    if (first_row > 0) jpeg_skip_scanlines(info, (JDIMENSION)first_row);
    decode->next_row = first_row;
    return cvips_reduction_run(decode->reduction, row_at, decode, decode->stored);
}

static int thumbnail(Decode *decode, const char *path, int factor, int layout_factor, int fast, int orientation,
                     int width, int height, int crop, VipsImage **out) {
    struct jpeg_decompress_struct *info = &decode->info;
    int bands = open_jpeg(decode, path, factor, fast);
    if (bands < 0) return -1;
    int grey = bands == 1;
    // libjpeg rounds the scaled size up; libvips' loader rounds it down and leaves the partial
    // last row and column out. Do the same, so the arithmetic below is libvips' own.
    int sw = (int)info->image_width / factor, sh = (int)info->image_height / factor;
    if (sw < 1 || sw > (int)info->output_width) sw = (int)info->output_width;
    if (sh < 1 || sh > (int)info->output_height) sh = (int)info->output_height;
    // The answer is laid out (size, crop) on the image as libvips would load it at
    // `layout_factor`, so a coarser fast decode still gives an exact answer's geometry.
    int lw = (int)info->image_width / layout_factor, lh = (int)info->image_height / layout_factor;
    Plan plan = plan_for(lw < 1 ? 1 : lw, lh < 1 ? 1 : lh, orientation, width, height, crop);
    decode->reduction = cvips_reduction_new(sw, sh, bands, (double)sw / plan.reduced_width, (double)sh / plan.reduced_height,
                                            plan.x, plan.y, plan.stored_width, plan.stored_height);
    if (!decode->reduction) { vips_error("jpeg", "out of memory"); return -1; }
    int first_column, columns, first_row, rows;
    cvips_reduction_inputs(decode->reduction, &first_column, &columns, &first_row, &rows);
    decode->stored = malloc((size_t)plan.stored_width * plan.stored_height * bands);
    if (!decode->stored) { vips_error("jpeg", "out of memory"); return -1; }
    int eighth = fast && factor == 8 ? decode_eighth(decode) : CVIPS_DC_NOT_HANDLED;
    if (eighth == CVIPS_DC_NO_MEMORY) { vips_error("jpeg", "out of memory"); return -1; }
    if (eighth == CVIPS_DC_DECODED) {
        decode->row_bytes = (size_t)decode->eighth.width * bands;
        decode->offset = first_column * bands;
        cvips_reduction_run(decode->reduction, eighth_row_at, decode, decode->stored);
    } else {
        int reduced = reduce_with_libjpeg(decode, first_column, columns, first_row, sw, bands);
        if (reduced == -2) { vips_error("jpeg", "out of memory"); return -1; }
        if (reduced != 0) { vips_error("jpeg", "%s: the image data ends early", path); return -1; }
    }
    const uint8_t *pixels = decode->stored;
    if (orientation != 1) {
        if (!(decode->upright = malloc((size_t)plan.width * plan.height * bands))) { vips_error("jpeg", "out of memory"); return -1; }
        turn_upright(decode->stored, &plan, orientation, bands, decode->upright);
        pixels = decode->upright;
    }
    *out = vips_image_new_from_memory_copy(pixels, (size_t)plan.width * plan.height * bands, plan.width, plan.height,
                                           bands, VIPS_FORMAT_UCHAR);
    if (!*out) return -1;
    (*out)->Type = grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    return 0;
}

static Decode *new_decode(void) {
    Decode *decode = calloc(1, sizeof(Decode));
    if (!decode) return NULL;
    decode->info.err = jpeg_std_error(&decode->errors);
    decode->errors.error_exit = stop;
    decode->errors.emit_message = on_message;
    decode->info.client_data = decode;
    return decode;
}

static void free_decode(Decode *decode) {
    jpeg_destroy_decompress(&decode->info);
    cvips_reduction_free(decode->reduction);
    free(decode->bytes);
    free(decode->eighth.pixels);
    free(decode->ring);
    free(decode->stored);
    free(decode->upright);
    free(decode);
}

int cvips_jpeg_thumbnail(const char *path, int factor, int layout_factor, int fast, int orientation,
                         int width, int height, int crop, VipsImage **out) {
    Decode *decode = new_decode();
    if (!decode) { vips_error("jpeg", "out of memory"); return -1; }
    int result;
    if (setjmp(decode->failed) == 0) {
        jpeg_create_decompress(&decode->info);
        result = thumbnail(decode, path, factor, layout_factor, fast, orientation, width, height, crop, out);
    } else {
        vips_error("jpeg", "%s: %s", path, decode->message);
        result = -1;
    }
    free_decode(decode);
    return result;
}

// The whole 1/8 image by one decoder, as the fast thumbnail decodes it.
static int eighth_scale(Decode *decode, const char *path, int dc_decoder, void **pixels, size_t *length,
                        int *width, int *height, int *bands) {
    struct jpeg_decompress_struct *info = &decode->info;
    int components = open_jpeg(decode, path, 8, 1);
    if (components < 0) return -1;
    *width = (int)info->output_width;
    *height = (int)info->output_height;
    *bands = components;
    *length = (size_t)*width * *height * components;
    if (!(*pixels = g_try_malloc(*length))) { vips_error("jpeg", "out of memory"); return -1; }
    if (dc_decoder) {
        int result = decode_eighth(decode);
        if (result == CVIPS_DC_DECODED) memcpy(*pixels, decode->eighth.pixels, *length);
        if (result != CVIPS_DC_DECODED) { g_free(*pixels); *pixels = NULL; }
        if (result == CVIPS_DC_NO_MEMORY) vips_error("jpeg", "out of memory");
        return result == CVIPS_DC_NO_MEMORY ? -1 : result;
    }
    jpeg_start_decompress(info);
    while (info->output_scanline < info->output_height) {
        JSAMPROW row = (uint8_t *)*pixels + (size_t)info->output_scanline * *width * components;
        jpeg_read_scanlines(info, &row, 1);
    }
    return 0;
}

int cvips_jpeg_eighth_scale(const char *path, int dc_decoder, void **pixels, size_t *length, int *width, int *height,
                            int *bands) {
    Decode *decode = new_decode();
    if (!decode) { vips_error("jpeg", "out of memory"); return -1; }
    *pixels = NULL;
    int result;
    if (setjmp(decode->failed) == 0) {
        jpeg_create_decompress(&decode->info);
        result = eighth_scale(decode, path, dc_decoder, pixels, length, width, height, bands);
    } else {
        vips_error("jpeg", "%s: %s", path, decode->message);
        g_free(*pixels);
        *pixels = NULL;
        result = -1;
    }
    free_decode(decode);
    return result;
}

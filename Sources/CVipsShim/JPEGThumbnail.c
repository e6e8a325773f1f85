// JPEG thumbnails without a libvips pipeline: libjpeg decodes at a reduced scale
// (shrink-on-load) only the columns and rows the answer needs, row by row into a small ring,
// a Lanczos-3 filter reduces them as they come, and the orientation and centre crop are
// applied while copying the result out. Same steps and kernel as libvips' thumbnail, without
// its per-call set-up (operation graph, Orc code generation, a worker thread, region buffers)
// or a decoded image in memory.
#include "CVipsShim.h"
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

static int thumbnail(Decode *decode, const char *path, int factor, int layout_factor, int fast, int orientation,
                     int width, int height, int crop, VipsImage **out) {
    struct jpeg_decompress_struct *info = &decode->info;
    size_t length = 0;
    if (!(decode->bytes = read_file(path, &length))) { vips_error("jpeg", "%s: cannot read", path); return -1; }
    jpeg_mem_src(info, decode->bytes, (unsigned long)length);
    jpeg_read_header(info, TRUE);
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK) {
        vips_error("jpeg", "%s: CMYK, left to libvips", path);
        return -1;
    }
    int grey = info->jpeg_color_space == JCS_GRAYSCALE, bands = grey ? 1 : 3;
    info->out_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    info->scale_num = 1;
    info->scale_denom = factor;
    info->dct_method = fast ? JDCT_IFAST : JDCT_ISLOW;
    info->do_fancy_upsampling = fast ? FALSE : TRUE;
    jpeg_calc_output_dimensions(info);
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
    jpeg_start_decompress(info);
    JDIMENSION column = (JDIMENSION)first_column, decoded_columns = (JDIMENSION)columns;
    if (columns < sw) jpeg_crop_scanline(info, &column, &decoded_columns);
    decode->row_bytes = (size_t)info->output_width * bands;
    decode->offset = (first_column - (int)column) * bands;
    decode->capacity = cvips_reduction_window(decode->reduction);
    decode->ring = malloc(decode->row_bytes * decode->capacity);
    decode->stored = malloc((size_t)plan.stored_width * plan.stored_height * bands);
    if (!decode->ring || !decode->stored) { vips_error("jpeg", "out of memory"); return -1; }
    if (first_row > 0) jpeg_skip_scanlines(info, (JDIMENSION)first_row);
    decode->next_row = first_row;
    if (cvips_reduction_run(decode->reduction, row_at, decode, decode->stored) != 0) {
        vips_error("jpeg", "%s: the image data ends early", path);
        return -1;
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

int cvips_jpeg_thumbnail(const char *path, int factor, int layout_factor, int fast, int orientation,
                         int width, int height, int crop, VipsImage **out) {
    Decode *decode = calloc(1, sizeof(Decode));
    if (!decode) { vips_error("jpeg", "out of memory"); return -1; }
    decode->info.err = jpeg_std_error(&decode->errors);
    decode->errors.error_exit = stop;
    decode->errors.emit_message = on_message;
    decode->info.client_data = decode;
    int result;
    if (setjmp(decode->failed) == 0) {
        jpeg_create_decompress(&decode->info);
        result = thumbnail(decode, path, factor, layout_factor, fast, orientation, width, height, crop, out);
    } else {
        vips_error("jpeg", "%s: %s", path, decode->message);
        result = -1;
    }
    jpeg_destroy_decompress(&decode->info);
    cvips_reduction_free(decode->reduction);
    free(decode->bytes);
    free(decode->ring);
    free(decode->stored);
    free(decode->upright);
    free(decode);
    return result;
}

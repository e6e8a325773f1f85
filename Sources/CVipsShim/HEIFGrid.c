// A grid HEIF image (a camera's large photo: hidden HEVC tiles laid out by a `grid` item)
// decoded one tile at a time, so that memory follows a tile, not the photo.
//
// libheif 1.15 decodes a grid whole (heif_decode_image allocates the full image, and libvips'
// heifload goes through it: ~1.3 GB for 200 MP), and it refuses the tiles' item ids, so it
// cannot be asked for one tile. Here the file's item boxes are read (HEIFBoxes.c), and each
// tile is handed to libheif as a small HEIF file of its own: the tile's coded data and its
// own properties (hvcC, ispe, colr...) as the primary image. libheif decodes a grid's tiles
// the same way, tile by tile with each tile's properties, so the pixels are those it would give.
//
// A thumbnail box-shrinks each tile as it comes into a reduced image (the integer part of the
// shrink, leaving at least 2x for the last step, as vips_resize does), which libvips then
// reduces with Lanczos-3, turns by the grid's irot/imir and crops. The full-size image is
// encoded to JPEG a band of tiles at a time (a row of tiles, or a column when the image is
// turned a quarter), upright, row by row.
#include "CVipsShim.h"
#include "ByteWriter.h"
#include "HEIFBoxes.h"
#include "Reduce.h"
#include <vips/vips.h>
#include <libheif/heif.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>
#include <unistd.h>

typedef struct {
    int fd;
    hbox_meta meta;
    const hbox_reference *tiles;
    int rows, columns, width, height, tile_width, tile_height;
    int orientation;   // the primary item's irot and imir, as the EXIF orientation that does the same
    int has_thumbnail;
    int thumbnail_width, thumbnail_height;
} Grid;

static uint32_t read_be(const uint8_t *p, int bytes) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) value = value << 8 | p[i];
    return value;
}

// The size an item's ispe property gives, turned by its irot.
static int item_size(const Grid *g, const hbox_item *item, int *width, int *height) {
    size_t length = 0;
    const uint8_t *ispe = hbox_item_property(&g->meta, item, "ispe", &length);
    if (!ispe || length < 12) return -1;
    *width = (int)read_be(ispe + 4, 4);
    *height = (int)read_be(ispe + 8, 4);
    const uint8_t *irot = hbox_item_property(&g->meta, item, "irot", &length);
    if (irot && length >= 1 && (irot[0] & 1)) { int swap = *width; *width = *height; *height = swap; }
    return 0;
}

// The EXIF orientation (see cvips_stored_position) that shows stored pixels as `irot` and `imir`
// applied in the order given do. Found by applying them to the corners of a 3x2 image.
static int orientation_of_transforms(const int *kinds, const int *values, int count) {
    int w = 3, h = 2, cells[6] = {0, 1, 2, 3, 4, 5};
    for (int t = 0; t < count; t++) {
        int next[6], nw = w, nh = h;
        if (kinds[t] == 'r') {
            for (int turn = 0; turn < (values[t] & 3); turn++) {
                // A quarter turn anticlockwise: the top-right corner comes to the top left.
                nw = h; nh = w;
                for (int y = 0; y < nh; y++) for (int x = 0; x < nw; x++) next[y * nw + x] = cells[x * w + (w - 1 - y)];
                memcpy(cells, next, sizeof(cells));
                w = nw; h = nh;
            }
        } else {
            // libheif 1.15: axis 1 mirrors left and right, axis 0 top and bottom.
            for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) {
                next[y * w + x] = values[t] ? cells[y * w + (w - 1 - x)] : cells[(h - 1 - y) * w + x];
            }
            memcpy(cells, next, sizeof(cells));
        }
    }
    for (int o = 1; o <= 8; o++) {
        int uw = o >= 5 ? 2 : 3, match = uw == w;
        for (int y = 0; match && y < h; y++) for (int x = 0; match && x < w; x++) {
            int sx, sy;
            cvips_stored_position(o, x, y, 3, 2, &sx, &sy);
            match = cells[y * w + x] == sy * 3 + sx;
        }
        if (match) return o;
    }
    return 1;
}

// Opens `path` as a grid of HEVC tiles. 0 when it is one this file decodes, 1 when it is not
// (another format, a single image, alpha, a crop: libvips decodes it), -1 when it cannot be read.
static int grid_open(const char *path, Grid *g) {
    memset(g, 0, sizeof(*g));
    g->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (g->fd < 0) { vips_error("heifgrid", "%s: cannot open", path); return -1; }
    const char *reason = NULL;
    if (hbox_read(g->fd, &g->meta, &reason) != 0) return 1;
    const hbox_item *primary = hbox_find_item(&g->meta, g->meta.primary);
    g->tiles = hbox_find_reference(&g->meta, g->meta.primary, "dimg");
    if (memcmp(primary->type, "grid", 4) != 0 || !g->tiles || hbox_find_reference_to(&g->meta, g->meta.primary, "auxl")) return 1;
    uint8_t *data = NULL;
    size_t length = 0;
    if (hbox_item_data(&g->meta, g->fd, primary, &data, &length) != 0) return 1;
    int large = length >= 2 && (data[1] & 1);
    if (length < (size_t)(large ? 12 : 8)) { free(data); return 1; }
    g->rows = data[2] + 1;
    g->columns = data[3] + 1;
    g->width = (int)read_be(data + 4, large ? 4 : 2);
    g->height = (int)read_be(data + (large ? 8 : 6), large ? 4 : 2);
    free(data);
    if (g->tiles->count != g->rows * g->columns || g->width < 1 || g->height < 1) return 1;
    for (int t = 0; t < g->tiles->count; t++) {
        const hbox_item *tile = hbox_find_item(&g->meta, g->tiles->to[t]);
        int w = 0, h = 0;
        if (!tile || memcmp(tile->type, "hvc1", 4) != 0 || tile->construction_method != 0 || item_size(g, tile, &w, &h) != 0) return 1;
        if (t == 0) { g->tile_width = w; g->tile_height = h; }
        if (w != g->tile_width || h != g->tile_height || w < 1 || h < 1) return 1;
    }
    if ((int64_t)g->columns * g->tile_width < g->width || (int64_t)g->rows * g->tile_height < g->height ||
        (int64_t)(g->columns - 1) * g->tile_width >= g->width || (int64_t)(g->rows - 1) * g->tile_height >= g->height) return 1;
    int kinds[16], values[16], count = 0;
    for (int i = 0; i < primary->property_count; i++) {
        char type[4];
        size_t box_length = 0;
        const uint8_t *box = hbox_property(&g->meta, primary->properties[i], &box_length, type);
        if (!box) return 1;
        if (memcmp(type, "clap", 4) == 0) return 1;   // a crop: left to libheif (see docs/PERFORMANCE.md)
        int rotation = memcmp(type, "irot", 4) == 0, mirror = memcmp(type, "imir", 4) == 0;
        if (!rotation && !mirror) continue;
        if (box_length < 9 || count == 16) return 1;
        kinds[count] = rotation ? 'r' : 'm';
        values[count++] = rotation ? box[8] & 3 : box[8] & 1;
    }
    g->orientation = orientation_of_transforms(kinds, values, count);
    const hbox_reference *thumbnail = hbox_find_reference_to(&g->meta, g->meta.primary, "thmb");
    const hbox_item *thumbnail_item = thumbnail ? hbox_find_item(&g->meta, thumbnail->from) : NULL;
    g->has_thumbnail = thumbnail_item && item_size(g, thumbnail_item, &g->thumbnail_width, &g->thumbnail_height) == 0;
    return 0;
}

static void grid_close(Grid *g) {
    hbox_free(&g->meta);
    if (g->fd >= 0) close(g->fd);
}

// Tile `index` (raster order) decoded by libheif to 8-bit interleaved RGB. The tile goes to
// libheif as a file of its own: ftyp, a meta box naming it the primary image with its own
// properties (but no geometry: the grid's irot/imir apply to the whole), and its coded data.
static struct heif_image *decode_tile(const Grid *g, int index, const uint8_t **pixels, int *stride) {
    const hbox_item *tile = hbox_find_item(&g->meta, g->tiles->to[index]);
    uint8_t *data = NULL;
    size_t length = 0;
    if (hbox_item_data(&g->meta, g->fd, tile, &data, &length) != 0) {
        vips_error("heifgrid", "tile %d: its data cannot be read", index);
        return NULL;
    }
    static const uint8_t ftyp[] = {0, 0, 0, 24, 'f', 't', 'y', 'p', 'h', 'e', 'i', 'c', 0, 0, 0, 0,
                                   'm', 'i', 'f', '1', 'h', 'e', 'i', 'c'};
    Bytes file = {0};
    put(&file, ftyp, sizeof(ftyp));
    size_t meta = open_box(&file, "meta", 0, 0);
    size_t hdlr = open_box(&file, "hdlr", 0, 0);
    put_uint(&file, 0, 4);
    put(&file, "pict", 4);
    put_uint(&file, 0, 8);   // reserved
    put_uint(&file, 0, 4);
    put_uint(&file, 0, 1);   // empty name
    close_box(&file, hdlr);
    size_t pitm = open_box(&file, "pitm", 0, 0);
    put_uint(&file, 1, 2);
    close_box(&file, pitm);
    size_t iinf = open_box(&file, "iinf", 0, 0);
    put_uint(&file, 1, 2);
    size_t infe = open_box(&file, "infe", 2, 0);
    put_uint(&file, 1, 2);
    put_uint(&file, 0, 2);
    put(&file, "hvc1", 4);
    put_uint(&file, 0, 1);
    close_box(&file, infe);
    close_box(&file, iinf);
    size_t iprp = open_box(&file, "iprp", -1, 0);
    size_t ipco = open_box(&file, "ipco", -1, 0);
    int kept = 0;
    for (int i = 0; i < tile->property_count; i++) {
        char type[4];
        size_t box_length = 0;
        const uint8_t *box = hbox_property(&g->meta, tile->properties[i], &box_length, type);
        if (!box || !memcmp(type, "irot", 4) || !memcmp(type, "imir", 4) || !memcmp(type, "clap", 4)) continue;
        put(&file, box, box_length);
        kept++;
    }
    close_box(&file, ipco);
    size_t ipma = open_box(&file, "ipma", 0, 0);
    put_uint(&file, 1, 4);
    put_uint(&file, 1, 2);
    put_uint(&file, (uint64_t)kept, 1);
    for (int i = 0; i < kept; i++) put_uint(&file, (uint64_t)i + 1, 1);
    close_box(&file, ipma);
    close_box(&file, iprp);
    size_t iloc = open_box(&file, "iloc", 0, 0);
    put_uint(&file, 0x44, 1);
    put_uint(&file, 0, 1);
    put_uint(&file, 1, 2);
    put_uint(&file, 1, 2);
    put_uint(&file, 0, 2);
    put_uint(&file, 1, 2);
    size_t offset_at = file.length;
    put_uint(&file, 0, 4);
    put_uint(&file, length, 4);
    close_box(&file, iloc);
    close_box(&file, meta);
    put_uint(&file, length + 8, 4);
    put(&file, "mdat", 4);
    size_t data_start = file.length;
    put(&file, data, length);
    free(data);
    if (file.failed || kept > 127) {
        free(file.bytes);
        vips_error("heifgrid", "tile %d: out of memory", index);
        return NULL;
    }
    for (int i = 0; i < 4; i++) file.bytes[offset_at + i] = (uint8_t)(data_start >> (8 * (3 - i)));

    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    options->convert_hdr_to_8bit = 1;
    struct heif_error error = heif_context_read_from_memory_without_copy(context, file.bytes, file.length, NULL);
    if (!error.code) error = heif_context_get_primary_image_handle(context, &handle);
    if (!error.code) error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options);
    if (error.code) vips_error("heifgrid", "tile %d: %s", index, error.message);
    heif_decoding_options_free(options);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    free(file.bytes);
    if (!image) return NULL;
    *pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, stride);
    if (!*pixels || heif_image_get_width(image, heif_channel_interleaved) < g->tile_width ||
        heif_image_get_height(image, heif_channel_interleaved) < g->tile_height) {
        vips_error("heifgrid", "tile %d: decoded to an unexpected size", index);
        heif_image_release(image);
        return NULL;
    }
    return image;
}

static void free_pixels(VipsImage *image, void *pixels) {
    (void)image;
    g_free(pixels);
}

// The stored image shrunk by `k` in both directions, box-filtered one tile at a time: pixel
// (i, j) is the mean of stored pixels [i*k, (i+1)*k) x [j*k, (j+1)*k), fewer at the right and
// bottom edges. Only the sums of one row of tiles are held besides the result.
static VipsImage *reduce_tiles(const Grid *g, int k) {
    int iw = (g->width + k - 1) / k, ih = (g->height + k - 1) / k;
    int band = g->tile_height / k + 2;
    uint8_t *reduced = g_try_malloc((size_t)iw * ih * 3);
    uint32_t *sums = k > 1 ? calloc((size_t)band * iw * 3, sizeof(uint32_t)) : NULL;
    int *column_of = malloc(sizeof(int) * (size_t)g->tile_width);
    int failed = !reduced || (k > 1 && !sums) || !column_of;
    int first = 0;   // the reduced row sums[0] holds
    for (int r = 0; !failed && r < g->rows; r++) {
        for (int c = 0; !failed && c < g->columns; c++) {
            const uint8_t *pixels = NULL;
            int stride = 0;
            struct heif_image *tile = decode_tile(g, r * g->columns + c, &pixels, &stride);
            if (!tile) { failed = 1; break; }
            int left = c * g->tile_width, top = r * g->tile_height;
            int w = g->width - left < g->tile_width ? g->width - left : g->tile_width;
            int h = g->height - top < g->tile_height ? g->height - top : g->tile_height;
            for (int x = 0; x < w; x++) column_of[x] = (left + x) / k;
            for (int y = 0; y < h; y++) {
                const uint8_t *in = pixels + (size_t)y * stride;
                int j = (top + y) / k;
                if (k == 1) {
                    memcpy(reduced + ((size_t)j * iw + left) * 3, in, (size_t)w * 3);
                    continue;
                }
                uint32_t *row = sums + (size_t)(j - first) * iw * 3;
                for (int x = 0; x < w; x++) {
                    uint32_t *sum = row + (size_t)column_of[x] * 3;
                    sum[0] += in[3 * x];
                    sum[1] += in[3 * x + 1];
                    sum[2] += in[3 * x + 2];
                }
            }
            heif_image_release(tile);
        }
        if (failed || k == 1) continue;
        // Reduced rows wholly inside the tile rows seen so far are complete.
        int bottom = (r + 1) * g->tile_height;
        int complete = bottom >= g->height ? ih : bottom / k;
        for (int j = first; j < complete; j++) {
            int rows_in = g->height - j * k < k ? g->height - j * k : k;
            const uint32_t *row = sums + (size_t)(j - first) * iw * 3;
            uint8_t *out = reduced + (size_t)j * iw * 3;
            for (int i = 0; i < iw; i++) {
                uint32_t count = (uint32_t)rows_in * (uint32_t)(g->width - i * k < k ? g->width - i * k : k);
                for (int b = 0; b < 3; b++) out[3 * i + b] = (uint8_t)((row[3 * i + b] + count / 2) / count);
            }
        }
        int held = band - (complete - first);
        memmove(sums, sums + (size_t)(complete - first) * iw * 3, (size_t)held * iw * 3 * sizeof(uint32_t));
        memset(sums + (size_t)held * iw * 3, 0, (size_t)(complete - first) * iw * 3 * sizeof(uint32_t));
        first = complete;
    }
    free(sums);
    free(column_of);
    if (failed) { g_free(reduced); return NULL; }
    VipsImage *image = vips_image_new_from_memory(reduced, (size_t)iw * ih * 3, iw, ih, 3, VIPS_FORMAT_UCHAR);
    if (!image) { g_free(reduced); return NULL; }
    g_signal_connect(image, "postclose", G_CALLBACK(free_pixels), reduced);
    image->Type = VIPS_INTERPRETATION_sRGB;
    return image;
}

int cvips_heif_grid_thumbnail(const char *path, int width, int height, int crop, VipsImage **out) {
    Grid g;
    int status = grid_open(path, &g);
    if (status != 0) { grid_close(&g); return status; }
    // vips_thumbnail's layout: one shrink for both axes (the smaller for fill, the larger for
    // fit), never enlarging, sizes rounded, the centre kept when filling. The box is turned
    // into stored coordinates, where the reduction happens.
    int box_width = g.orientation >= 5 ? height : width, box_height = g.orientation >= 5 ? width : height;
    double hshrink = (double)g.width / box_width, vshrink = (double)g.height / box_height;
    double shrink = crop ? (hshrink < vshrink ? hshrink : vshrink) : (hshrink > vshrink ? hshrink : vshrink);
    if (shrink < 1.0) shrink = 1.0;
    // libvips takes a HEIF file's thumbnail item when it is larger than the answer: so does this.
    if (g.has_thumbnail) {
        double th = (double)g.thumbnail_width / box_width, tv = (double)g.thumbnail_height / box_height;
        if ((crop ? (th < tv ? th : tv) : (th > tv ? th : tv)) > 1.0) { grid_close(&g); return 1; }
    }
    int reduced_width = (int)(g.width / shrink + 0.5), reduced_height = (int)(g.height / shrink + 0.5);
    if (reduced_width < 1) reduced_width = 1;
    if (reduced_height < 1) reduced_height = 1;
    int k = (int)(shrink / 2.0);
    if (k < 1) k = 1;
    if (k > 4096) k = 4096;   // a box's sum of 255s stays within 32 bits
    VipsImage *reduced = reduce_tiles(&g, k);
    grid_close(&g);
    if (!reduced) return -1;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **)vips_object_local_array(scope, 5);
    t[0] = reduced;
    // The reduced image stands for stored width / k pixels: its last column may hold fewer.
    double hscale = (double)reduced_width * k / g.width, vscale = (double)reduced_height * k / g.height;
    VipsImage *sized = t[0];
    if (hscale != 1.0 || vscale != 1.0) {
        if (vips_resize(t[0], &t[1], hscale, "vscale", vscale, NULL)) goto fail;
        sized = t[1];
    }
    if (sized->Xsize != reduced_width || sized->Ysize != reduced_height) {
        if (sized->Xsize < reduced_width || sized->Ysize < reduced_height) {
            if (vips_embed(sized, &t[2], 0, 0, reduced_width, reduced_height, "extend", VIPS_EXTEND_COPY, NULL)) goto fail;
        } else if (vips_extract_area(sized, &t[2], 0, 0, reduced_width, reduced_height, NULL)) goto fail;
        sized = t[2];
    }
    if (cvips_apply_orientation(sized, g.orientation, &t[3])) goto fail;
    VipsImage *upright = t[3];
    int final_width = crop && width < upright->Xsize ? width : upright->Xsize;
    int final_height = crop && height < upright->Ysize ? height : upright->Ysize;
    if (vips_extract_area(upright, out, (upright->Xsize - final_width) / 2, (upright->Ysize - final_height) / 2,
                          final_width, final_height, NULL)) goto fail;
    g_object_unref(scope);
    return 0;
fail:
    g_object_unref(scope);
    return -1;
}

// libjpeg's errors end the encode through a longjmp back to cvips_heif_grid_jpeg.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf failed;
} JPEGErrors;

static void jpeg_failed(j_common_ptr info) {
    char message[JMSG_LENGTH_MAX];
    info->err->format_message(info, message);
    vips_error("heifgrid", "%s", message);
    longjmp(((JPEGErrors *)info->err)->failed, 1);
}

int cvips_heif_grid_jpeg(const char *path, int quality, void **buffer, size_t *length, int *out_width, int *out_height) {
    Grid g;
    int status = grid_open(path, &g);
    if (status != 0) { grid_close(&g); return status; }
    int o = g.orientation, turned = o >= 5;
    int upright_width = turned ? g.height : g.width, upright_height = turned ? g.width : g.height;
    // A band is a row of tiles, or a column of them when upright rows are stored columns.
    int bands = turned ? g.columns : g.rows;
    int band_width = turned ? g.tile_width : g.width, band_height = turned ? g.height : g.tile_height;
    // Upright rows come in order when bands are taken from the stored end they start at.
    int backwards = o == 3 || o == 4 || o == 7 || o == 8;
    uint8_t *band = malloc((size_t)band_width * band_height * 3);
    uint8_t *row = malloc((size_t)upright_width * 3);
    unsigned char *encoded = NULL;
    unsigned long encoded_length = 0;
    struct jpeg_compress_struct info;
    JPEGErrors errors;
    volatile int failed = !band || !row;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jpeg_failed;
    jpeg_create_compress(&info);
    if (!failed && setjmp(errors.failed) == 0) {
        jpeg_mem_dest(&info, &encoded, &encoded_length);
        info.image_width = (JDIMENSION)upright_width;
        info.image_height = (JDIMENSION)upright_height;
        info.input_components = 3;
        info.in_color_space = JCS_RGB;
        // libvips' jpegsave defaults: accurate DCT, standard tables, 4:2:0 below quality 90.
        jpeg_set_defaults(&info);
        jpeg_set_quality(&info, quality, TRUE);
        info.dct_method = JDCT_ISLOW;
        if (quality >= 90) info.comp_info[0].h_samp_factor = info.comp_info[0].v_samp_factor = 1;
        jpeg_start_compress(&info, TRUE);
        for (int step = 0; !failed && step < bands; step++) {
            int b = backwards ? bands - 1 - step : step;
            // The band's tiles, in stored coordinates relative to the band's corner.
            int band_left = turned ? b * g.tile_width : 0, band_top = turned ? 0 : b * g.tile_height;
            int count = turned ? g.rows : g.columns;
            for (int i = 0; i < count && !failed; i++) {
                int tile_row = turned ? i : b, tile_column = turned ? b : i;
                const uint8_t *pixels = NULL;
                int stride = 0;
                struct heif_image *tile = decode_tile(&g, tile_row * g.columns + tile_column, &pixels, &stride);
                if (!tile) { failed = 1; break; }
                int left = tile_column * g.tile_width, top = tile_row * g.tile_height;
                int w = g.width - left < g.tile_width ? g.width - left : g.tile_width;
                int h = g.height - top < g.tile_height ? g.height - top : g.tile_height;
                for (int y = 0; y < h; y++) {
                    memcpy(band + ((size_t)(top - band_top + y) * band_width + (left - band_left)) * 3,
                           pixels + (size_t)y * stride, (size_t)w * 3);
                }
                heif_image_release(tile);
            }
            if (failed) break;
            // The upright rows this band holds: stored rows (or columns) [start, end).
            int start = turned ? band_left : band_top;
            int end = start + (turned ? g.tile_width : g.tile_height);
            int limit = turned ? g.width : g.height;
            if (end > limit) end = limit;
            int first_row = backwards ? limit - end : start, last_row = backwards ? limit - start : end;
            for (int y = first_row; y < last_row; y++) {
                JSAMPROW line = row;
                if (o == 1) {
                    line = band + (size_t)(y - band_top) * band_width * 3;
                } else {
                    for (int x = 0; x < upright_width; x++) {
                        int sx, sy;
                        cvips_stored_position(o, x, y, g.width, g.height, &sx, &sy);
                        memcpy(row + (size_t)x * 3, band + ((size_t)(sy - band_top) * band_width + (sx - band_left)) * 3, 3);
                    }
                }
                jpeg_write_scanlines(&info, &line, 1);
            }
        }
        if (!failed) jpeg_finish_compress(&info);
    } else {
        failed = 1;
    }
    jpeg_destroy_compress(&info);
    free(band);
    free(row);
    grid_close(&g);
    if (failed) { free(encoded); return -1; }
    // glib's allocator is the C library's (GLib >= 2.46), so cvips_free (g_free) releases it.
    *buffer = encoded;
    *length = encoded_length;
    *out_width = upright_width;
    *out_height = upright_height;
    return 0;
}

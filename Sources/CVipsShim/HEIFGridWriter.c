// Writes an image as a grid HEIC, as cameras store large photos: the picture cut into tiles,
// each tile its own hidden HEVC image item, and a primary `grid` item that lays them out.
// libheif 1.15 encodes only whole images, so each tile is encoded on its own (x265 through
// libheif), its coded data and properties are taken out of that small file (HEIFBoxes.c), and
// the grid file is put together here. Used to make test and benchmark files.
#include "CVipsShim.h"
#include "ByteWriter.h"
#include "HEIFBoxes.h"
#include <vips/vips.h>
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;          // the tile's coded data
    size_t length;
    int property_count;
    int properties[8];      // indices into the grid file's property list
} Tile;

typedef struct {
    Bytes boxes;            // the distinct property boxes, one after the other
    size_t offsets[64], lengths[64];
    int count;
} Properties;

// The 1-based index of `box` in the property list, added if it is new.
static int property_index(Properties *p, const uint8_t *box, size_t length) {
    for (int i = 0; i < p->count; i++) {
        if (p->lengths[i] == length && memcmp(p->boxes.bytes + p->offsets[i], box, length) == 0) return i + 1;
    }
    if (p->count == 64) return -1;
    p->offsets[p->count] = p->boxes.length;
    p->lengths[p->count] = length;
    put(&p->boxes, box, length);
    return p->boxes.failed ? -1 : ++p->count;
}

static struct heif_error write_bytes(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx;
    put((Bytes *)userdata, data, size);
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    return ok;
}

// Encodes one tile (8-bit RGB, `stride` bytes a row) and takes its coded data and properties.
static int encode_tile(const uint8_t *pixels, int width, int height, size_t stride, int quality,
                       Properties *properties, Tile *tile) {
    struct heif_image *image = NULL;
    if (heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image).code) return -1;
    heif_image_add_plane(image, heif_channel_interleaved, width, height, 8);
    int plane_stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
    for (int y = 0; y < height; y++) memcpy(plane + (size_t)y * plane_stride, pixels + y * stride, (size_t)width * 3);
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    Bytes file = {0};
    int failed = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code != 0;
    if (!failed) {
        heif_encoder_set_lossy_quality(encoder, quality);
        heif_encoder_set_parameter_string(encoder, "preset", "ultrafast");
        failed = heif_context_encode_image(context, image, encoder, NULL, NULL).code != 0 ||
                 heif_context_write(context, &(struct heif_writer){1, write_bytes}, &file).code != 0 || file.failed;
        heif_encoder_release(encoder);
    }
    heif_context_free(context);
    heif_image_release(image);
    if (failed) { free(file.bytes); return -1; }
    FILE *scratch = tmpfile();
    hbox_meta meta;
    const char *reason = NULL;
    failed = !scratch || fwrite(file.bytes, 1, file.length, scratch) != file.length || fflush(scratch) != 0 ||
             hbox_read(fileno(scratch), &meta, &reason) != 0;
    free(file.bytes);
    if (!failed) {
        const hbox_item *item = hbox_find_item(&meta, meta.primary);
        failed = hbox_item_data(&meta, fileno(scratch), item, &tile->data, &tile->length) != 0 || item->property_count > 8;
        for (int i = 0; !failed && i < item->property_count; i++) {
            char type[4];
            size_t length = 0;
            const uint8_t *box = hbox_property(&meta, item->properties[i], &length, type);
            int index = box ? property_index(properties, box, length) : -1;
            failed = index < 0;
            if (!failed) tile->properties[tile->property_count++] = index;
        }
        hbox_free(&meta);
    }
    if (scratch) fclose(scratch);
    return failed ? -1 : 0;
}

// The meta box of the grid file whose media data (the tiles, in order) starts at `data_start`.
static void write_meta(Bytes *b, const Tile *tiles, int count, const Properties *p, int grid_properties[3], int grid_property_count,
                       const uint8_t *grid, size_t grid_length, uint64_t data_start) {
    size_t meta = open_box(b, "meta", 0, 0);
    size_t hdlr = open_box(b, "hdlr", 0, 0);
    put_uint(b, 0, 4);
    put(b, "pict", 4);
    put_uint(b, 0, 8);   // reserved
    put_uint(b, 0, 4);
    put_uint(b, 0, 1);   // empty name
    close_box(b, hdlr);
    size_t pitm = open_box(b, "pitm", 0, 0);
    put_uint(b, 1, 2);
    close_box(b, pitm);
    // Item 1 is the grid, items 2... the tiles in raster order.
    size_t iinf = open_box(b, "iinf", 0, 0);
    put_uint(b, (uint64_t)count + 1, 2);
    for (int i = 0; i <= count; i++) {
        size_t infe = open_box(b, "infe", 2, i == 0 ? 0 : 1);
        put_uint(b, (uint64_t)i + 1, 2);
        put_uint(b, 0, 2);
        put(b, i == 0 ? "grid" : "hvc1", 4);
        put_uint(b, 0, 1);
        close_box(b, infe);
    }
    close_box(b, iinf);
    size_t iref = open_box(b, "iref", 0, 0);
    size_t dimg = open_box(b, "dimg", -1, 0);
    put_uint(b, 1, 2);
    put_uint(b, (uint64_t)count, 2);
    for (int i = 0; i < count; i++) put_uint(b, (uint64_t)i + 2, 2);
    close_box(b, dimg);
    close_box(b, iref);
    size_t iprp = open_box(b, "iprp", -1, 0);
    size_t ipco = open_box(b, "ipco", -1, 0);
    put(b, p->boxes.bytes, p->boxes.length);
    close_box(b, ipco);
    size_t ipma = open_box(b, "ipma", 0, 1);
    put_uint(b, (uint64_t)count + 1, 4);
    put_uint(b, 1, 2);
    put_uint(b, (uint64_t)grid_property_count, 1);
    for (int i = 0; i < grid_property_count; i++) put_uint(b, 0x8000u | (uint64_t)grid_properties[i], 2);
    for (int t = 0; t < count; t++) {
        put_uint(b, (uint64_t)t + 2, 2);
        put_uint(b, (uint64_t)tiles[t].property_count, 1);
        for (int i = 0; i < tiles[t].property_count; i++) put_uint(b, 0x8000u | (uint64_t)tiles[t].properties[i], 2);
    }
    close_box(b, ipma);
    close_box(b, iprp);
    size_t idat = open_box(b, "idat", -1, 0);
    put(b, grid, grid_length);
    close_box(b, idat);
    size_t iloc = open_box(b, "iloc", 1, 0);
    put_uint(b, 0x44, 1);   // 4-byte offsets and lengths
    put_uint(b, 0x00, 1);   // no base offset, no extent index
    put_uint(b, (uint64_t)count + 1, 2);
    put_uint(b, 1, 2);
    put_uint(b, 1, 2);      // construction method 1: in idat
    put_uint(b, 0, 2);
    put_uint(b, 1, 2);
    put_uint(b, 0, 4);
    put_uint(b, grid_length, 4);
    uint64_t offset = data_start;
    for (int t = 0; t < count; t++) {
        put_uint(b, (uint64_t)t + 2, 2);
        put_uint(b, 0, 2);
        put_uint(b, 0, 2);
        put_uint(b, 1, 2);
        put_uint(b, offset, 4);
        put_uint(b, tiles[t].length, 4);
        offset += tiles[t].length;
    }
    close_box(b, iloc);
    close_box(b, meta);
}

int cvips_heif_grid_write(VipsImage *image, int tile_width, int tile_height, int quality, int rotation, int mirror,
                          void **buffer, size_t *length) {
    int width = image->Xsize, height = image->Ysize;
    if (tile_width < 64 || tile_height < 64 || width < 1 || height < 1) {
        vips_error("heifgrid", "tiles must be at least 64 pixels a side");
        return -1;
    }
    int columns = (width + tile_width - 1) / tile_width, rows = (height + tile_height - 1) / tile_height;
    if (columns > 256 || rows > 256 || columns * rows > 65534) {
        vips_error("heifgrid", "too many tiles");
        return -1;
    }
    int count = columns * rows;
    Tile *tiles = calloc((size_t)count, sizeof(Tile));
    Properties properties = {0};
    int failed = !tiles;
    for (int t = 0; !failed && t < count; t++) {
        int left = (t % columns) * tile_width, top = (t / columns) * tile_height;
        VipsImage *area = NULL, *padded = NULL;
        void *pixels = NULL;
        size_t size = 0;
        int w = width - left < tile_width ? width - left : tile_width, h = height - top < tile_height ? height - top : tile_height;
        // Edge tiles repeat their last pixels out to a whole tile, as encoders pad.
        failed = vips_extract_area(image, &area, left, top, w, h, NULL) ||
                 vips_embed(area, &padded, 0, 0, tile_width, tile_height, "extend", VIPS_EXTEND_COPY, NULL) ||
                 !(pixels = vips_image_write_to_memory(padded, &size)) || padded->Bands != 3 ||
                 encode_tile(pixels, tile_width, tile_height, (size_t)tile_width * 3, quality, &properties, &tiles[t]) != 0;
        if (failed && !vips_error_buffer()[0]) vips_error("heifgrid", "a tile could not be encoded");
        g_free(pixels);
        if (area) g_object_unref(area);
        if (padded) g_object_unref(padded);
    }
    uint8_t grid[12];
    int large = width > 65535 || height > 65535;
    grid[0] = 0;
    grid[1] = (uint8_t)large;
    grid[2] = (uint8_t)(rows - 1);
    grid[3] = (uint8_t)(columns - 1);
    size_t grid_length = 4;
    for (int i = 0; i < 2; i++) {
        uint32_t side = i == 0 ? (uint32_t)width : (uint32_t)height;
        if (large) { for (int k = 0; k < 4; k++) grid[grid_length++] = (uint8_t)(side >> (24 - 8 * k)); }
        else { grid[grid_length++] = (uint8_t)(side >> 8); grid[grid_length++] = (uint8_t)side; }
    }
    // The grid's own properties: its size, then the rotation and the mirror, in that order.
    int grid_properties[3], grid_property_count = 0;
    if (!failed) {
        Bytes box = {0};
        size_t start = open_box(&box, "ispe", 0, 0);
        put_uint(&box, (uint64_t)width, 4);
        put_uint(&box, (uint64_t)height, 4);
        close_box(&box, start);
        if (rotation & 3) {
            start = open_box(&box, "irot", -1, 0);
            put_uint(&box, (uint64_t)(rotation & 3), 1);
            close_box(&box, start);
        }
        if (mirror == 0 || mirror == 1) {
            start = open_box(&box, "imir", -1, 0);
            put_uint(&box, (uint64_t)mirror, 1);
            close_box(&box, start);
        }
        for (size_t at = 0; !box.failed && at < box.length;) {
            size_t size = (size_t)box.bytes[at] << 24 | box.bytes[at + 1] << 16 | box.bytes[at + 2] << 8 | box.bytes[at + 3];
            int index = property_index(&properties, box.bytes + at, size);
            if (index < 0) { failed = 1; break; }
            grid_properties[grid_property_count++] = index;
            at += size;
        }
        failed |= box.failed;
        free(box.bytes);
    }
    Bytes file = {0};
    if (!failed) {
        static const uint8_t ftyp[] = {0, 0, 0, 24, 'f', 't', 'y', 'p', 'h', 'e', 'i', 'c', 0, 0, 0, 0,
                                       'm', 'i', 'f', '1', 'h', 'e', 'i', 'c'};
        Bytes meta = {0};
        write_meta(&meta, tiles, count, &properties, grid_properties, grid_property_count, grid, grid_length, 0);
        uint64_t data_start = sizeof(ftyp) + meta.length + 8;
        meta.length = 0;
        write_meta(&meta, tiles, count, &properties, grid_properties, grid_property_count, grid, grid_length, data_start);
        uint64_t data_length = 0;
        for (int t = 0; t < count; t++) data_length += tiles[t].length;
        put(&file, ftyp, sizeof(ftyp));
        put(&file, meta.bytes, meta.length);
        put_uint(&file, data_length + 8, 4);
        put(&file, "mdat", 4);
        for (int t = 0; t < count; t++) put(&file, tiles[t].data, tiles[t].length);
        failed = meta.failed || file.failed || data_start + data_length > 0xFFFFFFFFu;
        if (failed) vips_error("heifgrid", "the file could not be put together");
        free(meta.bytes);
    }
    for (int t = 0; tiles && t < count; t++) free(tiles[t].data);
    free(tiles);
    free(properties.boxes.bytes);
    if (failed) { free(file.bytes); return -1; }
    *buffer = g_malloc(file.length);
    memcpy(*buffer, file.bytes, file.length);
    *length = file.length;
    free(file.bytes);
    return 0;
}

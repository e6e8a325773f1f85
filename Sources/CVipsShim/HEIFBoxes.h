// Internal to CVipsShim: the few boxes of a HEIF file's `meta` box that say how its primary
// image is made (ISO/IEC 23008-12, ISO/IEC 14496-12), read without libheif. libheif 1.15 hides
// the tiles of a grid image: heif_context_get_image_handle refuses their item ids ("Non-existing
// item ID referenced"), and it has no API for items, their locations or their properties. What
// this reads is enough to hand each tile to libheif on its own (HEIFGrid.c).
#ifndef CVIPS_SHIM_HEIF_BOXES_H
#define CVIPS_SHIM_HEIF_BOXES_H

#include <stddef.h>
#include <stdint.h>

/// Where a box lies inside the `meta` box that was read (a property, an item's data in `idat`).
typedef struct {
    size_t offset;
    size_t length;
} hbox_span;

/// One extent of an item's data: in the file (construction method 0) or in `idat` (1).
typedef struct {
    uint64_t offset;
    uint64_t length;
} hbox_extent;

typedef struct {
    uint32_t id;
    char type[4];
    int hidden;
    int construction_method;
    int extent_count;
    hbox_extent *extents;
    int property_count;
    uint16_t *properties;   // 1-based indices into the property boxes, in association order
} hbox_item;

typedef struct {
    uint32_t from;
    char type[4];
    int count;
    uint32_t *to;
} hbox_reference;

/// The `meta` box of a HEIF file, read into memory and indexed.
typedef struct {
    uint8_t *meta;          // the meta box's payload
    size_t meta_length;
    uint32_t primary;
    int item_count;
    hbox_item *items;
    int reference_count;
    hbox_reference *references;
    int property_count;
    hbox_span *property_boxes;   // whole boxes (header included), in ipco order
    hbox_span idat;
} hbox_meta;

/// Reads the `meta` box of the file open as `fd` (a HEIF file: `ftyp` first). 0 on success;
/// -1 when the bytes are not a HEIF file this reader understands, with `reason` set.
int hbox_read(int fd, hbox_meta *boxes, const char **reason);
void hbox_free(hbox_meta *boxes);

const hbox_item *hbox_find_item(const hbox_meta *boxes, uint32_t id);
/// The first reference of `type` from `from`, or NULL.
const hbox_reference *hbox_find_reference(const hbox_meta *boxes, uint32_t from, const char type[4]);
/// Whether some item refers to `to` with a reference of `type` (e.g. a thumbnail's `thmb`).
const hbox_reference *hbox_find_reference_to(const hbox_meta *boxes, uint32_t to, const char type[4]);
/// The 4CC of property box `index` (1-based), or NULL when there is no such property.
const uint8_t *hbox_property(const hbox_meta *boxes, int index, size_t *length, char type[4]);
/// The first property of `type` associated with `item`, its payload and length; NULL if none.
const uint8_t *hbox_item_property(const hbox_meta *boxes, const hbox_item *item, const char type[4], size_t *length);
/// An item's whole data (all extents, read from the file or `idat`) into `buffer` (malloc'd).
int hbox_item_data(const hbox_meta *boxes, int fd, const hbox_item *item, uint8_t **buffer, size_t *length);

#endif

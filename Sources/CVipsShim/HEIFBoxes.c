// Reads the item boxes of a HEIF file's `meta` box: pitm, iinf/infe, iloc, iref, iprp (ipco,
// ipma) and idat. Every read is bounded by its box; anything unexpected makes the whole file
// "not understood", and the caller leaves it to libvips and libheif.
#include "HEIFBoxes.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The meta box of a camera's grid image is a few kilobytes per hundred tiles.
#define META_LIMIT (16u << 20)
#define ITEM_LIMIT 65536

typedef struct {
    const uint8_t *at;
    size_t left;
    int failed;
} Reader;

static uint64_t read_uint(Reader *r, int bytes) {
    if (bytes == 0) return 0;
    if (r->failed || r->left < (size_t)bytes) { r->failed = 1; return 0; }
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value = value << 8 | r->at[i];
    r->at += bytes;
    r->left -= bytes;
    return value;
}

static void read_type(Reader *r, char type[4]) {
    if (r->failed || r->left < 4) { r->failed = 1; memset(type, 0, 4); return; }
    memcpy(type, r->at, 4);
    r->at += 4;
    r->left -= 4;
}

// The next child box of `r`: its type, a reader over its payload and where it began.
static int next_box(Reader *r, char type[4], Reader *payload, const uint8_t **start) {
    if (r->failed || r->left < 8) return 0;
    *start = r->at;
    uint64_t size = read_uint(r, 4);
    read_type(r, type);
    size_t header = 8;
    if (size == 1) { size = read_uint(r, 8); header = 16; }
    else if (size == 0) size = r->left + 8;
    if (r->failed || size < header || size - header > r->left) { r->failed = 1; return 0; }
    payload->at = r->at;
    payload->left = (size_t)(size - header);
    payload->failed = 0;
    r->at += payload->left;
    r->left -= payload->left;
    return 1;
}

static hbox_item *item_for(hbox_meta *m, uint32_t id) {
    for (int i = 0; i < m->item_count; i++) if (m->items[i].id == id) return &m->items[i];
    if (m->item_count >= ITEM_LIMIT) return NULL;
    hbox_item *grown = realloc(m->items, sizeof(hbox_item) * (m->item_count + 1));
    if (!grown) return NULL;
    m->items = grown;
    hbox_item *item = &m->items[m->item_count++];
    memset(item, 0, sizeof(*item));
    item->id = id;
    return item;
}

static int read_iinf(hbox_meta *m, Reader *r) {
    int version = (int)read_uint(r, 1);
    read_uint(r, 3);
    uint32_t count = (uint32_t)read_uint(r, version == 0 ? 2 : 4);
    char type[4];
    Reader entry;
    const uint8_t *start;
    for (uint32_t i = 0; i < count && next_box(r, type, &entry, &start); i++) {
        if (memcmp(type, "infe", 4) != 0) continue;
        int infe_version = (int)read_uint(&entry, 1);
        uint32_t flags = (uint32_t)read_uint(&entry, 3);
        if (infe_version < 2) continue;   // versions 0 and 1 describe no item type
        uint32_t id = (uint32_t)read_uint(&entry, infe_version == 2 ? 2 : 4);
        read_uint(&entry, 2);
        char item_type[4];
        read_type(&entry, item_type);
        if (entry.failed) return -1;
        hbox_item *item = item_for(m, id);
        if (!item) return -1;
        memcpy(item->type, item_type, 4);
        item->hidden = flags & 1;
    }
    return r->failed ? -1 : 0;
}

static int read_iloc(hbox_meta *m, Reader *r) {
    int version = (int)read_uint(r, 1);
    read_uint(r, 3);
    int sizes = (int)read_uint(r, 1), more = (int)read_uint(r, 1);
    int offset_size = sizes >> 4, length_size = sizes & 15, base_size = more >> 4;
    int index_size = version >= 1 ? more & 15 : 0;
    uint32_t count = (uint32_t)read_uint(r, version < 2 ? 2 : 4);
    for (uint32_t i = 0; i < count && !r->failed; i++) {
        uint32_t id = (uint32_t)read_uint(r, version < 2 ? 2 : 4);
        int method = version >= 1 ? (int)(read_uint(r, 2) & 15) : 0;
        uint16_t reference = (uint16_t)read_uint(r, 2);
        uint64_t base = read_uint(r, base_size);
        int extents = (int)read_uint(r, 2);
        if (r->failed || extents > (int)(r->left / 2 + 1)) return -1;
        hbox_item *item = item_for(m, id);
        if (!item || item->extents) return -1;
        item->construction_method = reference == 0 ? method : -1;   // data in another file: not ours
        item->extents = calloc((size_t)extents + 1, sizeof(hbox_extent));
        if (!item->extents) return -1;
        item->extent_count = extents;
        for (int e = 0; e < extents; e++) {
            read_uint(r, index_size);
            item->extents[e].offset = base + read_uint(r, offset_size);
            item->extents[e].length = read_uint(r, length_size);
        }
    }
    return r->failed ? -1 : 0;
}

static int read_iref(hbox_meta *m, Reader *r) {
    int version = (int)read_uint(r, 1);
    read_uint(r, 3);
    int id_size = version == 0 ? 2 : 4;
    char type[4];
    Reader entry;
    const uint8_t *start;
    while (next_box(r, type, &entry, &start)) {
        uint32_t from = (uint32_t)read_uint(&entry, id_size);
        int count = (int)read_uint(&entry, 2);
        if (entry.failed || (size_t)count * id_size > entry.left) return -1;
        hbox_reference *grown = realloc(m->references, sizeof(hbox_reference) * (m->reference_count + 1));
        if (!grown) return -1;
        m->references = grown;
        hbox_reference *reference = &m->references[m->reference_count++];
        reference->from = from;
        memcpy(reference->type, type, 4);
        reference->count = count;
        reference->to = calloc((size_t)count + 1, sizeof(uint32_t));
        if (!reference->to) return -1;
        for (int i = 0; i < count; i++) reference->to[i] = (uint32_t)read_uint(&entry, id_size);
    }
    return r->failed ? -1 : 0;
}

static int read_ipma(hbox_meta *m, Reader *r) {
    int version = (int)read_uint(r, 1);
    uint32_t flags = (uint32_t)read_uint(r, 3);
    uint32_t count = (uint32_t)read_uint(r, 4);
    for (uint32_t i = 0; i < count && !r->failed; i++) {
        uint32_t id = (uint32_t)read_uint(r, version < 1 ? 2 : 4);
        int associations = (int)read_uint(r, 1);
        if (r->failed) return -1;
        hbox_item *item = item_for(m, id);
        if (!item) return -1;
        uint16_t *grown = realloc(item->properties, sizeof(uint16_t) * (item->property_count + associations + 1));
        if (!grown) return -1;
        item->properties = grown;
        for (int a = 0; a < associations; a++) {
            uint16_t index = (flags & 1) ? (uint16_t)(read_uint(r, 2) & 0x7FFF) : (uint16_t)(read_uint(r, 1) & 0x7F);
            if (index > 0) item->properties[item->property_count++] = index;
        }
    }
    return r->failed ? -1 : 0;
}

static int read_iprp(hbox_meta *m, Reader *r, const uint8_t *meta) {
    char type[4];
    Reader child;
    const uint8_t *start;
    while (next_box(r, type, &child, &start)) {
        if (memcmp(type, "ipco", 4) == 0) {
            char property_type[4];
            Reader property;
            const uint8_t *property_start;
            while (next_box(&child, property_type, &property, &property_start)) {
                hbox_span *grown = realloc(m->property_boxes, sizeof(hbox_span) * (m->property_count + 1));
                if (!grown) return -1;
                m->property_boxes = grown;
                m->property_boxes[m->property_count++] = (hbox_span){
                    (size_t)(property_start - meta), (size_t)(property.at + property.left - property_start)};
            }
            if (child.failed) return -1;
        } else if (memcmp(type, "ipma", 4) == 0) {
            if (read_ipma(m, &child) != 0) return -1;
        }
    }
    return r->failed ? -1 : 0;
}

static int read_full(int fd, void *buffer, size_t length, uint64_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(fd, (uint8_t *)buffer + done, length - done, (off_t)(offset + done));
        if (got <= 0) return -1;
        done += (size_t)got;
    }
    return 0;
}

int hbox_read(int fd, hbox_meta *m, const char **reason) {
    memset(m, 0, sizeof(*m));
    uint64_t offset = 0;
    int seen_ftyp = 0;
    for (;;) {
        uint8_t head[16];
        if (read_full(fd, head, 8, offset) != 0) { *reason = "no meta box"; return -1; }
        uint64_t size = (uint64_t)head[0] << 24 | head[1] << 16 | head[2] << 8 | head[3];
        uint64_t header = 8;
        if (size == 1) {
            if (read_full(fd, head + 8, 8, offset + 8) != 0) { *reason = "truncated box"; return -1; }
            size = 0;
            for (int i = 8; i < 16; i++) size = size << 8 | head[i];
            header = 16;
        }
        if (!seen_ftyp && memcmp(head + 4, "ftyp", 4) != 0) { *reason = "not an ISO media file"; return -1; }
        seen_ftyp = 1;
        if (memcmp(head + 4, "meta", 4) == 0) {
            if (size < header || size - header > META_LIMIT) { *reason = "meta box of an unexpected size"; return -1; }
            m->meta_length = (size_t)(size - header);
            m->meta = malloc(m->meta_length + 1);
            if (!m->meta || read_full(fd, m->meta, m->meta_length, offset + header) != 0) {
                *reason = "truncated meta box";
                return -1;
            }
            break;
        }
        if (size == 0 || size < header) { *reason = "no meta box"; return -1; }
        offset += size;
    }
    Reader r = {m->meta, m->meta_length, 0};
    read_uint(&r, 4);   // version and flags
    char type[4];
    Reader child;
    const uint8_t *start;
    int failed = 0;
    while (!failed && next_box(&r, type, &child, &start)) {
        if (memcmp(type, "pitm", 4) == 0) {
            int version = (int)read_uint(&child, 1);
            read_uint(&child, 3);
            m->primary = (uint32_t)read_uint(&child, version == 0 ? 2 : 4);
            failed = child.failed;
        } else if (memcmp(type, "iinf", 4) == 0) failed = read_iinf(m, &child);
        else if (memcmp(type, "iloc", 4) == 0) failed = read_iloc(m, &child);
        else if (memcmp(type, "iref", 4) == 0) failed = read_iref(m, &child);
        else if (memcmp(type, "iprp", 4) == 0) failed = read_iprp(m, &child, m->meta);
        else if (memcmp(type, "idat", 4) == 0) m->idat = (hbox_span){(size_t)(child.at - m->meta), child.left};
    }
    if (failed || r.failed) { *reason = "damaged meta box"; return -1; }
    if (!hbox_find_item(m, m->primary)) { *reason = "no primary item"; return -1; }
    return 0;
}

void hbox_free(hbox_meta *m) {
    for (int i = 0; i < m->item_count; i++) {
        free(m->items[i].extents);
        free(m->items[i].properties);
    }
    for (int i = 0; i < m->reference_count; i++) free(m->references[i].to);
    free(m->items);
    free(m->references);
    free(m->property_boxes);
    free(m->meta);
    memset(m, 0, sizeof(*m));
}

const hbox_item *hbox_find_item(const hbox_meta *m, uint32_t id) {
    for (int i = 0; i < m->item_count; i++) if (m->items[i].id == id) return &m->items[i];
    return NULL;
}

const hbox_reference *hbox_find_reference(const hbox_meta *m, uint32_t from, const char type[4]) {
    for (int i = 0; i < m->reference_count; i++) {
        if (m->references[i].from == from && memcmp(m->references[i].type, type, 4) == 0) return &m->references[i];
    }
    return NULL;
}

const hbox_reference *hbox_find_reference_to(const hbox_meta *m, uint32_t to, const char type[4]) {
    for (int i = 0; i < m->reference_count; i++) {
        if (memcmp(m->references[i].type, type, 4) != 0) continue;
        for (int j = 0; j < m->references[i].count; j++) if (m->references[i].to[j] == to) return &m->references[i];
    }
    return NULL;
}

const uint8_t *hbox_property(const hbox_meta *m, int index, size_t *length, char type[4]) {
    if (index < 1 || index > m->property_count) return NULL;
    hbox_span span = m->property_boxes[index - 1];
    memcpy(type, m->meta + span.offset + 4, 4);
    *length = span.length;
    return m->meta + span.offset;
}

const uint8_t *hbox_item_property(const hbox_meta *m, const hbox_item *item, const char type[4], size_t *length) {
    for (int i = 0; i < item->property_count; i++) {
        char found[4];
        size_t box_length = 0;
        const uint8_t *box = hbox_property(m, item->properties[i], &box_length, found);
        if (box && memcmp(found, type, 4) == 0 && box_length >= 8) {
            *length = box_length - 8;
            return box + 8;
        }
    }
    return NULL;
}

int hbox_item_data(const hbox_meta *m, int fd, const hbox_item *item, uint8_t **buffer, size_t *length) {
    if (item->construction_method != 0 && item->construction_method != 1) return -1;
    uint64_t total = 0;
    for (int e = 0; e < item->extent_count; e++) {
        total += item->extents[e].length;
        if (item->extents[e].length == 0 || total > (1u << 30)) return -1;   // 0 means "to the end": not in camera files
    }
    uint8_t *data = malloc((size_t)total + 1);
    if (!data) return -1;
    size_t done = 0;
    for (int e = 0; e < item->extent_count; e++) {
        hbox_extent extent = item->extents[e];
        if (item->construction_method == 1) {
            if (extent.offset > m->idat.length || extent.length > m->idat.length - extent.offset) { free(data); return -1; }
            memcpy(data + done, m->meta + m->idat.offset + extent.offset, (size_t)extent.length);
        } else if (read_full(fd, data + done, (size_t)extent.length, extent.offset) != 0) {
            free(data);
            return -1;
        }
        done += (size_t)extent.length;
    }
    *buffer = data;
    *length = done;
    return 0;
}

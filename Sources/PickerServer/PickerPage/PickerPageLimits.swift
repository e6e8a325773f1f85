/// What the picker page must stay within, served in `GET api/session` so that the page asks
/// exactly what the server takes: the thumbnails' quality, and the bounds of one thumbnail batch
/// (``ThumbnailBatch``) and of one prefetch (``PrefetchLimits``), past which the server refuses.
struct PickerPageLimits: Encodable {
    /// Ids and the largest side of one request; for prefetch also ids x w x h.
    struct Bounds: Encodable {
        let ids: Int
        let side: Int
        let pixels: Int?
    }

    let thumbnailQuality = PickerThumbnails.quality
    let batch = Bounds(ids: ThumbnailBatch.maximumIDs, side: ThumbnailBatch.maximumSide, pixels: nil)
    let prefetch = Bounds(ids: PrefetchLimits.maximumIDs, side: PrefetchLimits.maximumSide, pixels: PrefetchLimits.maximumPixels)
}

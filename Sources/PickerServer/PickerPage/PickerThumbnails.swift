/// The picker page's thumbnails: what the page asks for one by one, the thumbnail batch answers
/// and prefetch renders are one rendition only while they agree on these. The page reads them
/// from `GET api/session` (``PickerPageLimits``), never from a copy of its own.
enum PickerThumbnails {
    /// The JPEG quality of every thumbnail the page shows.
    static let quality = 80
}

import AssetsKit

/// Where rendered images are kept between requests.
public protocol ImageCaching: Sendable {
    /// The image stored for `key`, if any.
    func image(for key: RenditionKey) -> ImageResult?
    /// Keeps `image` for `key` (a cache may decline, e.g. when it is larger than its budget).
    func store(_ image: ImageResult, for key: RenditionKey)
    /// Forgets everything.
    func removeAll()
}

import AssetsKit
import Foundation
import ImagePipeline
import Synchronization
import Testing
import TestSupport

/// Originals kept in another folder, brought to their local place by copying: the
/// `OriginalFetching` seam as a bucket store adopts it, without the network.
final class CopyingFetcher: OriginalFetching {
    let remote: URL
    private let log = Mutex<(fetches: Int, progress: [TransferProgress])>((0, []))
    var fetches: Int { log.withLock { $0.fetches } }
    var progress: [TransferProgress] { log.withLock { $0.progress } }

    init(remote: URL) { self.remote = remote }

    func isLocal(_ location: OriginalLocation) -> Bool {
        (try? location.open()) != nil
    }

    func fetch(_ location: OriginalLocation, progress: (@Sendable (TransferProgress) -> Void)?) async throws {
        log.withLock { $0.fetches += 1 }
        let source = remote.appendingPathComponent(location.relativePath)
        let target = location.root.appendingPathComponent(location.relativePath)
        let bytes = try Data(contentsOf: source)
        for received in [Int64(bytes.count / 2), Int64(bytes.count)] {
            let step = TransferProgress(received: received, total: location.byteSize)
            log.withLock { $0.progress.append(step) }
            progress?(step)
        }
        try bytes.write(to: target)
        let seconds = location.modificationTime / 1_000_000_000, nanoseconds = location.modificationTime % 1_000_000_000
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)), timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))]
        guard utimensat(AT_FDCWD, target.path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A copy is written whole at once: there is never a part to read while it comes.
    func arrivingFile(_ location: OriginalLocation) -> ArrivingFile? { nil }
}

@Suite("Originals kept elsewhere: fetched for a render only when the request allows network access")
struct RemoteOriginalTests {
    static let photo = "A_camera_exif/goexif__sample1.jpg" // 500x375

    /// A source whose original is in `remote` and not yet in `local`, fetched by `fetcher`.
    func remoteSource(fetcher: CopyingFetcher, local: URL, preview: URL? = nil) async throws -> ImageSourceFile {
        let remoteFile = fetcher.remote.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(at: Corpus.file(Self.photo), to: remoteFile)
        var source = try await TestSources.source(at: remoteFile, key: "remote-photo")
        source.original = OriginalLocation(root: local, relativePath: "photo.jpg", byteSize: source.original.byteSize,
                                           modificationTime: source.original.modificationTime)
        source.fetcher = fetcher
        source.previewURL = preview
        return source
    }

    func folders() throws -> (remote: URL, local: URL) {
        let top = TestSources.temporaryDirectory()
        let remote = top.appendingPathComponent("remote"), local = top.appendingPathComponent("local")
        for folder in [remote, local] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        return (remote, local)
    }

    @Test("without network access: the preview as the degraded image, then networkAccessRequired; nothing fetched")
    func noNetworkAccess() async throws {
        let (remote, local) = try folders()
        defer { try? FileManager.default.removeItem(at: remote.deletingLastPathComponent()) }
        let fetcher = CopyingFetcher(remote: remote)
        let preview = local.deletingLastPathComponent().appendingPathComponent("preview.jpg")
        try FileManager.default.copyItem(at: Corpus.file("B_orientation/goexif__f1-exif.jpg"), to: preview)
        let source = try await remoteSource(fetcher: fetcher, local: local, preview: preview)
        #expect(!source.isLocal)

        var delivered: [ImageResult] = []
        var failure: (any Error)?
        do {
            for try await image in CachingImageManager().image(for: source, request: ImageRequest(targetSize: PixelSize(width: 256, height: 256))) {
                delivered.append(image)
            }
        } catch { failure = error }
        #expect(delivered.map(\.isDegraded) == [true] && delivered.first?.source == .preview)
        #expect(failure as? LibraryError == .networkAccessRequired(file: "photo.jpg"))
        #expect(fetcher.fetches == 0)
        #expect(!FileManager.default.fileExists(atPath: local.appendingPathComponent("photo.jpg").path))
    }

    @Test("with network access: fetched once, with progress, then rendered at the size asked; later renders read the local copy")
    func networkAccessAllowed() async throws {
        let (remote, local) = try folders()
        defer { try? FileManager.default.removeItem(at: remote.deletingLastPathComponent()) }
        let fetcher = CopyingFetcher(remote: remote)
        let source = try await remoteSource(fetcher: fetcher, local: local)
        let manager = CachingImageManager()
        let request = ImageRequest(targetSize: PixelSize(width: 200, height: 200), contentMode: .fill, deliveryMode: .highQualityFormat,
                                   isNetworkAccessAllowed: true)
        let image = try #require(try await manager.image(for: source, request: request).first { _ in true })
        #expect(image.pixelSize == PixelSize(width: 200, height: 200))
        #expect(fetcher.fetches == 1)
        #expect(fetcher.progress.last == TransferProgress(received: source.byteSize, total: source.byteSize))
        #expect(source.isLocal)

        var larger = request
        larger.targetSize = PixelSize(width: 400, height: 300)
        larger.contentMode = .fit
        let second = try #require(try await manager.image(for: source, request: larger).first { _ in true })
        #expect(second.pixelSize == PixelSize(width: 400, height: 300))
        #expect(fetcher.fetches == 1, "the local copy is read")
    }
}

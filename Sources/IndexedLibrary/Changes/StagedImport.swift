import AssetsKit
import Foundation
import LibraryTree
import MediaProbing
import Synchronization

/// An import request's copy, staged by the library's ``OriginalsStore`` (flushed, out of any
/// listing), waiting for the transaction that gives it its row. ``publish()`` gives it its place
/// in `Imports/YYYY/MM/` inside that transaction, so a concurrent scan never adopts a copy whose
/// row is not written yet (the scan's own write waits for the transaction, then finds the path
/// taken); if the transaction does not commit, ``remove()`` takes the copy away again.
package final class StagedImport: Sendable {
    package let store: any OriginalsStore
    package let temporary: URL
    package let name: String
    /// `Imports/YYYY/MM`, relative to the library root.
    package let relativeFolder: String
    package let metadata: MediaMetadata
    package let fingerprint: String
    private let published = Mutex<String?>(nil)

    init(store: any OriginalsStore, temporary: URL, name: String, relativeFolder: String, metadata: MediaMetadata, fingerprint: String) {
        self.store = store
        self.temporary = temporary
        self.name = name
        self.relativeFolder = relativeFolder
        self.metadata = metadata
        self.fingerprint = fingerprint
    }

    /// Gives the copy the first free name in its month folder (never replacing a file).
    package func publish() throws -> StoredOriginal {
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        let names = (1...10_000).lazy.map { $0 == 1 ? self.name : "\(stem) \($0)\(ext.isEmpty ? "" : "." + ext)" }
        let original = try store.publish(temporary, in: relativeFolder, candidates: names)
        published.withLock { $0 = original.path }
        return original
    }

    /// Removes the copy, wherever it is now.
    package func remove() {
        store.discard(temporary)
        if let path = published.withLock({ $0 }) { store.remove(at: path) }
    }
}

/// Copies import requests' files into `Imports/YYYY/MM/` of the library's ``OriginalsStore``
/// (the month the photo was taken, else the present), crash-safely: the store stages the bytes
/// out of any listing, flushed; in the transaction they take the first free name (`IMG.JPG`,
/// `IMG 2.JPG`, ...) without ever replacing a file. The source file is only read.
struct ImportStager: Sendable {
    let store: any OriginalsStore
    let reader: any MediaMetadataReading
    let now: Date

    /// The folder imports are copied into.
    static let folderName = "Imports"

    /// Copies an import request's file; `nil` for other requests.
    /// - Throws: ``LibraryError/invalidChange(_:)`` naming the file when it is not a readable
    ///   photo or video, or cannot be copied.
    func stage(_ request: ChangeRequest) async throws -> StagedImport? {
        switch request {
        case .importFile(let source, _):
            let type = try Self.mediaType(of: source.lastPathComponent, describing: source.path)
            let metadata = try await read(source, as: type, describing: source.path)
            let temporary = try store.stage(copying: source, named: source.lastPathComponent)
            return try staged(temporary, named: source.lastPathComponent, metadata: metadata)
        case .importData(let data, let filename, _):
            let name = try Self.validName(filename)
            let type = try Self.mediaType(of: name, describing: filename)
            let temporary = try store.stage(data, named: name)
            do {
                let metadata = try await read(temporary, as: type, describing: "the bytes given as \(filename)")
                return try staged(temporary, named: name, metadata: metadata)
            } catch {
                store.discard(temporary)
                throw error
            }
        default:
            return nil
        }
    }

    private func read(_ url: URL, as type: MediaType, describing name: String) async throws -> MediaMetadata {
        do {
            return try await reader.read(url, as: type)
        } catch {
            throw LibraryError.invalidChange("cannot import \(name): not a readable \(type == .video ? "video" : "photo"): \(error)")
        }
    }

    private func staged(_ temporary: URL, named name: String, metadata: MediaMetadata) throws -> StagedImport {
        let month = Self.monthFolder(of: metadata.creationDate ?? now, offset: metadata.creationDate == nil ? nil : metadata.timeZoneOffset)
        do {
            let size = Int64((try FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? NSNumber)?.int64Value ?? 0)
            return StagedImport(store: store, temporary: temporary, name: name, relativeFolder: Self.folderName + "/" + month,
                                metadata: metadata, fingerprint: try FileFingerprint.of(temporary, byteSize: size))
        } catch {
            store.discard(temporary)
            throw error
        }
    }

    /// `YYYY/MM` of `date` in the camera's recorded offset, else in the local time zone.
    static func monthFolder(of date: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = offset.flatMap(TimeZone.init(secondsFromGMT:)) ?? .current
        let parts = calendar.dateComponents([.year, .month], from: date)
        return String(format: "%04d/%02d", parts.year ?? 1970, parts.month ?? 1)
    }

    private static func mediaType(of name: String, describing description: String) throws -> MediaType {
        guard let type = MediaFileType.mediaType(ofFileNamed: name) else {
            throw LibraryError.invalidChange("cannot import \(description): not a photo or video file name")
        }
        return type
    }

    /// A plain file name: no folders, not hidden, not empty.
    private static func validName(_ filename: String) throws -> String {
        guard !filename.isEmpty, !filename.contains("/"), !filename.hasPrefix("."), filename.utf8.count <= 200 else {
            throw LibraryError.invalidChange("cannot import bytes as \"\(filename)\": the name must be a plain, visible file name")
        }
        return filename
    }
}

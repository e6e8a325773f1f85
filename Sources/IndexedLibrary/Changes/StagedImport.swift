import AssetsKit
import Foundation
import LibraryFolders
import MediaProbing
import Synchronization

/// An import request's copy, flushed to disk under a hidden temporary name, waiting for the
/// transaction that gives it its row. ``publish(root:)`` gives it its place in
/// `Imports/YYYY/MM/` inside that transaction, so a concurrent scan never adopts a copy whose
/// row is not written yet (the scan's own write waits for the transaction, then finds the path
/// taken); if the transaction does not commit, ``remove()`` takes the file away again.
final class StagedImport: Sendable {
    let temporary: URL
    let name: String
    /// `Imports/YYYY/MM`, relative to the library root.
    let relativeFolder: String
    let metadata: MediaMetadata
    let fingerprint: String
    private let published = Mutex<URL?>(nil)

    init(temporary: URL, name: String, relativeFolder: String, metadata: MediaMetadata, fingerprint: String) {
        self.temporary = temporary
        self.name = name
        self.relativeFolder = relativeFolder
        self.metadata = metadata
        self.fingerprint = fingerprint
    }

    /// Gives the copy the first free name in its month folder (never replacing a file).
    func publish(root: URL) throws -> FileEntry {
        let folder = root.appendingPathComponent(relativeFolder, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw LibraryError.invalidChange("cannot create \(folder.path) for imports: \(error.localizedDescription)")
        }
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        let names = (1...10_000).lazy.map { $0 == 1 ? self.name : "\(stem) \($0)\(ext.isEmpty ? "" : "." + ext)" }
        let taken = try DurableFile.publish(temporary, in: folder, names: names)
        published.withLock { $0 = folder.appendingPathComponent(taken) }
        guard let file = FileEntry.current(at: relativeFolder + "/" + taken, root: root) else {
            throw LibraryError.invalidChange("the imported copy \(relativeFolder)/\(taken) vanished")
        }
        return file
    }

    /// Removes the copy, wherever it is now.
    func remove() {
        unlink(temporary.path)
        if let url = published.withLock({ $0 }) { unlink(url.path) }
    }
}

/// Copies import requests' files into `<root>/Imports/YYYY/MM/` (the month the photo was
/// taken, else the present), crash-safely: the bytes go to a hidden temporary file in
/// `Imports/` (hidden files are no part of the library), are flushed to disk, then take the
/// first free name (`IMG.JPG`, `IMG 2.JPG`, ...) without ever replacing a file. The source
/// file is only read.
struct ImportStager: Sendable {
    let root: URL
    let reader: any MediaMetadataReading
    let now: Date

    /// The folder imports are copied into.
    static let folderName = "Imports"
    /// How the hidden names of copies waiting for their transaction begin.
    static let stagingPrefix = ".import-"

    /// Copies an import request's file; `nil` for other requests.
    /// - Throws: ``LibraryError/invalidChange(_:)`` naming the file when it is not a readable
    ///   photo or video, or cannot be copied.
    func stage(_ request: ChangeRequest) async throws -> StagedImport? {
        switch request {
        case .importFile(let source, _):
            let type = try Self.mediaType(of: source.lastPathComponent, describing: source.path)
            let metadata = try await read(source, as: type, describing: source.path)
            let temporary = try temporaryURL(for: source.lastPathComponent)
            try DurableFile.copy(source, to: temporary)
            return try staged(temporary, named: source.lastPathComponent, metadata: metadata)
        case .importData(let data, let filename, _):
            let name = try Self.validName(filename)
            let type = try Self.mediaType(of: name, describing: filename)
            let temporary = try temporaryURL(for: name)
            try DurableFile.store(data, at: temporary)
            do {
                let metadata = try await read(temporary, as: type, describing: "the bytes given as \(filename)")
                return try staged(temporary, named: name, metadata: metadata)
            } catch {
                unlink(temporary.path)
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

    private func temporaryURL(for name: String) throws -> URL {
        let folder = root.appendingPathComponent(Self.folderName, isDirectory: true)
        try createFolder(folder)
        let ext = (name as NSString).pathExtension
        return folder.appendingPathComponent("\(Self.stagingPrefix)\(UUID().uuidString)\(ext.isEmpty ? "" : "." + ext)")
    }

    private func staged(_ temporary: URL, named name: String, metadata: MediaMetadata) throws -> StagedImport {
        let month = Self.monthFolder(of: metadata.creationDate ?? now, offset: metadata.creationDate == nil ? nil : metadata.timeZoneOffset)
        do {
            let size = Int64((try FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? NSNumber)?.int64Value ?? 0)
            return StagedImport(temporary: temporary, name: name, relativeFolder: Self.folderName + "/" + month,
                                metadata: metadata, fingerprint: try FileFingerprint.of(temporary, byteSize: size))
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    private func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw LibraryError.invalidChange("cannot create \(folder.path) for imports: \(error.localizedDescription)")
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

import AssetsKit
import Foundation
import ImagePipeline
import LibraryTree
import MediaProbing

/// Originals kept as files in the library folder: an indexed library's store today.
///
/// Adopted originals stay where they are; imports are staged as hidden files in `Imports/`
/// (hidden files are no part of the library), flushed to disk, then given their name with a
/// hard link that never replaces a file.
package struct LocalOriginalsStore: OriginalsStore {
    /// The library folder.
    package let root: URL
    package let isWritable: Bool

    /// The folder staged imports are written into, relative to the root.
    static let stagingFolder = "Imports"
    /// How the hidden names of staged imports begin.
    static let stagingPrefix = ".import-"

    /// The originals in the folder `root`; writable when this process may write it and its mode
    /// lets anyone write it (`FolderAccess.isWritable`: root too respects `chmod a-w`).
    package init(root: URL) {
        self.root = root.standardizedFileURL
        isWritable = FolderAccess.isWritable(self.root)
    }

    package func probeAccess() async -> (status: AuthorizationStatus, reason: String?) {
        FolderAccess.finding(root)
    }

    package func original(at path: String, byteSize: Int64, modificationTime: Int64) async throws -> OriginalLocation {
        OriginalLocation(root: root, relativePath: path, byteSize: byteSize, modificationTime: modificationTime)
    }

    package func stage(copying source: URL, named name: String) throws -> URL {
        let staged = try stagingURL(for: name)
        try DurableFile.copy(source, to: staged)
        return staged
    }

    package func stage(_ data: Data, named name: String) throws -> URL {
        let staged = try stagingURL(for: name)
        try DurableFile.store(data, at: staged)
        return staged
    }

    package func publish(_ staged: URL, in folder: String, candidates: some Sequence<String>) throws -> StoredOriginal {
        let folderURL = root.appendingPathComponent(folder, isDirectory: true)
        try createFolder(folderURL)
        let taken = try DurableFile.publish(staged, in: folderURL, names: candidates)
        guard let file = FileEntry.current(at: folder + "/" + taken, root: root) else {
            throw LibraryError.invalidChange("the imported copy \(folder)/\(taken) vanished")
        }
        return file.stored
    }

    package func discard(_ staged: URL) {
        unlink(staged.path)
    }

    package func remove(at path: String) {
        unlink(url(of: path).path)
    }

    // MARK: What a scan walks and reads

    package func walk() throws -> any ListingWalk {
        FolderListingWalk(folders: try FolderEnumerator(root: root).directories())
    }

    package func fingerprint(of file: FileEntry) async throws -> String {
        try await BlockingWork.run(.brief) { try FileFingerprint.of(file.url, byteSize: file.byteSize) }
    }

    package func metadata(of file: FileEntry, reader: any MediaMetadataReading) async throws -> MediaMetadata {
        try await reader.read(file.url, as: file.mediaType)
    }

    package func holdsFileNow(at path: String) -> Bool {
        FileEntry.current(at: path, root: root) != nil
    }

    package func removeLeftovers() {
        StagingLeftovers.remove(under: root)
    }

    private func url(of path: String) -> URL {
        URL(fileURLWithPath: root.path + "/" + path, isDirectory: false)
    }

    private func stagingURL(for name: String) throws -> URL {
        let folder = root.appendingPathComponent(Self.stagingFolder, isDirectory: true)
        try createFolder(folder)
        let ext = (name as NSString).pathExtension
        return folder.appendingPathComponent("\(Self.stagingPrefix)\(UUID().uuidString)\(ext.isEmpty ? "" : "." + ext)")
    }

    private func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw LibraryError.invalidChange("cannot create \(folder.path) for imports: \(error.localizedDescription)")
        }
    }
}

extension FileEntry {
    /// The file as an original of the library folder.
    package var stored: StoredOriginal {
        StoredOriginal(path: relativePath, byteSize: byteSize, modificationDate: modificationDate, modificationTime: modificationTime)
    }
}

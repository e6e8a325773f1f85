import AssetsKit
import Foundation
import LibraryTree
@testable import IndexedLibrary

/// A scanned library of four files (`2019/sony.jpg`, `2019/sample.jpg`, `2020/olympus.jpg`,
/// `2020/clip.mp4`) for change-request tests; ``remove()`` deletes it.
struct ChangeFixture {
    let tree: TemporaryTree
    let library: IndexedLibrary

    init(_ engine: IndexEngine = .sqlite, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        tree = try RescanTests.makeTree(engine: engine)
        library = try await tree.openLibrary(now: now)
        try await library.scan()
    }

    /// The asset of the file named `filename` (Recently Deleted included).
    func asset(_ filename: String) async throws -> Asset {
        let rows = try await library.index.records(uuids: [AssetUUID.forFile(atRelativePath: RescanTests.path(of: filename))])
        guard let record = rows.values.first else { throw LibraryError.assetNotFound(filename) }
        return record.asset
    }

    func count(_ smart: SmartAlbum, _ filter: MediaFilter = .all) async throws -> Int {
        try await library.assetCount(in: smart.collectionIdentifier, filter: filter)
    }

    func filenames(in collection: CollectionIdentifier, options: FetchOptions = FetchOptions()) async throws -> [String] {
        try await collect(library.assets(in: collection, options: options)).map(\.filename)
    }

    /// The latest change token in the index.
    func token() async throws -> ChangeToken {
        ChangeToken(Int64(try await library.integer("SELECT MAX(token) FROM change") ?? 0))
    }

    /// Every regular file under the root, by relative path.
    func files() throws -> Set<String> {
        var paths: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: tree.root.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: tree.url(path).path, isDirectory: &isFolder),
               !isFolder.boolValue {
                paths.insert(path)
            }
        }
        return paths
    }

    func remove() {
        tree.remove()
    }
}

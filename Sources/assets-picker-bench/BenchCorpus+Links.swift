import Foundation

extension BenchCorpus {
    /// A folder of `count` photos named `IMG_0001.jpg`… that are hard links to the corpus'
    /// photos in turn: a library of `count` files that costs no disk space. Whoever exports
    /// it still opens and decodes every file; only the page cache holds fewer distinct bytes.
    ///
    /// Made again on every call, so the links always point at the corpus as it is now.
    func linkedFolder(count: Int, at folder: URL) throws -> URL {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            let link = folder.appendingPathComponent(String(format: "IMG_%04d.jpg", index + 1))
            try FileManager.default.linkItem(at: photos[index % photos.count].url, to: link)
        }
        return folder
    }
}

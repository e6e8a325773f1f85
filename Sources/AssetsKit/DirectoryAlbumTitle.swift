extension AssetCollection {
    /// The title of a directory album: the folder's name, like `100CAMERA`; for a folder named
    /// only with digits (a year, month or day of a dated tree such as `Imports/2026/11`) its path
    /// from the nearest folder with a name, `Imports / 2026 / 11`, since `11` alone says nothing;
    /// for the library's top folder, the library's name.
    /// - Parameters:
    ///   - relativePath: The folder's path inside the library, `/`-separated; empty for the top folder.
    ///   - libraryName: The name of the library's top folder.
    public static func directoryTitle(relativePath: String, libraryName: String) -> String {
        // Read as bytes: a path is split at its `/` bytes, and a library's album list makes a title
        // for each of its thousands of folders.
        let components = relativePath.utf8.split(separator: UInt8(ascii: "/"))
        guard var start = components.indices.last else { return libraryName }
        while start > components.startIndex, components[start].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            start -= 1
        }
        if start == components.indices.last { return String(Substring(components[start])) }
        return components[start...].map { String(Substring($0)) }.joined(separator: " / ")
    }
}

extension AssetCollection {
    /// The title of a directory album: the folder's name, like `100CAMERA`; for a folder named
    /// only with digits (a year, month or day of a dated tree such as `Imports/2026/11`) its path
    /// from the nearest folder with a name, `Imports / 2026 / 11`, since `11` alone says nothing;
    /// for the library's top folder, the library's name.
    /// - Parameters:
    ///   - relativePath: The folder's path inside the library, `/`-separated; empty for the top folder.
    ///   - libraryName: The name of the library's top folder.
    public static func directoryTitle(relativePath: String, libraryName: String) -> String {
        let components = relativePath.split(separator: "/")
        guard var start = components.indices.last else { return libraryName }
        while start > components.startIndex, components[start].allSatisfy(\.isASCIIDigit) { start -= 1 }
        return components[start...].joined(separator: " / ")
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Which backend opens a library folder.
public enum LibraryBackend: String, Sendable, CaseIterable {
    /// The indexed library when its index exists or can be created, else the folder library.
    case auto
    /// The SQLite-indexed library (the PhotoKit role); its index is created when missing.
    case indexed
    /// The live folder enumeration (the AssetsLibrary role); never writes anything.
    case folder
}

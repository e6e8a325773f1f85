/// Which backend opens a library folder.
public enum LibraryBackend: String, Sendable, CaseIterable {
    /// The indexed library when the library has an index (or, for an opening that may create
    /// one, when one can be made in its place), else the folder library.
    case auto
    /// The SQLite-indexed library (the PhotoKit role); its index is created when missing.
    case indexed
    /// The live folder enumeration (the AssetsLibrary role); never writes anything.
    case folder
}

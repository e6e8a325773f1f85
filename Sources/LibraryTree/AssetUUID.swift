import Foundation

/// The stable UUID of a file in a folder library: a version-5 (name-based) UUID of its path
/// relative to the library root.
///
/// Nothing is stored next to the files (the tree may be read-only), yet every run and every
/// process gives a file the same identifier. An indexed library adopting the folder keeps
/// these UUIDs, so legacy URLs handed out here resolve there too.
public enum AssetUUID {
    /// The namespace of folder-library asset names.
    static let assetNamespace = UUID(uuidString: "2A1C6F9E-6C7B-4B0E-9F4D-5E8A3C1B7D20")!
    /// The namespace of folder-library directory (group) names.
    static let groupNamespace = UUID(uuidString: "7E3B9C41-0D2A-4F6E-8B15-C94A2F60E8D3")!

    /// The UUID of the file at `relativePath` (components joined with `/`, no leading slash).
    public static func forFile(atRelativePath relativePath: String) -> UUID {
        nameBased(relativePath, in: assetNamespace)
    }

    /// The UUID of the directory at `relativePath` (empty for the root).
    package static func forDirectory(atRelativePath relativePath: String) -> UUID {
        nameBased(relativePath, in: groupNamespace)
    }

    private static func nameBased(_ name: String, in namespace: UUID) -> UUID {
        var message: [UInt8] = []
        message.reserveCapacity(16 + name.utf8.count)
        withUnsafeBytes(of: namespace.uuid) { message.append(contentsOf: $0) }
        message.append(contentsOf: name.utf8)
        var digest = SHA1.hash(message)
        digest[6] = (digest[6] & 0x0F) | 0x50
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
                           digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
    }
}

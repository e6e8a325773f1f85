import LibraryTree

extension CollectionID {
    /// All Photos or a folder of the tree, named in either backend's words: an album id the
    /// folder library handed out before the library was indexed names the same album here.
    init(_ tree: TreeCollection) {
        switch tree {
        case .allPhotos: self = .smart(.all)
        case .directory(let uuid): self = .directory(uuid)
        }
    }
}

/// A folder's identity on its file system (device, inode): the same for every path that reaches
/// it, so a walk that meets one twice has followed a link into a loop.
package struct DirectoryIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

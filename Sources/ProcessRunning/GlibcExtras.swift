import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The glibc functions Swift's Glibc module does not declare (the `_GNU_SOURCE` ones), found
/// at run time; `nil` where this glibc or kernel has none.
enum GlibcExtras {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32

    static let pipe2: Pipe2? = symbol("pipe2")
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let pidfdOpen: PidfdOpen? = symbol("pidfd_open")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

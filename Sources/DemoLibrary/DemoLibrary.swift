import AssetsKit
import Foundation

/// The built-in demo library: a few dozen generated photographs and two short videos in a
/// few folders, made on first use in the user's data folder. Nothing is downloaded.
public enum DemoLibrary {
    /// Bumped when the content changes, so an older demo library is made again.
    static let version = "2"
    static let markerName = ".demo-library-complete"

    /// `$ASSETS_PICKER_DEMO_LIBRARY`, else `$XDG_DATA_HOME/assets-picker/demo-library`, else
    /// `~/.local/share/assets-picker/demo-library`.
    public static var defaultLocation: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["ASSETS_PICKER_DEMO_LIBRARY"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return UserFolders.data(environment: environment).appendingPathComponent("demo-library", isDirectory: true)
    }

    /// The demo library's folder, made first if it is missing or out of date. The library is
    /// built in a temporary folder and moved into place whole, so an interrupted run never
    /// leaves half a library behind.
    public static func prepare(at location: URL = defaultLocation) async throws -> URL {
        let marker = location.appendingPathComponent(markerName)
        if (try? String(contentsOf: marker, encoding: .utf8)) == version { return location }
        let fm = FileManager.default
        let parent = location.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(location.lastPathComponent)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        try await DemoContent.write(into: staging)
        try version.write(to: staging.appendingPathComponent(markerName), atomically: true, encoding: .utf8)
        if fm.fileExists(atPath: location.path) {
            if (try? String(contentsOf: marker, encoding: .utf8)) == version { return location } // made meanwhile
            try fm.removeItem(at: location)
        }
        do {
            try fm.moveItem(at: staging, to: location)
        } catch where (try? String(contentsOf: marker, encoding: .utf8)) == version {
            // Another process finished first: use its library.
        }
        return location
    }
}

import Foundation

/// Where AssetsPicker keeps what belongs to the person rather than to a library folder, as the
/// XDG base-directory rules say: data (indexes, the demo library) and caches (renditions).
package enum UserFolders {
    /// `$XDG_DATA_HOME/assets-picker`, else `~/.local/share/assets-picker`.
    package static func data(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_DATA_HOME", else: ".local/share", environment: environment)
    }

    /// `$XDG_CACHE_HOME/assets-picker`, else `~/.cache/assets-picker`.
    package static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_CACHE_HOME", else: ".cache", environment: environment)
    }

    /// An empty variable counts as unset, as the rules say.
    private static func folder(_ variable: String, else home: String, environment: [String: String]) -> URL {
        let base = environment[variable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(home, isDirectory: true)
        return base.appendingPathComponent("assets-picker", isDirectory: true)
    }
}

import Foundation
import ProcessRunning

/// exiftool (Debian's libimage-exiftool-perl), a metadata reader and writer that is not ours:
/// tests make hostile files with it and read what a file carries with it.
public enum ExifTool {
    /// The command, with the hint shown when it is missing.
    public static let tool = ExternalTool("exiftool", installHint: "run scripts/install-dependencies.sh (apt-get install libimage-exiftool-perl)")

    /// Runs exiftool with `arguments` and returns its standard output.
    /// - Throws: When exiftool is missing or exits with an error (its message included).
    @discardableResult
    public static func run(_ arguments: [String]) async throws -> Data {
        let output = try await ToolRunner.fixture(tool, arguments: arguments)
        guard output.succeeded else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "exiftool \(arguments.joined(separator: " ")): \(output.standardError)"])
        }
        return output.standardOutput
    }

    /// Every tag exiftool finds in `file`, duplicates, unknown tags and embedded documents
    /// included (`-j -a -u -ee -G1`), as `Group:Tag` to the value's text.
    public static func tags(of file: URL) async throws -> [String: String] {
        let json = try await run(["-j", "-a", "-u", "-ee", "-G1", file.path])
        let objects = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        return (objects?.first ?? [:]).mapValues { "\($0)" }
    }
}

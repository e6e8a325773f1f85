import Foundation
import Logging
import Testing
import TestSupport
@testable import assets_picker

/// A file name with a newline or an escape sequence in it neither forges a line nor acts on
/// the terminal, in a command's output or in the server's log.
@Suite struct PrintableOutputTests {
    private static let hostileName = "IMG_1.jpg\n2026-11-26 INFO forged line \u{1B}[31mred\u{1B}]0;title\u{07}\u{202E}txt.jpg"

    @Test func aHostileFileNameIsShownEscapedByAssets() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("printable-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Corpus.file("A_camera_exif/pillow__flower.jpg"), to: folder.appendingPathComponent(Self.hostileName))
        let result = try await CLI.run(["assets", "--library", folder.path, "--backend", "folder"])
        #expect(result.status == 0, "\(result)")
        let text = result.stdoutText
        let lines = text.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(lines)")
        let controls: Set<UInt32> = [0x1B, 0x07, 0x202E]
        #expect(!text.unicodeScalars.contains { controls.contains($0.value) })
        #expect(text.contains(#"IMG_1.jpg\n2026-11-26 INFO forged line \u{1B}[31mred"#))
    }

    @Test func aLogLineKeepsItsMessageAndMetadataOnOneLine() {
        let lines = LoggedLines()
        var handler = PrintableLogHandler(base: lines)
        handler.logLevel = .info
        let logger = Logger(label: "test", factory: { _ in handler })
        logger.info("photo uploaded: \(Self.hostileName)", metadata: ["file": "\(Self.hostileName)", "list": [.string("\r\n")]])
        let line = lines.last
        #expect(!line.contains("\n") && !line.contains("\r"), "\(line)")
        let controls: Set<UInt32> = [0x1B, 0x202E]
        #expect(!line.unicodeScalars.contains { controls.contains($0.value) })
        #expect(line.contains(#"forged line \u{1B}[31mred"#))
        #expect(PrintableText.escaping("Plain name, ünïcode and 日本語.jpg") == "Plain name, ünïcode and 日本語.jpg")
    }
}

/// A log handler that keeps its last line, message and metadata as one text.
private final class LoggedLines: LogHandler, @unchecked Sendable {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    private(set) var last = ""

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        last = "\(event.message) \(event.metadata.map { "\($0)" } ?? "")"
    }
}

/// The progress bar starts empty at 0/N, is never full before anything is done, and is not
/// drawn at all for nothing to do.
@Suite struct TerminalProgressTests {
    @Test func theBarIsFilledInProportionAndEmptyWhenThereIsNothing() {
        #expect(TerminalProgress.line(label: "Exporting", done: 0, failed: 0, total: 35) == "Exporting " + String(repeating: "░", count: 30) + " 0/35")
        #expect(TerminalProgress.line(label: "Indexing", done: 0, failed: 0, total: 0) == "Indexing " + String(repeating: "░", count: 30) + " 0/0")
        #expect(TerminalProgress.line(label: "Exporting", done: 35, failed: 2, total: 35) == "Exporting " + String(repeating: "█", count: 30) + " 35/35, 2 failed")
        #expect(TerminalProgress.line(label: "Exporting", done: 7, failed: 0, total: 35).filter { $0 == "█" }.count == 6)
    }
}

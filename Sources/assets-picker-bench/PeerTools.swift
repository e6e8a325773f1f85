import Foundation
import ImagePipeline

/// The programs the benchmark compares against, run the way their users run them, on the
/// same files, each writing into its own output folder.
///
/// Every run is timed as wall time around the whole command. Loops that start one process per
/// file run inside one `sh`, so each file costs a fork and exec, not a Foundation launch.
struct PeerTools {
    /// Where the peers write their thumbnails (one folder per run, emptied before it).
    let outputDirectory: URL
    /// The thumbnail box, e.g. `256x256`.
    let box: String
    /// The JPEG quality of the thumbnails.
    let quality: Int

    /// The tools the benchmark needs on `PATH`.
    static let required = [
        ExternalTool("vipsthumbnail", installHint: Self.installHint), ExternalTool("vips", installHint: Self.installHint),
        ExternalTool("djpeg", installHint: Self.installHint), ExternalTool("convert", installHint: Self.installHint),
        ExternalTool("taskset", installHint: "install util-linux"),
    ]
    private static let installHint = "run scripts/install-dependencies.sh"
    private static let timeout: Duration = .seconds(1800)

    /// Fails early, with the install hint, when a tool is missing.
    static func checkInstalled() throws {
        for tool in required where tool.locate() == nil {
            throw ToolError.notFound(tool: tool.name, installHint: tool.installHint)
        }
    }

    /// The first line `arguments` print (on stdout or stderr), e.g. `vips-8.14.1`, without a
    /// leading `Version: `.
    static func version(_ arguments: [String]) async throws -> String {
        let output = try await ToolRunner.run(ExternalTool(arguments[0]), arguments: Array(arguments.dropFirst()))
        let text = String(decoding: output.standardOutput, as: UTF8.self) + output.standardError
        let line = text.split(separator: "\n").first.map(String.init) ?? "unknown"
        return line.hasPrefix("Version: ") ? String(line.dropFirst("Version: ".count)) : line
    }

    /// `vipsthumbnail` over all `files` in one process, centre-cropped to fill the box.
    ///
    /// - Parameters:
    ///   - concurrency: libvips' `VIPS_CONCURRENCY`; `nil` leaves libvips' default (one thread per core).
    ///   - cpu: The CPU to pin the process to with `taskset`; `nil` lets it use all.
    /// - Returns: Wall milliseconds.
    func vipsthumbnail(_ files: [URL], concurrency: Int?, cpu: Int?) async throws -> Double {
        let output = try emptyFolder("vipsthumbnail")
        let milliseconds = try await Stopwatch.time {
            try await run(vipsthumbnailArguments(files, into: output), concurrency: concurrency, cpu: cpu)
        }
        try expectOutputs(files.count, in: output)
        return milliseconds
    }

    /// `vipsthumbnail` in `processes` processes at once, each taking an equal share of the
    /// files, with libvips' default concurrency. Returns wall milliseconds for the lot.
    func vipsthumbnailSplit(_ files: [URL], processes: Int) async throws -> Double {
        let output = try emptyFolder("vipsthumbnail-split")
        let shares = (0..<processes).map { share in stride(from: share, to: files.count, by: processes).map { files[$0] } }
        let milliseconds = try await Stopwatch.time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for share in shares where !share.isEmpty {
                    group.addTask { try await run(vipsthumbnailArguments(share, into: output), concurrency: nil, cpu: nil) }
                }
                try await group.waitForAll()
            }
        }
        try expectOutputs(files.count, in: output)
        return milliseconds
    }

    /// One single-threaded `vipsthumbnail` process per file, one after the other, on `cpu`.
    func vipsthumbnailPerFile(_ files: [URL], cpu: Int) async throws -> Double {
        let output = try emptyFolder("vipsthumbnail-per-file")
        let script = #"out=$1; shift; for f do vipsthumbnail "$f" -s "$BOX" -m centre -o "$out/%s.jpg[Q=$QUALITY,strip]" || exit 1; done"#
        let milliseconds = try await timeLoop(script, output: output, files: files, concurrency: 1, cpu: cpu)
        try expectOutputs(files.count, in: output)
        return milliseconds
    }

    /// `djpeg -scale 1/8` per file, pixels thrown away: libjpeg-turbo's decode at the scale
    /// `fast` decodes at, plus a process start. The floor no JPEG thumbnailer gets under.
    func djpegEighthScale(_ files: [URL], cpu: Int) async throws -> Double {
        let script = #"shift; for f do djpeg -scale 1/8 -outfile /dev/null "$f" || exit 1; done"#
        return try await timeLoop(script, output: outputDirectory, files: files, concurrency: nil, cpu: cpu)
    }

    /// ImageMagick's `convert`, upright and centre-cropped to fill the box, per file, one thread, on `cpu`.
    func magick(_ files: [URL], cpu: Int) async throws -> Double {
        let output = try emptyFolder("magick")
        let script = #"out=$1; shift; for f do MAGICK_THREAD_LIMIT=1 convert "$f" -auto-orient -thumbnail "$BOX^" -gravity center -extent "$BOX" "$out/${f##*/}" || exit 1; done"#
        let milliseconds = try await timeLoop(script, output: output, files: files, concurrency: nil, cpu: cpu)
        try expectOutputs(files.count, in: output)
        return milliseconds
    }

    /// Starting `/bin/true` per file the same way: the process-start share of the per-file loops.
    func processStart(_ count: Int, cpu: Int) async throws -> Double {
        let script = #"shift; for f do /bin/true "$f"; done"#
        let files = Array(repeating: URL(fileURLWithPath: "/dev/null"), count: count)
        return try await timeLoop(script, output: outputDirectory, files: files, concurrency: nil, cpu: cpu)
    }

    // MARK: - Running

    private func vipsthumbnailArguments(_ files: [URL], into output: URL) -> [String] {
        ["vipsthumbnail"] + files.map(\.path) + ["-s", box, "-m", "centre", "-o", "\(output.path)/%s.jpg[Q=\(quality),strip]"]
    }

    private func timeLoop(_ script: String, output: URL, files: [URL], concurrency: Int?, cpu: Int) async throws -> Double {
        try await Stopwatch.time {
            try await run(["sh", "-c", script, "sh", output.path] + files.map(\.path), concurrency: concurrency, cpu: cpu)
        }
    }

    /// Runs `command` under `env` (for the variables) and `taskset` (when `cpu` is given).
    private func run(_ command: [String], concurrency: Int?, cpu: Int?) async throws {
        var arguments = ["BOX=\(box)", "QUALITY=\(quality)"]
        if let concurrency { arguments.append("VIPS_CONCURRENCY=\(concurrency)") }
        if let cpu { arguments += ["taskset", "-c", String(cpu)] }
        let output = try await ToolRunner.run(ExternalTool("env"), arguments: arguments + command, timeout: Self.timeout)
        guard output.succeeded else {
            throw PeerError.failed(command: command[0], status: output.terminationStatus, standardError: output.standardError)
        }
    }

    private func emptyFolder(_ name: String) throws -> URL {
        let folder = outputDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Checks that a run wrote one thumbnail per file, so a peer that skipped work is not
    /// timed as fast.
    private func expectOutputs(_ count: Int, in folder: URL) throws {
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).count
        guard written == count else { throw PeerError.missingOutputs(folder: folder.path, expected: count, found: written) }
    }
}

/// A peer that did not do its job.
enum PeerError: Error, CustomStringConvertible {
    case failed(command: String, status: Int32, standardError: String)
    case missingOutputs(folder: String, expected: Int, found: Int)

    var description: String {
        switch self {
        case let .failed(command, status, standardError):
            "\(command) exited with status \(status): \(standardError)"
        case let .missingOutputs(folder, expected, found):
            "expected \(expected) thumbnails in \(folder), found \(found)"
        }
    }
}

import Foundation
import ProcessRunning

/// The programs the benchmark compares against, run the way their users run them, on the
/// same files, each writing into its own output folder.
///
/// Every run is timed from starting the command to its exit, with the CPU time the kernel
/// counted for it and its children. Loops that start one
/// process per file run inside one `sh`, so each file costs a fork and an exec.
struct PeerTools {
    /// Where the peers write their thumbnails (one folder per run, emptied before it).
    let outputDirectory: URL
    /// The thumbnail box, e.g. `256x256`.
    let box: String
    /// The JPEG quality of the thumbnails.
    let quality: Int

    /// Peers writing into `outputDirectory` (created if missing).
    init(outputDirectory: URL, box: String, quality: Int) throws {
        self.outputDirectory = outputDirectory
        self.box = box
        self.quality = quality
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    }

    /// The tools the benchmark needs on `PATH`.
    static let required = [
        ExternalTool("vipsthumbnail", installHint: Self.installHint), ExternalTool("vips", installHint: Self.installHint),
        ExternalTool("djpeg", installHint: Self.installHint), ExternalTool("convert", installHint: Self.installHint),
        ExternalTool("taskset", installHint: "install util-linux"),
    ]
    private static let installHint = "run scripts/install-dependencies.sh"

    /// Fails early, with the install hint, when a tool is missing.
    static func checkInstalled() throws {
        for tool in required where tool.locate() == nil {
            throw ToolError.notFound(tool: tool.name, installHint: tool.installHint)
        }
    }

    /// The first line `arguments` print (on stdout or stderr), e.g. `vips-8.14.1`, without a
    /// leading `Version: `.
    func version(_ arguments: [String]) throws -> String {
        let text = try ChildProcess.output(of: arguments, log: outputDirectory.appendingPathComponent("version.log"))
        let line = text.split(separator: "\n").first.map(String.init) ?? "unknown"
        return line.hasPrefix("Version: ") ? String(line.dropFirst("Version: ".count)) : line
    }

    /// `vipsthumbnail` over all `files` in one process, centre-cropped to fill the box.
    ///
    /// - Parameters:
    ///   - concurrency: libvips' `VIPS_CONCURRENCY`; `nil` leaves libvips' default (one thread per core).
    ///   - cpu: The CPU to pin the process to with `taskset`; `nil` lets it use all.
    func vipsthumbnail(_ files: [URL], concurrency: Int?, cpu: Int?) throws -> Timing {
        let output = try emptyFolder("vipsthumbnail")
        let timing = try Stopwatch.time(reportingCPU: {
            try start(vipsthumbnailArguments(files, into: output), concurrency: concurrency, cpu: cpu).wait()
        })
        try expectOutputs(files.count, in: output)
        return timing
    }

    /// `vipsthumbnail` in `processes` processes at once, each taking an equal share of the
    /// files, with libvips' default concurrency; timed as a whole.
    func vipsthumbnailSplit(_ files: [URL], processes: Int) throws -> Timing {
        let output = try emptyFolder("vipsthumbnail-split")
        let shares = (0..<processes).map { share in stride(from: share, to: files.count, by: processes).map { files[$0] } }
        let timing = try Stopwatch.time(reportingCPU: {
            let started = try shares.enumerated().map { index, share in
                try start(vipsthumbnailArguments(share, into: output), concurrency: nil, cpu: nil, log: "split-\(index)")
            }
            return try started.reduce(0) { try $0 + $1.wait() }
        })
        try expectOutputs(files.count, in: output)
        return timing
    }

    /// One single-threaded `vipsthumbnail` process per file, one after the other, on `cpu`.
    func vipsthumbnailPerFile(_ files: [URL], cpu: Int) throws -> Timing {
        let output = try emptyFolder("vipsthumbnail-per-file")
        let script = #"out=$1; shift; for f do vipsthumbnail "$f" -s "$BOX" -m centre -o "$out/%s.jpg[Q=$QUALITY,strip]" || exit 1; done"#
        let timing = try timeLoop(script, output: output, files: files, concurrency: 1, cpu: cpu)
        try expectOutputs(files.count, in: output)
        return timing
    }

    /// `djpeg -scale 1/8` per file, pixels thrown away: libjpeg-turbo's decode at the scale
    /// `fast` decodes at, plus a process start. The floor no JPEG thumbnailer gets under.
    func djpegEighthScale(_ files: [URL], cpu: Int) throws -> Timing {
        let script = #"shift; for f do djpeg -scale 1/8 -outfile /dev/null "$f" || exit 1; done"#
        return try timeLoop(script, output: outputDirectory, files: files, concurrency: nil, cpu: cpu)
    }

    /// ImageMagick's `convert`, upright and centre-cropped to fill the box, per file, one thread, on `cpu`.
    func magick(_ files: [URL], cpu: Int) throws -> Timing {
        let output = try emptyFolder("magick")
        let script = #"out=$1; shift; for f do MAGICK_THREAD_LIMIT=1 convert "$f" -auto-orient -thumbnail "$BOX^" -gravity center -extent "$BOX" "$out/${f##*/}" || exit 1; done"#
        let timing = try timeLoop(script, output: output, files: files, concurrency: nil, cpu: cpu)
        try expectOutputs(files.count, in: output)
        return timing
    }

    /// Starting `/bin/true` per file the same way: the process-start share of the per-file loops.
    func processStart(_ count: Int, cpu: Int) throws -> Timing {
        let script = #"shift; for f do /bin/true "$f"; done"#
        let files = Array(repeating: URL(fileURLWithPath: "/dev/null"), count: count)
        return try timeLoop(script, output: outputDirectory, files: files, concurrency: nil, cpu: cpu)
    }

    // MARK: - Running

    private func vipsthumbnailArguments(_ files: [URL], into output: URL) -> [String] {
        ["vipsthumbnail"] + files.map(\.path) + ["-s", box, "-m", "centre", "-o", "\(output.path)/%s.jpg[Q=\(quality),strip]"]
    }

    private func timeLoop(_ script: String, output: URL, files: [URL], concurrency: Int?, cpu: Int) throws -> Timing {
        try Stopwatch.time(reportingCPU: {
            try start(["sh", "-c", script, "sh", output.path] + files.map(\.path), concurrency: concurrency, cpu: cpu).wait()
        })
    }

    /// Starts `command` under `taskset` (when `cpu` is given), with `BOX`, `QUALITY` and
    /// `VIPS_CONCURRENCY` (when given) in its environment, its output going to `<log>.log`.
    private func start(_ command: [String], concurrency: Int?, cpu: Int?, log: String = "run") throws -> ChildProcess {
        var environment = ["BOX": box, "QUALITY": String(quality)]
        environment["VIPS_CONCURRENCY"] = concurrency.map(String.init)
        let pinned = cpu.map { ["taskset", "-c", String($0)] } ?? []
        return try ChildProcess.start(pinned + command, environment: environment,
                                      log: outputDirectory.appendingPathComponent("\(log).log"))
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
    case missingOutputs(folder: String, expected: Int, found: Int)

    var description: String {
        switch self {
        case let .missingOutputs(folder, expected, found):
            "expected \(expected) thumbnails in \(folder), found \(found)"
        }
    }
}

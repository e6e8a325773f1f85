import ArgumentParser
import Foundation

/// `assets-picker-bench memory`: the peak RSS of one render of 200-MP originals (grid HEIC,
/// JPEG, PNG, TIFF), ours against vipsthumbnail and `vips copy` on the same files.
struct MemoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Peak RSS of one render of 200-MP originals against vipsthumbnail.",
        discussion: "Needs vips and vipsthumbnail on PATH. The originals (about 1 GB) are made once in the benchmark's --workdir and reused; --json applies too.")

    /// The benchmark's own options (`--workdir`, `--json`), which apply to this command too.
    @ParentCommand var bench: BenchCommand

    func run() async throws {
        let workdir = bench.workdir, json = bench.json
        try PeerTools.checkInstalled()
        let directory = workdir.appendingPathComponent("memory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let photos = try HugePhotos.prepare(in: workdir.appendingPathComponent("huge"), log: directory.appendingPathComponent("make.log"),
                                            progress: progress)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var report = BenchmarkReport()
        report.header = [.init(name: "libvips", value: try PeerTools(outputDirectory: directory, box: "256x256", quality: 80).version(["vips", "--version"]))]
        report.sections = [try MemoryBenchmark(photos: photos, executable: executable, directory: directory).section(progress: progress)]
        try report.write(asJSON: json)
    }

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("assets-picker-bench memory: \(message)\n".utf8))
    }
}

import ArgumentParser
import Foundation

/// `assets-picker-bench bucket-photos --count N`: makes (or finds) the 12-MP camera JPEGs that
/// `scripts/bench-s3-library.sh` uploads (``BucketPhotos``) in the benchmark's `--workdir`, and
/// prints their paths, one a line.
struct BucketPhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bucket-photos",
        abstract: "Make the 12-MP camera JPEGs the bucket benchmark uploads and print their paths.",
        discussion: "They are kept in the benchmark's --workdir (bucket-photos/) and reused; a larger --count makes only the photos missing.")

    /// The benchmark's own options (`--workdir`), which apply to this command too.
    @ParentCommand var bench: BenchCommand

    @Option(help: "How many photos.")
    var count = 2000

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        let photos = try await BucketPhotos.prepare(
            in: bench.workdir.appendingPathComponent("bucket-photos"), count: count,
            width: ProcessInfo.processInfo.activeProcessorCount) { message in
            FileHandle.standardError.write(Data("assets-picker-bench bucket-photos: \(message)\n".utf8))
        }
        print(photos.urls.map(\.path).joined(separator: "\n"))
    }
}

import AssetsKit
import Foundation

/// The whole benchmark: every contender on the same corpus, section by section, gathered
/// into one ``BenchmarkReport``.
///
/// Ratios compare our time with a peer's time for the same files (lower is better), except
/// the scaling ratio, which compares our throughput on all cores with ours on one. On one
/// core the ratios use CPU time, which is the wall time on a quiet machine and stays the work's
/// own cost on a busy one; on all cores they use wall time, and "cores busy" shows how much
/// of the machine each contender got.
struct BenchmarkSuite {
    let corpus: BenchCorpus
    let thumbnails: ThumbnailBenchmark
    let peers: PeerTools
    /// Counted runs per contender (after one warm-up run); the median is reported.
    let runs: Int
    /// How many files ImageMagick converts (it is slow).
    let magickImages: Int
    /// How many first answers are timed per photo.
    let firstAnswerIterations: Int
    /// Every CPU the process may use, as it started.
    let allCPUs: [Int]
    /// Where caches, export folders and logs go.
    let workdir: URL
    /// Whether the cache-hit section runs.
    let cacheHits: Bool
    /// Runs the `export` command; `nil` when neither export section runs.
    let exporter: ExportRunner?
    /// Whether the export-against-vipsthumbnail section runs.
    let exportBatch: Bool
    /// The library sizes whose export peak RSS is measured, smallest first; none skips the section.
    let peakRSSCounts: [Int]

    var count: Int { corpus.photos.count }
    var oneCPU: Int { allCPUs[0] }

    /// Runs every section and returns the report.
    func run(progress: (String) -> Void) async throws -> BenchmarkReport {
        var report = BenchmarkReport()
        report.header = try header()
        progress("one core…")
        let oneCore = try await oneCoreSection()
        report.sections.append(oneCore.section)
        progress("all cores…")
        report.sections.append(try await allCoresSection(oneCore: oneCore.ours))
        progress("first answers…")
        report.sections.append(try firstAnswerSection())
        if cacheHits {
            progress("cache hits…")
            report.sections.append(try await cacheHitSection())
        }
        if let exporter {
            report.header.insert(.init(name: "assets-picker", value: exporter.executable.path), at: 1)
            if exportBatch {
                progress("export command against vipsthumbnail…")
                report.sections.append(try await exportBatchSection(exporter))
            }
            if !peakRSSCounts.isEmpty {
                progress("export peak RSS for N = \(peakRSSCounts.map(String.init).joined(separator: ", "))…")
                report.sections.append(try peakRSSSection(exporter, counts: peakRSSCounts))
            }
        }
        report.header.append(.init(name: "load average", value: "\(Self.loadAverage()) at the end"))
        return report
    }

    // MARK: - Sections

    private func header() throws -> [BenchmarkReport.Fact] {
        let rotated = corpus.photos.filter { $0.orientation != 1 }.count
        let meanMB = Double(corpus.totalBytes) / Double(count) / 1e6
        let spec = corpus.specification
        let generation = corpus.generationMilliseconds.map { String(format: "generated in %.1f s, %d at a time", $0 / 1e3, allCPUs.count) }
            ?? "reused from an earlier run"
        return [
            .init(name: "machine", value: "\(allCPUs.count) cores (CPUs \(allCPUs.map(String.init).joined(separator: ","))), \(Self.cpuModel())"),
            .init(name: "libvips", value: try peers.version(["vips", "--version"])),
            .init(name: "ImageMagick", value: try peers.version(["convert", "-version"])),
            .init(name: "djpeg", value: try peers.version(["djpeg", "-version"])),
            .init(name: "corpus", value: String(format: "%d × %@ JPEG q%d (%.1f MB mean), EXIF + 160-px thumbnail, %d with orientation 6",
                                                count, spec.size.description, spec.quality, meanMB, rotated)),
            .init(name: "corpus folder", value: "\(corpus.directory.path) (\(generation); generator \(spec.generator))"),
            .init(name: "thumbnail", value: "\(thumbnails.box) fill (centre crop), upright, JPEG q\(thumbnails.quality)"),
            .init(name: "method", value: "page cache warm; median of \(runs) runs after a warm-up run, contenders taking turns (each round starting one further on)"),
            .init(name: "load average", value: "\(Self.loadAverage()) at the start" + (Self.isBusy(cores: allCPUs.count) ? " (others are using the machine: trust CPU times over wall times)" : "")),
        ]
    }

    /// Cold thumbnails on one core: ours in-process (the process confined to one CPU) against
    /// the peers under `taskset` on the same CPU.
    private func oneCoreSection() async throws -> (section: BenchmarkReport.Section, ours: [ResizeMode: Timing]) {
        let urls = corpus.urls
        let magickFiles = Array(urls.prefix(magickImages))
        var threadsSeen = 0
        var robin = RoundRobin()
        for mode in ResizeMode.allCases {
            robin.add("ours \(mode)") {
                let (timing, threads) = try onOneCPU { try thumbnails.serial(urls, mode) }
                threadsSeen = max(threadsSeen, threads)
                return timing
            }
        }
        robin.add("vipsthumbnail") { try peers.vipsthumbnail(urls, concurrency: 1, cpu: oneCPU) }
        robin.add("vipsthumbnail per file") { try peers.vipsthumbnailPerFile(urls, cpu: oneCPU) }
        robin.add("djpeg") { try peers.djpegEighthScale(urls, cpu: oneCPU) }
        robin.add("process start") { try peers.processStart(urls.count, cpu: oneCPU) }
        let medians = try await robin.medians(rounds: runs).mapValues { $0.perItem(count) }
        let magick = try peers.magick(magickFiles, cpu: oneCPU).perItem(magickFiles.count)

        let vips = medians["vipsthumbnail"]!.cpu, djpeg = medians["djpeg"]!.cpu
        let ours = Dictionary(uniqueKeysWithValues: ResizeMode.allCases.map { ($0, medians["ours \($0)"]!) })
        var section = BenchmarkReport.Section(title: "Cold thumbnail, one core (CPU \(oneCPU)): CPU time per image", unit: "ms/image")
        func row(_ name: String, _ timing: Timing, _ comparisons: [BenchmarkReport.Comparison] = []) -> BenchmarkReport.Row {
            .init(name: name, value: timing.cpu, details: [.init(name: "wall", value: timing.wall, unit: "ms")], comparisons: comparisons)
        }
        for mode in ResizeMode.allCases {
            let cpu = ours[mode]!.cpu
            section.rows.append(row("ours \(mode)", ours[mode]!, [
                .init(peer: "vipsthumbnail", ratio: cpu / vips, target: .atMost(mode == .exact ? 1.0 : 0.75)),
                .init(peer: "ImageMagick", ratio: cpu / magick.cpu, target: .atMost(0.2)),
                .init(peer: "djpeg floor", ratio: cpu / djpeg),
            ]))
        }
        section.rows += [
            row("vipsthumbnail, one process", medians["vipsthumbnail"]!),
            row("vipsthumbnail, a process per file", medians["vipsthumbnail per file"]!),
            row("djpeg -scale 1/8 (floor)", medians["djpeg"]!),
            row("process start (/bin/true)", medians["process start"]!),
            row("ImageMagick convert", magick),
        ]
        section.notes = [
            "ours: in-process, libvips 1 thread per image, files in turn; every thread of the process confined to CPU \(oneCPU) (checked after each run: \(threadsSeen) threads)",
            "peers: taskset -c \(oneCPU); vipsthumbnail with VIPS_CONCURRENCY=1; djpeg and the per-file runs include a process start each",
            "ImageMagick: MAGICK_THREAD_LIMIT=1, first \(magickFiles.count) files only, one run",
            "CPU time is user + system (getrusage / wait4); it equals the wall time when nothing else wants the core",
        ]
        return (section, ours)
    }

    /// A batch on every core: ours with one render per core against vipsthumbnail run as a
    /// person runs it (one process for the batch), the peer; vipsthumbnail split over
    /// one process per core is shown beside it.
    private func allCoresSection(oneCore: [ResizeMode: Timing]) async throws -> BenchmarkReport.Section {
        let urls = corpus.urls
        let width = allCPUs.count
        var robin = RoundRobin()
        for mode in ResizeMode.allCases {
            robin.add("ours \(mode)") { try await thumbnails.parallel(urls, mode, width: width) }
        }
        robin.add("vipsthumbnail") { try peers.vipsthumbnail(urls, concurrency: nil, cpu: nil) }
        robin.add("vipsthumbnail split") { try peers.vipsthumbnailSplit(urls, processes: width) }
        let medians = try await robin.medians(rounds: runs).mapValues { $0.perItem(count) }

        let vips = medians["vipsthumbnail"]!, split = medians["vipsthumbnail split"]!
        var section = BenchmarkReport.Section(title: "Batch of \(count) on all \(width) cores: wall time per image", unit: "ms/image")
        func row(_ name: String, _ timing: Timing, _ comparisons: [BenchmarkReport.Comparison] = []) -> BenchmarkReport.Row {
            .init(name: name, value: timing.wall, details: [.init(name: "cores busy", value: timing.coresBusy, unit: "")],
                  comparisons: comparisons)
        }
        for mode in ResizeMode.allCases {
            let ours = medians["ours \(mode)"]!
            section.rows.append(row("ours \(mode)", ours, [
                .init(peer: "vipsthumbnail one process", ratio: ours.wall / vips.wall, target: .atMost(mode == .exact ? 0.6 : 0.45)),
                .init(peer: "vipsthumbnail \(width) processes", ratio: ours.wall / split.wall),
                .init(peer: "throughput of ours on one core", ratio: oneCore[mode]!.cpu / ours.wall, target: .atLeast(1.8)),
            ]))
        }
        section.rows += [
            row("vipsthumbnail, one process", vips),
            row("vipsthumbnail, \(width) processes (information)", split),
        ]
        section.notes = [
            "ours: \(width) renders at a time (task group), libvips 1 thread per image",
            "vipsthumbnail: default concurrency, no taskset; one process for all files (the way a person runs it) is the peer, as in the export section; \(width) processes each taking 1/\(width) of them is shown for information",
            "cores busy: CPU time over wall time; below \(width) means the work did not fill the machine (or others had part of it)",
        ]
        return section
    }

    /// The degraded first answer from the embedded EXIF thumbnail, in-process.
    private func firstAnswerSection() throws -> BenchmarkReport.Section {
        let answers = FirstAnswerBenchmark(quality: thumbnails.quality)
        var section = BenchmarkReport.Section(title: "Degraded first answer (embedded EXIF thumbnail): wall time", unit: "ms")
        for (orientation, how) in [(1, "bytes passed through"), (6, "decoded, turned, re-encoded")] {
            guard let photo = corpus.photos.first(where: { $0.orientation == orientation }) else { continue }
            let milliseconds = try answers.median(photo, iterations: firstAnswerIterations)
            section.rows.append(.init(name: "orientation \(orientation) (\(how))", value: milliseconds, target: .atMost(0.3)))
        }
        section.notes = ["EmbeddedThumbnail.extract(fromJPEGAt:) + ImageRenderer.uprightThumbnail, JPEG q\(thumbnails.quality); median of \(firstAnswerIterations) after as many warm-ups"]
        return section
    }

    // MARK: - Helpers

    /// Runs `body` with every thread of the process confined to ``oneCPU``, checks that no
    /// thread left it, and restores all CPUs. Returns `body`'s value and the thread count.
    private func onOneCPU<Value>(_ body: () throws -> Value) throws -> (Value, Int) {
        try CPUAffinity.confineProcess(to: [oneCPU])
        defer { try? CPUAffinity.confineProcess(to: allCPUs) }
        let value = try body()
        let check = CPUAffinity.threadsOutside([oneCPU])
        guard check.outside == 0 else { throw AffinityError.escaped(threads: check.outside, cpu: oneCPU) }
        return (value, check.threads)
    }

    private static func cpuModel() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    }

    /// Whether the 1-minute load average exceeds what our own runs put on the machine.
    private static func isBusy(cores: Int) -> Bool {
        (Double(loadAverage().split(separator: " ").first ?? "") ?? 0) > Double(cores)
    }

    /// The 1-, 5- and 15-minute load averages, e.g. `0.12 0.30 0.25`.
    private static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

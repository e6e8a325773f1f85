import AssetsKit
import Foundation

extension BenchmarkSuite {
    /// The `export` command on the whole machine against one `vipsthumbnail` process on the
    /// same files, wall time against wall time; and the command on one core against all.
    func exportBatchSection(_ exporter: ExportRunner) async throws -> BenchmarkReport.Section {
        let urls = corpus.urls, width = allCPUs.count
        let library = try exporter.library(corpus.directory, count: count)
        let thumbnail = ["--size", thumbnails.box.description, "--mode", "fill", "--quality", String(thumbnails.quality)]
        var robin = RoundRobin()
        for mode in ResizeMode.allCases {
            robin.add("export \(mode)") { try exporter.export(library, options: thumbnail + ["--resize-mode", mode.rawValue]).timing }
        }
        robin.add("vipsthumbnail") { try peers.vipsthumbnail(urls, concurrency: nil, cpu: nil) }
        robin.add("vipsthumbnail split") { try peers.vipsthumbnailSplit(urls, processes: width) }
        robin.add("one core") { try exporter.export(library, options: thumbnail, jobs: 1, cpu: oneCPU).timing }
        robin.add("all cores") { try exporter.export(library, options: thumbnail, jobs: width).timing }
        let medians = try await robin.medians(rounds: runs).mapValues { $0.perItem(count) }

        let vips = medians["vipsthumbnail"]!, split = medians["vipsthumbnail split"]!
        let oneCore = medians["one core"]!, allCores = medians["all cores"]!
        var section = BenchmarkReport.Section(
            title: "export command, batch of \(count) on the whole machine (\(width) cores): wall time per image", unit: "ms/image")
        func row(_ name: String, _ timing: Timing, _ comparisons: [BenchmarkReport.Comparison] = []) -> BenchmarkReport.Row {
            .init(name: name, value: timing.wall,
                  details: [.init(name: "CPU", value: timing.cpu, unit: "ms"), .init(name: "cores busy", value: timing.coresBusy, unit: "")],
                  comparisons: comparisons)
        }
        for mode in ResizeMode.allCases {
            let ours = medians["export \(mode)"]!
            section.rows.append(row("export \(mode)", ours, [
                .init(peer: "vipsthumbnail one process", ratio: ours.wall / vips.wall, target: .atMost(mode == .exact ? 0.6 : 0.45)),
                .init(peer: "vipsthumbnail \(width) processes", ratio: ours.wall / split.wall),
            ]))
        }
        section.rows += [
            row("vipsthumbnail, one process", vips),
            row("vipsthumbnail, \(width) processes (information)", split),
            row("export exact --jobs 1, taskset -c \(oneCPU)", oneCore),
            row("export exact --jobs \(width)", allCores, [
                .init(peer: "throughput of --jobs 1 on one core (its CPU time)", ratio: oneCore.cpu / allCores.wall, target: .atLeast(1.8)),
                .init(peer: "same, wall over wall", ratio: oneCore.wall / allCores.wall),
            ]),
        ]
        section.notes = [
            "export: \(exporter.executable.path) export --library <corpus> --album <its album> --out <empty folder> \(thumbnail.joined(separator: " ")) [--resize-mode fast] --json; default --jobs (one per core); process start and library scan included; every file checked written",
            "vipsthumbnail: one process for all files, default concurrency (the way a person runs it) is the peer; \(width) processes each taking 1/\(width) of the files is shown for information",
            "scaling: the same export with --jobs 1 under taskset -c \(oneCPU), and with --jobs \(width); judged as in the batch section, one core's CPU time over all cores' wall time (a busy machine lowers it)",
            "median of \(runs) runs after a warm-up run, contenders taking turns, each round starting one further on; CPU time from wait4, for the process and its children",
        ]
        return section
    }

    /// The `export` command's peak resident set while resizing originals to 2048 and
    /// recompressing them, for a small and a large library.
    func peakRSSSection(_ exporter: ExportRunner, counts: [Int]) throws -> BenchmarkReport.Section {
        let options = ["--size", "2048x2048", "--quality", "85"]
        var runs: [(count: Int, run: ExportRunner.Run)] = []
        for count in counts {
            let folder = try corpus.linkedFolder(count: count, at: workdir.appendingPathComponent("export-\(count)"))
            runs.append((count, try exporter.export(try exporter.library(folder, count: count), options: options, samplingMemory: true)))
        }
        var section = BenchmarkReport.Section(title: "Peak RSS of export to 2048 px, JPEG q85 (VmHWM of the export process)", unit: "MB")
        let smallest = runs.first!
        for (count, run) in runs {
            let megabytes = Double(run.peakResidentBytes) / 1e6
            let isLargest = count == runs.last!.count && runs.count > 1
            section.rows.append(.init(
                name: "N = \(count)", value: megabytes, target: isLargest ? .atMost(200) : nil,
                details: [.init(name: "wall", value: run.timing.wall / 1e3, unit: "s"), .init(name: "CPU", value: run.timing.cpu / 1e3, unit: "s")],
                comparisons: isLargest ? [.init(peer: "peak of N = \(smallest.count)", ratio: megabytes / (Double(smallest.run.peakResidentBytes) / 1e6),
                                                target: .atMost(1.15))] : []))
        }
        section.notes = [
            "export --library <folder> --album <its album> --out <empty folder> \(options.joined(separator: " ")) --json, default --jobs; one run each; MB = 10^6 bytes",
            "the N files are hard links, under distinct names, to the \(count) corpus photos in turn (\(workdir.path)/export-N, made again each run); the exporter opens and decodes every one of them (N outputs checked)",
        ]
        return section
    }
}

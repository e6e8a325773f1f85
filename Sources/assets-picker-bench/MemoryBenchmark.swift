import AssetsKit
import Foundation
import SyntheticMedia

/// Peak memory of one render of a 200-MP original, ours against libvips' own command on the
/// same file, each in a child process of its own started through ``PeakRSSCommand``.
struct MemoryBenchmark {
    /// What is rendered: a box (fill or fit) or, without one, the full-size JPEG.
    struct Render {
        var name: String
        var size: PixelSize?
        var fill: Bool
    }

    static let renders = [
        Render(name: "thumbnail 256x256 fill", size: PixelSize(width: 256, height: 256), fill: true),
        Render(name: "rendition 2048 fit", size: PixelSize(width: 2048, height: 2048), fill: false),
        Render(name: "full-size JPEG", size: nil, fill: false),
    ]

    let photos: HugePhotos
    /// This benchmark's own binary (for `render-once` and `peak-rss`).
    let executable: URL
    /// Outputs and logs.
    let directory: URL

    /// One row per photo and render: our peak in MB (target ≤ 400), compared with the peer's.
    func section(progress: (String) -> Void) throws -> BenchmarkReport.Section {
        var section = BenchmarkReport.Section(title: "Peak RSS of one render of a 200-MP original (child process, ru_maxrss)", unit: "MB")
        progress("process floors…")
        let floor = directory.appendingPathComponent("floor.jpg")
        try SyntheticPhoto(size: PixelSize(width: 320, height: 240), seed: 1).encoded(as: .jpeg).write(to: floor)
        let (oursFloor, _) = try peakMegabytes([executable.path, "render-once", floor.path, "--output",
                                               directory.appendingPathComponent("ours.jpg").path, "--box", "64x64"])
        let (peerFloor, _) = try peakMegabytes(["vipsthumbnail", floor.path, "-s", "64x64", "-o",
                                               directory.appendingPathComponent("peer.jpg").path + "[Q=80,strip]"])
        section.rows.append(.init(name: "process floor: a 320x240 JPEG to 64 px", value: oursFloor,
                                  comparisons: [.init(peer: "vipsthumbnail (\(BenchmarkReport.format(peerFloor)) MB)", ratio: oursFloor / peerFloor)]))
        for photo in photos.photos {
            for render in Self.renders {
                progress("\(photo.url.lastPathComponent): \(render.name)…")
                let output = directory.appendingPathComponent("ours.jpg")
                var ours = [executable.path, "render-once", photo.url.path, "--output", output.path]
                if let size = render.size { ours += ["--box", size.description] + (render.fill ? ["--fill"] : []) }
                let peerOutput = directory.appendingPathComponent("peer.jpg").path + "[Q=80,strip]"
                let peer = render.size.map { size in
                    ["vipsthumbnail", photo.url.path, "-s", size.description] + (render.fill ? ["-m", "centre"] : []) + ["-o", peerOutput]
                } ?? ["vips", "copy", photo.url.path, peerOutput]
                let (oursPeak, oursTime) = try peakMegabytes(ours)
                let (peerPeak, peerTime) = try peakMegabytes(peer)
                section.rows.append(.init(
                    name: "\(photo.kind): \(render.name)", value: oursPeak, target: .atMost(400),
                    details: [.init(name: "wall", value: oursTime / 1e3, unit: "s"),
                              .init(name: "\(peer[0]) wall", value: peerTime / 1e3, unit: "s")],
                    comparisons: [.init(peer: "\(peer[0]) (\(BenchmarkReport.format(peerPeak)) MB)", ratio: oursPeak / peerPeak)]))
            }
        }
        section.notes = [
            "one picture, \(HugePhotos.size) (199.8 MP), in each format; one run each, JPEG q80 out; MB = 10^6 bytes",
            "ours: assets-picker-bench render-once (ImageRenderer.render / fullResolution, as the server renders; libvips' default threads); peer: vipsthumbnail -s BOX [-m centre] for boxes, vips copy FILE out.jpg for the full size",
            "each program started by assets-picker-bench peak-rss, a small process, so that ru_maxrss is the program's own peak (posix_spawn would carry the benchmark's high-water mark into it)",
            "a JPEG original is served as it is for the full size (=d); its full-size row is a render of it all the same",
            "the process floor is what each program holds to render a small file (ours: the Swift runtime, Foundation and libvips started); the 200-MP rows include it",
        ]
        return section
    }

    /// The peak RSS of `command` in MB and its wall time in ms.
    private func peakMegabytes(_ command: [String]) throws -> (Double, Double) {
        let log = directory.appendingPathComponent("peak-rss.log"), commandLog = directory.appendingPathComponent(URL(fileURLWithPath: command[0]).lastPathComponent + ".log")
        let clock = ContinuousClock(), start = clock.now
        let text: String
        do {
            text = try ChildProcess.output(of: [executable.path, "peak-rss", "--log", commandLog.path, "--"] + command, log: log)
        } catch {
            let output = (try? String(contentsOf: commandLog, encoding: .utf8)) ?? ""
            throw ChildProcessError.failed(command: command.joined(separator: " "), status: 1, output: String(output.suffix(2000)))
        }
        let wall = (clock.now - start).milliseconds
        guard let kilobytes = text.split(separator: "\n").last.flatMap({ Double($0) }) else {
            throw ChildProcessError.failed(command: command[0], status: 0, output: text)
        }
        return (kilobytes * 1024 / 1e6, wall)
    }
}

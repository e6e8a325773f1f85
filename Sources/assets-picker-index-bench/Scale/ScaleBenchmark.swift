import AssetsKit
import Foundation
import IndexedLibrary
import PostgresIndex
import PostgresNIO
import Synchronization

/// Issue 30's scale figures: the ``ScaleLibrary`` (by default 1,000,000 assets, 2,000 folders,
/// 20,000 user albums) generated into a SQLite index and into a PostgreSQL database, then the
/// same reads timed through the libraries' own API on both — the album list with exact counts,
/// the newest 60, a jump to position 500,000 and the keyset page after it, a month's folder,
/// Recently Added, a picker session's 2,000 picks — `runs` times each after one warm-up,
/// reported as median and 95th percentile side by side. Target: ≤ 30 ms each on PostgreSQL.
struct ScaleBenchmark {
    let work: URL
    let library: ScaleLibrary
    /// The PostgreSQL database to fill (emptied first), or `nil` for SQLite alone.
    let postgres: String?
    let runs: Int
    /// Whether a library generated into `work` (and the database) by an earlier run with the same
    /// ``ScaleLibrary/marker`` is read again instead of generated.
    var reuse = false
    let picks = 2_000

    /// One engine's figures: timings by metric, and what its generation took.
    struct EngineFigures {
        var timings: [String: [Double]] = [:]
        var generation = 0.0
        var bytes: Int64 = 0
    }

    func run() async throws -> String {
        let root = work.appendingPathComponent("scale-library", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var metrics: [String] = []
        var engines: [(name: String, figures: EngineFigures)] = []

        let databaseURL = work.appendingPathComponent("scale-index/library.sqlite")
        try FileManager.default.createDirectory(at: databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let markerURL = work.appendingPathComponent(ScaleLibrary.markerName)
        let kept = reuse && (try? String(contentsOf: markerURL, encoding: .utf8)) == library.marker
        if !kept {
            try? FileManager.default.removeItem(at: markerURL)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databaseURL.path + suffix) }
        }
        var sqlite = EngineFigures()
        if kept {
            Log.stage("reading the SQLite index kept in \(work.path)")
        } else {
            Log.stage("generating \(library.assets) assets, \(library.albums) albums into SQLite")
            sqlite.generation = try await Measure.milliseconds { try ScaleSQLite.write(library, root: root, databaseURL: databaseURL) }
        }
        sqlite.bytes = ScaleSQLite.size(of: databaseURL)
        let sqliteLibrary = try IndexedLibrary(root: root, databaseURL: databaseURL, now: { Date(timeIntervalSince1970: library.now) })
        try await measure(sqliteLibrary, pickedInOrder: nil, into: &sqlite, metrics: &metrics)
        engines.append(("SQLite", sqlite))

        if let postgres {
            let database = try await PostgresPool(address: try PostgresAddress(url: postgres))
            var figures = EngineFigures()
            if kept, try await ScalePostgres.marker(in: database) == library.marker {
                Log.stage("reading the PostgreSQL index kept in the database")
            } else {
                Log.stage("generating \(library.assets) assets, \(library.albums) albums into PostgreSQL")
                figures.generation = try await Measure.milliseconds {
                    try await ScalePostgres.write(library, database: database, root: root.standardizedFileURL.path, picks: library.picks(picks))
                }
                try await ScalePostgres.keep(marker: library.marker, in: database)
            }
            figures.bytes = try await ScalePostgres.size(of: database)
            let local = work.appendingPathComponent("pg-local/library.sqlite")
            let store = try await PostgresIndexStore(database: database, root: root.standardizedFileURL.path,
                                                     previewPlace: PreviewStore(besideIndexAt: local).placeKey)
            let postgresLibrary = try IndexedLibrary(root: root, index: store, localFilesBeside: local,
                                                     now: { Date(timeIntervalSince1970: library.now) })
            try await measure(postgresLibrary, pickedInOrder: { try await ScalePostgres.pickedAssets(in: database) }, into: &figures, metrics: &metrics)
            engines.append(("PostgreSQL", figures))
        }
        if reuse { try library.marker.write(to: markerURL, atomically: true, encoding: .utf8) }
        var memberships = 0
        library.albumMembers { _, members in memberships += members.count }
        let heading = "library: \(library.assets) assets, \(library.directories.count) folders, \(library.albums) albums with "
            + "\(memberships) memberships, a session of \(picks) picks"
        return heading + "\n\n" + render(metrics: metrics, engines: engines)
    }

    /// Times every read on `indexed`; `pickedInOrder` is the session store's own read of its
    /// picks joined to the assets, where the engine has the session tables.
    private func measure(_ indexed: IndexedLibrary, pickedInOrder: (() async throws -> Int)?,
                         into figures: inout EngineFigures, metrics: inout [String]) async throws {
        let all = SmartAlbum.all.collectionIdentifier
        let collections = try await indexed.collections()
        let total = collections.first { $0.id == all }?.estimatedAssetCount ?? 0
        let position = min(500_000, max(0, total - 120))
        let months = collections.filter { $0.kind == .directory && $0.title.contains("Camera") }
        // A month five years back: its folder holds that month's captures.
        let month = months.sorted { $0.title < $1.title }.dropLast(60).last ?? months[0]
        let picked = library.picks(picks).map { AssetIdentifier.local(LocalIdentifier(uuid: $0)) }
        let albums = collections.filter { $0.kind == .album }.count
        let folders = collections.filter { $0.kind == .directory }.count

        // A change before a run makes the album list read again (``AlbumListMemo``): the newest
        // asset's favourite flag, turned back and forth.
        let newest = try await indexed.assets(in: all, options: FetchOptions(limit: 1)).assets(in: 0..<1)[0]
        let favourite = Mutex(newest.isFavorite)
        let change: @Sendable () async throws -> Void = {
            let flag = favourite.withLock { flag in
                flag.toggle()
                return flag
            }
            _ = try await indexed.performChanges([.setFavorite([newest.id], flag)])
        }
        var steps: [(String, (@Sendable () async throws -> Void)?, () async throws -> Void)] = [
            ("album list: collections() with exact counts (\(collections.count): \(albums) albums, \(folders) folders), after a change", change, {
                _ = try await indexed.collections()
            }),
            ("album list: collections(), the index unchanged since the last read", nil, {
                _ = try await indexed.collections()
            }),
            ("album list with key assets: albumSummaries(filter: .all), after a change", change, {
                _ = try await indexed.albumSummaries(filter: .all)
            }),
            ("album list with key assets: albumSummaries(filter: .all), unchanged", nil, {
                _ = try await indexed.albumSummaries(filter: .all)
            }),
            ("newest 60 of All Photos (\(total) assets): fetch + page", nil, {
                _ = try await indexed.assets(in: all, options: FetchOptions(limit: 60)).assets(in: 0..<60)
            }),
            ("jump to position \(position): fetch + page of 60", nil, {
                _ = try await indexed.assets(in: all, options: FetchOptions()).assets(in: position..<(position + 60))
            }),
            ("keyset page of 60 after position \(position + 60) (page after a jump)", nil, {}),
            ("a month's folder (\(month.estimatedAssetCount ?? 0) assets): fetch + newest 60 + oldest 60", nil, {
                let fetch = try await indexed.assets(in: month.id, options: FetchOptions())
                _ = try await fetch.assets(in: 0..<min(60, fetch.count))
                _ = try await fetch.assets(in: max(0, fetch.count - 60)..<fetch.count)
            }),
            ("Recently Added: fetch + newest 60", nil, {
                _ = try await indexed.assets(in: SmartAlbum.recentlyAdded.collectionIdentifier, options: FetchOptions(limit: 60)).assets(in: 0..<60)
            }),
            ("a session's \(picked.count) picks by identifier: assets(withIdentifiers:)", nil, {
                _ = try await indexed.assets(withIdentifiers: picked)
            }),
        ]
        if let pickedInOrder {
            steps.append(("a session's picks in pick order: picker_pick ⋈ asset, one statement", nil, { _ = try await pickedInOrder() }))
        } else {
            steps.append(("a session's picks in pick order: picker_pick ⋈ asset, one statement", nil, {}))
        }
        for (metric, prepare, work) in steps {
            if !metrics.contains(metric) { metrics.append(metric) }
            if metric.hasPrefix("keyset page") {
                // Each run jumps (untimed), then times the page that continues where the jump ended.
                var times: [Double] = []
                for _ in 0...runs {
                    let fetch = try await indexed.assets(in: all, options: FetchOptions())
                    _ = try await fetch.assets(in: position..<(position + 60))
                    times.append(try await Measure.milliseconds { _ = try await fetch.assets(in: (position + 60)..<(position + 120)) })
                }
                figures.timings[metric] = Array(times.dropFirst())
                continue
            }
            if metric.hasPrefix("a session's picks in pick order"), pickedInOrder == nil { continue }
            Log.stage(metric)
            try await work()
            var times: [Double] = []
            for _ in 0..<runs {
                try await prepare?()
                times.append(try await Measure.milliseconds(work))
            }
            figures.timings[metric] = times
        }
    }

    private func render(metrics: [String], engines: [(name: String, figures: EngineFigures)]) -> String {
        func cell(_ times: [Double]?) -> String {
            guard let times, !times.isEmpty else { return "-" }
            let sorted = times.sorted()
            let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
            return ResultTable.format(sorted[sorted.count / 2]) + " / " + ResultTable.format(p95)
        }
        var rows: [[String]] = [["metric (ms: median / p95 of \(runs))"] + engines.map(\.name) + ["target", "result"]]
        for metric in metrics {
            let postgres = engines.first { $0.name == "PostgreSQL" }?.figures.timings[metric]
            let p95 = postgres.map { $0.sorted()[min($0.count - 1, Int((Double($0.count) * 0.95).rounded(.up)) - 1)] }
            rows.append([metric] + engines.map { cell($0.figures.timings[metric]) } + ["≤ 30 on PostgreSQL",
                         p95.map { $0 <= 30 ? "pass" : "FAIL" } ?? "-"])
        }
        rows.append(["generation (s)"] + engines.map { $0.figures.generation == 0 ? "kept" : String(format: "%.1f", $0.figures.generation / 1000) }
                    + ["-", "-"])
        rows.append(["database size (MB)"] + engines.map { String(format: "%.0f", Double($0.figures.bytes) / 1_000_000) } + ["-", "-"])
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            let line = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            return index == 0 ? line + "\n" + String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)) : line
        }.joined(separator: "\n")
    }
}

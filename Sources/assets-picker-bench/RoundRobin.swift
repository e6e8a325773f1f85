/// Times several contenders in turns, so a slow spell of the machine hits them all alike.
///
/// Each round runs every contender once; the first round only warms up (shared libraries, code
/// paths, caches) and is not counted. Each round starts one contender further on, so that no
/// contender always follows the same one: what a run leaves behind (a core that sat idle while
/// the one before ran pinned to another, files pushed out of memory) falls on different
/// contenders in different rounds instead of on one every time.
struct RoundRobin {
    /// Something timed: a name and a run that returns its timing.
    struct Contender {
        var name: String
        var run: () async throws -> Timing
    }

    var contenders: [Contender] = []

    mutating func add(_ name: String, _ run: @escaping () async throws -> Timing) {
        contenders.append(Contender(name: name, run: run))
    }

    /// The median wall and CPU times of each contender over `rounds` counted rounds, by name
    /// (each median taken on its own).
    func medians(rounds: Int) async throws -> [String: Timing] {
        var timings: [String: [Timing]] = [:]
        for round in 0...max(1, rounds) {
            for turn in contenders.indices {
                let contender = contenders[(round + turn) % contenders.count]
                let timing = try await contender.run()
                if round > 0 { timings[contender.name, default: []].append(timing) }
            }
        }
        return timings.mapValues { Timing(wall: $0.map(\.wall).median, cpu: $0.map(\.cpu).median) }
    }
}

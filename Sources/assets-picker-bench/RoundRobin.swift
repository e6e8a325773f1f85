/// Times several contenders in turns, so a slow spell of the machine hits them all alike.
///
/// Each round runs every contender once, in order; the first round only warms up (shared
/// libraries, code paths, caches) and is not counted.
struct RoundRobin {
    /// Something timed: a name and a run that returns its milliseconds.
    struct Contender {
        var name: String
        var run: () async throws -> Double
    }

    var contenders: [Contender] = []

    mutating func add(_ name: String, _ run: @escaping () async throws -> Double) {
        contenders.append(Contender(name: name, run: run))
    }

    /// The median milliseconds of each contender over `rounds` counted rounds, by name.
    func medians(rounds: Int) async throws -> [String: Double] {
        var timings: [String: [Double]] = [:]
        for round in 0...max(1, rounds) {
            for contender in contenders {
                let milliseconds = try await contender.run()
                if round > 0 { timings[contender.name, default: []].append(milliseconds) }
            }
        }
        return timings.mapValues(\.median)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which CPUs the threads of this process may run on.
///
/// Linux keeps an affinity mask per thread and `sched_setaffinity(0, …)` changes only the
/// calling one, so confining the process sets the mask of every thread listed in
/// `/proc/self/task`; threads started later inherit their creator's mask. Glibc declares the
/// affinity calls only under `_GNU_SOURCE`, which Swift's Glibc module does not set, so they
/// are looked up by name.
enum CPUAffinity {
    private typealias AffinityCall = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    private static let sched_getaffinity = lookUp("sched_getaffinity")
    private static let sched_setaffinity = lookUp("sched_setaffinity")

    /// The CPUs the thread `thread` (0: the calling thread) may run on, in ascending order.
    static func allowedCPUs(ofThread thread: pid_t = 0) throws -> [Int] {
        var set = cpu_set_t()
        guard sched_getaffinity(thread, MemoryLayout<cpu_set_t>.size, &set) == 0 else {
            throw AffinityError.failed(call: "sched_getaffinity", errno: errno)
        }
        return withUnsafeBytes(of: set) { bytes in
            (0..<(bytes.count * 8)).filter { cpu in bytes[cpu / 8] & (1 << (cpu % 8)) != 0 }
        }
    }

    /// Lets every thread of the process run only on `cpus`.
    ///
    /// Repeats until a pass finds no thread it has not set, so a thread started during a
    /// pass is not missed.
    static func confineProcess(to cpus: [Int]) throws {
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bytes in
            for cpu in cpus { bytes[cpu / 8] |= 1 << (cpu % 8) }
        }
        var done: Set<pid_t> = []
        while true {
            let pending = threadIDs().subtracting(done)
            guard !pending.isEmpty else { return }
            for thread in pending {
                // A thread may end between listing and setting; only the living matter.
                if sched_setaffinity(thread, MemoryLayout<cpu_set_t>.size, &set) != 0 && errno != ESRCH {
                    throw AffinityError.failed(call: "sched_setaffinity", errno: errno)
                }
                done.insert(thread)
            }
        }
    }

    /// How many threads the process has, and how many of them may run outside `cpus`.
    static func threadsOutside(_ cpus: [Int]) -> (threads: Int, outside: Int) {
        let threads = threadIDs()
        let allowed = Set(cpus)
        let outside = threads.filter { thread in
            guard let mask = try? allowedCPUs(ofThread: thread) else { return false }
            return !Set(mask).isSubset(of: allowed)
        }
        return (threads.count, outside.count)
    }

    private static func lookUp(_ name: String) -> AffinityCall {
        // A nil handle is glibc's RTLD_DEFAULT: the symbol as the program itself sees it.
        guard let symbol = dlsym(nil, name) else { fatalError("\(name) is missing from the C library") }
        return unsafeBitCast(symbol, to: AffinityCall.self)
    }

    /// The kernel thread ids of this process.
    private static func threadIDs() -> Set<pid_t> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(names.compactMap { pid_t($0) })
    }
}

/// An affinity call that failed or did not hold.
enum AffinityError: Error, CustomStringConvertible {
    case failed(call: String, errno: Int32)
    /// Threads that could still run outside the CPU the process was confined to.
    case escaped(threads: Int, cpu: Int)

    var description: String {
        switch self {
        case let .failed(call, code): "\(call) failed: \(String(cString: strerror(code)))"
        case let .escaped(threads, cpu): "\(threads) threads could run outside CPU \(cpu)"
        }
    }
}

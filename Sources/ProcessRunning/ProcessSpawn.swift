import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a program with `posix_spawn`, the one way this package starts other programs
/// (``ToolRunner`` for the tools the library runs; the benchmarks for the peers they time).
///
/// In the child, standard input is `/dev/null`; descriptors 1 and 2 are what ``FileAction``s
/// make them, and every other descriptor is closed (`posix_spawn_file_actions_addclosefrom_np`
/// where glibc has it), so a descriptor of ours never leaks into a program started at the same
/// time. No signal is blocked and every signal has its default action (`SIGPIPE` included), so
/// the program behaves as it would from a shell, whatever the spawning thread had blocked.
public enum ProcessSpawn {
    /// What the child's descriptors 1 and 2 become, applied in order after standard input.
    public enum FileAction: Sendable {
        /// `descriptor` opens `path` for writing, created or truncated.
        case write(descriptor: Int32, path: String)
        /// `descriptor` becomes a copy of `source` (our own `source`, or one an earlier action set).
        case duplicate(_ source: Int32, to: Int32)
    }

    /// A system call that failed while starting a program.
    public struct Failure: Error, CustomStringConvertible {
        /// The call that failed (`posix_spawn`, `pipe2`, ...).
        public var call: String
        /// Its `errno`.
        public var code: Int32
        /// Creates a failure of `call` with `errno` `code`.
        public init(call: String, code: Int32) {
            self.call = call
            self.code = code
        }
        /// The call and the system's words for `code`.
        public var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// Starts `program` with `arguments` and returns its process id; wait for it with `waitpid`.
    ///
    /// - Parameters:
    ///   - program: An absolute path, or a name looked up on `PATH` when `searchingPath`.
    ///   - arguments: The arguments after the program's own name.
    ///   - environment: Variables added to (or replacing) ours.
    ///   - fileActions: What descriptors 1 and 2 become.
    ///   - searchingPath: Whether `program` is looked up on `PATH` (`posix_spawnp`).
    ///   - ownProcessGroup: Whether the program leads a process group of its own, so a signal to
    ///     the group reaches whatever it starts.
    /// - Throws: ``Failure`` when `posix_spawn` fails.
    public static func spawn(_ program: String, arguments: [String], environment: [String: String] = [:],
                             fileActions: [FileAction], searchingPath: Bool = false,
                             ownProcessGroup: Bool = false) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for action in fileActions {
            switch action {
            case let .write(descriptor, path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case let .duplicate(source, target):
                posix_spawn_file_actions_adddup2(&actions, source, target)
            }
        }
        if let addCloseFrom = GlibcExtras.addCloseFrom {
            _ = addCloseFrom(&actions, 3)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = searchingPath
            ? posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            : posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(call: searchingPath ? "posix_spawnp" : "posix_spawn", code: status) }
        return pid
    }
}

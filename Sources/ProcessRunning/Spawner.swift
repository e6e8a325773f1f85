import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The system calls behind a ``ToolRunner`` launch: the pipes, the spawn, the reader thread.
enum Spawner {
    struct Launched {
        var pid: pid_t
        var outputReader: Int32
        var errorReader: Int32
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// A pipe whose ends are close-on-exec from the start and not among descriptors 0–2.
    static func makePipe() throws(ProcessSpawn.Failure) -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [-1, -1]
        if let pipe2 = GlibcExtras.pipe2 {
            guard pipe2(&ends, O_CLOEXEC) == 0 else { throw ProcessSpawn.Failure(call: "pipe2", code: errno) }
        } else {
            // Without pipe2 a fork elsewhere could catch the ends before FD_CLOEXEC is set;
            // the spawned child closes them anyway (close-from or close-on-exec below).
            guard pipe(&ends) == 0 else { throw ProcessSpawn.Failure(call: "pipe", code: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, fcntl(end, F_GETFD) | FD_CLOEXEC) }
        }
        // With 0, 1 or 2 closed in our process a pipe could land there and be clobbered by
        // the child's own redirections; move it up.
        for index in ends.indices where ends[index] < 3 {
            let moved = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            let code = errno
            close(ends[index])
            ends[index] = moved
            guard moved >= 0 else {
                for end in ends where end >= 0 { close(end) }
                throw ProcessSpawn.Failure(call: "fcntl", code: code)
            }
        }
        return (ends[0], ends[1])
    }

    /// Starts `executable` (an absolute path) in a process group of its own, with standard
    /// output and error into new pipes (the rest as ``ProcessSpawn`` sets up every child).
    static func launch(_ executable: String, arguments: [String]) throws(ProcessSpawn.Failure) -> Launched {
        let output = try makePipe()
        let errors: (reader: Int32, writer: Int32)
        do {
            errors = try makePipe()
        } catch {
            close(output.reader)
            close(output.writer)
            throw error
        }
        defer {
            close(output.writer)
            close(errors.writer)
        }
        do {
            let pid = try ProcessSpawn.spawn(executable, arguments: arguments,
                                             fileActions: [.duplicate(output.writer, to: 1), .duplicate(errors.writer, to: 2)],
                                             ownProcessGroup: true)
            return Launched(pid: pid, outputReader: output.reader, errorReader: errors.reader)
        } catch {
            close(output.reader)
            close(errors.reader)
            throw error
        }
    }

    /// Runs `body` on a new detached thread with a small stack; returns `pthread_create`'s status.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 512 * 1024)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        if status != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
        }
        return status
    }
}

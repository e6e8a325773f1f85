import Foundation

/// Makes each failing libvips call's message its own. libvips keeps one error buffer for the
/// whole process, so failures on two threads at once append to it together, and any call that
/// clears it (a fallback inside a successful one does) can empty another's message. libvips
/// calls therefore run under a shared lock, as many at once as before; a call that failed with
/// a message read from the buffer runs once more holding the lock alone, with the buffer
/// cleared, and that run's error is the one thrown. Failures of our own checks (pixel limit,
/// PNG CRC, unreadable file) throw without a second run. The lock prefers readers: a failure
/// waiting to run alone never holds back the renders that keep starting, it waits for a moment
/// when none runs. Nested scopes on one thread run inside the outer one.
///
/// Every libvips call in the process must run in a scope, fixture makers and tests included:
/// a call outside one can write to the buffer while another runs alone, even when it succeeds
/// (libheif's reader leaves "bad seek to …" behind a probe past a file's end), and that text
/// would be thrown as the other file's reason.
package enum VipsErrorScope {
    // Made once and never freed; a pthread lock is safe across threads.
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    /// Per thread: how deep in scopes (0: outside any), and whether libvips' buffer was read.
    private static let depthKey = makeKey(), readKey = makeKey()

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }

    /// Notes that the current call read libvips' error buffer (``Vips/takeError()`` does).
    static func noteErrorRead() {
        pthread_setspecific(readKey, UnsafeRawPointer(bitPattern: 1))
    }

    /// Runs `body`, which calls libvips and throws what it reads from the error buffer; when it
    /// throws after reading the buffer, runs it again alone so the error thrown is its own.
    package static func run<T>(_ body: () throws -> T) throws -> T {
        guard pthread_getspecific(depthKey) == nil else { return try body() }
        pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: 1))
        pthread_setspecific(readKey, nil)
        defer { pthread_setspecific(depthKey, nil) }
        pthread_rwlock_rdlock(lock)
        do {
            let result = try body()
            pthread_rwlock_unlock(lock)
            return result
        } catch {
            pthread_rwlock_unlock(lock)
            guard pthread_getspecific(readKey) != nil else { throw error }
        }
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        _ = Vips.takeError()
        return try body()
    }
}

import Foundation

/// Makes each failing libvips call's message its own. libvips keeps one error buffer for the
/// whole process, so failures on two threads at once append to it together and one caller can
/// read (and clear) the other's message. libvips calls therefore run under a shared lock, as
/// many at once as before; a call that fails is run once more holding the lock alone, with the
/// buffer cleared, and that run's error is the one thrown. Failures are rare and the common
/// path pays one uncontended read lock. Nested scopes on one thread run inside the outer one.
enum VipsErrorScope {
    // The lock is made once and never freed; pthread locks are safe across threads.
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        // A failing call waiting to run alone is not starved by a stream of new calls.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        return lock
    }()

    /// How deep in scopes the current thread is (0: outside any).
    private static let depthKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body`, which calls libvips and throws what it reads from the error buffer; when it
    /// throws, runs it again alone so the error thrown is `body`'s own.
    static func run<T>(_ body: () throws -> T) throws -> T {
        let depth = Int(bitPattern: pthread_getspecific(depthKey))
        guard depth == 0 else { return try body() }
        pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(depthKey, nil) }
        pthread_rwlock_rdlock(lock)
        do {
            let result = try body()
            pthread_rwlock_unlock(lock)
            return result
        } catch {
            pthread_rwlock_unlock(lock)
        }
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        _ = Vips.takeError()
        return try body()
    }
}

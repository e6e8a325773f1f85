import PickerServer

extension PickerServerLimits {
    /// The server's limits for a test: the defaults but an idle timeout of an hour. On two shared
    /// cores a test's task can wait on the cooperative pool for longer than the default 60
    /// seconds between two steps on one connection, and the server would close that connection
    /// as idle in between. A test of the idle timeout sets its own.
    static var forTests: PickerServerLimits {
        var limits = PickerServerLimits()
        limits.idleTimeout = .seconds(3_600)
        return limits
    }
}

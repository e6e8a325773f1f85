import ArgumentParser
import PickerServer

/// `serve`'s timeouts and caps for connections, uploads and renders (``PickerServerLimits``).
struct ServerLimitOptions: ParsableArguments {
    @Option(name: .long, help: "Seconds an idle connection stays open.")
    var idleTimeout: Double = 60

    @Option(name: .long, help: "Seconds a request's headers may take to arrive; slower gets 408.")
    var headerTimeout: Double = 10

    @Option(name: .long, help: "Seconds a request's body may pause while the server waits for it; longer gets 408.")
    var bodyTimeout: Double = 10

    @Option(name: .customLong("min-body-rate"), help: "Bytes a second a request's body must average once --body-timeout has passed; slower gets 408.")
    var minimumBodyRate = 1_024

    @Option(name: .long, help: "Connections one client address may hold open at once; one more gets 503.")
    var connectionsPerAddress = 128

    @Option(name: .long, help: "Connections held open at once from all addresses; one more gets 503. By default as many as the open-file limit leaves room for.")
    var maxConnections: Int?

    @Option(name: .long, help: "The largest upload taken from the picker, in MB; larger gets 413.")
    var maxUploadMB = 512

    @Option(name: .long, help: "Uploads received at once; one more gets 503.")
    var concurrentUploads = 2

    @Option(name: .long, help: "Images one picker session may have being made at once (renders, thumbnail batches, prefetch; not those in memory); one more gets 429 unless more urgent.")
    var rendersPerSession = 32

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "The address of a proxy in front (repeatable): its requests are counted by the client address it puts in X-Real-IP.",
        valueName: "address"))
    var trustedProxies: [String] = []

    func validate() throws {
        if let wrong = trustedProxies.first(where: { PickerServerLimits.ipAddress($0) == nil }) {
            throw ValidationError("--trusted-proxy takes an IPv4 or IPv6 address; got '\(wrong)'.")
        }
        guard idleTimeout > 0, headerTimeout > 0, bodyTimeout > 0 else {
            throw ValidationError("--idle-timeout, --header-timeout and --body-timeout must be more than 0.")
        }
        guard minimumBodyRate > 0, connectionsPerAddress > 0, maxConnections ?? 1 > 0, maxUploadMB > 0, concurrentUploads > 0, rendersPerSession > 0 else {
            throw ValidationError("--min-body-rate, --connections-per-address, --max-connections, --max-upload-mb, --concurrent-uploads and --renders-per-session must be more than 0.")
        }
    }

    /// The limits these options give.
    var limits: PickerServerLimits {
        var limits = PickerServerLimits()
        limits.idleTimeout = .milliseconds(Int64(idleTimeout * 1_000))
        limits.headerTimeout = .milliseconds(Int64(headerTimeout * 1_000))
        limits.bodyTimeout = .milliseconds(Int64(bodyTimeout * 1_000))
        limits.minimumBodyRate = minimumBodyRate
        limits.connectionsPerAddress = connectionsPerAddress
        limits.maximumConnections = maxConnections
        limits.maximumUploadBytes = maxUploadMB << 20
        limits.concurrentUploads = concurrentUploads
        limits.rendersPerSession = rendersPerSession
        limits.trustedProxies = Set(trustedProxies.compactMap(PickerServerLimits.ipAddress))
        return limits
    }
}

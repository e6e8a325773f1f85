import AssetsKit
import Foundation
import Hummingbird
import Logging
import NIOCore
import PickerSessions

/// The picker server: client programs create picker sessions and read exactly what a person
/// picked (`/v1/sessions…` and `/v1/mediaItems`, the Google Photos Picker API's wire format, described by `/openapi.json`); the person, signed in through a
/// one-time link (``signIn``), picks in the web picker at each session's `pickerUri`.
public struct PickerServer: Sendable {
    public let configuration: PickerServerConfiguration
    public let library: any PhotoLibrary
    /// The server's picker sessions.
    public let sessions: any SessionStoring
    /// The person's sign-in: ``signInPath(link:next:)`` of a link from `PersonSignIn.makeLink()`
    /// signs a browser in.
    public let signIn: PersonSignIn
    private let showSignInLink: @Sendable (String) -> Void
    private let logger: Logger

    /// A server for `library`; nothing listens until ``run(handlesSignals:onListening:)``.
    /// - Parameters:
    ///   - library: The library the server shows and hands picks from.
    ///   - configuration: Where to listen, the client key, the session lifetime and polling interval,
    ///     the public URL and the limits.
    ///   - sessions: The store of picker sessions, which several servers may share; by default a
    ///     new one in this process's memory whose sessions live `configuration.sessionLifetime`
    ///     on the wall clock, with `configuration.limits.ownSessions` places kept for the person's own.
    ///   - signIn: The person's sign-in; by default a new one (nobody is signed in).
    ///   - showSignInLink: Shows the server's operator a sign-in link (a full URL) made because
    ///     someone opened a picker page without being signed in; `serve` prints it.
    ///   - logger: The log of the server and of its Hummingbird application.
    public init(library: any PhotoLibrary, configuration: PickerServerConfiguration = PickerServerConfiguration(),
                sessions: (any SessionStoring)? = nil, signIn: PersonSignIn = PersonSignIn(),
                showSignInLink: @escaping @Sendable (String) -> Void = { _ in },
                logger: Logger = Logger(label: "assets-picker.server")) {
        self.library = library
        self.configuration = configuration
        self.logger = logger
        self.sessions = sessions ?? MemorySessionStore(lifetime: configuration.sessionLifetime,
                                                       ownCapacity: configuration.limits.ownSessions)
        self.signIn = signIn
        self.showSignInLink = showSignInLink
    }

    /// The path of the sign-in link with token `link`, going on to `next` once the browser is
    /// signed in: a picker page (a `pickerUri`'s path) or the demo client page (`/demo/`); any
    /// other `next` is dropped.
    public static func signInPath(link: String, next: String? = nil) -> String {
        SignInRoutes.path(link: link, next: next.flatMap { SignInRoutes.isPersonPage($0) ? $0 : nil })
    }

    /// Makes the server's own picker session (default settings), the one `serve` opens through
    /// its first sign-in link. It is one of the person's own sessions: after Done in it the page
    /// goes on to the demo client page (`/demo/`), which shows its picks as a client program
    /// receives them (docs/SECURITY.md, "The person's own sessions"). Sessions that client
    /// programs create are never shown that way.
    /// - Throws: `PickerSessionError` when the session store is full, or the person's own
    ///   places are; `SessionStoreFailure` when the store cannot be reached.
    public func makeOwnSession() async throws -> PickerSession {
        try await sessions.create(settings: PickerSessionSettings(), preselected: [], place: .own)
    }

    /// Serves until the task is cancelled or, with `handlesSignals`, SIGINT or SIGTERM arrives;
    /// open requests are finished first.
    /// - Parameters:
    ///   - handlesSignals: Whether SIGINT and SIGTERM stop the server gracefully (a command does; a test doesn't).
    ///   - onListening: Told the port once the server listens (it may have asked for port 0).
    /// - Throws: What binding or serving threw, e.g. the port is taken; ``PickerServerError`` when the web picker's files are missing.
    public func run(handlesSignals: Bool = false, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let bound = BoundAddress()
        let media = MediaResponder(library: library, budget: SessionRenderBudget(limit: configuration.limits.rendersPerSession))
        let state = ServerState(configuration: configuration, library: library, sessions: sessions,
                                media: media, assets: AssetMemo(), fetches: FetchMemo(library: library),
                                logger: logger, boundAddress: bound, signIn: signIn, showSignInLink: showSignInLink)
        let router = try makeRouter(state: state)
        let serverName = "assets-picker"
        let app = Application(
            router: router,
            server: .picker(limits: configuration.limits) { RenditionFastPath(state: state, serverName: serverName) },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: serverName),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                bound.set(port: port)
                await onListening(port)
            },
            logger: Self.applicationLogger(logger)
        )
        try await withThrowingDiscardingTaskGroup { group in
            // A change to the library makes remembered assets, fetches, renditions and its trash stale.
            group.addTask {
                for await _ in library.changes() {
                    state.assets.forgetAll()
                    state.fetches.forgetAll()
                    state.pickable.forgetAll()
                    state.media.renditions.forgetAll()
                }
            }
            do {
                if handlesSignals {
                    try await app.runService()
                } else {
                    try await app.run()
                }
            } catch let error as IOError where error.errnoCode == EADDRINUSE {
                throw PickerServerError.portInUse(host: configuration.host, port: configuration.port)
            }
            group.cancelAll()
        }
    }

    private func makeRouter(state: ServerState) throws -> Router<BasicRequestContext> {
        let files: StaticFiles, document: OpenAPIDocument
        do {
            files = try StaticFiles.bundled()
            document = try OpenAPIDocument.bundled()
        } catch {
            throw PickerServerError.missingResources(String(describing: error))
        }
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.middlewares.add(ServedHeaders.Middleware())
        router.middlewares.add(ErrorMiddleware())
        router.middlewares.add(AccessMiddleware(state: state))
        router.get("openapi.json") { _, _ in document.response }
        router.get("/") { _, _ in Self.homePage }
        let sessionRoutes = SessionRoutes(state: state), mediaItemRoutes = MediaItemRoutes(state: state)
        sessionRoutes.add(to: router)
        mediaItemRoutes.add(to: router)
        SignInRoutes(state: state).add(to: router)
        PickerPageRoutes(state: state, files: files).add(to: router)
        DemoClientRoutes(state: state, files: files, sessions: sessionRoutes, mediaItems: mediaItemRoutes).add(to: router)
        return router
    }

    private static var homePage: Response {
        let html = """
            <!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>AssetsPicker</title><body style="font-family: system-ui, sans-serif; padding: 3rem; max-width: 40rem">
            <h1>AssetsPicker</h1><p>A picker server. Programs create picker sessions through the API described by
            <a href="/openapi.json">/openapi.json</a>; people pick at each session's picker URI.</p>
            <p>The library's owner, signed in, can <a href="/demo/">try it as a program would</a>.</p></body></html>
            """
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension PickerServer {
    /// The log Hummingbird writes to: the server's, at notice or above, so that its routine
    /// start-up line does not come before the lines a command prints to say what to open.
    static func applicationLogger(_ logger: Logger) -> Logger {
        var quieter = logger
        quieter.logLevel = max(logger.logLevel, .notice)
        return quieter
    }

    /// Starts keeping a library in line with its storage while the server runs, when it can
    /// (`PhotoLibrary.watching`), so that files added or removed by others appear in open
    /// pickers (through the library's change stream, which the picker page follows). Says so in
    /// the log, with each catch-up.
    ///
    /// - Returns: The running watch, to stop when the server stops; `nil` for a library that
    ///   needs no watching (a folder library lists the folder on every fetch).
    public static func startWatching(_ library: any PhotoLibrary, logger: Logger) async -> (any LibraryWatch)? {
        guard let watching = library.watching else { return nil }
        return await watching.startWatching { event in
            let level: Logger.Level = switch event.importance {
            case .routine: .debug
            case .notable: .info
            case .warning: .warning
            case .failure: .error
            }
            logger.log(level: level, "\(event)")
        }
    }
}

/// Why a picker server could not start.
public enum PickerServerError: Error, CustomStringConvertible {
    /// The web picker's files or the OpenAPI document are not beside the program.
    case missingResources(String)
    /// Another program listens on the address and port asked for.
    case portInUse(host: String, port: Int)

    public var description: String {
        switch self {
        case .missingResources(let detail): "The picker server's web files or API document are missing (\(detail)); reinstall or rebuild the program."
        case .portInUse(let host, let port): "Port \(port) on \(host) is in use by another program."
        }
    }
}

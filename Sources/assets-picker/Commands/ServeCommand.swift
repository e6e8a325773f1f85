import ArgumentParser
import AssetsKit
import Foundation
import LibraryOpening
import Logging
import PickerServer
import PickerSessions
import PostgresSessions

/// `serve`: the picker server — client programs create picker sessions, people pick in the web picker.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web picker and the picker sessions API.",
        discussion: """
            Two principals: client programs authenticate with the client key (--client-key-file, or \
            the ASSETS_PICKER_CLIENT_KEY environment variable; else a new one is made and printed) \
            and receive only what the person picked; the person, the library's owner, signs in to \
            the picker by opening the one-time sign-in link printed here (a new one is printed when \
            a picker page is opened without signing in). \
            A session is made at start, and the printed link opens it, so that you can try the picker at once. \
            With --database postgresql://… (or ASSETS_PICKER_DATABASE_URL) the person's sign-ins are kept in that \
            database: a link printed by one server works once on any server sharing it, and a signed-in browser \
            stays signed in across them and their restarts; without it, in this process's memory. \
            An indexed library is watched: files added or removed in its folder appear in open pickers \
            (--no-watch: only what 'assets-picker index' finds); the previews its index lacks (an 'index' \
            returns before they are made) are made in the background, newest first. \
            Stops cleanly on SIGINT or SIGTERM.
            """
    )

    @OptionGroup var options: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ServerLimitOptions

    @Option(name: .long, help: "The address to listen on (loopback unless told otherwise).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: ArgumentHelp("A file holding the key client programs send as 'Authorization: Bearer <key>' (at least 16 characters; one line).",
                                            valueName: "file"),
            completion: .file())
    var clientKeyFile: String?

    /// Refused with a pointer to the ways that keep the key out of `ps`.
    @Option(name: .long, help: .hidden)
    var clientKey: String?

    @Option(name: .long, help: "Minutes a picker session lives.")
    var sessionMinutes: Double = 60

    @Option(name: .long, help: "The URL people reach the server at, when a proxy stands in front of it.",
            transform: { text in
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw ValidationError("--public-url must be an http or https URL; got '\(text)'.")
                }
                return url
            })
    var publicURL: URL?

    @Flag(inversion: .prefixedNo, help: "Rescan an indexed library when files change in its folder (inotify; else every 30 s).")
    var watch = true

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        if clientKey != nil {
            throw ValidationError("--client-key would show the key to every user of this machine (in ps); give it with --client-key-file FILE or ASSETS_PICKER_CLIENT_KEY.")
        }
        if let key = try resolvedClientKey(), key.count < 16 {
            throw ValidationError("The client key must have at least 16 characters.")
        }
        guard sessionMinutes > 0, sessionMinutes <= 7 * 24 * 60 else {
            throw ValidationError("--session-minutes must be more than 0 and at most a week.")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
    }

    /// The client key from `--client-key-file` or the environment (never from the command line,
    /// which every user of the machine sees in `ps`); `nil`: make one up.
    private func resolvedClientKey() throws -> String? {
        if let clientKeyFile {
            guard let data = FileManager.default.contents(atPath: clientKeyFile) else {
                throw ValidationError("--client-key-file: \(clientKeyFile) cannot be read.")
            }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return ProcessInfo.processInfo.environment["ASSETS_PICKER_CLIENT_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = PrintableLogHandler(base: StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let library = try await options.open(mayCreateIndex: true)
        let givenKey = try resolvedClientKey()
        var configuration = PickerServerConfiguration(
            host: host, port: port, clientKey: givenKey ?? SecretToken.make(byteCount: 24),
            sessionLifetime: .milliseconds(Int64(sessionMinutes * 60_000)), publicBaseURL: publicURL)
        configuration.limits = limits.limits
        let json = options.json
        let signIn = PersonSignIn(store: try await signInStore())
        let server = PickerServer(library: library, configuration: configuration, sessions: try await sessionStore(configuration),
                                  signIn: signIn) { link in
            Self.printSignInLink(link, json: json)
        }
        let firstLink = try await signIn.makeLink()
        // The previews the index lacks (an `index` returns before they are made) are made while
        // the server runs, newest first; the watcher asks for more as files come.
        library.previewing?.makePreviewsInBackground()
        let watcher = watch ? await PickerServer.startWatching(library, logger: Logger(label: "assets-picker.watcher")) : nil
        @Sendable func stopBackgroundWork() async {
            await watcher?.stop()
            await library.previewing?.stopMakingPreviews()
        }
        do {
            try await server.run(handlesSignals: true) { port in
                await announce(server: server, library: library, port: port, link: firstLink, keyWasGiven: givenKey != nil, isWatched: watcher != nil)
            }
        } catch let error as PickerServerError {
            await stopBackgroundWork()
            guard case .portInUse = error else { throw error }
            throw CommandFailure("\(error) Give another with --port N (with make run: PORT=N make run), or --port 0 for any free one.")
        } catch {
            await stopBackgroundWork()
            throw error
        }
        await stopBackgroundWork()
    }

    /// Where the person's sign-ins are kept: in the PostgreSQL database `--database` (or
    /// `ASSETS_PICKER_DATABASE_URL`) names, shared by every server on it; else `nil`, this
    /// process's memory.
    private func signInStore() async throws -> (any SignInStoring)? {
        guard case .postgres(let address) = try options.database.indexDatabase() else { return nil }
        return try await PostgresSignInStore.open(at: address)
    }

    /// Where the server keeps its picker sessions: with the index in PostgreSQL (`--database`,
    /// `ASSETS_PICKER_DATABASE_URL`) in that database, so that every server sharing it answers
    /// every session; else `nil`, this process's memory.
    private func sessionStore(_ configuration: PickerServerConfiguration) async throws -> (any SessionStoring)? {
        guard case .postgres(let address) = try options.database.indexDatabase() else { return nil }
        do {
            return try await PostgresSessionStore(address: address, lifetime: configuration.sessionLifetime,
                                                  ownCapacity: configuration.limits.ownSessions)
        } catch let error as SessionStoreFailure {
            throw CommandFailure("The picker sessions' tables cannot be opened: \(error.reason)")
        }
    }

    /// Prints where the server listens, its client key (only one it made up: a key given to it
    /// is never shown) and the sign-in link `link` that opens a picker to try.
    private func announce(server: PickerServer, library: any PhotoLibrary, port: Int, link: String, keyWasGiven: Bool, isWatched: Bool) async {
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : (host.contains(":") ? "[\(host)]" : host)
        let base = server.configuration.publicBaseURL?.absoluteString.trimmingSuffix("/") ?? "http://\(shownHost):\(port)"
        let trial = try? await server.makeOwnSession()
        let trialPath = trial.map { "/picker/\($0.id)/\($0.pickerToken)/" }
        let signInURL = base + PickerServer.signInPath(link: link, next: trialPath)
        let announcement = Announcement(url: base + "/", port: port, clientKey: keyWasGiven ? nil : server.configuration.clientKey,
                                        library: library.placeDescription, backend: library.backendName,
                                        signInUrl: signInURL, pickerUri: trialPath.map { base + $0 })
        if options.json {
            Self.printJSONLine(announcement)
        } else {
            let minutes = Int(server.signIn.linkLifetime.components.seconds / 60)
            let key = keyWasGiven
                ? "the one you gave (\(clientKeyFile.map { "--client-key-file " + $0 } ?? "ASSETS_PICKER_CLIENT_KEY"))"
                : server.configuration.clientKey
            let ownPhotos = options.library == nil
                ? "This is the demo library. For your own photos: make run LIBRARY=~/Pictures, or assets-picker serve --library ~/Pictures.\n"
                : ""
            let text = """
                AssetsPicker is serving \(PrintableText.escaping(library.placeDescription)) (\(library.backendName) library\(isWatched ? ", watched for changes" : "")) at \(base)/

                To pick, open this link in a browser (it signs you in; it works once, within \(minutes) minutes):

                    \(signInURL)

                After Done it shows what a program received; to try the API as a program would: \(base)/demo/

                \(ownPhotos)Programs: the API is \(base)/v1 (described at \(base)/openapi.json), with the client key
                    \(key)
                sent as 'Authorization: Bearer <key>'.

                Press Ctrl-C to stop the server.

                """
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Prints a sign-in link the server made because a picker page was opened without signing in.
    private static func printSignInLink(_ link: String, json: Bool) {
        if json {
            printJSONLine(["signInUrl": link])
        } else {
            FileHandle.standardOutput.write(Data("A picker page was opened in a browser that is not signed in. To sign it in, open this new link (it works once, like the first):\n    \(link)\n".utf8))
        }
    }

    private static func printJSONLine(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = (try? encoder.encode(value)) ?? Data()
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }

    /// What `serve --json` prints once it listens: one line. (Each sign-in link made later is
    /// one more line, `{"signInUrl": …}`.)
    struct Announcement: Encodable {
        let url: String
        let port: Int
        /// The client key the server made up; absent when one was given (it is never printed).
        let clientKey: String?
        let library: String
        let backend: String
        /// The person's one-time sign-in link; it goes on to ``pickerUri``.
        let signInUrl: String
        /// A session made at start, to try the picker.
        let pickerUri: String?
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

import ArgumentParser
import AssetsKit
import Foundation
import Logging
import Picker
import PickerServer

/// `serve`: the picker server — client programs create picker sessions, people pick in the web picker.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web picker and the picker sessions API.",
        discussion: """
            Client programs authenticate with the client key (--client-key, or the \
            ASSETS_PICKER_CLIENT_KEY environment variable; else a new one is made and printed). \
            A session is made at start so that you can try the picker at once. \
            An indexed library is watched: files added or removed in its folder appear in open pickers \
            (--no-watch: only what 'assets-picker index' finds). \
            Stops cleanly on SIGINT or SIGTERM.
            """
    )

    @OptionGroup var options: LibraryOptions

    @OptionGroup(title: "Limits") var limits: ServerLimitOptions

    @Option(name: .long, help: "The address to listen on (loopback unless told otherwise).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .long, help: "The key client programs send as 'Authorization: Bearer <key>' (at least 16 characters).")
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
        if let key = resolvedClientKey, key.count < 16 {
            throw ValidationError("The client key must have at least 16 characters.")
        }
        guard sessionMinutes > 0, sessionMinutes <= 7 * 24 * 60 else {
            throw ValidationError("--session-minutes must be more than 0 and at most a week.")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
    }

    private var resolvedClientKey: String? {
        clientKey ?? ProcessInfo.processInfo.environment["ASSETS_PICKER_CLIENT_KEY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let library = try await options.open()
        var configuration = PickerServerConfiguration(
            host: host, port: port, clientKey: resolvedClientKey ?? SecretToken.make(byteCount: 24),
            sessionLifetime: .milliseconds(Int64(sessionMinutes * 60_000)), publicBaseURL: publicURL)
        configuration.limits = limits.limits
        let server = PickerServer(library: library, configuration: configuration)
        let watcher = watch ? await PickerServer.startWatching(library, logger: Logger(label: "assets-picker.watcher")) : nil
        do {
            try await server.run(handlesSignals: true) { port in
                await announce(server: server, library: library, port: port)
            }
        } catch {
            await watcher?.stop()
            throw error
        }
        await watcher?.stop()
    }

    /// Prints where the server listens, its client key and a picker URI to try.
    private func announce(server: PickerServer, library: any PhotoLibrary, port: Int) async {
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : (host.contains(":") ? "[\(host)]" : host)
        let base = server.configuration.publicBaseURL?.absoluteString.trimmingSuffix("/") ?? "http://\(shownHost):\(port)"
        let trial = try? server.sessions.create(settings: PickerSessionSettings())
        let pickerURI = trial.map { "\(base)/picker/\($0.id)/\($0.pickerToken)/" }
        let announcement = Announcement(url: base + "/", port: port, clientKey: server.configuration.clientKey,
                                        library: library.rootURL.path, backend: library.backendName, pickerUri: pickerURI)
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var line = (try? encoder.encode(announcement)) ?? Data()
            line.append(0x0A)
            FileHandle.standardOutput.write(line)
        } else {
            var text = """
                AssetsPicker is serving \(library.rootURL.path) (\(library.backendName) library)
                  server       \(base)/
                  API          \(base)/openapi.json
                  client key   \(server.configuration.clientKey)   (send 'Authorization: Bearer <key>')

                """
            if let pickerURI { text += "  try it       \(pickerURI)\n" }
            text += "Press Ctrl-C to stop.\n"
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// What `serve --json` prints once it listens: one line.
    struct Announcement: Encodable {
        let url: String
        let port: Int
        let clientKey: String
        let library: String
        let backend: String
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

import Logging

/// A log handler that hands each line to another with its message and metadata made printable
/// (``PrintableText``): a file name with a newline in it cannot forge a line of the log, nor an
/// escape sequence act on the terminal showing it.
struct PrintableLogHandler: LogHandler {
    var base: any LogHandler

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: PrintableText.escaping(event.message.description))
        event.metadata = event.metadata.map { Self.printable($0) }
        base.log(event: event)
    }

    private static func printable(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.mapValues(printable)
    }

    private static func printable(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(PrintableText.escaping(text))
        case .stringConvertible(let convertible): .string(PrintableText.escaping(convertible.description))
        case .dictionary(let dictionary): .dictionary(printable(dictionary))
        case .array(let array): .array(array.map(printable))
        }
    }
}

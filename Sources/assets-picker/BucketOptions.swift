import ArgumentParser
import Foundation
import LibraryOpening

/// How a library in a bucket is reached: the options over the standard AWS variables.
struct BucketOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The S3 endpoint of a library given as s3://… (default: $AWS_ENDPOINT_URL, else AWS's in the region).",
                                            discussion: "The keys come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; they are never printed."),
            transform: { text in
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw ValidationError("--endpoint-url must be an http or https address, e.g. http://127.0.0.1:9000")
                }
                return url
            })
    var endpointURL: URL?

    @Option(name: .long, help: "The S3 region of a library given as s3://… (default: $AWS_REGION, else us-east-1).")
    var region: String?

    @Option(name: .long, help: ArgumentHelp("The most the originals fetched from a bucket may take on this machine, in MB (default: 2048).",
                                            discussion: "Beyond it the least recently used are removed, never the one just fetched (one larger than the budget is kept until the next)."),
            transform: { text in
                guard let megabytes = Int64(text), (1...Int64.max / 1_048_576).contains(megabytes) else {
                    throw ValidationError("--originals-cache-mb must be a whole number of megabytes, at least 1")
                }
                return megabytes
            })
    var originalsCacheMb: Int64?

    /// The connection these options and the environment give.
    var connection: BucketConnection {
        BucketConnection(endpoint: endpointURL, region: region, originalsByteBudget: originalsCacheMb.map { $0 * 1_048_576 })
    }
}

/// A library's place as the command line takes it: `s3://BUCKET/PREFIX` as written, anything
/// else a path of this machine.
enum LibraryPlace {
    static func url(_ text: String) throws -> URL {
        guard text.lowercased().hasPrefix("s3://") else { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text) else { throw ValidationError(BucketOpeningError.invalidAddress(text).description) }
        return url
    }
}

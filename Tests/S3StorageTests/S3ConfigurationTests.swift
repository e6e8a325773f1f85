import Foundation
import Testing
import S3Storage

@Suite("configuration from the standard AWS variables")
struct S3ConfigurationTests {
    static let keys = ["AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret-value"]

    @Test("the variables give endpoint, region, keys and token; a custom endpoint is path style")
    func fromVariables() throws {
        let configuration = try S3Configuration.standard(environment: Self.keys.merging([
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_REGION": "eu-west-3", "AWS_SESSION_TOKEN": "token",
        ]) { $1 })
        #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.credentials == S3Credentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "very-secret-value",
                                                           sessionToken: "token"))
        #expect(configuration.usesPathStyle)
    }

    @Test("without an endpoint it is AWS's, in the region, virtual-hosted; AWS_DEFAULT_REGION counts, us-east-1 by default")
    func awsDefaults() throws {
        let plain = try S3Configuration.standard(environment: Self.keys)
        #expect(plain.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com")
        #expect(plain.region == "us-east-1")
        #expect(!plain.usesPathStyle)
        let regional = try S3Configuration.standard(environment: Self.keys.merging(["AWS_DEFAULT_REGION": "ap-south-1"]) { $1 })
        #expect(regional.endpoint.absoluteString == "https://s3.ap-south-1.amazonaws.com")
    }

    @Test("an endpoint is kept in one form; one with a user or password, a query or a fragment is refused without repeating it")
    func endpointForm() throws {
        for given in ["http://127.0.0.1:5055", "http://127.0.0.1:5055/", "HTTP://127.0.0.1:5055//"] {
            let configuration = try S3Configuration.standard(environment: Self.keys.merging(["AWS_ENDPOINT_URL": given]) { $1 })
            #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:5055", "\(given)")
        }
        #expect(try S3Configuration.standard(environment: Self.keys, endpoint: URL(string: "https://Nas.example/base/")!).endpoint.absoluteString
            == "https://nas.example/base")
        for refused in ["http://minio-user:minio-PASSWORD@127.0.0.1:5075", "http://minio-user@127.0.0.1:5075",
                        "http://127.0.0.1:5055/?x=1", "http://127.0.0.1:5055/#frag"] {
            do {
                _ = try S3Configuration.standard(environment: Self.keys, endpoint: URL(string: refused)!)
                Issue.record("\(refused) was taken")
            } catch {
                #expect(!"\(error)".contains("PASSWORD") && !"\(error)".contains("minio-user") && !"\(error)".contains("127.0.0.1:50"), "\(error)")
                #expect("\(error)".contains("must not carry"), "\(error)")
            }
        }
    }

    @Test("options override the variables; AWS_ENDPOINT_URL_S3 overrides AWS_ENDPOINT_URL")
    func optionsOverride() throws {
        let environment = Self.keys.merging(["AWS_ENDPOINT_URL": "http://a:1", "AWS_ENDPOINT_URL_S3": "http://b:2", "AWS_REGION": "x"]) { $1 }
        #expect(try S3Configuration.standard(environment: environment).endpoint.absoluteString == "http://b:2")
        let chosen = try S3Configuration.standard(
            environment: environment, endpoint: URL(string: "https://c")!, region: "y",
            credentials: S3Credentials(accessKeyID: "K", secretAccessKey: "S"), usesPathStyle: false)
        #expect(chosen.endpoint.absoluteString == "https://c")
        #expect(chosen.region == "y")
        #expect(chosen.credentials.accessKeyID == "K")
        #expect(!chosen.usesPathStyle)
    }

    @Test("a missing key is one line naming the variable")
    func missingVariable() {
        #expect(throws: S3Error.notConfigured("AWS_ACCESS_KEY_ID is not set: set it and AWS_SECRET_ACCESS_KEY, or give the keys as options")) {
            try S3Configuration.standard(environment: [:])
        }
        do {
            _ = try S3Configuration.standard(environment: ["AWS_ACCESS_KEY_ID": "K"])
            Issue.record("no error without AWS_SECRET_ACCESS_KEY")
        } catch {
            #expect("\(error)".hasPrefix("AWS_SECRET_ACCESS_KEY is not set"))
        }
        #expect(throws: S3Error.self) {
            try S3Configuration.standard(environment: Self.keys.merging(["AWS_ENDPOINT_URL": "ftp://host"]) { $1 })
        }
    }

    @Test("neither printing nor dumping a configuration shows the secret or the token")
    func redaction() throws {
        let configuration = try S3Configuration.standard(environment: Self.keys.merging(["AWS_SESSION_TOKEN": "token-value"]) { $1 })
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), "\(configuration.credentials)",
                     String(reflecting: configuration.credentials), dumped] {
            #expect(!text.contains("very-secret-value"))
            #expect(!text.contains("token-value"))
            #expect(text.contains("AKIAEXAMPLE"))
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A session that neither keeps nor sends cookies by itself: each request carries exactly
    /// the credentials a test gives it (the person's cookie, the client key, or none).
    ///
    /// A request may wait five minutes (a hang's bound), not URLSession's one: with the whole
    /// suite running at once on two cores, a folder library's first album list, which reads
    /// its files, took 40–60 s with nothing wrong.
    public static let cookieless: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 300
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
    }()
}

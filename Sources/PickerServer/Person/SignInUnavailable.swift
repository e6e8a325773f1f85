import HTTPTypes
import Hummingbird

extension ServerState {
    /// The answer when the person's sign-in store could not be asked (a database that cannot be
    /// reached, say): 503 with `Retry-After`, never "signed out" and never signed in. The log
    /// gets one line with the store's error; the answer names no database.
    func signInUnavailable(_ error: any Error) -> APIError {
        logger.error("the person's sign-ins could not be read or kept: \(error)")
        var unavailable = APIError(.serviceUnavailable, code: "signInUnavailable",
                                   "The server cannot reach the person's sign-ins just now; try again in a few seconds.")
        unavailable.headers[.retryAfter] = "5"
        return unavailable
    }
}

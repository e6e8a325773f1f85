import Crypto

/// What a sign-in store keeps of a secret: its SHA-256 digest, from which the secret cannot be
/// found, so that whoever reads the store cannot sign in with what they read.
enum SecretDigest {
    /// The SHA-256 digest of `secret`'s bytes.
    static func of(_ secret: some Collection<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret)))
    }
}

import AssetsKit
import Foundation
import PickerSessions
import TestSupport
import Testing

/// Sessions' and sign-ins' tokens: random, URL-safe, compared in constant time.
@Suite struct SecretTokenTests {
    @Test func tokensAreRandom128BitURLSafeStrings() {
        let tokens = (0..<1_000).map { _ in SecretToken.make() }
        #expect(Set(tokens).count == 1_000)
        #expect(tokens.allSatisfy { $0.count == 22 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
        #expect(SecretToken.matches("abc", "abc"))
        #expect(!SecretToken.matches("abd", "abc"))
        #expect(!SecretToken.matches("ab", "abc"))
    }

    @Test func secretsCompareAlikeFromEveryKindOfText() {
        let token = "x." + SecretToken.make(byteCount: 32), secret = String(token.dropFirst(2))
        let contiguous = token.dropFirst(2), bridged = Substring(Array(secret.utf8).map { Character(UnicodeScalar($0)) })
        #expect(SecretToken.matches(contiguous.utf8, secret.utf8))
        #expect(SecretToken.matches(bridged.utf8, secret.utf8))
        #expect(SecretToken.matches(Array(secret.utf8), secret.utf8))
        #expect(!SecretToken.matches(contiguous.utf8.dropLast(), secret.utf8))
        #expect(!SecretToken.matches(Array(secret.utf8.dropLast()) + [UInt8(ascii: "!")], secret.utf8))
        #expect(!SecretToken.matches((String(secret.dropLast()) + "!").utf8, secret.utf8))
    }
}

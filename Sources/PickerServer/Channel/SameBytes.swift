import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// Whether `other` holds the same bytes: one `memcmp`, where `elementsEqual` would step
    /// through both a byte at a time (the fast path compares names on every request).
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }
}

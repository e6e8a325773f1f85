import AssetsKit

/// The capture-time buckets of `timeline_count` (SQLite's schema v8, PostgreSQL's fifth
/// migration), and how a jump deep into a date-ordered list is planned from their counts.
///
/// A bucket is 30 days of `creationDate`: `floor((creationDate + shift) / seconds)`. At
/// 1,000,000 assets over fifteen years a bucket holds ~5,500 of them, so a jump to any position
/// skips at most one bucket's rows in the browse index, where an OFFSET skips every row before
/// the position.
package enum TimelineBuckets {
    /// A bucket's width in seconds of capture time.
    package static let seconds: Int64 = 2_592_000
    /// Added before dividing, so the quotient is positive for any date after about 6200 BC and
    /// SQLite's truncation is PostgreSQL's `floor`.
    package static let shift: Int64 = 259_200_000_000
    /// Below this offset a page is found by OFFSET, as cheap as reading the counts.
    package static let jumpThreshold = 10_000

    /// Where a page that starts `offset` rows into a list begins: the rows on the near side of
    /// `bound` (newer than it, newest first; older than it, oldest first) are the whole buckets
    /// before the position; `skip` more rows are skipped past it.
    package struct Jump: Sendable, Equatable {
        /// The first capture time of the bucket after the position's (newest first), or of the
        /// position's own bucket (oldest first).
        package var bound: Double
        package var skip: Int
    }

    /// The jump to `offset` of a list in `order`, from its buckets' counts in that order;
    /// `nil` when the position is past the end.
    package static func jump(to offset: Int, order: DateOrder, counts: [(bucket: Int64, count: Int)]) -> Jump? {
        var before = 0
        for (bucket, count) in counts {
            if before + count > offset {
                let edge = order == .newestFirst ? bucket + 1 : bucket
                return Jump(bound: Double(edge * seconds - shift), skip: offset - before)
            }
            before += count
        }
        return nil
    }
}

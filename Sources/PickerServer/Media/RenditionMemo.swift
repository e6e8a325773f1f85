import Hummingbird
import ImagePipeline
import Synchronization

/// The final renditions the server answered lately, ready to be sent again: a grid that is
/// opened again, or scrolled back, is answered without touching the library or the image
/// pipeline (no index read, no cache file, no thread hand-off).
///
/// Keyed by the pipeline's `RenditionKey`, the one name of a rendition (its entity tag derives
/// from it); bounded in bytes, the least recently used going first. Only final renditions go in,
/// so whatever is found may be answered to any delivery mode. The server's renders ask the
/// pipeline not to keep their bytes in memory (``AssetsKit/ImageRequest/keepsInMemory``): the
/// bytes of a rendition are held here, once.
final class RenditionMemo: Sendable {
    /// A rendition as it goes on the wire (a class: handed out on every hit, one reference to count).
    final class Rendition: Sendable {
        /// The answer: status 200 and every header a route gives it.
        let answer: PreparedAnswer
        /// The entity tag.
        let tag: String
        /// The answer to a client whose copy is this one (304), made once.
        let notModified: PreparedAnswer

        init(answer: PreparedAnswer, tag: String, cacheControl: String) {
            self.answer = answer
            self.tag = tag
            notModified = .notModified(tag: tag, cacheControl: cacheControl)
        }

        var byteCount: Int { answer.body?.readableBytes ?? 0 }
    }

    private struct Entry {
        let rendition: Rendition
        var lastUse: UInt64
    }

    private struct State {
        var entries: [RenditionKey: Entry] = [:]
        var byteCount = 0
        var clock: UInt64 = 0
    }

    /// The most bytes of renditions kept.
    let byteLimit: Int
    private let state = Mutex(State())

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    /// The rendition under `key`, if it is still here.
    func rendition(for key: RenditionKey) -> Rendition? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.clock += 1
            state.entries.values[index].lastUse = state.clock
            return state.entries.values[index].rendition
        }
    }

    /// Keeps `rendition` under `key`; when over the limit, the least recently used go until a
    /// quarter of the room is free again (one sort for many evictions). A rendition larger than
    /// a quarter of the limit is not kept.
    func remember(_ rendition: Rendition, for key: RenditionKey) {
        let size = rendition.byteCount
        guard size <= byteLimit / 4 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(rendition: rendition, lastUse: state.clock), forKey: key) {
                state.byteCount -= old.rendition.byteCount
            }
            state.byteCount += size
            guard state.byteCount > byteLimit else { return }
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.byteCount > byteLimit * 3 / 4 else { break }
                state.entries[key] = nil
                state.byteCount -= entry.rendition.byteCount
            }
        }
    }

    /// The bytes held now.
    var byteCount: Int { state.withLock { $0.byteCount } }

    func forgetAll() {
        state.withLock { $0 = State() }
    }
}

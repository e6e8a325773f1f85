import AssetsKit
import Foundation
import PickerSessions
import Testing

/// The picker's selection: maximum, media filter, order, byte size.
@Suite struct PickSelectionTests {
    private func asset(_ day: Int, _ type: MediaType = .photo, bytes: Int64 = 1_000) -> PickedAsset {
        PickedAsset(Asset(id: .local(LocalIdentifier(uuid: UUID())), filename: "IMG_\(day).JPG", mediaType: type,
              pixelSize: PixelSize(width: 100, height: 100), creationDate: Date(timeIntervalSince1970: Double(day) * 86_400),
              creationDateSource: .exif, modificationDate: Date(), byteSize: bytes, format: "jpeg"))
    }

    @Test func theMaximumIsNeverExceededAndRepeatsCountOnce() throws {
        var selection = PickSelection(maximum: 2)
        let (a, b, c) = (asset(1), asset(2), asset(3))
        try selection.add(a)
        try selection.add(a)
        try selection.add(b)
        #expect(selection.count == 2)
        #expect(selection.isFull)
        #expect(throws: SelectionError.maximumReached(2)) { try selection.add(c) }
        #expect(selection.assets.map(\.uuid) == [a.uuid, b.uuid])
        selection.remove(a.uuid)
        try selection.add(c)
        #expect(selection.assets.map(\.uuid) == [b.uuid, c.uuid])
    }

    @Test func replacingIsAllOrNothing() throws {
        var selection = PickSelection(maximum: 2, filter: .photo)
        let (a, b, c, film) = (asset(1), asset(2), asset(3), asset(4, .video))
        try selection.replace(with: [b, a, b])
        #expect(selection.assets.map(\.uuid) == [b.uuid, a.uuid])
        #expect(throws: SelectionError.maximumReached(2)) { try selection.replace(with: [a, b, c]) }
        #expect(throws: SelectionError.notAllowed(filename: film.filename)) { try selection.replace(with: [film]) }
        #expect(selection.assets.map(\.uuid) == [b.uuid, a.uuid])
    }

    @Test func picksAreHandedOverInPickOrderOrOldestFirst() throws {
        var selection = PickSelection(maximum: 10)
        let picks = [asset(5), asset(1), asset(9), asset(3)]
        for pick in picks { try selection.add(pick) }
        #expect(selection.ordered(by: .pick).map(\.uuid) == picks.map(\.uuid))
        #expect(selection.ordered(by: .date).map(\.filename) == ["IMG_1.JPG", "IMG_3.JPG", "IMG_5.JPG", "IMG_9.JPG"])
    }

    @Test func theByteSizeCountsPhotosAndVideos() throws {
        var selection = PickSelection(maximum: 5)
        try selection.add(asset(1, bytes: 2_500_000))
        try selection.add(asset(2, .video, bytes: 40_000_000))
        #expect(selection.byteSize == 42_500_000)
    }

    @Test func theMaximumMessageSaysWhatToDo() {
        #expect(SelectionError.maximumReached(5).description == "You can pick up to 5 items. Unselect one to pick another.")
    }
}

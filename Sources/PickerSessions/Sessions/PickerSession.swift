import AssetsKit
import Foundation

/// One picker session: a client program asked for picks, a person picks in the browser, the
/// client reads exactly what was picked (the model of PHPicker and the Google Photos Picker API).
public struct PickerSession: Sendable, Identifiable {
    /// The session's identifier, random (128 bits), known to the client.
    public let id: String
    /// The secret in the picker URI that lets the person's browser pick (128 bits).
    public let pickerToken: String
    public let settings: PickerSessionSettings
    public let createTime: Date
    /// When every URL of the session stops working.
    public let expireTime: Date
    public internal(set) var state: PickerSessionState = .picking
    /// What the person has picked so far.
    public internal(set) var selection: PickSelection
    /// The identifiers the client asked to preselect, not looked at yet: they are resolved when
    /// the person first opens the picker (``SessionStoring/applyPreselection(_:session:token:)``),
    /// so that nothing the client can time depends on what they name. Empty once resolved.
    public internal(set) var pendingPreselection: [String]
    /// Preselected identifiers that were dropped: deleted since, unknown, hidden, or of another
    /// media type. For the person's picker page only; never told to the client.
    public internal(set) var droppedPreselected: [String] = []

    /// A session as a store keeps it.
    package init(id: String, pickerToken: String, settings: PickerSessionSettings, createTime: Date, expireTime: Date,
                 state: PickerSessionState = .picking, selection: PickSelection, pendingPreselection: [String],
                 droppedPreselected: [String] = []) {
        self.id = id
        self.pickerToken = pickerToken
        self.settings = settings
        self.createTime = createTime
        self.expireTime = expireTime
        self.selection = selection
        self.pendingPreselection = pendingPreselection
        self.state = state
        self.droppedPreselected = droppedPreselected
    }

    /// Whether the person has finished (Done or Cancel): the items can be read.
    public var mediaItemsSet: Bool { state != .picking }

    /// What the client receives: the picks in the session's order once Done; none before, none when cancelled.
    public var pickedItems: [PickedAsset] {
        state == .complete ? selection.ordered(by: settings.order) : []
    }

    /// The picked asset with this UUID, once Done; `nil` for anything else.
    public func pickedItem(_ uuid: UUID) -> PickedAsset? {
        guard state == .complete else { return nil }
        return selection.assets.first { $0.uuid == uuid }
    }
}

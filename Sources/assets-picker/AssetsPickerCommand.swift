import ArgumentParser
import ImagePipeline
import PickerServer

/// `assets-picker`: browse a photo library and get images of its assets.
@main
struct AssetsPickerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets-picker",
        abstract: "Browse a photo library and get its photos and videos at the sizes you need.",
        discussion: """
            Without --library, a demo library is used; it is generated on first use in your \
            data folder ($XDG_DATA_HOME or ~/.local/share).

            Nothing is written inside a library folder unless you ask for it (import). A \
            library's index lives in your data folder, one per library folder \
            (assets-picker/libraries/<name>-<key>/library.sqlite), or where --index says. \
            Commands that only read (albums, assets, info, image, export, changes) use the \
            index when it exists and otherwise read the folder itself; they never make one. \
            index, serve, import and the commands that change albums or assets make it when \
            missing.
            """,
        subcommands: [ServeCommand.self, IndexCommand.self, AlbumsCommand.self, AssetsCommand.self, ImageCommand.self, InfoCommand.self, ExportCommand.self,
                      AlbumCommand.self, ImportCommand.self, DeleteCommand.self, RestoreCommand.self, FavoriteCommand.self,
                      ChangesCommand.self, DraftCommand.self]
    )

    /// Before anything runs: caps malloc arenas (see ``ImageRenderer/limitMallocArenas(to:)``)
    /// and lets async work run on SwiftNIO's event loops (see
    /// ``PickerServer/runConcurrencyOnEventLoops()``; blocking work has threads of its own).
    @MainActor static func main() async {
        ImageRenderer.limitMallocArenas(to: 2)
        PickerServer.runConcurrencyOnEventLoops()
        await main(nil)
    }
}

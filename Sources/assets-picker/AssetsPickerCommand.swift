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

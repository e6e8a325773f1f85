import AssetsKit
import Foundation

extension OpenOriginal {
    /// `error` with this file named by its `OpenOriginal.filename`: the pipeline reads it
    /// through `/proc/…/fd/N` (`OpenOriginal.url`), which means nothing to a person.
    public func naming(_ error: any Error) -> any Error {
        switch error {
        case let error as ImagePipelineError: naming(error)
        case let error as VideoError: naming(error)
        default: error
        }
    }

    private func naming(_ error: ImagePipelineError) -> ImagePipelineError {
        switch error {
        case let .tooManyPixels(file, pixels, limit): .tooManyPixels(file: naming(file), pixels: pixels, limit: limit)
        case let .undecodable(file, reason): .undecodable(file: naming(file), reason: naming(reason))
        case let .unsupportedFormat(file, reason): .unsupportedFormat(file: naming(file), reason: naming(reason))
        case let .unreadable(file, reason): .unreadable(file: naming(file), reason: naming(reason))
        case .encodingFailed, .libraryUnavailable: error
        }
    }

    private func naming(_ error: VideoError) -> VideoError {
        // Relative to the root, so that it reads as the bare name (never the working folder's path).
        let name = URL(fileURLWithPath: filename, isDirectory: false, relativeTo: URL(fileURLWithPath: "/", isDirectory: true))
        return switch error {
        case .fileNotFound: .fileNotFound(file: name)
        case let .unreadable(_, reason): .unreadable(file: name, reason: naming(reason))
        case .noVideoStream: .noVideoStream(file: name)
        case .noFrames: .noFrames(file: name)
        }
    }

    /// `text` with the paths this file is read by replaced by its file name.
    private func naming(_ text: String) -> String {
        text.replacingOccurrences(of: urlForChildProcess.path, with: filename)
            .replacingOccurrences(of: url.path, with: filename)
    }
}

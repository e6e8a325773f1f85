// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "AssetsPicker",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AssetsKit", targets: ["AssetsKit"]),
        .library(name: "ImageMetadata", targets: ["ImageMetadata"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "FolderLibrary", targets: ["FolderLibrary"]),
        .library(name: "IndexedLibrary", targets: ["IndexedLibrary"]),
        .library(name: "DemoLibrary", targets: ["DemoLibrary"]),
        .library(name: "Picker", targets: ["Picker"]),
        .library(name: "PickerServer", targets: ["PickerServer"]),
        .library(name: "PickerClient", targets: ["PickerClient"]),
        .executable(name: "assets-picker", targets: ["assets-picker"]),
        .executable(name: "assets-picker-bench", targets: ["assets-picker-bench"]),
        .executable(name: "assets-picker-index-bench", targets: ["assets-picker-index-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libvips as the system provides it (Debian: libvips-dev); only the shim sees its headers.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev), for small JPEGs.
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // Fixed-argument C wrappers over libvips' variadic API (and TurboJPEG); the only C in the tree.
        .target(name: "CVipsShim", dependencies: ["CVips", "CTurboJPEG"]),
        .target(name: "AssetsKit"),
        .target(name: "ImageMetadata", dependencies: ["AssetsKit"]),
        .target(name: "ImagePipeline", dependencies: ["AssetsKit", "ImageMetadata", "CVipsShim"]),
        .target(name: "FolderLibrary", dependencies: ["AssetsKit", "ImagePipeline"]),
        .target(
            name: "IndexedLibrary",
            dependencies: ["AssetsKit", "ImagePipeline", "FolderLibrary", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "DemoLibrary", dependencies: ["AssetsKit", "ImageMetadata", "ImagePipeline"]),
        .target(name: "Picker", dependencies: ["AssetsKit", "ImagePipeline", "FolderLibrary", "IndexedLibrary"]),
        // The picker server: the client programs' session API, the picker page's API and the web UI.
        .target(
            name: "PickerServer",
            dependencies: [
                "AssetsKit", "ImageMetadata", "ImagePipeline", "IndexedLibrary", "Picker",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            resources: [.copy("Web"), .copy("openapi.json")]
        ),
        // A client program's side of a picker session, over HTTP (Foundation only).
        .target(name: "PickerClient"),
        .executableTarget(
            name: "assets-picker",
            dependencies: [
                "AssetsKit", "ImagePipeline", "FolderLibrary", "IndexedLibrary", "DemoLibrary", "Picker", "PickerServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Times thumbnails against vipsthumbnail, djpeg and ImageMagick on a generated corpus.
        .executableTarget(
            name: "assets-picker-bench",
            dependencies: [
                "AssetsKit", "ImageMetadata", "ImagePipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The IndexedLibrary targets (first screen, pages, counts, scans, memory) as a table.
        .executableTarget(
            name: "assets-picker-index-bench",
            dependencies: ["AssetsKit", "ImagePipeline", "IndexedLibrary", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Finds the shared test corpus and reads its manifest; used by tests only.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "AssetsKitTests", dependencies: ["AssetsKit"]),
        .testTarget(name: "ImageMetadataTests", dependencies: ["ImageMetadata", "AssetsKit", "TestSupport"]),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "ImageMetadata", "AssetsKit", "CVipsShim", "TestSupport"]),
        .testTarget(name: "FolderLibraryTests", dependencies: ["FolderLibrary", "ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(name: "IndexedLibraryTests", dependencies: ["IndexedLibrary", "AssetsKit", "ImagePipeline", "TestSupport"]),
        .testTarget(name: "PickerTests", dependencies: ["Picker", "FolderLibrary", "ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(
            name: "PickerServerTests",
            dependencies: [
                "PickerServer", "PickerClient", "Picker", "IndexedLibrary", "FolderLibrary", "AssetsKit", "ImageMetadata", "ImagePipeline", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "CLITests", dependencies: ["assets-picker", "Picker", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)

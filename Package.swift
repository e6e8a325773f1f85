// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "AssetsPicker",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AssetsKit", targets: ["AssetsKit"]),
        .library(name: "ImageMetadata", targets: ["ImageMetadata"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "FolderLibrary", targets: ["FolderLibrary"]),
        .library(name: "DemoLibrary", targets: ["DemoLibrary"]),
        .executable(name: "assets-picker", targets: ["assets-picker"]),
        .executable(name: "assets-picker-bench", targets: ["assets-picker-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libvips as the system provides it (Debian: libvips-dev); only the shim sees its headers.
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Fixed-argument C wrappers over libvips' variadic API; the only C in the tree.
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(name: "AssetsKit"),
        .target(name: "ImageMetadata"),
        .target(name: "ImagePipeline", dependencies: ["AssetsKit", "ImageMetadata", "CVipsShim"]),
        .target(name: "FolderLibrary", dependencies: ["AssetsKit", "ImagePipeline"]),
        .target(name: "DemoLibrary", dependencies: ["AssetsKit", "ImageMetadata", "ImagePipeline"]),
        .executableTarget(
            name: "assets-picker",
            dependencies: [
                "AssetsKit", "ImagePipeline", "FolderLibrary", "DemoLibrary",
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
        // Finds the shared test corpus and reads its manifest; used by tests only.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "AssetsKitTests", dependencies: ["AssetsKit"]),
        .testTarget(name: "ImageMetadataTests", dependencies: ["ImageMetadata"]),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(name: "FolderLibraryTests", dependencies: ["FolderLibrary", "ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["assets-picker", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

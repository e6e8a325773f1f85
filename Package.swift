// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "AssetsPicker",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AssetsKit", targets: ["AssetsKit"]),
        .library(name: "ImageMetadata", targets: ["ImageMetadata"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "ProcessRunning", targets: ["ProcessRunning"]),
        .library(name: "MediaProbing", targets: ["MediaProbing"]),
        .library(name: "FolderLibrary", targets: ["FolderLibrary"]),
        .library(name: "IndexedLibrary", targets: ["IndexedLibrary"]),
        .library(name: "BucketLibrary", targets: ["BucketLibrary"]),
        .library(name: "PostgresIndex", targets: ["PostgresIndex"]),
        .library(name: "LibraryOpening", targets: ["LibraryOpening"]),
        .library(name: "DemoLibrary", targets: ["DemoLibrary"]),
        .library(name: "AssetExport", targets: ["AssetExport"]),
        .library(name: "PickerSessions", targets: ["PickerSessions"]),
        .library(name: "PickerServer", targets: ["PickerServer"]),
        .library(name: "PostgresSessions", targets: ["PostgresSessions"]),
        .library(name: "PickerClient", targets: ["PickerClient"]),
        .library(name: "S3Storage", targets: ["S3Storage"]),
        .executable(name: "assets-picker", targets: ["assets-picker"]),
        .executable(name: "assets-picker-bench", targets: ["assets-picker-bench"]),
        .executable(name: "assets-picker-index-bench", targets: ["assets-picker-index-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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
        // The vocabulary: assets, collections, fetches, image requests and the PhotoLibrary protocol (Foundation only).
        .target(name: "AssetsKit"),
        // EXIF read and written in pure Swift: JPEG/PNG/TIFF metadata, embedded thumbnails, JPEGs rebuilt without their location.
        .target(name: "ImageMetadata", dependencies: ["AssetsKit"]),
        // Other programs run without a shell and without blocking the thread pool: posix_spawn, pipes read on a thread of their own, timeouts (Foundation only).
        .target(name: "ProcessRunning"),
        // Files to images: decoding and thumbnails through libvips, video poster frames (ffmpeg), memory and disk caches, coalescing, prefetch.
        .target(name: "ImagePipeline", dependencies: ["AssetsKit", "ImageMetadata", "CVipsShim", "ProcessRunning"]),
        // What a media file is and says about itself: its type by name, header and EXIF, a video's facts through one ffprobe run.
        .target(name: "MediaProbing", dependencies: ["AssetsKit", "ImageMetadata", "ImagePipeline", "ProcessRunning"]),
        // Photograph-like images made from nothing, for the demo library and the benchmarks.
        .target(name: "SyntheticMedia", dependencies: ["AssetsKit", "CVipsShim", "ImagePipeline"]),
        // Folder code both backends share: the walk of a library tree, path UUIDs, symbolic-link policy, access probing and the authorization answered from it.
        .target(name: "LibraryTree", dependencies: ["AssetsKit", "MediaProbing"]),
        // A folder tree as a photo library, enumerated live with nothing written (the AssetsLibrary role).
        .target(name: "FolderLibrary", dependencies: ["AssetsKit", "ImagePipeline", "MediaProbing", "LibraryTree"]),
        // A SQLite-indexed library: scanner, watcher, smart albums, changes, drafts, keyset paging (the PhotoKit role).
        .target(
            name: "IndexedLibrary",
            dependencies: ["AssetsKit", "ImagePipeline", "MediaProbing", "LibraryTree", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // An indexed library over an S3 bucket: its objects listed and their heads read for the index, originals fetched into a local cache with a byte budget, shared, cancellable downloads.
        .target(
            name: "BucketLibrary",
            dependencies: ["AssetsKit", "ImagePipeline", "MediaProbing", "LibraryTree", "IndexedLibrary", "S3Storage"]
        ),
        // An indexed library's records in PostgreSQL (postgres-nio): the IndexStore for many servers over one library, changes pushed by LISTEN/NOTIFY.
        .target(
            name: "PostgresIndex",
            dependencies: ["AssetsKit", "LibraryTree", "MediaProbing", "IndexedLibrary",
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Picker servers' shared state in PostgreSQL: sessions, picks, Done/Cancel, expiry by the database's clock, the base-URL ledger and the person's sign-ins, changes pushed by LISTEN/NOTIFY.
        .target(
            name: "PostgresSessions",
            dependencies: ["AssetsKit", "PickerSessions", "PostgresIndex",
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        // Opening a library folder or bucket: the backend choice and where its index lives.
        .target(
            name: "LibraryOpening",
            dependencies: ["AssetsKit", "ImagePipeline", "MediaProbing", "FolderLibrary", "IndexedLibrary", "BucketLibrary", "PostgresIndex", "S3Storage"]
        ),
        // The built-in demo library: generated camera photos (with EXIF) and short videos (through ffmpeg), made on first use.
        .target(name: "DemoLibrary", dependencies: ["AssetsKit", "ImageMetadata", "ImagePipeline", "ProcessRunning", "SyntheticMedia"]),
        // Exporting assets: originals copied or renditions rendered, one per core, failures reported per asset.
        .target(name: "AssetExport", dependencies: ["AssetsKit", "ImagePipeline"]),
        // Picker sessions without HTTP: the selection, the session store, preselection, the person's sign-in (secrets kept as SHA-256 digests, swift-crypto).
        .target(name: "PickerSessions", dependencies: ["AssetsKit", .product(name: "Crypto", package: "swift-crypto")]),
        // The picker server: the client programs' session API, the picker page's API and the web UI.
        .target(
            name: "PickerServer",
            dependencies: [
                "AssetsKit", "ImageMetadata", "ImagePipeline", "MediaProbing", "PickerSessions",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Web"), .copy("openapi.json")]
        ),
        // A client program's side of a picker session, over HTTP (Foundation only).
        .target(name: "PickerClient"),
        // An S3 client of our own over async-http-client: SigV4 signing (swift-crypto), listing pages, ranged, resumable and cancellable downloads, uploads, presigned URLs.
        .target(
            name: "S3Storage",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The command line: serve, browse, export and change a library.
        .executableTarget(
            name: "assets-picker",
            dependencies: [
                "AssetsKit", "ImagePipeline", "MediaProbing", "LibraryTree", "LibraryOpening", "DemoLibrary",
                "AssetExport", "PickerSessions", "PickerServer", "PostgresSessions",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Times thumbnails against vipsthumbnail, djpeg and ImageMagick on a generated corpus; S3Storage against boto3 (s3); a client's =d downloads (client-originals).
        .executableTarget(
            name: "assets-picker-bench",
            dependencies: [
                "AssetsKit", "ImageMetadata", "ImagePipeline", "ProcessRunning", "SyntheticMedia", "S3Storage", "PickerClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The library targets (first screen, pages, counts, scans, large libraries on both backends, memory; 1M assets on SQLite and PostgreSQL side by side) as a table.
        .executableTarget(
            name: "assets-picker-index-bench",
            dependencies: ["AssetsKit", "ImageMetadata", "SyntheticMedia", "IndexedLibrary", "LibraryOpening", "PostgresIndex",
                           "PostgresSessions", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        // Finds the shared test corpus and reads its manifest, holds renders; used by tests only.
        .target(name: "TestSupport", dependencies: ["AssetsKit", "ImagePipeline", "ProcessRunning"], path: "Tests/Support"),
        // A real S3 server for tests (moto, started once per test process) and a proxy that drops or stalls its answers; used by tests only.
        .target(
            name: "S3TestSupport",
            dependencies: [
                "S3Storage", "ProcessRunning",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/S3Support"
        ),
        // A real PostgreSQL server for tests (Debian's postgresql-15, started once per test process as an unprivileged user), a fresh database per test; used by tests only.
        .target(
            name: "PostgresTestSupport",
            dependencies: ["PostgresIndex", "ProcessRunning", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresSupport"
        ),
        .testTarget(name: "AssetsKitTests", dependencies: ["AssetsKit"]),
        .testTarget(name: "ImageMetadataTests", dependencies: ["ImageMetadata", "ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(
            name: "ImagePipelineTests",
            dependencies: ["ImagePipeline", "MediaProbing", "ProcessRunning", "SyntheticMedia", "ImageMetadata", "AssetsKit", "CVipsShim", "TestSupport"]
        ),
        .testTarget(name: "ProcessRunningTests", dependencies: ["ProcessRunning", "TestSupport"]),
        .testTarget(name: "MediaProbingTests", dependencies: ["MediaProbing", "ImagePipeline", "ImageMetadata", "AssetsKit", "TestSupport"]),
        .testTarget(name: "FolderLibraryTests", dependencies: ["FolderLibrary", "LibraryTree", "ImagePipeline", "MediaProbing", "AssetsKit", "TestSupport"]),
        .testTarget(
            name: "IndexedLibraryTests",
            dependencies: ["IndexedLibrary", "PostgresIndex", "FolderLibrary", "LibraryTree", "ImagePipeline", "MediaProbing", "AssetsKit",
                           "TestSupport", "PostgresTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "LibraryOpeningTests", dependencies: ["LibraryOpening", "PostgresIndex", "AssetsKit", "TestSupport", "PostgresTestSupport"]),
        .testTarget(
            name: "BucketLibraryTests",
            dependencies: ["BucketLibrary", "IndexedLibrary", "LibraryTree", "LibraryOpening", "ImagePipeline", "MediaProbing", "AssetsKit",
                           "ProcessRunning", "S3Storage", "S3TestSupport", "TestSupport"]
        ),
        .testTarget(name: "AssetExportTests", dependencies: ["AssetExport", "FolderLibrary", "IndexedLibrary", "LibraryTree", "ImagePipeline", "AssetsKit", "TestSupport"]),
        .testTarget(
            name: "PickerSessionsTests",
            dependencies: ["PickerSessions", "PostgresSessions", "PostgresIndex", "AssetsKit", "TestSupport", "PostgresTestSupport",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "PickerServerTests",
            dependencies: [
                "PickerServer", "PickerClient", "PickerSessions", "LibraryOpening", "IndexedLibrary", "FolderLibrary", "LibraryTree", "AssetsKit",
                "ImageMetadata", "ImagePipeline", "MediaProbing", "ProcessRunning", "TestSupport", "PostgresSessions", "PostgresIndex", "PostgresTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "S3StorageTests",
            dependencies: [
                "S3Storage", "S3TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["assets-picker", "AssetsKit", "LibraryOpening", "TestSupport", "S3Storage", "S3TestSupport", "PostgresTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

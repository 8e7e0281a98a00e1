// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "qna",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "RFC6455", targets: ["RFC6455"]),
    .library(name: "WebSocketClient", targets: ["WebSocketClient"]),
    .library(name: "QnA", targets: ["QnA"]),
    .library(name: "QnAServer", targets: ["QnAServer"]),
    // The store with its drivers, without the server (the benchmarks' export row).
    .library(name: "QnAStore", targets: ["QnAStore", "QnAStoreLocation"]),
    .executable(name: "wsc", targets: ["wsc"]),
    .executable(name: "qna", targets: ["qna"]),
    .executable(name: "qna-server", targets: ["qna-server"]),
    .library(name: "QnATerminal", targets: ["QnATerminal"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    // hummingbird-websocket's inflater: its errors tell a compression bomb from bad data.
    .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
  ],
  targets: [
    // The sans-I/O WebSocket protocol core: no dependencies, no Foundation, no I/O.
    .target(name: "RFC6455"),
    // The system's zlib (zlib1g-dev), for permessage-deflate.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // permessage-deflate's compressor for the core, on zlib: bounded, streaming inflate.
    .target(name: "ZlibCompression", dependencies: ["RFC6455", "CZlib"]),
    // Proxies without I/O: proxy URLs, the environment's settings, HTTP CONNECT and SOCKS5.
    .target(name: "ProxyTunnel"),
    // The runtime: NIO transport, TLS, proxies, keep-alive, reconnect, async API.
    .target(
      name: "WebSocketClient",
      dependencies: [
        "RFC6455", "ZlibCompression", "CommandLineValues", "ProxyTunnel",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // The Q&A protocol's messages and the pure client state (`QnAState`).
    .target(
      name: "QnA",
      dependencies: [
        "CommandLineValues", .product(name: "DequeModule", package: "swift-collections"),
      ]),
    // The engine under every front end: WebSocketClient + wire codec + QnAState.
    .target(
      name: "QnAClient", dependencies: ["QnA", "WebSocketClient", "RFC6455", "CommandLineValues"]),
    // ncursesw's wide-character API, and C for what Swift cannot import (macros, wcwidth).
    .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw")]),
    // The terminal front end: pure view, line editor and key map; the ncurses backend and UI loop.
    // glibc's gettext (libintl.h), for the terminal's message catalogues.
    .systemLibrary(name: "CGettext"),
    .target(
      name: "QnATerminal",
      dependencies: [
        "QnA", "QnAClient", "WebSocketClient", "CNcurses", "CGettext", "CommandLineValues",
      ],
      plugins: ["CompileCatalogues"]),
    // po/*.po compiled with msgfmt at build time, so that a build in the checkout finds them.
    .plugin(name: "CompileCatalogues", capability: .buildTool()),
    // The pages' scripts and style sheets (Sources/Server/Pages/Assets) as Swift strings.
    .plugin(name: "EmbedAssets", capability: .buildTool()),
    .executableTarget(
      name: "qna",
      dependencies: [
        "QnA", "QnAClient", "QnATerminal", "CommandLineValues", "ProxyTunnel", "WebSocketClient",
        "RFC6455", "QRCode",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // qna-server, in layers whose arrows point one way (docs/architecture.md draws them):
    // the store's rules and API; a driver per database; the room on the store; the request
    // guards on NIO alone; the Hummingbird application on all of them.
    .target(
      name: "QnAStore", dependencies: ["QnA", "CommandLineValues"], path: "Sources/Server/Store"),
    .target(
      name: "QnAStoreSQLite",
      dependencies: [
        "QnAStore", "QnA", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      path: "Sources/Server/StoreSQLite"),
    .target(
      name: "QnAStorePostgres",
      dependencies: [
        "QnAStore", "QnA",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      path: "Sources/Server/StorePostgres"),
    // `--db` to a store: an SQLite path or a PostgreSQL URL, with the driver for it.
    .target(
      name: "QnAStoreLocation",
      dependencies: [
        "QnAStore", "QnAStoreSQLite", "QnAStorePostgres",
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Sources/Server/StoreLocation"),
    .target(
      name: "QnARoom",
      dependencies: [
        "QnAStore", "QnA", "RFC6455", "ZlibCompression", "CommandLineValues",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      path: "Sources/Server/Room"),
    .target(
      name: "QnAGuards",
      dependencies: [
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "Sources/Server/Guards"),
    // The server's log lines: escaped text, or one JSON object each.
    .target(
      name: "QnALogHandlers",
      dependencies: ["CommandLineValues", .product(name: "Logging", package: "swift-log")],
      path: "Sources/Server/Logging"),
    // The pages as HTML, every text from the network escaped, with their scripts and style
    // sheets (Assets/, embedded at build time).
    .target(
      name: "QnAPages", dependencies: ["QnAStore", "QnA", "CommandLineValues"],
      path: "Sources/Server/Pages", exclude: ["Assets"],
      plugins: ["CompileCatalogues", "EmbedAssets"]),
    .target(
      name: "QnAServer",
      dependencies: [
        "QnA", "RFC6455", "CommandLineValues", "QnAStore", "QnAStoreLocation", "QnARoom",
        "QnAGuards", "QnAPages", "QRCode", "ZlibCompression",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "CompressNIO", package: "compress-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Sources/Server/App"
    ),
    .executableTarget(
      name: "qna-server",
      dependencies: [
        "QnA", "QnAServer", "QnAStore", "QnAStoreLocation", "QnALogHandlers", "CommandLineValues",
        "QRCode", "QnAPages",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Durations, sizes and text as the project's command lines and screens spell them.
    .target(name: "CommandLineValues"),
    // QR codes of join addresses, as text for terminals and as SVG for pages; no Foundation.
    .target(name: "QRCode"),
    .executableTarget(
      name: "wsc",
      dependencies: [
        "WebSocketClient", "RFC6455", "CommandLineValues", "ProxyTunnel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "RFC6455Tests",
      dependencies: [
        "RFC6455", "ZlibCompression", "TestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "ProxyTunnelTests", dependencies: ["ProxyTunnel"]),
    .testTarget(
      name: "WebSocketClientTests",
      dependencies: [
        "WebSocketClient", "RFC6455", "ProxyTunnel", "TestSupport",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "QnATests",
      dependencies: [
        "QnA", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // The engine and the built `qna --headless` against a real Q&A server.
    .testTarget(
      name: "QnAClientTests",
      dependencies: ["QnAClient", "QnA", "qna", "qna-server", "TestSupport"]),
    // The server in this process and as a process, over loopback, with our own client.
    .testTarget(
      name: "QnAServerTests",
      dependencies: [
        "QnAServer", "qna-server", "QnA", "WebSocketClient", "TestSupport", "QnAStore",
        "QnAStoreLocation", "QnAStoreSQLite", "QnAStorePostgres", "QnARoom", "QnAGuards",
        "RFC6455", "ZlibCompression", "CommandLineValues", "QnALogHandlers",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // The store's rules without a database, and the store suite: every test on SQLite and on
    // a throwaway PostgreSQL.
    .testTarget(
      name: "QnAStoreTests",
      dependencies: [
        "QnAStore", "QnAStoreLocation", "QnAStoreSQLite", "QnAStorePostgres", "QnA", "TestSupport",
      ]),
    .testTarget(
      name: "QnAStoreSQLiteTests", dependencies: ["QnAStoreSQLite", "QnAStore", "TestSupport"]),
    .testTarget(
      name: "QnAStorePostgresTests",
      dependencies: [
        "QnAStorePostgres", "QnAStore", "TestSupport",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(name: "QnAStoreLocationTests", dependencies: ["QnAStoreLocation", "QnAStore"]),
    .testTarget(
      name: "QnAPagesTests",
      dependencies: ["QnAPages", "QnAStore", "CommandLineValues", "QnA", "TestSupport"]),
    .testTarget(
      name: "QnALogHandlersTests",
      dependencies: ["QnALogHandlers", .product(name: "Logging", package: "swift-log")]),
    // The room's parts without a socket: pages, budgets, the fan-out's coalescing.
    .testTarget(
      name: "QnARoomTests",
      dependencies: [
        "QnARoom", "QnAStore", "QnA", "TestSupport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]),
    // The request guards on NIO's EmbeddedChannel.
    .testTarget(
      name: "QnAGuardsTests",
      dependencies: [
        "QnAGuards",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    // Nothing lost under injected faults: the built client and server, as processes.
    .testTarget(name: "EndToEndTests", dependencies: ["qna", "qna-server", "TestSupport"]),
    // The pure view as snapshots, the editor, key handling and scrolling.
    .testTarget(name: "QnATerminalTests", dependencies: ["QnATerminal", "QnA", "TestSupport"]),
    // Codes decoded by Debian's zbarimg, the reader's side of the standard.
    .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestSupport"]),
    .testTarget(
      name: "CommandLineValuesTests", dependencies: ["CommandLineValues", "TestSupport"]),
    // Runs the built `wsc` against real peers; depends on it so that it is built first.
    .testTarget(name: "wscTests", dependencies: ["wsc", "TestSupport"]),
    // What the test targets share: deterministic ids and randomness, frames as a server
    // writes them, a reducer driver, and the peers of Tests/Interop, the built programs and
    // tmux as processes. Not a product: nothing outside this package's tests depends on it
    // (Benchmarks/ reaches it through a symlink).
    .target(
      name: "TestSupport", dependencies: ["QnA", "RFC6455", "CommandLineValues"],
      path: "Tests/TestSupport"),
  ],
  swiftLanguageModes: [.v6]
)

// The tests' own code is compiled without optimizing (what they test is optimized, as it
// ships): in the release build `make test` makes, optimizing the test targets took 388 s of
// CPU against 215 s, for tests that spend their time waiting on the programs they start.
for target in package.targets where target.type == .test {
  target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}

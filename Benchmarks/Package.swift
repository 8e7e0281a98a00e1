// swift-tools-version: 6.1
import PackageDescription

// Benchmark-only dependencies live here, so `make test` on a clean clone never compiles them.
let package = Package(
  name: "qna-benchmarks",
  dependencies: [
    .package(name: "qna", path: ".."),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/vapor/websocket-kit.git", from: "2.16.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
  ],
  targets: [
    .executableTarget(
      name: "CoreBenchmarks",
      dependencies: [
        .product(name: "RFC6455", package: "qna"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]
    ),
    .executableTarget(
      name: "ClientBenchmarks",
      dependencies: [
        .product(name: "WebSocketClient", package: "qna"),
        .product(name: "RFC6455", package: "qna"),
        .product(name: "WebSocketKit", package: "websocket-kit"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]
    ),
    .executableTarget(
      name: "ServerBenchmarks",
      dependencies: [
        .product(name: "QnAServer", package: "qna"),
        .product(name: "QnAStore", package: "qna"),
        .product(name: "QnA", package: "qna"),
        .product(name: "WebSocketClient", package: "qna"),
        .product(name: "RFC6455", package: "qna"),
        .product(name: "Logging", package: "swift-log"),
        "TestSupport", "CFleetIO",
      ]
    ),
    .target(name: "CFleetIO"),
    .executableTarget(
      name: "TerminalBenchmarks",
      dependencies: [
        .product(name: "QnATerminal", package: "qna"),
        .product(name: "QnA", package: "qna"),
        "TestSupport",
      ]
    ),
    // The tests' support target (tmux, processes, latency), through a symlink: it is no
    // product of the root package, which ships nothing test-only.
    .target(
      name: "TestSupport",
      dependencies: [
        .product(name: "QnA", package: "qna"), .product(name: "RFC6455", package: "qna"),
      ]
    ),
    .executableTarget(
      name: "QnABenchmarks",
      dependencies: [.product(name: "QnA", package: "qna")]
    ),
  ],
  swiftLanguageModes: [.v6]
)

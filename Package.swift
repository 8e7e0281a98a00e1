// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "qna",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "RFC6455", targets: ["RFC6455"]),
    .library(name: "WebSocketClient", targets: ["WebSocketClient"]),
    .executable(name: "wsc", targets: ["wsc"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
  ],
  targets: [
    // The sans-I/O WebSocket protocol core: no dependencies, no Foundation, no I/O.
    .target(name: "RFC6455"),
    // The runtime: NIO transport, TLS, keep-alive, reconnect, async API.
    .target(
      name: "WebSocketClient",
      dependencies: [
        "RFC6455",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // Durations and sizes as every command line of the project spells them.
    .target(name: "CommandLineValues"),
    .executableTarget(
      name: "wsc",
      dependencies: [
        "WebSocketClient", "CommandLineValues",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "RFC6455Tests",
      dependencies: [
        "RFC6455",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "WebSocketClientTests",
      dependencies: [
        "WebSocketClient", "InteropPeers",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(name: "CommandLineValuesTests", dependencies: ["CommandLineValues"]),
    // Runs the built `wsc` against real peers; depends on it so that it is built first.
    .testTarget(name: "wscTests", dependencies: ["wsc", "InteropPeers"]),
    // Starts the independent peers of Tests/Interop for the tests above.
    .target(name: "InteropPeers", path: "Tests/InteropPeers"),
  ],
  swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "qna",
  products: [
    .library(name: "RFC6455", targets: ["RFC6455"])
  ],
  dependencies: [
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1")
  ],
  targets: [
    // The sans-I/O WebSocket protocol core: no dependencies, no Foundation, no I/O.
    .target(name: "RFC6455"),
    .testTarget(
      name: "RFC6455Tests",
      dependencies: [
        "RFC6455",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

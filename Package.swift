// swift-tools-version: 6.1
import PackageDescription

// One package, many small library targets (DESIGN.md §1): each target lives in its own folder via
// `path:`, gets a `.library` product, and its test target follows it directly.
let pointFree: [Target.Dependency] = [
  .product(name: "CasePaths", package: "swift-case-paths"),
  .product(name: "Clocks", package: "swift-clocks"),
  .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
  .product(name: "CustomDump", package: "swift-custom-dump"),
  .product(name: "Dependencies", package: "swift-dependencies"),
  .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
  .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
]

/// Lets IssueReporting fail the running Swift Testing test or XCTest case; every test target and
/// the TestStore link it.
let issueReportingTestSupport = Target.Dependency.product(
  name: "IssueReportingTestSupport",
  package: "xctest-dynamic-overlay"
)

let package = Package(
  name: "Composable",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "ComposableCore", targets: ["ComposableCore"])
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
  ],
  targets: [
    .target(name: "ComposableCore", dependencies: pointFree, path: "Core/ComposableCore"),
    .testTarget(
      name: "ComposableCoreTests",
      dependencies: ["ComposableCore", "ComposableTestSupport", issueReportingTestSupport],
      path: "Tests/ComposableCoreTests"
    ),
    .target(
      name: "ComposableTestSupport",
      dependencies: [
        "ComposableCore",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        issueReportingTestSupport,
      ],
      path: "Core/ComposableTestSupport"
    ),
    .testTarget(
      name: "ComposableTestSupportTests",
      dependencies: ["ComposableTestSupport"],
      path: "Tests/ComposableTestSupportTests"
    ),
  ],
  swiftLanguageModes: [.v6]
)

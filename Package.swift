// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

// One package, many small library targets (ARCHITECTURE.md). Each target lives in its own folder
// via `path:`, its test target follows it, and every library target is a product of its own.

let casePaths = Target.Dependency.product(name: "CasePaths", package: "swift-case-paths")
let clocks = Target.Dependency.product(name: "Clocks", package: "swift-clocks")
let concurrencyExtras = Target.Dependency.product(
  name: "ConcurrencyExtras",
  package: "swift-concurrency-extras"
)
let customDump = Target.Dependency.product(name: "CustomDump", package: "swift-custom-dump")
let dependencies = Target.Dependency.product(name: "Dependencies", package: "swift-dependencies")
let dependenciesMacros = Target.Dependency.product(
  name: "DependenciesMacros",
  package: "swift-dependencies"
)
let identifiedCollections = Target.Dependency.product(
  name: "IdentifiedCollections",
  package: "swift-identified-collections"
)
/// Already built for IdentifiedCollections; named so inlinable `forEach` code can use `OrderedSet`.
let orderedCollections = Target.Dependency.product(
  name: "OrderedCollections",
  package: "swift-collections"
)
let swiftSyntaxMacros = Target.Dependency.product(
  name: "SwiftSyntaxMacros",
  package: "swift-syntax"
)
/// Combine's API on Linux: already built for combine-schedulers (through swift-dependencies), and
/// re-exported by the core so Combine-era TCA code compiles here.
let openCombine = Target.Dependency.product(
  name: "OpenCombineShim",
  package: "OpenCombine",
  condition: .when(platforms: [.linux])
)
let issueReporting = Target.Dependency.product(
  name: "IssueReporting",
  package: "xctest-dynamic-overlay"
)
/// Lets IssueReporting fail the running Swift Testing test or XCTest case; every test target and
/// the TestStore link it.
let issueReportingTestSupport = Target.Dependency.product(
  name: "IssueReportingTestSupport",
  package: "xctest-dynamic-overlay"
)
/// Resets cached dependencies before each XCTest case on Linux, as XCTest's observation does on
/// Apple platforms (Swift Testing tells tests apart by itself): without it, a dependency's test
/// value made in one test case was seen by the next.
let dependenciesTestObserver = Target.Dependency.product(
  name: "DependenciesTestObserver",
  package: "swift-dependencies",
  condition: .when(platforms: [.linux])
)

/// A library target in `folder/name` and its test target in `Tests/nameTests`.
func module(
  _ name: String,
  in folder: String,
  dependencies: [Target.Dependency],
  testDependencies: [Target.Dependency] = []
) -> [Target] {
  [
    .target(name: name, dependencies: dependencies, path: "\(folder)/\(name)"),
    .testTarget(
      name: "\(name)Tests",
      dependencies: [.target(name: name), issueReportingTestSupport] + testDependencies,
      path: "Tests/\(name)Tests"
    ),
  ]
}

/// A client interface: a struct of closures with test and preview values.
func clientInterface(_ name: String, dependencies extra: [Target.Dependency] = []) -> [Target] {
  module(name, in: "Clients/Interfaces", dependencies: [dependencies, dependenciesMacros] + extra)
}

/// A feature: depends on the core and on client interfaces only, tested with TestStore.
func feature(_ name: String, clients: [Target.Dependency] = []) -> [Target] {
  module(
    name,
    in: "Features",
    dependencies: ["ComposableCore"] + clients,
    testDependencies: ["ComposableTestSupport"]
  )
}

let package = Package(
  name: "Composable",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.3.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    // Text snapshots of the app's screens; its core target has no dependencies of its own.
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    // Already built for the case-paths and dependencies macros; the newest in the mirror matches
    // the 6.3 toolchain's parser.
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    // `swift package generate-documentation`: the catalogs, built offline by the toolchain's docc.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // Core
    // The macros' implementation is a library, tested directly; the plugin only lists it. A
    // test target that depended on the macro target itself would make SwiftPM build every test
    // for the host as well, which doubles a clean build and races the testable executable.
    .target(
      name: "ComposableMacrosSupport",
      dependencies: [
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        swiftSyntaxMacros,
      ],
      path: "Core/ComposableMacrosSupport"
    ),
    .macro(
      name: "ComposableMacros",
      dependencies: [
        "ComposableMacrosSupport",
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        swiftSyntaxMacros,
      ],
      path: "Core/ComposableMacros"
    ),
    .testTarget(
      name: "ComposableMacrosTests",
      dependencies: [
        "ComposableMacrosSupport",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        swiftSyntaxMacros,
      ],
      path: "Tests/ComposableMacrosTests"
    ),
    .target(
      name: "ComposableCore",
      dependencies: [
        "ComposableMacros", casePaths, clocks, concurrencyExtras, customDump, dependencies,
        dependenciesMacros, identifiedCollections, issueReporting, openCombine,
        orderedCollections, "ComposableSharing", "FileSystem",
      ],
      path: "Core/ComposableCore"
    ),
    // `@Shared`: its file and settings strategies write through FileStore (atomic, locked,
    // corrupt files kept aside), the one place the project writes durable JSON.
    .target(
      name: "ComposableSharing",
      dependencies: [
        concurrencyExtras, customDump, dependencies, identifiedCollections, issueReporting,
        "FileStore", "FileSystem",
      ],
      path: "Core/ComposableSharing"
    ),
    .testTarget(
      name: "ComposableSharingTests",
      dependencies: [
        "ComposableSharing", "ComposableTestSupport", "shared-writer", issueReportingTestSupport,
      ],
      path: "Tests/ComposableSharingTests"
    ),
    // Many of these write one file at once in the tests.
    .executableTarget(
      name: "shared-writer",
      dependencies: ["ComposableSharing"],
      path: "Tests/Support/SharedWriter"
    ),
    // Features that the runtime's tests check and its benchmarks measure, written once: a
    // library product so the Benchmarks package can use it too.
    .target(
      name: "ComposableFixtures",
      dependencies: ["ComposableCore"],
      path: "Tests/Support/Fixtures"
    ),
    .testTarget(
      name: "ComposableCoreTests",
      dependencies: [
        "ComposableCore", "ComposableFixtures", "ComposableTestSupport", issueReportingTestSupport,
      ],
      path: "Tests/ComposableCoreTests"
    ),
    .target(
      name: "ComposableTestSupport",
      dependencies: [
        "ComposableCore", "ComposableSharing", customDump, dependenciesTestObserver,
        issueReporting, issueReportingTestSupport,
      ],
      path: "Core/ComposableTestSupport"
    ),
    .testTarget(
      name: "ComposableTestSupportTests",
      dependencies: ["ComposableTestSupport"],
      path: "Tests/ComposableTestSupportTests"
    ),
    // Feature code and tests written as TCA 1.x's documentation shows them, with only the import
    // changed: what must keep compiling and passing for "ports by changing the import".
    .testTarget(
      name: "SourceCompatibilityTests",
      dependencies: ["ComposableTestSupport", issueReportingTestSupport],
      path: "Tests/SourceCompatibilityTests"
    ),
    // The code of the DocC articles, compiled and run, and the check that every article's Swift
    // blocks stand in a test file.
    .testTarget(
      name: "DocumentationTests",
      dependencies: ["ComposableTestSupport"],
      path: "Tests/DocumentationTests"
    ),

    // Compression and the on-disk cache
    .systemLibrary(
      name: "CZlib",
      path: "Clients/Infrastructure/CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
  ]
    + module("Zlib", in: "Clients/Infrastructure", dependencies: ["CZlib"])
    + module("FileSystem", in: "Clients/Infrastructure", dependencies: [])
    + clientInterface("CacheClient")
    + module(
      "CacheClientLive",
      in: "Clients/Live",
      dependencies: ["CacheClient", "FileSystem", "Zlib", concurrencyExtras, dependencies]
    )

    // HTTP clients
    + [
      .target(
        name: "LiveHTTP",
        dependencies: [
          .product(name: "AsyncHTTPClient", package: "async-http-client"),
          .product(name: "NIOCore", package: "swift-nio"),
          .product(name: "NIOHTTP1", package: "swift-nio"),
        ],
        path: "Clients/Infrastructure/LiveHTTP"
      ),
      .testTarget(
        name: "LiveHTTPTests",
        dependencies: ["LiveHTTP", "HTTPTestServer", issueReportingTestSupport],
        path: "Tests/LiveHTTPTests"
      ),
      .target(
        name: "HTTPTestServer",
        dependencies: [
          .product(name: "NIOCore", package: "swift-nio"),
          .product(name: "NIOHTTP1", package: "swift-nio"),
          .product(name: "NIOPosix", package: "swift-nio"),
          .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ],
        path: "Tests/Support/HTTPTestServer"
      ),
    ]
    + clientInterface("NumberFactClient")
    + module(
      "NumberFactClientLive",
      in: "Clients/Live",
      dependencies: ["NumberFactClient", "CacheClient", "LiveHTTP", dependencies],
      testDependencies: ["HTTPTestServer", concurrencyExtras]
    )
    + clientInterface("SignUpClient")
    + module(
      "SignUpClientLive",
      in: "Clients/Live",
      dependencies: ["SignUpClient", "LiveHTTP", dependencies],
      testDependencies: ["HTTPTestServer"]
    )

    // Durable files and todos
    + module(
      "FileStore", in: "Clients/Infrastructure", dependencies: ["FileSystem"],
      testDependencies: [concurrencyExtras])
    + module(
      "StoredList", in: "Clients/Interfaces", dependencies: [identifiedCollections],
      testDependencies: [identifiedCollections])
    + clientInterface("TodosClient", dependencies: [concurrencyExtras, "StoredList"])
    + module(
      "TodosClientLive",
      in: "Clients/Live",
      dependencies: ["TodosClient", "FileStore", "FileSystem", dependencies]
    )

    // Orders
    + clientInterface("OrdersClient")
    + module(
      "OrdersClientLive",
      in: "Clients/Live",
      dependencies: ["OrdersClient", "CacheClient", "LiveHTTP", dependencies],
      testDependencies: ["HTTPTestServer", clocks]
    )

    // Contacts and analytics
    + clientInterface("ContactsClient", dependencies: [concurrencyExtras, "StoredList"])
    + module(
      "ContactsClientLive",
      in: "Clients/Live",
      dependencies: ["ContactsClient", "FileStore", "FileSystem", dependencies]
    )
    + clientInterface("AnalyticsClient")
    + module(
      "AnalyticsClientLive",
      in: "Clients/Live",
      dependencies: ["AnalyticsClient", "FileSystem", dependencies]
    )

    // Features
    + feature("CounterFeature", clients: ["NumberFactClient"])
    + feature("FormFeature", clients: ["SignUpClient"])
    + feature("TodoListFeature", clients: ["TodosClient", "StoredList"])
    + feature("RefreshableListFeature", clients: ["OrdersClient"])
    + feature("NavigationFeature", clients: ["ContactsClient", "StoredList"])
    + module(
      "AppFeature",
      in: "Features",
      dependencies: [
        "ComposableCore", "AnalyticsClient", "CounterFeature", "FormFeature", "NavigationFeature",
        "RefreshableListFeature", "TodoListFeature",
      ],
      testDependencies: ["ComposableTestSupport"]
    )

    // The application
    // The tests run the README's counter app, a store in the loop, so they use the core.
    + module("TerminalUI", in: "App", dependencies: [], testDependencies: ["ComposableCore"])
    + [
      .executableTarget(
        name: "composable",
        dependencies: [
          "AnalyticsClientLive", "AppFeature", "ComposableCore", "ContactsClientLive",
          "CacheClientLive",
          "FileSystem", "LiveHTTP", "NumberFactClientLive", "OrdersClientLive", "SignUpClientLive",
          "TerminalUI", "TodosClientLive", issueReporting,
          .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        path: "App/composable"
      ),
      // What the app reads from outside, as functions of bytes: for libFuzzer (`Fuzz/`), and
      // for the test that replays the committed corpus on every run.
      .target(
        name: "FuzzTargets",
        dependencies: [
          "AppFeature", "ComposableCore", "ContactsClient", "CounterFeature",
          "FileStore", "FormFeature", "NavigationFeature", "RefreshableListFeature", "TerminalUI",
          "TodoListFeature", "TodosClient", issueReporting,
        ],
        path: "Tests/Support/FuzzTargets"
      ),
      // Killed at random moments by the crash tests while it changes todos, contacts and a
      // shared file.
      .executableTarget(
        name: "crash-writer",
        dependencies: ["ComposableSharing", "ContactsClientLive", "TodosClientLive"],
        path: "Tests/Support/CrashWriter"
      ),
      .testTarget(
        name: "CrashConsistencyTests",
        dependencies: ["crash-writer", "ContactsClient", "TodosClient"],
        path: "Tests/CrashConsistencyTests"
      ),
      .testTarget(
        name: "FuzzCorpusTests",
        dependencies: ["FuzzTargets"],
        path: "Tests/FuzzCorpusTests"
      ),
      .testTarget(
        name: "AppTests",
        // Every module the tests import, named: an executable target's dependencies are not
        // guaranteed to be built before its test target compiles.
        dependencies: [
          "AppFeature", "composable", "ContactsClient", "CounterFeature", "HTTPTestServer",
          "NavigationFeature", "OrdersClient", "RefreshableListFeature", "TerminalUI",
          "TodoListFeature", "TodosClient", concurrencyExtras, issueReportingTestSupport,
          .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ],
        path: "Tests/AppTests",
        exclude: ["__Snapshots__"]
      ),
    ],
  swiftLanguageModes: [.v6]
)

// The sanitizer passes of `.ci/run` test the runtime alone: with this variable set, the package
// holds only the runtime, its test support, their tests and what they need. The features,
// clients, app and macro tests (swift-nio, the argument parser, swift-macro-testing) made each
// instrumented build half as long again (ThreadSanitizer, cold: 442 s against 297 s) without
// exercising the runtime any further.
//
// Without the macro tests, nothing but the macro plugin uses the macros' implementation. As a
// library target of its own it was built for the tests too, instrumented, and swift-syntax with
// it: two builds of swift-syntax in each pass where the plugin needs one (AddressSanitizer,
// cold: 351 s against 293 s with one). Here the plugin compiles the implementation's sources
// itself; `COMPOSABLE_MACROS_IN_PLUGIN` leaves out its forwarding types, as the
// implementation's own types then carry the plugin module's name.
if Context.environment["COMPOSABLE_RUNTIME_ONLY"] != nil {
  let runtime: Set = [
    "ComposableMacros", "ComposableCore", "ComposableFixtures", "ComposableSharing",
    "ComposableTestSupport",
    "FileStore", "FileSystem", "shared-writer", "ComposableCoreTests", "ComposableSharingTests",
    "ComposableTestSupportTests", "SourceCompatibilityTests",
  ]
  let implementation = package.targets.first { $0.name == "ComposableMacrosSupport" }!
  let plugin = package.targets.first { $0.name == "ComposableMacros" }!
  plugin.path = "Core"
  plugin.sources = ["ComposableMacros", "ComposableMacrosSupport"]
  // The other targets' folders, or SwiftPM warns of their files as unhandled.
  plugin.exclude = ["ComposableCore", "ComposableSharing", "ComposableTestSupport"]
  plugin.dependencies =
    implementation.dependencies
    + [.product(name: "SwiftCompilerPlugin", package: "swift-syntax")]
  plugin.swiftSettings = [.define("COMPOSABLE_MACROS_IN_PLUGIN")]
  package.targets.removeAll { !runtime.contains($0.name) }
  // Only the HTTP clients, their test server, the macro tests and the app's screen tests use
  // these; SwiftPM warns of a dependency no target uses.
  let unused = [
    "/swift-nio", "/swift-macro-testing", "/async-http-client", "/swift-snapshot-testing",
  ]
  package.dependencies.removeAll { dependency in
    guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
    return unused.contains { location.hasSuffix($0) }
  }
}

// Every library target is a product of its own, listed alphabetically, so any package can import
// one feature or client alone. Test support under Tests/ is not, but for the fuzz targets, which
// the `Fuzz/` package builds, and the fixtures, which the `Benchmarks/` package measures.
package.products = package.targets
  .filter {
    $0.type == .regular
      && (!($0.path ?? "").hasPrefix("Tests/")
        || ["FuzzTargets", "ComposableFixtures"].contains($0.name))
      && $0.name != "ComposableMacrosSupport"
  }
  .map { Product.library(name: $0.name, targets: [$0.name]) }
  .sorted { $0.name < $1.name }

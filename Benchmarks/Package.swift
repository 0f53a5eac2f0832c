// swift-tools-version: 6.1
import PackageDescription

// Measured performance of Composable, kept out of the root package so its build and tests do not
// pay for package-benchmark. Run everything with `swift package benchmark` from this folder.

/// A product of the root package.
func composable(_ name: String) -> Target.Dependency {
  .product(name: name, package: "Composable")
}

/// A benchmark suite in `Benchmarks/<name>`, run by package-benchmark's plugin.
func benchmarkSuite(_ name: String, using products: [String]) -> Target {
  .executableTarget(
    name: name,
    dependencies: [.product(name: "Benchmark", package: "benchmark")] + products.map(composable),
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
  )
}

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Composable", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark",
      from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
  ],
  targets: [
    benchmarkSuite("CacheBenchmarks", using: ["CacheClientLive", "Zlib"]),
    benchmarkSuite(
      "TodoListBenchmarks",
      using: ["AnalyticsClient", "AppFeature", "ComposableCore", "TodoListFeature", "TodosClient"]),
    benchmarkSuite(
      "RuntimeBenchmarks",
      using: ["ComposableCore", "ComposableFixtures", "ComposableTestSupport"]),
    // Not a benchmark: runs one runtime scenario in a loop, for `valgrind --tool=callgrind`,
    // which counts instructions reliably on this VM where timings are noisy. It lives outside
    // Benchmarks/ so the plugin does not take it for a suite; its Levels.swift and
    // Features.swift are symbolic links to the suite's, so both measure the same code.
    .executableTarget(
      name: "RuntimeProfile",
      dependencies: ["ComposableCore", "ComposableFixtures", "ComposableTestSupport"].map(
        composable),
      path: "Profiling/RuntimeProfile"
    ),
  ],
  swiftLanguageModes: [.v6]
)

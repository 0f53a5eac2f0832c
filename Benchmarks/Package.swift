// swift-tools-version: 6.1
import PackageDescription

// Measured performance of Composable, kept out of the root package so its build and tests do not
// pay for package-benchmark. Run everything with `swift package benchmark` from this folder.
let benchmark = Target.Dependency.product(name: "Benchmark", package: "benchmark")

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
    .executableTarget(
      name: "CacheBenchmarks",
      dependencies: [
        benchmark,
        .product(name: "DiskCache", package: "Composable"),
        .product(name: "Zlib", package: "Composable"),
      ],
      path: "Benchmarks/CacheBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "TodoListBenchmarks",
      dependencies: [
        benchmark,
        .product(name: "ComposableCore", package: "Composable"),
        .product(name: "TodoListFeature", package: "Composable"),
        .product(name: "TodosClient", package: "Composable"),
      ],
      path: "Benchmarks/TodoListBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "RuntimeBenchmarks",
      dependencies: [
        benchmark,
        .product(name: "ComposableCore", package: "Composable"),
        .product(name: "ComposableTestSupport", package: "Composable"),
      ],
      path: "Benchmarks/RuntimeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Not a benchmark: runs one runtime scenario in a loop, for `valgrind --tool=callgrind`,
    // which counts instructions reliably on this VM where timings are noisy.
    .executableTarget(
      name: "RuntimeProfile",
      dependencies: [
        .product(name: "ComposableCore", package: "Composable"),
        .product(name: "ComposableTestSupport", package: "Composable"),
      ],
      path: "Profiling/RuntimeProfile"
    ),
  ],
  swiftLanguageModes: [.v6]
)

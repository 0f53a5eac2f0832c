// swift-tools-version: 6.1
import PackageDescription

// libFuzzer over what the app reads from outside (`FuzzTargets` in the root package), kept out of
// the root package: its build is instrumented for libFuzzer and AddressSanitizer. Run a target
// with `Fuzz/run TARGET SECONDS`; `Tests/FuzzCorpusTests` replays `Fuzz/Corpus` on every test run.
let package = Package(
  name: "Fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Composable", path: "..")],
  targets: [
    .executableTarget(
      name: "Fuzz",
      dependencies: [
        .product(name: "CacheClientLive", package: "Composable"),
        .product(name: "FuzzTargets", package: "Composable"),
      ],
      // libFuzzer supplies `main`; this file only defines the function it calls. Only this
      // target links libFuzzer: the macro plugins the build also makes have a `main` of their
      // own. Everything else gets the fuzzer's coverage from `run`'s flags.
      swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    )
  ],
  swiftLanguageModes: [.v6]
)

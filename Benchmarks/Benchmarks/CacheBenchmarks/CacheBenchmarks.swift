import Benchmark
import CacheClientLive
import Foundation
import Zlib

/// About 64 KiB of order JSON, the size of a page of API results.
let payload: Data = {
  var text = "["
  var index = 0
  while text.utf8.count < 64 * 1024 - 200 {
    let status = ["pending", "processing", "shipped", "delivered", "cancelled"][index % 5]
    text +=
      #"{"id":\#(index),"customer":"Customer \#(index % 97)","total":\#(index * 7 % 1000).\#(index % 100),"status":"\#(status)","items":\#(index % 9 + 1)},"#
    index += 1
  }
  return Data((text + "{}]").utf8)
}()

let compressed = try! Zlib.compress(payload, format: .zlib, level: .default)

let directory = FileManager.default.temporaryDirectory
  .appendingPathComponent("composable-cache-benchmark-\(getpid())")

let cache = try! DiskCache(DiskCache.Configuration(directory: directory, maximumBytes: 1 << 30))

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    scalingFactor: .one,
    maxDuration: .seconds(3),
    maxIterations: 5_000
  )

  print(
    "payload \(payload.count) bytes, compressed \(compressed.count) bytes, ratio "
      + String(format: "%.2f", Double(payload.count) / Double(compressed.count))
  )

  Benchmark("Zlib deflate 64 KiB JSON (level 6)") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try Zlib.compress(payload, format: .zlib, level: .default))
    }
  }

  Benchmark("DiskCache store 64 KiB JSON") { benchmark in
    for iteration in benchmark.scaledIterations {
      try cache.store(payload, forKey: "write-\(iteration % 64)")
    }
  }

  Benchmark("Zlib inflate 64 KiB JSON") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(try Zlib.decompress(compressed, format: .zlib, expectedSize: payload.count))
    }
  }

  Benchmark(
    "DiskCache hit 64 KiB JSON",
    configuration: .init(setup: { try cache.store(payload, forKey: "hit") })
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(cache.data(forKey: "hit"))
    }
  }

  Benchmark("DiskCache miss") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(cache.data(forKey: "absent"))
    }
  }
}

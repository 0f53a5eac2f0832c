import CacheClientLive
import Foundation
import FuzzTargets

/// The live cache's target, here rather than in `FuzzTargets`, which uses no live client: a file
/// in place of a cache entry, read by its key, then pruned and counted.
@Sendable func cacheEntry(_ data: Data) {
  FuzzTargets.withScratchDirectory { scratch in
    let directory = scratch.appendingPathComponent("cache")
    guard let cache = try? DiskCache(DiskCache.Configuration(directory: directory)) else { return }
    try? cache.store(Data("seed".utf8), forKey: "key")
    guard
      let name = try? FileManager.default.contentsOfDirectory(atPath: directory.path).first(where: {
        $0.hasSuffix(".cz")
      })
    else { return }
    try? data.write(to: directory.appendingPathComponent(name))
    _ = cache.data(forKey: "key")
    _ = try? cache.prune()
    _ = try? cache.stats()
  }
}

@_exported import CacheClient
import Dependencies
import Foundation

extension CacheClient {
  /// A cache client backed by a disk cache.
  public static func disk(_ cache: DiskCache) -> Self {
    Self(
      data: { cache.data(forKey: $0) },
      store: { try cache.store($0, forKey: $1, ttl: $2) },
      remove: { try cache.remove(forKey: $0) },
      removeAll: { try cache.removeAll() },
      prune: { try cache.prune() },
      stats: { try cache.stats() }
    )
  }
}

extension CacheClient: DependencyKey {
  /// The disk cache in the default directory; when that directory cannot be created, an
  /// in-memory cache, so the app still runs (the reason goes to standard error).
  public static var liveValue: CacheClient {
    let directory = DiskCache.Configuration.defaultDirectory()
    do {
      return .disk(try DiskCache(DiskCache.Configuration(directory: directory)))
    } catch {
      FileHandle.standardError.write(Data("warning: \(error); caching in memory only\n".utf8))
      return .inMemory()
    }
  }
}

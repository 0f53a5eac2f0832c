import Benchmark
import ComposableCore
import Foundation

/// A plain reference with one property, the floor a shared value is measured against.
final class PlainBox: @unchecked Sendable {
  var value = 0
}

/// A file storage that writes nothing and counts what it was asked to write.
final class CountingFiles: FileStorage, @unchecked Sendable {
  let memory = InMemoryFileStorage()
  var writes = 0

  func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    try memory.load(type, from: url, initialValue: initialValue)
  }

  func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws {
    writes += 1
    try memory.update(type, at: url, initialValue: initialValue, change)
  }

  func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    writes += 1
    try memory.save(value, to: url)
  }

  func signature(of url: URL) -> FileSignature? { nil }
  var pollInterval: Duration? { nil }
  /// As on disk: changes are gathered for a second.
  var saveInterval: Duration? { .seconds(1) }
}

/// What `@Shared` costs: a read and a `withLock` mutation, next to a plain property, and how
/// many files a burst of edits writes.
func sharingBenchmarks() {
  Benchmark("Plain property read", configuration: .init(scalingFactor: .kilo)) { benchmark in
    let box = PlainBox()
    for _ in benchmark.scaledIterations { blackHole(box.value) }
  }

  Benchmark("Plain property += 1", configuration: .init(scalingFactor: .kilo)) { benchmark in
    let box = PlainBox()
    for _ in benchmark.scaledIterations { box.value += 1 }
    blackHole(box.value)
  }

  Benchmark("Shared read, in memory", configuration: .init(scalingFactor: .kilo)) { benchmark in
    let shared = Shared(wrappedValue: 0, .inMemory("read"))
    for _ in benchmark.scaledIterations { blackHole(shared.wrappedValue) }
  }

  Benchmark("Shared withLock += 1, in memory", configuration: .init(scalingFactor: .kilo)) {
    benchmark in
    let shared = Shared(wrappedValue: 0, .inMemory("write"))
    for _ in benchmark.scaledIterations { shared.withLock { $0 += 1 } }
    blackHole(shared.wrappedValue)
  }

  Benchmark(
    "1000 edits of a fileStorage value, then its save",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .custom("files written", useScalingFactor: false)],
      scalingFactor: .one,
      maxIterations: 50
    )
  ) { benchmark in
    let files = CountingFiles()
    let url = URL(fileURLWithPath: "/benchmarks/burst.json")
    withDependencies {
      $0.defaultFileStorage = files
      $0.sharedReferences = SharedReferences()
    } operation: {
      @Dependency(\.sharedReferences) var references
      let shared = Shared(wrappedValue: 0, .fileStorage(url))
      benchmark.startMeasurement()
      for _ in 0..<1_000 { shared.withLock { $0 += 1 } }
      // What the end of the save interval does, without waiting for it.
      references.flush()
      benchmark.stopMeasurement()
    }
    benchmark.measurement(.custom("files written", useScalingFactor: false), files.writes)
  }
}

/// A counter whose actions can be recorded.
@Reducer
struct RecordedCounter {
  struct State: Equatable {
    var count = 0
  }

  enum Action: Codable, Equatable {
    case increment
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// What recording adds to a send.
func recordingBenchmarks() {
  mainActorBenchmark("Store send, recorded counter, not recording") { benchmark in
    send(
      .increment, to: Store(initialState: RecordedCounter.State()) { RecordedCounter() }, benchmark)
  }

  mainActorBenchmark("Store send, recorded counter, recording") { benchmark in
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-recording-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let recorder = try! SessionRecorder(url: url, feature: "RecordedCounter")
    let store = Store(initialState: RecordedCounter.State()) {
      RecordedCounter().recording(to: recorder)
    }
    send(.increment, to: store, benchmark)
    recorder.flush()
  }

  // A recording of 1 000 actions, replayed whole each iteration: read, decoded, reduced and
  // compared with the recorded state.
  mainActorBenchmark("Replay 1 000 recorded actions", scalingFactor: .one) { benchmark in
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-replay-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let recorder = try! SessionRecorder(url: url, feature: "RecordedCounter")
    let store = Store(initialState: RecordedCounter.State()) {
      RecordedCounter().recording(to: recorder)
    }
    for _ in 0..<1_000 { store.send(.increment) }
    recorder.flush()
    let started = ContinuousClock.now
    var replays = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let report = try! SessionReplay.replay(
        url, feature: "RecordedCounter", initialState: RecordedCounter.State(),
        reducer: RecordedCounter())
      precondition(report.actions == 1_000 && report.divergence == nil)
      replays += 1
    }
    benchmark.stopMeasurement()
    let seconds =
      Double((ContinuousClock.now - started).components.attoseconds) / 1e18
      + Double((ContinuousClock.now - started).components.seconds)
    benchmark.measurement(
      .custom("actions replayed per second", useScalingFactor: false),
      Int(Double(replays * 1_000) / seconds))
  }
}

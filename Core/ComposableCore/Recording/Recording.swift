import ComposableSharing
import CustomDump
import Dependencies
import FileSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a session's actions to a file, one JSON line each, without making the store wait: lines
/// are buffered and written on a queue of their own, and every line is written whole, so a crash
/// loses at most the lines not yet written and never damages the ones before.
public final class SessionRecorder: Sendable {
  /// The recording format this build writes and reads.
  public static let format = 1

  private let handle: FileHandle
  private let queue = DispatchQueue(label: "composable.session-recorder")
  /// Steps not yet encoded and written, and whether a write is already scheduled.
  private let pending = Locked<(steps: [PendingStep], scheduled: Bool, sequence: Int)>(
    ([], false, 0))
  /// Used on the recorder's queue only.
  private let lineEncoder = UncheckedSendable(SessionRecorder.encoder)
  /// The stand-ins of the secrets this recording has seen (see ``RecordingSecrets``).
  let secrets = SecretStandIns()

  /// Starts a recording of `feature` at `url`, replacing any file there; the file is readable by
  /// its owner only (mode 0600), as a session may hold personal data. `start` is what a replay
  /// needs to make the same initial state (the arguments the session began with, say); it is
  /// written in the header and read back with ``RecordingHeader/start(as:)``.
  public init(url: URL, feature: String, start: (some Encodable)? = String?.none) throws {
    let startJSON = try start.map { String(decoding: try Self.encoder.encode($0), as: UTF8.self) }
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    // A file that was already there keeps its mode through `open`: narrow it too.
    fchmod(descriptor, 0o600)
    handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    let header = RecordingHeader(format: Self.format, feature: feature, start: startJSON)
    try handle.write(contentsOf: Self.encoder.encode(header) + Data("\n".utf8))
  }

  deinit {
    flush()
    try? handle.close()
  }

  /// Queues one processed action and the state after it. Encoding and writing happen on the
  /// recorder's queue: the store only copies the values.
  func record<Action: Codable>(
    _ action: Action, stateAfter state: Any, dependencies: RecordedDependencies?,
    printStateNow: Bool, hasSecrets: Bool
  ) {
    let time = Date()
    // A state that may hold shared values is printed now: later its copy would show them as they
    // are then. Any other state is printed on the recorder's queue, off the store's path.
    let dumpedNow = printStateNow ? String(customDumping: state) : nil
    // Values copied out of the store and only read on the recorder's queue.
    let secrets = hasSecrets ? self.secrets : nil
    let encode: (JSONEncoder, Int) throws -> Data = { encoder, sequence in
      let action = try secrets.map { try $0.redacting(action, encoder: encoder) } ?? action
      let entry = RecordedStep(
        seq: sequence, time: time, action: action, dependencies: dependencies,
        state: dumpedNow ?? String(customDumping: state))
      return try encoder.encode(entry) + Data("\n".utf8)
    }
    let step = PendingStep(encode: UncheckedSendable(encode))
    let schedule = pending.withLock { pending in
      pending.steps.append(step)
      defer { pending.scheduled = true }
      return !pending.scheduled
    }
    if schedule { queue.async { [weak self] in self?.writePending() } }
  }

  /// Writes every queued line now: at exit, or before reading the file back.
  public func flush() {
    queue.sync { writePending() }
  }

  private func writePending() {
    let (steps, first) = pending.withLock { pending in
      defer {
        pending.sequence += pending.steps.count
        pending.steps = []
        pending.scheduled = false
      }
      return (pending.steps, pending.sequence + 1)
    }
    guard !steps.isEmpty else { return }
    var data = Data()
    for (offset, step) in steps.enumerated() {
      do {
        data += try step.encode.value(lineEncoder.value, first + offset)
      } catch {
        reportIssue("Could not record action \(first + offset): \(error)")
      }
    }
    do {
      try handle.write(contentsOf: data)
    } catch {
      reportIssue("Could not write the recording: \(error)")
    }
  }

  private struct PendingStep: Sendable {
    let encode: UncheckedSendable<(JSONEncoder, Int) throws -> Data>
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }
}

/// The first line of a recording: its format, its feature, and how the session started.
public struct RecordingHeader: Codable, Equatable, Sendable {
  /// The recording format (``SessionRecorder/format`` of the build that wrote it).
  public let format: Int
  /// The feature the recorder was given.
  public let feature: String
  /// The recorder's `start` value, as JSON.
  public let start: String?

  /// The `start` value the recording began with, decoded as `type`.
  public func start<T: Decodable>(as type: T.Type) throws(ReplayError) -> T {
    guard let start else { throw .badStart("the recording has no start value") }
    do {
      return try JSONDecoder().decode(type, from: Data(start.utf8))
    } catch {
      throw .badStart("\(error)")
    }
  }
}

struct RecordedStep<Action: Encodable>: Encodable {
  let seq: Int
  let time: Date
  let action: Action
  let dependencies: RecordedDependencies?
  /// The state after the action, as custom-dump prints it: what replay compares.
  let state: String
}

/// The values a reducer drew from nondeterministic dependencies while it ran one action, so a
/// replay hands it the same ones: UUIDs, dates (as seconds since the reference date, which round
/// trip exactly) and the random number generator's words.
struct RecordedDependencies: Codable, Sendable {
  var uuids: [UUID] = []
  var dates: [Double] = []
  var randoms: [UInt64] = []

  var isEmpty: Bool { uuids.isEmpty && dates.isEmpty && randoms.isEmpty }

  init() {}

  private enum CodingKeys: String, CodingKey { case uuids, dates, randoms }

  // Only the kinds drawn are written: most steps draw one UUID or date, or nothing at all.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    uuids = try container.decodeIfPresent([UUID].self, forKey: .uuids) ?? []
    dates = try container.decodeIfPresent([Double].self, forKey: .dates) ?? []
    randoms = try container.decodeIfPresent([UInt64].self, forKey: .randoms) ?? []
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if !uuids.isEmpty { try container.encode(uuids, forKey: .uuids) }
    if !dates.isEmpty { try container.encode(dates, forKey: .dates) }
    if !randoms.isEmpty { try container.encode(randoms, forKey: .randoms) }
  }
}

/// Collects what the dependencies hand out while an action is reduced. One per recording store,
/// opened for each action on the thread reducing it: effects keep the wrapped dependencies, but
/// what they draw (on other threads, or between actions) is not the reducer's, so it is ignored.
private final class DependencyTape: Sendable {
  private let values = Locked<(owner: pthread_t?, recorded: RecordedDependencies)>((nil, .init()))

  func open() {
    values.withLock { $0 = (pthread_self(), .init()) }
  }

  func close() -> RecordedDependencies? {
    values.withLock {
      $0.owner = nil
      return $0.recorded.isEmpty ? nil : $0.recorded
    }
  }

  private func note(_ record: (inout RecordedDependencies) -> Void) {
    values.withLock {
      guard let owner = $0.owner, pthread_equal(owner, pthread_self()) != 0 else { return }
      record(&$0.recorded)
    }
  }

  func uuid(_ value: UUID) -> UUID {
    note { $0.uuids.append(value) }
    return value
  }

  func date(_ value: Date) -> Date {
    note { $0.dates.append(value.timeIntervalSinceReferenceDate) }
    return value
  }

  func random(_ value: UInt64) -> UInt64 {
    note { $0.randoms.append(value) }
    return value
  }
}

private struct RecordingGenerator: RandomNumberGenerator, Sendable {
  let base: WithRandomNumberGenerator
  let tape: DependencyTape
  mutating func next() -> UInt64 { tape.random(base { $0.next() }) }
}

extension Reducer where Action: Codable {
  /// Records every action the store processes — sent from outside or by effects — with the
  /// state after it, to `recorder`.
  public func recording(to recorder: SessionRecorder) -> _RecordingReducer<Self> {
    _RecordingReducer(base: self, recorder: recorder)
  }
}

/// The reducer `recording(to:)` returns.
public struct _RecordingReducer<Base: Reducer>: Reducer where Base.Action: Codable {
  // Held as a store's tree holds a reducer: its body is built once (see `dependency`).
  let base: _BuiltReducer<Base>
  let recorder: SessionRecorder
  private let context = RecordingContext()
  /// The state's fields that hold secrets, written as stand-ins.
  private let secretFields: [WritableKeyPath<Base.State, String>]

  init(base: Base, recorder: SessionRecorder) {
    self.base = _BuiltReducer(base)
    self.recorder = recorder
    self.secretFields = SecretStandIns.fields(of: Base.State.self)
  }

  /// Runs the base reducer, noting the UUIDs, dates and random numbers it draws, then records
  /// the action, those values and the state it left.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let (dependencies, references) = context.prepared()
    context.tape.open()
    let effects = withDependencies {
      $0 = dependencies
    } operation: {
      base.reduce(into: &state, action: action)
    }
    let hasSecrets = !secretFields.isEmpty
    recorder.record(
      action,
      stateAfter: hasSecrets ? recorder.secrets.redacting(state, fields: secretFields) : state,
      dependencies: context.tape.close(), printStateNow: references.holdsValues,
      hasSecrets: hasSecrets)
    return effects
  }
}

/// What a recording reducer prepares once, from the dependencies of the first action it sees:
/// overriding them on every action would copy them every time.
private final class RecordingContext: @unchecked Sendable {
  // Unchecked: `prepared()` writes `values` once, on the store's actor, which is where every
  // action is reduced.
  let tape = DependencyTape()
  private var values: (DependencyValues, SharedReferences)?

  func prepared() -> (DependencyValues, SharedReferences) {
    if let values { return values }
    let tape = self.tape
    var dependencies = DependencyValues()
    // Read and replaced inside `withDependencies`' update, where reading a dependency a test did
    // not provide is not yet a use of it.
    withDependencies {
      let (uuid, date, random) = ($0.uuid, $0.date, $0.withRandomNumberGenerator)
      $0.uuid = UUIDGenerator { tape.uuid(uuid()) }
      $0.date = DateGenerator { tape.date(date.now) }
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(
        RecordingGenerator(base: random, tape: tape))
      dependencies = $0
    } operation: {
    }
    let prepared = (dependencies, dependencies.sharedReferences)
    values = prepared
    return prepared
  }
}

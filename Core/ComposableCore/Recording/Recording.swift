import CustomDump
import Dependencies
import Foundation
import Synchronization

/// Writes a session's actions to a file, one JSON line each, without making the store wait: lines
/// are buffered and written on a queue of their own, and every line is written whole, so a crash
/// loses at most the lines not yet written and never damages the ones before.
public final class SessionRecorder: Sendable {
  /// The recording format this build writes and reads.
  public static let format = 1

  private let handle: FileHandle
  private let queue = DispatchQueue(label: "composable.session-recorder")
  /// Steps not yet encoded and written, and whether a write is already scheduled.
  private let pending = Mutex<(steps: [PendingStep], scheduled: Bool, sequence: Int)>(
    ([], false, 0))
  /// Used on the recorder's queue only.
  private let lineEncoder = UncheckedSendable(SessionRecorder.encoder)

  /// Starts a recording of `feature` at `url`, replacing any file there.
  public init(url: URL, feature: String) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    handle = try FileHandle(forWritingTo: url)
    let header = RecordingHeader(format: Self.format, feature: feature)
    try handle.write(contentsOf: Self.encoder.encode(header) + Data("\n".utf8))
  }

  deinit {
    flush()
    try? handle.close()
  }

  /// Queues one processed action and the state after it. Encoding and writing happen on the
  /// recorder's queue: the store only copies the values.
  func record<Action: Encodable>(_ action: Action, stateAfter state: Any) {
    let time = Date()
    // Values copied out of the store and only read on the recorder's queue.
    let encode: (JSONEncoder, Int) throws -> Data = { encoder, sequence in
      let entry = RecordedStep(
        seq: sequence, time: time, action: action, state: String(customDumping: state))
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

struct RecordingHeader: Codable {
  let format: Int
  let feature: String
}

struct RecordedStep<Action: Encodable>: Encodable {
  let seq: Int
  let time: Date
  let action: Action
  /// The state after the action, as custom-dump prints it: what replay compares.
  let state: String
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
  let base: Base
  let recorder: SessionRecorder

  /// Runs the base reducer, then records the action and the state it left.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let effects = base.reduce(into: &state, action: action)
    recorder.record(action, stateAfter: state)
    return effects
  }
}

/// Feeds a recording into a fresh reducer, effects not run (their results are in the
/// recording), and checks each state against the recorded one.
public enum SessionReplay {
  /// What a replay found.
  public struct Report<State> {
    /// How many actions were replayed.
    public var actions: Int
    /// The state after the last one.
    public var state: State
    /// Whether the file ended in a partial line (a recording cut short), which was left out.
    public var endedInPartialLine: Bool
    /// The first action after which the state differed from the recorded one, if any.
    public var divergence: Divergence?
  }

  /// Where a replay first left the recording.
  public struct Divergence: Equatable, Sendable {
    /// The action's sequence number.
    public var seq: Int
    /// The recorded state (−) against the replayed one (+).
    public var difference: String
  }

  /// Replays the recording at `url` of `feature` from `initialState`.
  public static func replay<R: Reducer>(
    _ url: URL,
    feature: String,
    initialState: R.State,
    reducer: R
  ) throws(ReplayError) -> Report<R.State> where R.Action: Codable {
    let data: Data
    do { data = try Data(contentsOf: url) } catch { throw .unreadable(url.path, "\(error)") }
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let endedInPartialLine = !(lines.last?.isEmpty ?? true)
    if lines.last?.isEmpty == true { lines.removeLast() }
    if endedInPartialLine { lines.removeLast() }
    guard let first = lines.first,
      let header = try? JSONDecoder().decode(RecordingHeader.self, from: Data(first))
    else { throw .notARecording(url.path) }
    guard header.format <= SessionRecorder.format else {
      throw .newerFormat(header.format, supported: SessionRecorder.format)
    }
    guard header.feature == feature else {
      throw .otherFeature(recorded: header.feature, expected: feature)
    }
    var state = initialState
    var report = Report(
      actions: 0, state: state, endedInPartialLine: endedInPartialLine, divergence: nil)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    for line in lines.dropFirst() {
      let step: ReplayedStep<R.Action>
      do {
        step = try decoder.decode(ReplayedStep<R.Action>.self, from: Data(line))
      } catch {
        throw .badLine(report.actions + 1, "\(error)")
      }
      _ = reducer.reduce(into: &state, action: step.action)
      report.actions += 1
      if report.divergence == nil {
        let replayed = String(customDumping: state)
        if replayed != step.state {
          report.divergence = Divergence(
            seq: step.seq, difference: lineDiff(recorded: step.state, replayed: replayed))
        }
      }
    }
    report.state = state
    return report
  }

  private static func lineDiff(recorded: String, replayed: String) -> String {
    let old = recorded.split(separator: "\n", omittingEmptySubsequences: false)
    let new = replayed.split(separator: "\n", omittingEmptySubsequences: false)
    return new.difference(from: old).map { change in
      switch change {
      case .remove(_, let line, _): "− \(line)"
      case .insert(_, let line, _): "+ \(line)"
      }
    }.joined(separator: "\n")
  }
}

struct ReplayedStep<Action: Decodable>: Decodable {
  let seq: Int
  let action: Action
  let state: String
}

/// Why a recording cannot be replayed.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(String, String)
  /// The file does not start with a recording's header.
  case notARecording(String)
  /// The recording was made by a newer build.
  case newerFormat(Int, supported: Int)
  /// The recording is of another feature.
  case otherFeature(recorded: String, expected: String)
  /// A whole line that is not a recorded action of this feature.
  case badLine(Int, String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    case .notARecording(let path): "\(path) is not a recording"
    case .newerFormat(let format, let supported):
      "the recording has format \(format); this build reads up to \(supported)"
    case .otherFeature(let recorded, let expected):
      "the recording is of \(recorded), not \(expected)"
    case .badLine(let index, let reason): "action \(index) cannot be read: \(reason)"
    }
  }
}

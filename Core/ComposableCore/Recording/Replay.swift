import ComposableSharing
import CustomDump
import Dependencies
import FileSystem
import Foundation

/// Hands out the recorded values of one step in order; past the end, what `fallback` gives (the
/// replayed state then differs, and the replay says where).
private final class DependencyPlayback: Sendable {
  private let values: Locked<RecordedDependencies>
  private let fallbackRandom = Locked(SystemRandomNumberGenerator())

  init(_ recorded: RecordedDependencies?) {
    values = Locked(recorded ?? .init())
  }

  func uuid() -> UUID {
    values.withLock { $0.uuids.isEmpty ? UUID() : $0.uuids.removeFirst() }
  }

  func date() -> Date {
    values.withLock {
      $0.dates.isEmpty ? Date() : Date(timeIntervalSinceReferenceDate: $0.dates.removeFirst())
    }
  }

  func random() -> UInt64 {
    values.withLock { $0.randoms.isEmpty ? nil : $0.randoms.removeFirst() }
      ?? fallbackRandom.withLock { $0.next() }
  }
}

private struct PlaybackGenerator: RandomNumberGenerator, Sendable {
  let playback: DependencyPlayback
  mutating func next() -> UInt64 { playback.random() }
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
    /// Each replayed action and the state after it, when the replay was asked to keep them.
    public var steps: [Step]
  }

  /// One replayed action.
  public struct Step: Equatable, Sendable {
    /// The action's sequence number.
    public var seq: Int
    /// The action, as custom-dump prints it.
    public var action: String
    /// The state after it, as custom-dump prints it.
    public var state: String
  }

  /// Where a replay first left the recording.
  public struct Divergence: Equatable, Sendable {
    /// The action's sequence number.
    public var seq: Int
    /// The recorded state (−) against the replayed one (+).
    public var difference: String
  }

  /// The header of the recording at `url`: which feature it is of and how it started.
  public static func header(of url: URL) throws(ReplayError) -> RecordingHeader {
    try read(url).header
  }

  /// Replays the recording at `url` of `feature` from `initialState`; `keepingSteps` keeps each
  /// action and state in the report (for stepping through them).
  public static func replay<R: Reducer>(
    _ url: URL,
    feature: String,
    initialState: R.State,
    reducer: R,
    keepingSteps: Bool = false
  ) throws(ReplayError) -> Report<R.State> where R.Action: Codable {
    let file = try read(url)
    guard file.header.feature == feature else {
      throw .otherFeature(recorded: file.header.feature, expected: feature)
    }
    // Held as the recording store held it, so that a feature's body is built once for the
    // replay, not for each step.
    let built = ReducerTree.making(kept: true) { _BuiltReducer(reducer) }
    var state = initialState
    var report = Report(
      actions: 0, state: state, endedInPartialLine: file.endedInPartialLine, divergence: nil,
      steps: [])
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    for line in file.steps {
      let step: ReplayedStep<R.Action>
      do {
        step = try decoder.decode(ReplayedStep<R.Action>.self, from: Data(line))
      } catch {
        throw .badLine(
          report.actions + 1, describeActionFailure(error, in: Data(line), under: "action"))
      }
      let playback = DependencyPlayback(step.dependencies)
      _ = withDependencies {
        $0.uuid = UUIDGenerator { playback.uuid() }
        $0.date = DateGenerator { playback.date() }
        $0.withRandomNumberGenerator = WithRandomNumberGenerator(
          PlaybackGenerator(playback: playback))
      } operation: {
        built.reduce(into: &state, action: step.action)
      }
      report.actions += 1
      let replayed = String(customDumping: state)
      if report.divergence == nil, replayed != step.state {
        report.divergence = Divergence(
          seq: step.seq, difference: lineDiff(from: step.state, to: replayed))
      }
      if keepingSteps {
        report.steps.append(
          Step(seq: step.seq, action: String(customDumping: step.action), state: replayed))
      }
    }
    report.state = state
    return report
  }

  /// The lines of `new` that are not in `old` (+) and the other way round (−), in order: a
  /// step's change, or a divergence.
  public static func lineDiff(from old: String, to new: String) -> String {
    let old = old.split(separator: "\n", omittingEmptySubsequences: false)
    let new = new.split(separator: "\n", omittingEmptySubsequences: false)
    return new.difference(from: old).map { change in
      switch change {
      case .remove(_, let line, _): "− \(line)"
      case .insert(_, let line, _): "+ \(line)"
      }
    }.joined(separator: "\n")
  }

  private static func read(
    _ url: URL
  ) throws(ReplayError) -> (
    header: RecordingHeader, steps: ArraySlice<Data.SubSequence>, endedInPartialLine: Bool
  ) {
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
      throw .unreadable(url.path, POSIXFile.describe(error, at: url))
    }
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let endedInPartialLine = !(lines.last?.isEmpty ?? true)
    if lines.last?.isEmpty == true { lines.removeLast() }
    if endedInPartialLine, lines.count > 1 { lines.removeLast() }
    guard let first = lines.first,
      let header = try? JSONDecoder().decode(RecordingHeader.self, from: Data(first))
    else { throw .notARecording(url.path) }
    guard header.format <= SessionRecorder.format else {
      throw .newerFormat(header.format, supported: SessionRecorder.format)
    }
    return (header, lines.dropFirst(), endedInPartialLine)
  }
}

struct ReplayedStep<Action: Decodable>: Decodable {
  let seq: Int
  let action: Action
  let dependencies: RecordedDependencies?
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
  /// The header's start value is missing or is not what this feature starts from.
  case badStart(String)

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
    case .badStart(let reason): "the recording's start cannot be read: \(reason)"
    }
  }
}

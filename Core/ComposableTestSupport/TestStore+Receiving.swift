@_spi(Internals) import CasePaths
import ComposableCore
import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Foundation
import IssueReporting

extension TestStore {

  /// Asserts that an effect sent an action in the case at `actionCase`, and how it changed state.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receiveAction(
      matching: { $0[case: actionCase] != nil },
      failure: Self.noCaseMatched,
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action in the case a case path extracts, as TCA 1.0–1.3
  /// tests wrote it (`receive(/Action.response)`).
  @_disfavoredOverload
  @available(*, deprecated, message: "Use the version of this method with case key paths, instead.")
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { actionCase.extract(from: $0) != nil },
      failure: Self.noCaseMatched,
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent the action at `actionCase` carrying `value`, and how it changed
  /// state.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receiveAction(
      matching: { $0[case: actionCase] == value },
      failure: Self.noCaseMatched,
      unexpected: { received in
        // The same case with another value is told as a difference from the expected action.
        guard received[case: actionCase] != nil,
          let difference = diff(actionCase(value), received, format: .proportional)
        else { return describeValue(received).indenting(by: 2) }
        return "\(difference.indenting(by: 2))\n\n(Expected: −, Actual: +)"
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent exactly `expectedAction`, and how it changed state.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receiveAction(
      matching: { $0 == expectedAction },
      failure: "Expected to receive the following action, but didn't:\n\n"
        + describeValue(expectedAction).indenting(by: 2),
      unexpected: { received in
        guard let difference = diff(expectedAction, received, format: .proportional) else {
          return """
            Expected:
            \(String(describing: expectedAction).indenting(by: 2))

            Received:
            \(String(describing: received).indenting(by: 2))
            """
        }
        return "\(difference.indenting(by: 4))\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action `isMatching` accepts, and how it changed state.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      failure: "Expected to receive an action matching predicate, but didn't get one.",
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  static var noCaseMatched: String {
    "Expected to receive an action matching case path, but didn't get one."
  }

  /// Waits for an action while effects that could send one are running, then asserts the first
  /// one received (non-exhaustively, the first that matches, skipping those before it). The
  /// messages are only described when a failure is reported: dumping an action costs more than
  /// the whole receive otherwise.
  func receiveAction(
    matching isMatching: (Action) -> Bool,
    failure: @autoclosure () -> String,
    unexpected: (Action) -> String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: IssueLocation
  ) async {
    let isExhaustive = exhaustivity == .on
    // With no effect running, nothing more can arrive: what has arrived is all there is.
    if core.hasEffectsInFlight {
      let timeout = timeout ?? self.timeout
      let arrived = await waitUntil(timeout: timeout) {
        isExhaustive
          ? !recorder.received.isEmpty : recorder.received.contains { isMatching($0.action) }
      }
      if !arrived {
        location.report(
          """
          Expected to receive \(isExhaustive ? "an action" : "a matching action"), but received \
          none\(timeout > .zero ? " after \(timeout)" : "").

          \(effectsInFlightSuggestion(timeout: timeout))
          """
        )
      }
    }
    guard !recorder.received.isEmpty else {
      location.report(failure())
      return
    }

    if !isExhaustive {
      guard let index = recorder.received.firstIndex(where: { isMatching($0.action) }) else {
        location.report(failure())
        return
      }
      if index > 0 {
        let skipped = recorder.received.prefix(index).map(\.action)
        reportSkipped(
          "\(skipped.count) received action\(skipped.count == 1 ? " was" : "s were") skipped.\n\n"
            + dumpActions(skipped),
          at: location
        )
        snapshot = recorder.received[index - 1].state
        recorder.received.removeFirst(index)
        staleReceivedCount = max(0, staleReceivedCount - index)
      }
    }

    let (action, actual, shared) = recorder.received.removeFirst()
    let isStale = staleReceivedCount > 0
    if isStale { staleReceivedCount -= 1 }
    if !isMatching(action) {
      location.report("Received unexpected action:\n\n\(unexpected(action))")
    } else if !isStale {
      expectState(
        previous: snapshot,
        actual: actual,
        shared: shared,
        update: update,
        step: "receiving",
        action: action,
        stackIDs: core.dependencies.stackElementID.copy(),
        at: location
      )
    }
    if !isStale { snapshot = actual }
    await letEffectsStart()
  }

  /// What a failure to receive in time suggests, depending on whether anything could still send.
  func effectsInFlightSuggestion(timeout: Duration) -> String {
    guard core.hasEffectsInFlight else {
      return """
        There are no in-flight effects that could deliver this action. Could the effect you \
        expected to deliver this action have been cancelled?
        """
    }
    let timeoutAdvice =
      timeout != self.timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    return """
      There are effects in-flight. If the effect that delivers this action uses a \
      clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
      enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
      it so that the effects may complete, or consider using an immediate clock/scheduler to \
      immediately perform the effect instead.

      If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
      \(timeoutAdvice).
      """
  }
}

import CasePaths
import IssueReporting

/// The result of an async throwing operation, for response actions written before typed
/// `Result`s: `case response(TaskResult<Fact>)` and `await send(.response(TaskResult { … }))`.
///
/// Kept for code ported from TCA, which deprecates it in favour of `Result` (softly, as here).
@available(macOS, deprecated: 9999, message: "Use 'Result', instead.")
@CasePathable
public enum TaskResult<Success: Sendable>: Sendable {
  /// The operation returned a value.
  case success(Success)
  /// The operation threw.
  case failure(any Error)

  /// Runs `body` and keeps its value, or the error it threw.
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// The same outcome as `result`.
  public init<Failure>(_ result: Result<Success, Failure>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The value, or the error thrown.
  public var value: Success {
    get throws {
      switch self {
      case .success(let value): return value
      case .failure(let error): throw error
      }
    }
  }

  /// Transforms a success.
  public func map<NewSuccess>(
    _ transform: (Success) -> NewSuccess
  ) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): .success(transform(value))
    case .failure(let error): .failure(error)
    }
  }

  /// Transforms a success into another result.
  public func flatMap<NewSuccess>(
    _ transform: (Success) -> TaskResult<NewSuccess>
  ) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): transform(value)
    case .failure(let error): .failure(error)
    }
  }
}

extension Result where Success: Sendable, Failure == any Error {
  /// The same outcome as `result`.
  @available(macOS, deprecated: 9999, message: "Use 'Result', instead.")
  public init(_ result: TaskResult<Success>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }
}

@available(macOS, deprecated: 9999, message: "Use 'Result', instead.")
extension TaskResult: Equatable where Success: Equatable {
  /// Equal successes are equal; failures are equal when their errors are `Equatable`, of one
  /// type and equal. Two errors that cannot be compared are reported, as TCA does, and unequal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.success(let lhs), .success(let rhs)):
      return lhs == rhs
    case (.failure(let lhs), .failure(let rhs)):
      if let equal = errorsEqual(lhs, rhs) { return equal }
      if type(of: lhs) == type(of: rhs) {
        reportIssue(
          """
          "TaskResult" cannot compare two errors of type "\(type(of: lhs))": it is not \
          Equatable. Make it Equatable so response actions carrying it can be compared.
          """
        )
      }
      return false
    default:
      return false
    }
  }
}

@available(macOS, deprecated: 9999, message: "Use 'Result', instead.")
extension TaskResult: Hashable where Success: Hashable {
  /// Hashes the success, or a hashable error.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success(let value):
      hasher.combine(0)
      hasher.combine(value)
    case .failure(let error):
      hasher.combine(1)
      if let error = hashable(error) { hasher.combine(error) }
    }
  }
}

/// Whether two errors are equal, or `nil` when the first is not `Equatable`.
private func errorsEqual(_ lhs: any Error, _ rhs: any Error) -> Bool? {
  equal(lhs, rhs)
}

// Asked of the error's own type: a cast of the error value to `any Equatable` is one the
// compiler believes always succeeds (through the `NSError` bridge), although it does not.
private func equal<E: Error>(_ lhs: E, _ rhs: any Error) -> Bool? {
  guard let type = E.self as? any Equatable.Type else { return nil }
  func compare<T: Equatable>(_: T.Type) -> Bool { (lhs as? T) == (rhs as? T) }
  return compare(type)
}

private func hashable<E: Error>(_ error: E) -> AnyHashable? {
  guard let type = E.self as? any Hashable.Type else { return nil }
  func wrap<T: Hashable>(_: T.Type) -> AnyHashable? { (error as? T).map { AnyHashable($0) } }
  return wrap(type)
}

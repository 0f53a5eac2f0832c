import IssueReporting

/// Dismisses the feature that owns the calling effect: `await dismiss()` from a presented child
/// sends `.dismiss` to its parent, and from a stack element pops it.
///
/// Use it from an effect (`.run`) of a feature presented with `ifLet(\.$destination, …)` or pushed
/// onto a stack with `forEach(\.path, …)`. After it returns, the parent has removed the child and
/// cancelled its effects.
public struct DismissEffect: Sendable {
  /// The dismissal effect; get it with `@Dependency(\.dismiss)`.
  public init() {}

  /// Asks the parent to dismiss the feature whose effect is running.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let dismiss = DismissContext.current else {
      reportIssue(
        """
        "dismiss()" was called from "\(fileID):\(line)", outside an effect of a presented or \
        stacked feature, so there is nothing to dismiss.

        Call it from a ".run" effect of a feature its parent presents with "ifLet(\\.$destination, \
        action:)" or pushes with "forEach(\\.path, action:)".
        """,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
      return
    }
    await dismiss()
  }
}

extension DismissEffect: DependencyKey {
  /// The same in every context: the presenting parent decides what dismissing means.
  public static let liveValue = DismissEffect()
  /// As live: dismissal is driven by the reducer under test, not replaced.
  public static let testValue = DismissEffect()
}

extension DependencyValues {
  /// Dismisses the feature whose effect calls it.
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}

/// How the effect running now dismisses its feature. A task-local rather than a dependency: an
/// effect restores the dependencies it captured when it was made, and only the presenting parent,
/// when it runs the effect, knows the action that dismisses the child.
enum DismissContext {
  @TaskLocal static var current: (@Sendable () async -> Void)?
}

extension Effect {
  /// Lets the `.run` operations of this (child) effect dismiss the child by sending `action`.
  // Inlinable, answering here for the effects with no `.run` to give the action to: most child
  // effects only send, and a cancellation has nothing to wrap either.
  @inlinable
  func dismissing(with action: @autoclosure () -> Action) -> Self {
    guard canOutliveItsAction else { return self }
    return dismissingRuns(with: action())
  }

  @usableFromInline
  func dismissingRuns(with action: Action) -> Self {
    // The action is a value the store made on the main actor and only ever sends back there.
    let action = UncheckedSendable(action)
    return transformingRuns { operation in
      { send in
        await DismissContext.$current.withValue({ await send(action.wrappedValue) }) {
          await operation(send)
        }
      }
    }
  }

  /// Lets the `.run` operations of this effect call `dismiss()` with `dismiss` handling it,
  /// where no presenting parent does: a test store dismisses its own feature this way.
  package func dismissingRuns(by dismiss: @escaping @Sendable () async -> Void) -> Self {
    guard canOutliveItsAction else { return self }
    return transformingRuns { operation in
      { send in
        await DismissContext.$current.withValue(dismiss) {
          await operation(send)
        }
      }
    }
  }

  /// Rebuilds the effect with every `.run` operation transformed.
  func transformingRuns(
    _ transform: (
      @escaping @Sendable (Send<Action>) async -> Void
    ) -> @Sendable (Send<Action>) async -> Void
  ) -> Self {
    switch operation {
    case .none, .send, .cancel, .cancelScope, .cancelScopes, .subscribe:
      return self
    case .run(let priority, let dependencies, let operation):
      return Self(
        operation: .run(
          priority: priority, dependencies: dependencies, operation: transform(operation)))
    case .merge(let effects):
      return Self(
        operation: .merge(EffectParts(effects) { $0.transformingRuns(transform) }))
    case .concatenate(let effects):
      return Self(
        operation: .concatenate(EffectParts(effects) { $0.transformingRuns(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id,
          cancelInFlight: cancelInFlight,
          effect.transformingRuns(transform)
        )
      )
    case .scoped(let scope, let effect):
      return Self(operation: .scoped(scope, effect.transformingRuns(transform)))
    case .throttle(let id, let throttling, let latest, let effect):
      return Self(
        operation: .throttle(id: id, throttling, latest: latest, effect.transformingRuns(transform))
      )
    }
  }
}

/// The function an effect uses to send actions back into the store: `await send(.response(x))`.
///
/// Sending from an effect that has been cancelled does nothing, so a late response can never
/// reach a feature that no longer expects it.
@MainActor
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Makes a `Send` from a function that delivers actions; useful to adapt one effect's output.
  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends `action` to the store, unless the effect's task has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}

// The store's SPI that TCA's own tests use, under the same names.
@_spi(Internals)
extension Store {
  /// The state now, read without being observed.
  public var currentState: State { core.state }

  /// Sends an action and returns a task for the effects it started, or `nil` when it started
  /// none; cancelling the task cancels them.
  @_disfavoredOverload
  public func send(_ action: Action) -> Task<Void, Never>? {
    guard let effects = sendAction(action) else { return nil }
    // Finishing already cancels the effects when its task is cancelled.
    return Task { await effects.finish() }
  }
}

extension Effect {
  /// Delays this effect by `duration`, restarting the delay whenever another effect with the same
  /// `id` arrives, so only the last of a burst runs.
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>
  ) -> Self {
    if case .none = operation { return self }
    let delay = Effect.run { _ in try await clock.sleep(for: duration) }
    return .concatenate(delay, self).cancellable(id: id, cancelInFlight: true)
  }
}

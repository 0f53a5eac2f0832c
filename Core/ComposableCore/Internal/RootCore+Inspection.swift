// What a test store, and TCA's own tests through a store, ask of the core about the effects
// still running.
extension RootCore {
  @usableFromInline package func effectsInFlight() -> [(id: Int, cancel: @Sendable () -> Void)] {
    running?.cancellers ?? []
  }

  /// The effects still running, oldest first: the action that returned each one, and the tag of
  /// the outermost `send` it descends from.
  package var inFlightEffects: [(origin: Action, tag: Int)] {
    running?.list ?? []
  }

  /// Whether any effect is still running.
  package var hasEffectsInFlight: Bool {
    !(running?.isEmpty ?? true)
  }

  /// Stops counting the effects running now as in flight, without cancelling them, as a test
  /// store's `skipInFlightEffects()` does.
  package func forgetEffectsInFlight() {
    running?.forgetAll()
  }
}

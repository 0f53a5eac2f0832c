import ConcurrencyExtras
import Dependencies

/// What runs an effect on its own for ``Effect/actions``.
private enum ActionsRunner<Action> {
  case start
  case sent(Action)
}

@_spi(Internals)
extension Effect {
  /// The actions this effect sends, run on its own: the stream ends when the effect finishes,
  /// and stopping iteration cancels the effect. For testing an effect apart from a feature.
  ///
  /// The effect runs in a store of its own, so its merging, ordering and throttling behave as in
  /// a feature's store; its cancellation ids are those of work outside stores, as in TCA, so
  /// `Task.cancel(id:)` outside a store, and another effect run this way, reach them.
  public var actions: AsyncStream<Action> {
    let effect = UncheckedSendable(self)
    return AsyncStream { continuation in
      let task = Task { @MainActor in
        let core = RootCore<Reduce<Void, ActionsRunner<Action>>>(
          initialState: (), dependencies: DependencyValues._current
        ) { _, action in
          switch action {
          case .start:
            return effect.value.map { .sent($0) }
          case .sent(let action):
            // Yielded on the main actor, where the store runs; the stream only hands it on.
            continuation.yield(UncheckedSendable(action).value)
            return .none
          }
        }
        core.listEffectsOutsideStores(path: DetachedCancellation.currentPath)
        await core.send(.start)?.finish()
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

import ConcurrencyExtras

/// What runs an effect on its own for ``Effect/actions``: a store of its own, so the effect's
/// merging, ordering, cancellation by id and throttling behave as they would in a feature's
/// store, and nothing is shared with any other store.
private enum ActionsRunner<Action> {
  case start
  case sent(Action)
}

@_spi(Internals)
extension Effect {
  /// The actions this effect sends, run on its own in a store of its own: the stream ends when the
  /// effect finishes, and stopping iteration cancels the effect. For testing an effect apart from
  /// a feature; ids it is cancellable by are its own store's, so only the effect itself (or an
  /// effect it merges) cancels them.
  public var actions: AsyncStream<Action> {
    let effect = UncheckedSendable(self)
    return AsyncStream { continuation in
      let task = Task { @MainActor in
        let store = Store<Void, ActionsRunner<Action>>(initialState: ()) {
          Reduce { _, action in
            switch action {
            case .start:
              return effect.value.map { .sent($0) }
            case .sent(let action):
              // Yielded on the main actor, where the store runs; the stream only hands it on.
              continuation.yield(UncheckedSendable(action).value)
              return .none
            }
          }
        }
        await store.send(.start).finish()
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}

/// Where an effect runs: the `send` group its tasks join, the feature instance that returned it,
/// and the ids it runs under. Not nested in the generic `RootCore`, and without the action that
/// led to it, so that copying it needs no generic metadata: the unspecialised effect path copied
/// it at each step, looking that metadata up (about 330 instructions) every time.
// Made and read on the main actor only; tasks carry contexts back to it.
@usableFromInline
struct EffectContext: @unchecked Sendable {
  /// The `send` group the effect's tasks belong to; `nil` for the outermost send in progress.
  @usableFromInline var tasks: EffectTasks?
  @usableFromInline var path: [EffectScope] = []
  @usableFromInline var keys: [CancelKey] = []
  /// Set while running part of a concatenation, which waits for exactly these tasks.
  @usableFromInline var collector: EffectTasks?

  @inlinable
  init(tasks: EffectTasks?) {
    self.tasks = tasks
  }
}

/// A cancellation id qualified by the feature instance that used it.
///
/// Its parts are immutable hashable values: an effect's task takes its keys off the store's list
/// of running effects as it ends, under that list's lock.
@usableFromInline
struct CancelKey: Hashable, @unchecked Sendable {
  let id: EffectID
  let path: [EffectScope]
}

extension Effect {
  /// Makes this effect cancellable by `id`, optionally cancelling any in-flight effect with the
  /// same id first.
  ///
  /// The id is qualified by the feature instance that returned the effect, so two rows of a list
  /// using the same id do not cancel each other.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = operation, !cancelInFlight { return self }
    return Self(operation: .cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every in-flight effect of this feature instance marked with `id`.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: EffectID(id)))
  }
}

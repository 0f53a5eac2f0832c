extension Effect {
  /// Lets at most one effect with `id` run per `interval`: the first runs at once, and one that
  /// arrives within the interval runs when it ends (the latest one if `latest`, else the first).
  ///
  /// A single throttled effect leaves nothing running, as in TCA; only a deferred one is in
  /// flight, cancellable with ``cancel(id:)``.
  public func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    if case .none = operation { return self }
    return Self(
      operation: .throttle(
        id: EffectID(id),
        Throttling(interval: interval, clock: clock),
        latest: latest,
        self
      )
    )
  }
}

/// The time source and interval of a throttled effect: a clock or a Combine scheduler, its
/// instants kept opaque so the store can remember when each id last ran.
@usableFromInline
struct Throttling: Sendable {
  /// The current instant.
  let now: @Sendable () -> ThrottleMark
  /// Whether less than the interval has passed since `mark`.
  let isWithinInterval: @Sendable (ThrottleMark) -> Bool
  /// Sleeps until the interval after `mark` has passed, however late the caller starts.
  let sleepUntilIntervalEnds: @Sendable (ThrottleMark) async throws -> Void

  init(
    now: @escaping @Sendable () -> ThrottleMark,
    isWithinInterval: @escaping @Sendable (ThrottleMark) -> Bool,
    sleepUntilIntervalEnds: @escaping @Sendable (ThrottleMark) async throws -> Void
  ) {
    self.now = now
    self.isWithinInterval = isWithinInterval
    self.sleepUntilIntervalEnds = sleepUntilIntervalEnds
  }

  init(interval: Duration, clock: any Clock<Duration>) {
    self = Self.make(interval: interval, clock: clock)
  }

  private static func make<C: Clock<Duration>>(interval: Duration, clock: C) -> Self {
    Self(
      now: { ThrottleMark(clock.now) },
      isWithinInterval: { mark in
        // A mark from another clock (the same id throttled on two) does not hold back.
        guard let last = mark.instant as? C.Instant else { return false }
        return last.duration(to: clock.now) < interval
      },
      sleepUntilIntervalEnds: { mark in
        guard let last = mark.instant as? C.Instant else { return }
        try await clock.sleep(until: last.advanced(by: interval), tolerance: nil)
      }
    )
  }
}

/// An instant of a clock or a scheduler, as a throttled effect remembers it.
struct ThrottleMark: @unchecked Sendable {
  // Unchecked: an instant is an immutable value, only compared by the store on the main actor
  // or by the task waiting for the interval to end.
  let instant: Any

  init(_ instant: Any) {
    self.instant = instant
  }
}

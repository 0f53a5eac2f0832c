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
        id: AnyHashable(id),
        Throttling(interval: interval, clock: clock),
        latest: latest,
        self
      )
    )
  }
}

/// The clock and interval of a throttled effect, with the clock's instants erased to durations
/// since a fixed reference so the store can keep the last run time per id.
@usableFromInline
struct Throttling: Sendable {
  let interval: Duration
  let now: @Sendable () -> Duration
  /// Sleeps until the given offset from the reference instant, however late the caller starts.
  let sleepUntil: @Sendable (Duration) async throws -> Void

  init(interval: Duration, clock: any Clock<Duration>) {
    self = Self.make(interval: interval, clock: clock)
  }

  private init(
    interval: Duration,
    now: @escaping @Sendable () -> Duration,
    sleepUntil: @escaping @Sendable (Duration) async throws -> Void
  ) {
    self.interval = interval
    self.now = now
    self.sleepUntil = sleepUntil
  }

  private static func make<C: Clock<Duration>>(interval: Duration, clock: C) -> Self {
    let reference = clock.now
    return Self(
      interval: interval,
      now: { reference.duration(to: clock.now) },
      sleepUntil: { try await clock.sleep(until: reference.advanced(by: $0), tolerance: nil) }
    )
  }
}

#if canImport(OpenCombineShim)
  import CombineSchedulers
  import OpenCombineShim

  extension Effect {
    /// Delays this effect by `dueTime` on `scheduler`, restarting the delay whenever another
    /// effect with the same `id` arrives, so only the last of a burst runs: the Combine-era form
    /// of ``debounce(id:for:clock:)``.
    public func debounce<S: Scheduler>(
      id: some Hashable & Sendable,
      for dueTime: S.SchedulerTimeType.Stride,
      scheduler: S,
      options: S.SchedulerOptions? = nil
    ) -> Self {
      if case .none = operation { return self }
      // A debounced action, the usual case, waits on the scheduler itself as TCA's publisher
      // does: scheduled while the action that returned it is processed, and sent from the
      // scheduler's callback. A test scheduler's `advance` then sends it before returning, with
      // no task to wait for.
      if case .send(let action) = operation {
        let scheduler = UncheckedSendable(scheduler)
        let action = UncheckedSendable(action)
        return Effect.publisher {
          Just(action.value).delay(for: dueTime, scheduler: scheduler.value, options: options)
        }
        .cancellable(id: id, cancelInFlight: true)
      }
      let timing: any SchedulerTiming = SchedulerTimingOf(scheduler, dueTime, options)
      let delay = Effect.run { _ in try await timing.sleepForInterval() }
      return .concatenate(delay, self).cancellable(id: id, cancelInFlight: true)
    }

    /// Lets at most one effect with `id` run per `interval` of `scheduler`'s time: the
    /// Combine-era form of ``throttle(id:for:clock:latest:)``.
    public func throttle<S: Scheduler>(
      id: some Hashable & Sendable,
      for interval: S.SchedulerTimeType.Stride,
      scheduler: S,
      latest: Bool
    ) -> Self {
      if case .none = operation { return self }
      let timing: any SchedulerTiming = SchedulerTimingOf(scheduler, interval, nil)
      return Self(
        operation: .throttle(
          id: EffectID(id),
          Throttling(
            now: { timing.now() },
            isWithinInterval: { timing.isWithinInterval(since: $0) },
            sleepUntilIntervalEnds: { try await timing.sleepUntilIntervalEnds(after: $0) }
          ),
          latest: latest,
          self
        )
      )
    }
  }

  /// A scheduler and an interval, erased so that effects can hold them without their types.
  private protocol SchedulerTiming: Sendable {
    func now() -> ThrottleMark
    func isWithinInterval(since mark: ThrottleMark) -> Bool
    func sleepForInterval() async throws
    func sleepUntilIntervalEnds(after mark: ThrottleMark) async throws
  }

  // Unchecked: schedulers predate strict concurrency. Those made for this (dispatch queues,
  // `AnyScheduler`, `TestScheduler`, `ImmediateScheduler`) are safe to use from any thread.
  private final class SchedulerTimingOf<S: Scheduler>: SchedulerTiming, @unchecked Sendable {
    let scheduler: S
    let interval: S.SchedulerTimeType.Stride
    let options: S.SchedulerOptions?

    init(_ scheduler: S, _ interval: S.SchedulerTimeType.Stride, _ options: S.SchedulerOptions?) {
      self.scheduler = scheduler
      self.interval = interval
      self.options = options
    }

    func now() -> ThrottleMark {
      ThrottleMark(scheduler.now)
    }

    func isWithinInterval(since mark: ThrottleMark) -> Bool {
      // A mark from another time source (the same id throttled on two) does not hold back.
      guard let last = mark.instant as? S.SchedulerTimeType else { return false }
      return last.distance(to: scheduler.now) < interval
    }

    func sleepForInterval() async throws {
      try await scheduler.sleep(for: interval, options: options)
    }

    func sleepUntilIntervalEnds(after mark: ThrottleMark) async throws {
      guard let last = mark.instant as? S.SchedulerTimeType else { return }
      let remaining = scheduler.now.distance(to: last.advanced(by: interval))
      if remaining > .zero { try await scheduler.sleep(for: remaining, options: options) }
    }
  }
#endif

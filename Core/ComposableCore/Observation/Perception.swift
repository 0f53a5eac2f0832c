import Observation

/// Runs `apply`, then calls `onChange` once when any observable value it read changes: the name
/// TCA's users call, from the Perception library; on Linux it is Observation's
/// `withObservationTracking`.
public func withPerceptionTracking<T>(
  _ apply: () -> T,
  onChange: @autoclosure () -> @Sendable () -> Void
) -> T {
  withObservationTracking(apply, onChange: onChange())
}

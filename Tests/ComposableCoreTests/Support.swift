import ComposableCore
import Testing

/// Waits, by yielding, until `condition` holds; fails the test after `limit` of wall time.
///
/// Effects hop between the global executor and the main actor, so a test that has advanced a
/// `TestClock` must let them run before it looks at the store. This never sleeps for a fixed
/// time: it returns as soon as the condition is true.
@MainActor
func eventually(
  _ condition: @MainActor () -> Bool,
  limit: Duration = .seconds(5),
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  let deadline = ContinuousClock.now.advanced(by: limit)
  var turns = 0
  while !condition() {
    turns += 1
    // Wall time alone is not enough: other tests may hold the executor this task needs.
    if turns > 2_000, ContinuousClock.now > deadline {
      Issue.record("Condition not met within \(limit)", sourceLocation: sourceLocation)
      return
    }
    await Task.yield()
  }
}

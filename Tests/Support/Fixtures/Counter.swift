import ComposableCore
import Foundation

/// A counter whose actions return each kind of effect the runtime has: none, merges, runs,
/// long-living cancellable runs, sends. The runtime benchmarks measure it and the core's tests
/// check what it does, so a benchmark row always stands for tested behaviour.
@Reducer
public struct Counter {
  /// The count alone.
  public struct State: Equatable, Sendable {
    /// What `increment` and `echoed` raise and `decrement` lowers.
    public var count: Int

    /// A counter at `count`.
    public init(count: Int = 0) {
      self.count = count
    }
  }

  /// One action per effect shape.
  public enum Action: Equatable, Sendable {
    case increment
    case decrement
    case incrementMergingNones
    case incrementMergingTwoNones
    /// Returns two `.send` effects merged: the merge's parts are built.
    case echoTwice
    case startRuns(Int)
    /// Effects that each send one action back, as an effect sends its response.
    case startRunsSending(Int)
    /// Effects that each do a little work first, as one decoding a response does.
    case startRunsWorking(Int)
    case startLongLiving(Int)
    case cancelLongLiving
    /// Sends `.increment` this many times, its effect folded one `.send` at a time with
    /// `merge(with:)`, as a reducer folds one effect per element of a list.
    case foldSends(Int)
    /// The same, folded with `.merge(effect, next)`.
    case foldSendsVariadic(Int)
    case echo
    case echoed
  }

  /// The id the long-living runs are cancellable by.
  public enum CancelID: Hashable, Sendable { case longLiving }

  /// The counter.
  public init() {}

  /// Counts, or returns the effect the action names.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .incrementMergingNones:
      state.count += 1
      return .merge(.none, .none, .none, .none, .none, .none, .none, .none, .none, .none)
    case .incrementMergingTwoNones:
      state.count += 1
      return .merge(.none, .none)
    case .startRuns(let count):
      return .merge((0..<count).map { _ in .run { _ in } })
    case .startRunsSending(let count):
      return .merge((0..<count).map { _ in .run { send in await send(.increment) } })
    case .startRunsWorking(let count):
      return .merge(
        (0..<count).map { index in
          .run { _ in _ = try? JSONEncoder().encode(Array(index..<index + 32)) }
        }
      )
    case .startLongLiving(let count):
      return .merge(
        (0..<count).map { _ in
          .run { _ in try await Task.never() }
            .cancellable(id: CancelID.longLiving)
        }
      )
    case .cancelLongLiving:
      return .cancel(id: CancelID.longLiving)
    case .foldSends(let count):
      var effect = Effect<Action>.none
      for _ in 0..<count { effect = effect.merge(with: .send(.increment)) }
      return effect
    case .foldSendsVariadic(let count):
      var effect = Effect<Action>.none
      for _ in 0..<count { effect = .merge(effect, .send(.increment)) }
      return effect
    case .echo:
      return .send(.echoed)
    case .echoTwice:
      return .merge(.send(.echoed), .send(.echoed))
    case .echoed:
      state.count += 1
      return .none
    }
  }
}

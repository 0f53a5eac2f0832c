import ComposableCore
import Foundation
import Testing

/// Effects folded one at a time, as a reducer does over a list's elements, and the values made
/// from one fold along the way.
@MainActor
struct EffectPartsTests {
  enum Action: Sendable {
    case perform
    case got(Int)
  }

  /// The numbers the effect sends, in the order a store receives them.
  func sent(by effect: Effect<Action>) -> [Int] {
    let store = Store(initialState: [Int]()) {
      Reduce<[Int], Action> { state, action in
        switch action {
        case .perform: return effect
        case .got(let number):
          state.append(number)
          return .none
        }
      }
    }
    store.send(.perform)
    return store.withState { $0 }
  }

  nonisolated static func fold(
    _ numbers: some Sequence<Int>, onto effect: Effect<Action> = .none, merging: Bool
  ) -> Effect<Action> {
    numbers.reduce(effect) { effect, number in
      merging
        ? effect.merge(with: .send(.got(number)))
        : effect.concatenate(with: .send(.got(number)))
    }
  }

  @Test(arguments: [true, false])
  func aLongFoldRunsEveryPartInOrder(merging: Bool) {
    let effect = Self.fold(0..<20_000, merging: merging)
    #expect(sent(by: effect) == Array(0..<20_000))
  }

  @Test(arguments: [true, false])
  func valuesMadeFromOneFoldKeepTheirOwnParts(merging: Bool) {
    let base = Self.fold(0..<3, merging: merging)
    let ten = Self.fold([10], onto: base, merging: merging)
    let twenty = Self.fold([20], onto: base, merging: merging)
    let eleven = Self.fold([11], onto: ten, merging: merging)
    let twentyOne = Self.fold([21, 22, 23, 24, 25], onto: twenty, merging: merging)
    // Another fold's parts added at once, and a fold added to itself.
    let both = merging ? ten.merge(with: twenty) : ten.concatenate(with: twenty)
    let twice = merging ? base.merge(with: base) : base.concatenate(with: base)

    #expect(sent(by: base) == [0, 1, 2])
    #expect(sent(by: ten) == [0, 1, 2, 10])
    #expect(sent(by: twenty) == [0, 1, 2, 20])
    #expect(sent(by: eleven) == [0, 1, 2, 10, 11])
    #expect(sent(by: twentyOne) == [0, 1, 2, 20, 21, 22, 23, 24, 25])
    #expect(sent(by: both) == [0, 1, 2, 10, 0, 1, 2, 20])
    #expect(sent(by: twice) == [0, 1, 2, 0, 1, 2])
    #expect(sent(by: base.map { action in action }) == [0, 1, 2])
  }

  // Effects are `Sendable`, so one fold may be added to on several threads at once; each thread
  // must get the parts it added and no other thread's.
  @Test func threadsAddingToOneFoldEachGetTheirOwnParts() async {
    let base = Self.fold(0..<5, merging: true)
    let results = LockIsolated<[Int: Effect<Action>]>([:])
    let finished = DispatchGroup()
    for thread in 1...8 {
      finished.enter()
      Thread {
        defer { finished.leave() }
        let numbers = (0..<500).map { thread * 1_000 + $0 }
        let effect = Self.fold(numbers, onto: base, merging: true)
        results.withValue { $0[thread] = effect }
      }.start()
    }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        finished.wait()
        continuation.resume()
      }
    }
    #expect(results.value.count == 8)
    for (thread, effect) in results.value {
      #expect(sent(by: effect) == Array(0..<5) + (0..<500).map { thread * 1_000 + $0 })
    }
    #expect(sent(by: base) == Array(0..<5))
  }
}

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

  /// Adds a `.send` for each number, with `merge(with:)` (`concatenate(with:)`), or `variadic`,
  /// with `.merge(effect, next)` (`.concatenate(effect, next)`).
  nonisolated static func fold(
    _ numbers: some Sequence<Int>, onto effect: Effect<Action> = .none, merging: Bool,
    variadic: Bool = false
  ) -> Effect<Action> {
    numbers.reduce(effect) { effect, number in
      switch (merging, variadic) {
      case (true, false): effect.merge(with: .send(.got(number)))
      case (false, false): effect.concatenate(with: .send(.got(number)))
      case (true, true): .merge(effect, .send(.got(number)))
      case (false, true): .concatenate(effect, .send(.got(number)))
      }
    }
  }

  // Twenty thousand parts: folded by copying every part so far, as `.merge(effect, next)` once
  // did, this took over a minute in a debug build.
  @Test(arguments: [true, false], [false, true])
  func aLongFoldRunsEveryPartInOrder(merging: Bool, variadic: Bool) {
    let effect = Self.fold(0..<20_000, merging: merging, variadic: variadic)
    #expect(sent(by: effect) == Array(0..<20_000))
  }

  @Test(arguments: [true, false], [false, true])
  func valuesMadeFromOneFoldKeepTheirOwnParts(merging: Bool, variadic: Bool) {
    let base = Self.fold(0..<3, merging: merging, variadic: variadic)
    let ten = Self.fold([10], onto: base, merging: merging, variadic: variadic)
    let twenty = Self.fold([20], onto: base, merging: merging, variadic: variadic)
    let eleven = Self.fold([11], onto: ten, merging: merging, variadic: variadic)
    let twentyOne = Self.fold(
      [21, 22, 23, 24, 25], onto: twenty, merging: merging, variadic: variadic)
    // Another fold's parts added at once, and a fold added to itself.
    let both: Effect<Action> =
      switch (merging, variadic) {
      case (true, false): ten.merge(with: twenty)
      case (false, false): ten.concatenate(with: twenty)
      case (true, true): .merge(ten, .none, twenty)
      case (false, true): .concatenate(ten, .none, twenty)
      }
    let twice: Effect<Action> =
      switch (merging, variadic) {
      case (true, false): base.merge(with: base)
      case (false, false): base.concatenate(with: base)
      case (true, true): .merge(base, base)
      case (false, true): .concatenate(base, base)
      }

    #expect(sent(by: base) == [0, 1, 2])
    #expect(sent(by: ten) == [0, 1, 2, 10])
    #expect(sent(by: twenty) == [0, 1, 2, 20])
    #expect(sent(by: eleven) == [0, 1, 2, 10, 11])
    #expect(sent(by: twentyOne) == [0, 1, 2, 20, 21, 22, 23, 24, 25])
    #expect(sent(by: both) == [0, 1, 2, 10, 0, 1, 2, 20])
    #expect(sent(by: twice) == [0, 1, 2, 0, 1, 2])
    #expect(sent(by: base.map { action in action }) == [0, 1, 2])
  }

  /// Two effects are kept in the merge (concatenation) itself; folding onto it, merging it with
  /// itself or mapping it keeps each value's own parts.
  @Test(arguments: [true, false])
  func aPairKeepsItsPartsWhateverIsMadeFromIt(merging: Bool) {
    func combined(_ effects: Effect<Action>...) -> Effect<Action> {
      merging ? .merge(effects) : .concatenate(effects)
    }
    let pair = combined(.send(.got(0)), .none, .send(.got(1)))
    let three = Self.fold([2], onto: pair, merging: merging)
    let four = combined(pair, .send(.got(3)))
    let twice = combined(pair, pair)
    let nested = combined(.send(.got(4)), pair)

    #expect(sent(by: pair) == [0, 1])
    #expect(sent(by: three) == [0, 1, 2])
    #expect(sent(by: four) == [0, 1, 3])
    #expect(sent(by: twice) == [0, 1, 0, 1])
    #expect(sent(by: nested) == [4, 0, 1])
    #expect(sent(by: pair.map { action in action }) == [0, 1])
    #expect(sent(by: pair) == [0, 1])
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
    // Told, not waited for: a global queue's thread blocked in `wait()` is one that every other
    // test's tasks need.
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
    #expect(results.value.count == 8)
    for (thread, effect) in results.value {
      #expect(sent(by: effect) == Array(0..<5) + (0..<500).map { thread * 1_000 + $0 })
    }
    #expect(sent(by: base) == Array(0..<5))
  }
}

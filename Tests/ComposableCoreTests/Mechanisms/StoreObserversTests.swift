import ComposableCore
import Testing

/// The list of a core's observers: one is kept apart from the rest, so these check that adding
/// and removing in any order, and while the list is being told, keeps who is told right.
@MainActor
struct StoreObserversTests {
  /// Which observers were told, by name, in the order told, and the values they were handed.
  final class Calls {
    var names: [String] = []
    var values: [Int] = []
  }

  func observer(_ name: String, _ calls: Calls) -> FunctionObserver<Int> {
    FunctionObserver { value in
      calls.names.append(name)
      calls.values.append(value)
    }
  }

  /// Tells `observers` of `value` as a core does (``StoreObservers/tell(_:lone:list:)``) and
  /// returns who was told, in the order told, each once for each time told.
  func tell(_ observers: StoreObservers<Int>, _ value: Int, _ calls: Calls) -> [String] {
    calls.names = []
    calls.values = []
    StoreObservers.tell(value, lone: observers.lone, list: observers)
    #expect(calls.values.allSatisfy { $0 == value })
    return calls.names
  }

  @Test func everyObserverIsToldOnceInTheOrderAdded() {
    let calls = Calls()
    var observers = StoreObservers<Int>()
    #expect(observers.isEmpty)
    let a = observers.add(observer("a", calls))
    #expect(tell(observers, 1, calls) == ["a"])
    let b = observers.add(observer("b", calls))
    let c = observers.add(observer("c", calls))
    #expect(Set([a, b, c]).count == 3)
    #expect(tell(observers, 2, calls) == ["a", "b", "c"])

    // The first one goes; the one added next takes no one's place twice.
    #expect(observers.remove(a) != nil)
    #expect(tell(observers, 3, calls) == ["b", "c"])
    let d = observers.add(observer("d", calls))
    #expect(tell(observers, 4, calls) == ["b", "c", "d"])

    #expect(observers.remove(c) != nil)
    #expect(observers.remove(c) == nil)
    #expect(observers.remove(b) != nil)
    #expect(tell(observers, 5, calls) == ["d"])
    #expect(!observers.isEmpty)
    #expect(observers.remove(d) != nil)
    #expect(observers.isEmpty)
    #expect(tell(observers, 6, calls) == [])
  }

  /// The list is told from its own copy: an observer that adds or removes observers while told
  /// changes the list for the next round, and a removed one may be called this once only.
  /// Holes left by removed observers are closed once they are half the list, keeping the order.
  @Test func manyComeAndGoAndTheOrderHolds() {
    let calls = Calls()
    var observers = StoreObservers<Int>()
    let ids = (0..<10).map { observers.add(observer("\($0)", calls)) }
    for id in ids where id % 2 == 0 { observers.remove(id) }
    _ = observers.add(observer("10", calls))
    #expect(tell(observers, 1, calls) == ["1", "3", "5", "7", "9", "10"])
    for id in ids where id % 2 == 1 && id != 9 { observers.remove(id) }
    #expect(tell(observers, 2, calls) == ["9", "10"])
  }

  @Test func observersChangedWhileToldCountFromTheNextRound() {
    @MainActor final class Box {
      var observers = StoreObservers<Int>()
      var ids: [String: Int] = [:]
    }
    let calls = Calls()
    let box = Box()
    box.ids["first"] = box.observers.add(
      FunctionObserver { [unowned box] _ in
        calls.names.append("first")
        if box.ids["late"] == nil {
          box.ids["late"] = box.observers.add(observer("late", calls))
          _ = box.observers.remove(box.ids["second"]!)
        }
      })
    box.ids["second"] = box.observers.add(observer("second", calls))
    box.ids["third"] = box.observers.add(observer("third", calls))

    let round1 = tell(box.observers, 1, calls)
    #expect(round1 == ["first", "second", "third"] || round1 == ["first", "third"])
    #expect(tell(box.observers, 2, calls) == ["first", "third", "late"])

    // A lone observer that removes itself while told is let go of only after its call.
    let lone = Box()
    lone.ids["lone"] = lone.observers.add(
      FunctionObserver { [unowned lone] _ in
        calls.names.append("lone")
        _ = lone.observers.remove(lone.ids["lone"]!)
        calls.names.append("still running")
      })
    #expect(tell(lone.observers, 3, calls) == ["lone", "still running"])
    #expect(calls.names == ["lone", "still running"])
    #expect(lone.observers.isEmpty)
    #expect(tell(lone.observers, 4, calls) == [])
  }

  /// A core tells a lone observer directly (`lone`), and any other list through a copy
  /// (`tell`): the two ways together tell exactly the observers present, however the list got
  /// there.
  @Test func aLoneObserverIsTheOnlyOne() {
    let calls = Calls()
    var observers = StoreObservers<Int>()
    #expect(observers.lone == nil)
    #expect(tell(observers, 1, calls) == [])
    let a = observer("a", calls)
    let idA = observers.add(a)
    #expect(observers.lone === a)
    #expect(tell(observers, 2, calls) == ["a"])
    let idB = observers.add(observer("b", calls))
    #expect(observers.lone == nil)
    #expect(tell(observers, 3, calls) == ["a", "b"])
    observers.remove(idA)
    #expect(tell(observers, 4, calls) == ["b"])
    observers.remove(idB)
    #expect(observers.lone == nil)
    #expect(tell(observers, 5, calls) == [])
  }
}

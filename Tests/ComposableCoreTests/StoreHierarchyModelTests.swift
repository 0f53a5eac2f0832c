import ComposableCore
import Testing

// The stores of a chain of presented children, driven by long seeded sequences of random steps:
// stores scoped, kept and dropped at any depth, actions sent to any store (those whose child is
// gone too), children dismissed and presented again, and observers that let go of stores while
// the cores are telling each other of an action. A model of the chain says what every store
// should show. Run under the AddressSanitizer and ThreadSanitizer by `.ci/run`, it is also the
// check that no step reads or frees a core or a state under a call still using it.

/// What the stores of a chain of `Node`s should show, written out.
@MainActor
final class HierarchyModel {
  /// The value of each node present, from the root's down.
  var values = [0]

  /// A store the test keeps: its depth, and whether it still follows its child. A store stops
  /// following once an action ends with its child gone, and every store scoped from it then is
  /// one whose state the model does not know.
  struct Kept {
    let store: StoreOf<Node>
    let depth: Int
    var follows: Bool
  }

  var kept: [Kept] = []
  /// The cores of every store made, to check that none outlives the test's hold on it.
  var cores: [() -> AnyObject?] = []
  /// The observers added, to remove at the end: the core each is on and its id.
  var observers: [(core: () -> (any StoreCore<Node.State, Node.Action>)?, id: Int)] = []
  var observerDrops = 0

  /// Applies `action` as the store at `depth` would send it, and returns whether the reducer
  /// should report an issue (the node it is for is not there).
  func apply(_ action: Node.Action, at depth: Int) -> Bool {
    guard depth < values.count else { return true }
    switch action {
    case .increment: values[depth] += 1
    case .dismissChild: values.removeSubrange((depth + 1)...)
    case .presentChild: values = values[...depth] + [0]
    case .child(.dismiss):
      guard depth + 1 < values.count else { return true }
      values.removeSubrange((depth + 1)...)
    default: Issue.record("not sent by this model: \(action)")
    }
    return false
  }

  /// After an action: stores whose child is gone stop following it.
  func actionEnded() {
    for index in kept.indices where kept[index].depth >= values.count {
      kept[index].follows = false
    }
  }

  func keep(_ store: StoreOf<Node>, depth: Int, follows: Bool) {
    kept.append(Kept(store: store, depth: depth, follows: follows))
    weak let core = store.core
    cores.append { core }
  }
}

/// An action as the store at some depth sends it, embedded for the root.
func embedded(_ action: Node.Action, depth: Int) -> Node.Action {
  depth == 0 ? action : .child(.presented(embedded(action, depth: depth - 1)))
}

@MainActor
struct StoreHierarchyModelTests {
  @Test(arguments: [7, 8, 9, 0xC0FFEE] as [UInt64])
  func randomStepsKeepEveryStoreOnItsChild(seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    let model = HierarchyModel()
    let collector = IssueCollector()
    var root: StoreOf<Node>? = Store(initialState: Node.State(depth: 0, reads: ChildReads())) {
      Node()
    }
    weak let rootStore = root
    model.keep(root!, depth: 0, follows: true)
    var issuesSeen = 0
    var goneReads = 0

    for step in 0..<1_000 {
      var description = ""
      let index = Int.random(in: model.kept.indices, using: &generator)
      let chosen = model.kept[index]
      switch Int.random(in: 0..<12, using: &generator) {
      case 0, 1, 2:
        description = "scope the store at depth \(chosen.depth)"
        let child = chosen.store.scope(state: \.child, action: \.child)
        let exists = chosen.follows && chosen.depth + 1 < model.values.count
        if chosen.follows {
          #expect((child != nil) == exists, "seed \(seed), step \(step): \(description)")
        }
        if let child {
          // The same store while the child is there.
          #expect(child === chosen.store.scope(state: \.child, action: \.child))
          if !model.kept.contains(where: { $0.store === child }) {
            model.keep(child, depth: chosen.depth + 1, follows: exists)
          }
        }
      case 3:
        description = "drop the store at depth \(chosen.depth)"
        if index != 0 { model.kept.remove(at: index) }
      case 4:
        description = "observe the store at depth \(chosen.depth)"
        // The observer lets go of a store the first time it is told, while the round goes on.
        weak let core = chosen.store.core
        let drop = Int.random(in: 1..<1_000, using: &generator)
        var dropped = false
        let id = chosen.store.core.addObserver(pointer: { [weak model] _ in
          guard !dropped, let model, model.kept.count > 1 else { return }
          dropped = true
          model.kept.remove(at: 1 + drop % (model.kept.count - 1))
          model.observerDrops += 1
        })
        model.observers.append(({ core }, id))
      default:
        let action: Node.Action = [
          .increment, .increment, .increment, .presentChild, .presentChild, .presentChild,
          .dismissChild, .child(.dismiss),
        ].randomElement(using: &generator)!
        description = "send \(action) to the store at depth \(chosen.depth)"
        let expectsIssue = model.apply(action, at: chosen.depth)
        withIssueReporters([collector]) { _ = chosen.store.send(action) }
        model.actionEnded()
        let issues = collector.take()
        issuesSeen += issues.count
        #expect(
          issues.count == (expectsIssue ? 1 : 0),
          "seed \(seed), step \(step): \(description): \(issues)")
      }

      // The root's state is the model's chain.
      var state: Node.State? = root!.state
      var values: [Int] = []
      while let node = state {
        values.append(node.value)
        state = node.child
      }
      guard values == model.values else {
        Issue.record("seed \(seed), step \(step): \(description): \(values) ≠ \(model.values)")
        return
      }
      // Every store following its child shows it; one whose child went shows the same state on
      // every read.
      for kept in model.kept {
        if kept.follows {
          #expect(
            kept.store.state.value == model.values[kept.depth],
            "seed \(seed), step \(step): \(description): depth \(kept.depth)")
        } else {
          let first = kept.store.state.value
          #expect(kept.store.state.value == first)
          goneReads += 1
        }
      }
    }

    // The steps reached every kind of store and mistake.
    #expect(issuesSeen > 30)
    #expect(goneReads > 40)
    #expect(model.observerDrops > 40)
    #expect(model.cores.count > 70)

    // Once the test lets go of its stores and its observers, nothing is left.
    for observer in model.observers {
      observer.core()?.removeObserver(observer.id)
    }
    model.observers = []
    model.kept = []
    root = nil
    #expect(rootStore == nil)
    #expect(model.cores.allSatisfy { $0() == nil })
  }
}

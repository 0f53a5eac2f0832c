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

/// What the row stores of a `Board`'s tiles should show, written out.
@MainActor
final class RowsModel {
  /// The tiles' ids and values, in order.
  var rows: [(id: Int, value: Int)] = []

  /// A row's store the test keeps, and whether it still follows its row: a row's store stops
  /// once an action ends with its row removed, even if a row with its id comes back later.
  struct Kept {
    let store: StoreOf<Tile>
    let id: Int
    var follows: Bool
  }

  var kept: [Kept] = []
  var cores: [() -> AnyObject?] = []
  var observers: [(core: () -> (any StoreCore<Tile.State, Tile.Action>)?, id: Int)] = []
  var observerDrops = 0

  /// Applies `action` to the board; returns whether the reducer should report an issue.
  func apply(_ action: Board.Action) -> Bool {
    switch action {
    case .addTile(let id):
      if !rows.contains(where: { $0.id == id }) { rows.append((id, 0)) }
    case .removeTile(let id):
      rows.removeAll { $0.id == id }
    case .tiles(.element(let id, let action)):
      guard let index = rows.firstIndex(where: { $0.id == id }) else { return true }
      switch action {
      case .increment: rows[index].value += 1
      case .reset: rows[index].value = 0
      case .relabel: break
      }
    default: Issue.record("not sent by this model: \(action)")
    }
    return false
  }

  func actionEnded() {
    for index in kept.indices where !rows.contains(where: { $0.id == kept[index].id }) {
      kept[index].follows = false
    }
  }

  func keep(_ store: StoreOf<Tile>, id: Int) {
    kept.append(Kept(store: store, id: id, follows: true))
    weak let core = store.core
    cores.append { core }
  }
}

/// What the case stores of a presented `TileDestination` should show, written out.
@MainActor
final class DestinationModel {
  enum Case: Equatable {
    case first, second
  }

  /// The case presented and its tile's value.
  var presented: (case: Case, value: Int)? = (.first, 0)

  /// A case's store the test keeps, and whether it still follows that case: it stops once an
  /// action ends with another case presented, or none.
  struct Kept {
    let store: StoreOf<Tile>
    let `case`: Case
    var follows: Bool
  }

  var kept: [Kept] = []
  var cores: [() -> AnyObject?] = []

  /// Applies `action`; returns whether the reducer should report an issue.
  func apply(_ action: TileDestinations.Action) -> Bool {
    switch action {
    case .showFirst: presented = (.first, 0)
    case .showSecond: presented = (.second, 10)
    case .destination(.dismiss):
      guard presented != nil else { return true }
      presented = nil
    case .destination(.presented(let action)):
      let (target, tileAction): (Case, Tile.Action) =
        switch action {
        case .first(let action): (.first, action)
        case .second(let action): (.second, action)
        }
      guard presented?.case == target else { return true }
      switch tileAction {
      case .increment: presented!.value += 1
      case .reset: presented!.value = 0
      case .relabel: break
      }
    }
    return false
  }

  func actionEnded() {
    for index in kept.indices where presented?.case != kept[index].case {
      kept[index].follows = false
    }
  }
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
          // A child presented again after it went has a store of its own.
          if let kept = model.kept.first(where: { $0.store === child }) {
            #expect(
              kept.follows || !chosen.follows,
              "seed \(seed), step \(step): \(description) \(chosen.follows)")
          } else {
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

  @Test(arguments: [7, 8, 9, 0xC0FFEE] as [UInt64])
  func randomStepsKeepEveryRowStoreOnItsRow(seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    let model = RowsModel()
    let collector = IssueCollector()
    var root: StoreOf<Board>? = Store(initialState: Board.State()) { Board() }
    weak let rootStore = root
    var issuesSeen = 0
    var goneReads = 0

    for step in 0..<1_000 {
      var description = ""
      let chosen = model.kept.isEmpty ? nil : model.kept.randomElement(using: &generator)
      switch Int.random(in: 0..<12, using: &generator) {
      case 0, 1, 2:
        // Scoped as a renderer scopes on every drawing: the same store for a row still there.
        let rows = root!.scope(state: \.tiles, action: \.tiles)
        #expect(rows.map { $0.state.id } == model.rows.map(\.id))
        guard !rows.isEmpty else { break }
        let position = Int.random(in: rows.indices, using: &generator)
        description = "scope row \(model.rows[position].id)"
        let row = rows[position]
        #expect(row === root!.scope(state: \.tiles, action: \.tiles)[position])
        // A row added again after it went has a store of its own.
        if let kept = model.kept.first(where: { $0.store === row }) {
          #expect(kept.follows, "seed \(seed), step \(step): \(description)")
        } else {
          model.keep(row, id: model.rows[position].id)
        }
      case 3:
        guard let chosen else { break }
        description = "drop the store of row \(chosen.id)"
        model.kept.removeAll { $0.store === chosen.store }
      case 4:
        guard let chosen else { break }
        description = "observe the store of row \(chosen.id)"
        weak let core = chosen.store.core
        let drop = Int.random(in: 0..<1_000, using: &generator)
        var dropped = false
        let id = chosen.store.core.addObserver(pointer: { [weak model] _ in
          guard !dropped, let model, !model.kept.isEmpty else { return }
          dropped = true
          model.kept.remove(at: drop % model.kept.count)
          model.observerDrops += 1
        })
        model.observers.append(({ core }, id))
      default:
        // Sent at the root (adding and removing rows) or from a row's store, also one whose
        // row is gone.
        let id = Int.random(in: 1...6, using: &generator)
        let tileAction: Tile.Action = [.increment, .increment, .reset, .relabel("x")]
          .randomElement(using: &generator)!
        let fromRow = chosen != nil && Bool.random(using: &generator)
        let action: Board.Action =
          fromRow
          ? .tiles(.element(id: chosen!.id, action: tileAction))
          : [
            .addTile(id), .addTile(id), .removeTile(id),
            .tiles(.element(id: id, action: tileAction)),
          ]
          .randomElement(using: &generator)!
        description = "send \(action)\(fromRow ? " from its row's store" : "")"
        let expectsIssue = model.apply(action)
        withIssueReporters([collector]) {
          if fromRow {
            _ = chosen!.store.send(tileAction)
          } else {
            _ = root!.send(action)
          }
        }
        model.actionEnded()
        let issues = collector.take()
        issuesSeen += issues.count
        #expect(
          issues.count == (expectsIssue ? 1 : 0),
          "seed \(seed), step \(step): \(description): \(issues)")
      }

      let tiles = root!.state.tiles
      guard tiles.map({ [$0.id, $0.value] }) == model.rows.map({ [$0.id, $0.value] }) else {
        Issue.record("seed \(seed), step \(step): \(description): \(tiles) ≠ \(model.rows)")
        return
      }
      for kept in model.kept {
        if kept.follows {
          #expect(
            kept.store.state.value == model.rows.first { $0.id == kept.id }?.value,
            "seed \(seed), step \(step): \(description): row \(kept.id)")
        } else {
          let first = kept.store.state
          #expect(kept.store.state == first)
          #expect(first.id == kept.id)
          goneReads += 1
        }
      }
    }

    #expect(issuesSeen > 30)
    #expect(goneReads > 40)
    #expect(model.observerDrops > 40)
    #expect(model.cores.count > 70)

    for observer in model.observers {
      observer.core()?.removeObserver(observer.id)
    }
    model.observers = []
    model.kept = []
    root = nil
    #expect(rootStore == nil)
    #expect(model.cores.allSatisfy { $0() == nil })
  }

  @Test(arguments: [7, 8, 0xC0FFEE] as [UInt64])
  func randomStepsKeepEveryCaseStoreOnItsCase(seed: UInt64) {
    randomDestinationSteps(
      seed: seed, { Store(initialState: TileDestinations.State()) { TileDestinations() } },
      first: \.destination?.first, second: \.destination?.second)
    // Observable state, whose presented child is read through its tracked storage.
    randomDestinationSteps(
      seed: seed,
      { Store(initialState: ObservedTileDestinations.State()) { ObservedTileDestinations() } },
      first: \.destination?.first, second: \.destination?.second)
  }

  func randomDestinationSteps<State>(
    seed: UInt64,
    _ makeStore: () -> Store<State, TileDestinations.Action>,
    first: KeyPath<State, Tile.State?>,
    second: KeyPath<State, Tile.State?>
  ) {
    var generator = SeededGenerator(state: seed)
    let model = DestinationModel()
    let collector = IssueCollector()
    var root: Store<State, TileDestinations.Action>? = makeStore()
    weak let rootStore = root
    var issuesSeen = 0
    var goneReads = 0

    for step in 0..<1_000 {
      var description = ""
      let chosen = model.kept.isEmpty ? nil : model.kept.randomElement(using: &generator)
      switch Int.random(in: 0..<10, using: &generator) {
      case 0, 1, 2:
        let target: DestinationModel.Case = Bool.random(using: &generator) ? .first : .second
        description = "scope the \(target) case"
        let caseStore =
          target == .first
          ? root!.scope(state: first, action: \.destination.first)
          : root!.scope(state: second, action: \.destination.second)
        #expect(
          (caseStore != nil) == (model.presented?.case == target),
          "seed \(seed), step \(step): \(description)")
        guard let caseStore else { break }
        // A case presented again after it went has a store of its own.
        if let kept = model.kept.first(where: { $0.store === caseStore }) {
          #expect(kept.follows, "seed \(seed), step \(step): \(description)")
        } else {
          model.kept.append(.init(store: caseStore, case: target, follows: true))
          weak let core = caseStore.core
          model.cores.append { core }
        }
      case 3:
        guard let chosen else { break }
        description = "drop a store of the \(chosen.case) case"
        model.kept.removeAll { $0.store === chosen.store }
      default:
        let tileAction: Tile.Action = [.increment, .increment, .reset]
          .randomElement(using: &generator)!
        let fromCase = chosen != nil && Bool.random(using: &generator)
        let action: TileDestinations.Action =
          fromCase
          ? .destination(
            .presented(chosen!.case == .first ? .first(tileAction) : .second(tileAction)))
          : [.showFirst, .showSecond, .destination(.dismiss)].randomElement(using: &generator)!
        description = "send \(action)\(fromCase ? " from its case's store" : "")"
        let expectsIssue = model.apply(action)
        withIssueReporters([collector]) {
          if fromCase {
            _ = chosen!.store.send(tileAction)
          } else {
            _ = root!.send(action)
          }
        }
        model.actionEnded()
        let issues = collector.take()
        issuesSeen += issues.count
        #expect(
          issues.count == (expectsIssue ? 1 : 0),
          "seed \(seed), step \(step): \(description): \(issues)")
      }

      let shown = (root!.state[keyPath: first] ?? root!.state[keyPath: second])?.value
      guard shown == model.presented?.value else {
        Issue.record("seed \(seed), step \(step): \(description): \(String(describing: shown))")
        return
      }
      for kept in model.kept {
        if kept.follows {
          #expect(
            kept.store.state.value == model.presented?.value,
            "seed \(seed), step \(step): \(description): \(kept.case)")
        } else {
          let first = kept.store.state
          #expect(kept.store.state == first)
          goneReads += 1
        }
      }
    }

    #expect(issuesSeen > 30)
    #expect(goneReads > 40)
    #expect(model.cores.count > 40)

    model.kept = []
    root = nil
    #expect(rootStore == nil)
    #expect(model.cores.allSatisfy { $0() == nil })
  }
}

import ComposableCore
import Testing

// The stores of a chain of presented children, driven by long seeded sequences of random steps:
// stores scoped, kept and dropped at any depth, actions sent to any store (those whose child is
// gone too), children dismissed and presented again, and observers that let go of stores while
// the cores are telling each other of an action. A model of the chain says what every store
// should show. Run under the AddressSanitizer and ThreadSanitizer by `.ci/run`, it is also the
// check that no step reads or frees a core or a state under a call still using it.

/// The stores a model test keeps, each at a place in its feature (a depth, a row's id, a case),
/// and what the tests below share: the cores of the stores made, the observers added, the
/// sends whose reports are counted, and the checks after every step.
@MainActor
final class KeptStores<State, Action, Place> {
  /// A store kept, and whether it still follows its place: it stops once an action ends with
  /// its child gone, even if a child comes back there later.
  struct Kept {
    let store: Store<State, Action>
    let place: Place
    var follows: Bool
  }

  var all: [Kept] = []
  /// How many of the first stores nothing drops (a root the test keeps sending through).
  let pinned: Int
  /// The cores of every store kept, to check that none outlives the test's hold on it.
  private var cores: [() -> AnyObject?] = []
  /// The observers added, to remove at the end: the core each is on and its id.
  private var observers: [(core: () -> (any StoreCore<State, Action>)?, id: Int)] = []
  private let collector = IssueCollector()
  private(set) var observerDrops = 0
  private(set) var goneReads = 0
  private(set) var issuesSeen = 0

  init(pinned: Int = 0) {
    self.pinned = pinned
  }

  var coresMade: Int { cores.count }

  /// Keeps `store`; one kept already must still follow its place, unless it `mayBeGone`.
  func keep(
    _ store: Store<State, Action>, at place: Place, follows: Bool = true, mayBeGone: Bool = false,
    _ message: @autoclosure () -> String
  ) {
    if let kept = all.first(where: { $0.store === store }) {
      #expect(kept.follows || mayBeGone, "\(message())")
      return
    }
    all.append(Kept(store: store, place: place, follows: follows))
    weak let core = store.core
    cores.append { core }
  }

  func drop(_ store: Store<State, Action>) {
    guard let index = all.firstIndex(where: { $0.store === store }), index >= pinned else { return }
    all.remove(at: index)
  }

  /// Adds an observer to `store` that lets go of a kept store the first time it is told, while
  /// the round of observers goes on.
  func observe(_ store: Store<State, Action>, dropping pick: Int) {
    weak let core = store.core
    var dropped = false
    let id = store.core.addObserver { [weak self] _ in
      guard !dropped, let self, all.count > pinned else { return }
      dropped = true
      all.remove(at: pinned + pick % (all.count - pinned))
      observerDrops += 1
    }
    observers.append(({ core }, id))
  }

  /// Drops `chosen`, or adds an observer to it that drops a store, and says which.
  func dropOrObserve(
    _ chosen: Kept?, observing: Bool, using generator: inout SeededGenerator
  ) -> String {
    guard let chosen else { return "nothing to drop or observe" }
    if observing {
      observe(chosen.store, dropping: Int.random(in: 0..<1_000, using: &generator))
      return "observe the store at \(chosen.place)"
    }
    drop(chosen.store)
    return "drop the store at \(chosen.place)"
  }

  /// Runs `send`, expecting one issue reported if `expectsIssue` and none otherwise; then the
  /// stores at a place that `isGone` stop following it.
  func send(
    expectingIssue expectsIssue: Bool, _ message: @autoclosure () -> String,
    _ send: () -> Void, gone isGone: (Place) -> Bool
  ) {
    withIssueReporters([collector]) { send() }
    for index in all.indices where isGone(all[index].place) {
      all[index].follows = false
    }
    let issues = collector.take()
    issuesSeen += issues.count
    #expect(issues.count == (expectsIssue ? 1 : 0), "\(message()): \(issues)")
  }

  /// Every store following its place shows the value `expected` there; one whose child went
  /// shows the same state on every read, one that `belongs` to its place.
  func check(
    _ value: (State) -> Int, expected: (Place) -> Int?,
    belongs: (State, Place) -> Bool = { _, _ in true }, _ message: @autoclosure () -> String
  ) {
    for kept in all {
      let shown = kept.store.state
      if kept.follows {
        #expect(value(shown) == expected(kept.place), "\(message()): \(kept.place)")
      } else {
        #expect(value(kept.store.state) == value(shown))
        #expect(belongs(shown, kept.place))
        goneReads += 1
      }
    }
  }

  /// Expects the steps to have reached every kind of store and mistake: more issues reported,
  /// reads of gone stores, stores dropped by observers and cores made than these.
  func expectReached(issues: Int, goneReads: Int, observerDrops: Int, cores: Int) {
    #expect(issuesSeen > issues)
    #expect(self.goneReads > goneReads)
    #expect(self.observerDrops > observerDrops)
    #expect(coresMade > cores)
  }

  /// Removes the observers and lets go of the stores and of `root`; then neither the root nor
  /// any core made may be left.
  func letGo<RootState, RootAction>(andRoot root: inout Store<RootState, RootAction>?) {
    for observer in observers {
      observer.core()?.removeObserver(observer.id)
    }
    observers = []
    all = []
    weak let rootStore = root
    root = nil
    #expect(rootStore == nil)
    #expect(cores.allSatisfy { $0() == nil })
  }
}

/// What the stores of a chain of `Node`s should show, written out: the value of each node
/// present, from the root's down.
@MainActor
final class ChainModel {
  var values = [0]

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
}

/// What the row stores of a `Board`'s tiles should show, written out: the tiles' ids and
/// values, in order.
@MainActor
final class RowsModel {
  var rows: [(id: Int, value: Int)] = []

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

  func value(of id: Int) -> Int? { rows.first { $0.id == id }?.value }
}

/// What the case stores of a presented `TileDestination` should show, written out: the case
/// presented and its tile's value.
@MainActor
final class DestinationModel {
  enum Case: Equatable {
    case first, second
  }

  var presented: (case: Case, value: Int)? = (.first, 0)

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
}

@MainActor
struct StoreHierarchyModelTests {
  @Test(arguments: [7, 8, 9, 0xC0FFEE] as [UInt64])
  func randomStepsKeepEveryStoreOnItsChild(seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    let model = ChainModel()
    // The root is kept throughout: every action reaches the chain through it.
    let stores = KeptStores<Node.State, Node.Action, Int>(pinned: 1)
    var root: StoreOf<Node>? = Store(initialState: Node.State(depth: 0, reads: ChildReads())) {
      Node()
    }
    stores.keep(root!, at: 0, "the root")

    for step in 0..<1_000 {
      var description = ""
      let chosen = stores.all.randomElement(using: &generator)!
      let depth = chosen.place
      let kind = Int.random(in: 0..<12, using: &generator)
      switch kind {
      case 0, 1, 2:
        description = "scope the store at depth \(depth)"
        let child = chosen.store.scope(state: \.child, action: \.child)
        let exists = chosen.follows && depth + 1 < model.values.count
        if chosen.follows {
          #expect((child != nil) == exists, "seed \(seed), step \(step): \(description)")
        }
        if let child {
          // The same store while the child is there; one presented again after it went has a
          // store of its own, but a store that went keeps the stores scoped from it.
          #expect(child === chosen.store.scope(state: \.child, action: \.child))
          stores.keep(
            child, at: depth + 1, follows: exists, mayBeGone: !chosen.follows,
            "seed \(seed), step \(step): \(description)")
        }
      case 3, 4:
        description = stores.dropOrObserve(chosen, observing: kind == 4, using: &generator)
      default:
        let action: Node.Action = [
          .increment, .increment, .increment, .presentChild, .presentChild, .presentChild,
          .dismissChild, .child(.dismiss),
        ].randomElement(using: &generator)!
        description = "send \(action) to the store at depth \(depth)"
        stores.send(
          expectingIssue: model.apply(action, at: depth),
          "seed \(seed), step \(step): \(description)",
          { _ = chosen.store.send(action) }, gone: { $0 >= model.values.count })
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
      stores.check(
        \.value, expected: { model.values[$0] }, "seed \(seed), step \(step): \(description)")
    }

    stores.expectReached(issues: 30, goneReads: 40, observerDrops: 40, cores: 70)

    // Once the test lets go of its stores and its observers, nothing is left.
    stores.letGo(andRoot: &root)
  }

  @Test(arguments: [7, 8, 9, 0xC0FFEE] as [UInt64])
  func randomStepsKeepEveryRowStoreOnItsRow(seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    let model = RowsModel()
    let stores = KeptStores<Tile.State, Tile.Action, Int>()
    var root: StoreOf<Board>? = Store(initialState: Board.State()) { Board() }

    for step in 0..<1_000 {
      var description = ""
      let chosen = stores.all.randomElement(using: &generator)
      let kind = Int.random(in: 0..<12, using: &generator)
      switch kind {
      case 0, 1, 2:
        // Scoped as a renderer scopes on every drawing: the same store for a row still there,
        // and one of its own for a row added again after it went.
        let rows = root!.scope(state: \.tiles, action: \.tiles)
        #expect(rows.map { $0.state.id } == model.rows.map(\.id))
        guard !rows.isEmpty else { break }
        let position = Int.random(in: rows.indices, using: &generator)
        description = "scope row \(model.rows[position].id)"
        let row = rows[position]
        #expect(row === root!.scope(state: \.tiles, action: \.tiles)[position])
        stores.keep(
          row, at: model.rows[position].id, "seed \(seed), step \(step): \(description)")
      case 3, 4:
        description = stores.dropOrObserve(chosen, observing: kind == 4, using: &generator)
      default:
        // Sent at the root (adding and removing rows) or from a row's store, also one whose
        // row is gone.
        let id = Int.random(in: 1...6, using: &generator)
        let tileAction: Tile.Action = [.increment, .increment, .reset, .relabel("x")]
          .randomElement(using: &generator)!
        let fromRow = chosen != nil && Bool.random(using: &generator)
        let action: Board.Action =
          fromRow
          ? .tiles(.element(id: chosen!.place, action: tileAction))
          : [
            .addTile(id), .addTile(id), .removeTile(id),
            .tiles(.element(id: id, action: tileAction)),
          ]
          .randomElement(using: &generator)!
        description = "send \(action)\(fromRow ? " from its row's store" : "")"
        stores.send(
          expectingIssue: model.apply(action), "seed \(seed), step \(step): \(description)",
          { _ = fromRow ? chosen!.store.send(tileAction) : root!.send(action) },
          gone: { model.value(of: $0) == nil })
      }

      let tiles = root!.state.tiles
      guard tiles.map({ [$0.id, $0.value] }) == model.rows.map({ [$0.id, $0.value] }) else {
        Issue.record("seed \(seed), step \(step): \(description): \(tiles) ≠ \(model.rows)")
        return
      }
      stores.check(
        \.value, expected: model.value(of:), belongs: { $0.id == $1 },
        "seed \(seed), step \(step): \(description)")
    }

    stores.expectReached(issues: 30, goneReads: 40, observerDrops: 40, cores: 70)

    stores.letGo(andRoot: &root)
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
    let stores = KeptStores<Tile.State, Tile.Action, DestinationModel.Case>()
    var root: Store<State, TileDestinations.Action>? = makeStore()

    for step in 0..<1_000 {
      var description = ""
      let chosen = stores.all.randomElement(using: &generator)
      let kind = Int.random(in: 0..<12, using: &generator)
      switch kind {
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
        // A case presented again after it went has a store of its own.
        if let caseStore {
          stores.keep(caseStore, at: target, "seed \(seed), step \(step): \(description)")
        }
      case 3, 4:
        description = stores.dropOrObserve(chosen, observing: kind == 4, using: &generator)
      default:
        let tileAction: Tile.Action = [.increment, .increment, .reset]
          .randomElement(using: &generator)!
        let fromCase = chosen != nil && Bool.random(using: &generator)
        let action: TileDestinations.Action =
          fromCase
          ? .destination(
            .presented(chosen!.place == .first ? .first(tileAction) : .second(tileAction)))
          : [.showFirst, .showSecond, .destination(.dismiss)].randomElement(using: &generator)!
        description = "send \(action)\(fromCase ? " from its case's store" : "")"
        stores.send(
          expectingIssue: model.apply(action), "seed \(seed), step \(step): \(description)",
          { _ = fromCase ? chosen!.store.send(tileAction) : root!.send(action) },
          gone: { model.presented?.case != $0 })
      }

      let shown = (root!.state[keyPath: first] ?? root!.state[keyPath: second])?.value
      guard shown == model.presented?.value else {
        Issue.record("seed \(seed), step \(step): \(description): \(String(describing: shown))")
        return
      }
      stores.check(
        \.value, expected: { _ in model.presented?.value },
        "seed \(seed), step \(step): \(description)")
    }

    stores.expectReached(issues: 30, goneReads: 40, observerDrops: 2, cores: 40)

    stores.letGo(andRoot: &root)
  }
}

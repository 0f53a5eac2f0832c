import ComposableCore
import ComposableTestSupport
import IssueReporting
import Testing

// Every way of nesting a child in one feature, driven by long seeded sequences of random actions
// (actions for children that are there, for ones that went away, for the wrong case), checked
// after every action against the same rules written out as plain code. What the runtime does for
// speed (bodies built once per store and run in place, child state reached at its offset, case
// accessors resolved once) must never show in what a feature sees.

/// A leaf: a running total, and an action that sends another back through the parents.
@Reducer
struct Ledger {
  struct State: Equatable, Identifiable {
    let id: Int
    var total = 0
    var entries: [Int] = []
    /// Timers started; each adds one to `total` a second until the ledger goes away.
    var timers = 0
  }

  enum Action {
    case add(Int)
    case echo
    case clear
    case start
    case tick
  }

  @Dependency(\.continuousClock) var clock

  /// The leaf's rules, shared with the model: changes `state`, returns the action to send back.
  static func step(_ state: inout State, _ action: Action) -> Action? {
    switch action {
    case .add(let amount):
      state.total += amount
      state.entries.append(amount)
      return nil
    case .echo:
      return .add(state.total == 0 ? 1 : state.total)
    case .clear:
      state.total = 0
      state.entries = []
      return nil
    case .start:
      state.timers += 1
      return nil
    case .tick:
      state.total += 1
      return nil
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { [clock] state, action in
      // Not cancellable on purpose: only the operator holding the ledger can stop its timers,
      // by cancelling the child's effects when the child goes away.
      if case .start = action {
        _ = Self.step(&state, action)
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      }
      return Self.step(&state, action).map { .send($0) } ?? .none
    }
  }
}

/// Nests `Ledger` every way there is: `Scope` on a stored and on a computed property, `ifLet`,
/// presentation of a feature and of an enum of features, `forEach` on rows and on a stack.
@Reducer
struct Nests {
  @Reducer(state: .equatable)
  enum Pane {
    case left(Ledger)
    case right(Ledger)
  }

  struct State: Equatable {
    var scoped = Ledger.State(id: 0)
    var backing = Ledger.State(id: 0)
    var computedWrites = 0
    var optional: Ledger.State?
    @Presents var sheet: Ledger.State?
    @Presents var pane: Pane.State?
    var rows: IdentifiedArrayOf<Ledger.State> = []
    var path = StackState<Ledger.State>()
    /// What the parent saw of its child after the child ran, the last time it looked.
    var seen = ""
    var looks = 0
    var nextID = 1

    /// A computed child: `Scope` must go through its getter and setter, once each per action.
    var computed: Ledger.State {
      get { backing }
      set {
        backing = newValue
        computedWrites += 1
      }
    }
  }

  enum Action {
    case scoped(Ledger.Action)
    case computed(Ledger.Action)
    case optional(Ledger.Action)
    case sheet(PresentationAction<Ledger.Action>)
    case pane(PresentationAction<Pane.Action>)
    case rows(IdentifiedActionOf<Ledger>)
    case path(StackActionOf<Ledger>)
    case toggleOptional
    case presentSheet
    case showPane(left: Bool)
    case addRow
    case removeRow(id: Int)
    case push
  }

  /// The parent's own rules, shared with the model: it makes and removes children, and notes what
  /// it sees of a child after that child has run.
  static func react(_ state: inout State, _ action: Action) {
    func look(_ observation: String) {
      state.seen = observation
      state.looks += 1
    }
    func newLedger() -> Ledger.State {
      defer { state.nextID += 1 }
      return Ledger.State(id: state.nextID)
    }
    switch action {
    case .scoped: look("scoped \(state.scoped.total)")
    case .computed: look("computed \(state.computed.total)")
    case .optional: look("optional \(String(describing: state.optional?.total))")
    case .sheet: look("sheet \(String(describing: state.sheet?.total))")
    case .pane: look("pane \(String(describing: state.pane))")
    case .rows(.element(let id, _)): look("row \(id) \(String(describing: state.rows[id: id]))")
    case .path: look("path \(state.path.ids) \(Array(state.path).map(\.total))")
    case .toggleOptional: state.optional = state.optional == nil ? newLedger() : nil
    case .presentSheet: state.sheet = newLedger()
    case .showPane(let left): state.pane = left ? .left(newLedger()) : .right(newLedger())
    case .addRow: state.rows.append(newLedger())
    case .removeRow(let id): state.rows.remove(id: id)
    case .push: state.path.append(newLedger())
    }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.scoped, action: \.scoped) { Ledger() }
    Scope(state: \.computed, action: \.computed) { Ledger() }
    Reduce { state, action in
      Self.react(&state, action)
      return .none
    }
    .ifLet(\.optional, action: \.optional) { Ledger() }
    .ifLet(\.$sheet, action: \.sheet) { Ledger() }
    .ifLet(\.$pane, action: \.pane)
    .forEach(\.rows, action: \.rows) { Ledger() }
    .forEach(\.path, action: \.path) { Ledger() }
  }
}

/// The rules of each operator as TCA documents them, written out directly: a child runs before
/// its parent; an action for a child that is absent (or in another case) is a runtime issue,
/// leaves every child as it was, and still reaches the parent; a dismissal or a pop reaches the
/// parent while the child is still there, then removes it; an action a child sends back arrives
/// wrapped for its parent, after the action that sent it.
struct NestsModel {
  var state = Nests.State()
  /// Stack ids, handed out in the order the store's are.
  let stackIDs = StackElementIDGenerator()

  /// Applies `action` and the actions it sends back; returns how many runtime issues they raise.
  mutating func apply(_ action: Nests.Action) -> Int {
    var issues = 0
    var pending = [action]
    while !pending.isEmpty {
      let next = pending.removeFirst()
      let (issue, sentBack) = withDependencies {
        $0.stackElementID = stackIDs
      } operation: {
        applyOne(next)
      }
      issues += issue ? 1 : 0
      if let sentBack { pending.insert(sentBack, at: 0) }
    }
    return issues
  }

  /// One second of the test clock: every timer of every ledger still there ticks once, and the
  /// parent looks at each tick.
  @discardableResult
  mutating func advanceOneSecond() -> Int {
    var ticks = 0
    func tick(_ ledger: inout Ledger.State) {
      ledger.total += ledger.timers
      ticks += ledger.timers
    }
    tick(&state.scoped)
    if state.backing.timers > 0 {
      state.computedWrites += state.backing.timers
      tick(&state.backing)
    }
    if state.optional != nil { tick(&state.optional!) }
    if state.sheet != nil { tick(&state.sheet!) }
    switch state.pane {
    case .left(var ledger)?:
      tick(&ledger)
      state.pane = .left(ledger)
    case .right(var ledger)?:
      tick(&ledger)
      state.pane = .right(ledger)
    case nil:
      break
    }
    for id in state.rows.ids { tick(&state.rows[id: id]!) }
    for id in state.path.ids { tick(&state.path[id: id]!) }
    state.looks += ticks
    return ticks
  }

  private mutating func applyOne(_ action: Nests.Action) -> (issue: Bool, sentBack: Nests.Action?) {
    var issue = false
    var sentBack: Nests.Action?
    // What the parent does after its child, and what it removes after looking (dismiss, pop).
    var removeAfterwards: (inout Nests.State) -> Void = { _ in }
    switch action {
    case .scoped(let child):
      sentBack = Ledger.step(&state.scoped, child).map(Nests.Action.scoped)
    case .computed(let child):
      var computed = state.computed
      sentBack = Ledger.step(&computed, child).map(Nests.Action.computed)
      state.computed = computed
    case .optional(let child):
      (issue, sentBack) = Self.run(child, on: &state.optional, sendingBack: Nests.Action.optional)
    case .sheet(.presented(let child)):
      (issue, sentBack) = Self.run(child, on: &state.sheet) { .sheet(.presented($0)) }
    case .sheet(.dismiss):
      if state.sheet == nil { issue = true } else { removeAfterwards = { $0.sheet = nil } }
    case .pane(.presented(let child)):
      switch (state.pane, child) {
      case (.left(var ledger)?, .left(let child)):
        sentBack = Ledger.step(&ledger, child).map { .pane(.presented(.left($0))) }
        state.pane = .left(ledger)
      case (.right(var ledger)?, .right(let child)):
        sentBack = Ledger.step(&ledger, child).map { .pane(.presented(.right($0))) }
        state.pane = .right(ledger)
      default:
        issue = true
      }
    case .pane(.dismiss):
      if state.pane == nil { issue = true } else { removeAfterwards = { $0.pane = nil } }
    case .rows(.element(let id, let child)):
      (issue, sentBack) = Self.run(child, on: &state.rows[id: id]) {
        .rows(.element(id: id, action: $0))
      }
    case .path(.element(let id, let child)):
      (issue, sentBack) = Self.run(child, on: &state.path[id: id]) {
        .path(.element(id: id, action: $0))
      }
    case .path(.popFrom(let id)):
      if state.path[id: id] == nil {
        issue = true
      } else {
        removeAfterwards = { $0.path.pop(from: id) }
      }
    case .path(.push):
      Issue.record("the generator does not push with an id")
    case .toggleOptional, .presentSheet, .showPane, .addRow, .removeRow, .push:
      break
    }
    Nests.react(&state, action)
    removeAfterwards(&state)
    return (issue, sentBack)
  }

  /// Runs `action` on a ledger that may be absent (an issue, and nothing changes), wrapping what
  /// the ledger sends back for the parent.
  private static func run(
    _ action: Ledger.Action, on ledger: inout Ledger.State?,
    sendingBack wrap: (Ledger.Action) -> Nests.Action
  ) -> (issue: Bool, sentBack: Nests.Action?) {
    guard ledger != nil else { return (true, nil) }
    return (false, Ledger.step(&ledger!, action).map(wrap))
  }
}

/// SplitMix64: a generator whose sequence is fixed by its seed, so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

extension Nests.Action {
  /// A random action, about as likely to reach a child that is there as one that is not.
  static func random(
    for state: Nests.State, timers: Bool = false, using generator: inout SeededGenerator
  ) -> Self {
    func ledger() -> Ledger.Action {
      switch Int.random(in: 0..<(timers ? 8 : 6), using: &generator) {
      case 0: .echo
      case 1: .clear
      case 6: .start
      default: .add(Int.random(in: 1...9, using: &generator))
      }
    }
    // Ids that exist, one that went away or never was, and one far off.
    func rowID() -> Int {
      (state.rows.ids.map { $0 } + [state.nextID - 1, 1_000]).randomElement(using: &generator)!
    }
    func stackID() -> StackElementID {
      (state.path.ids + [StackElementID(rawValue: state.nextID), 1_000])
        .randomElement(using: &generator)!
    }
    switch Int.random(in: 0..<17, using: &generator) {
    case 0: return .scoped(ledger())
    case 1: return .computed(ledger())
    case 2, 3: return .optional(ledger())
    case 4: return .sheet(.presented(ledger()))
    case 5: return .sheet(.dismiss)
    case 6:
      let child = ledger()
      return .pane(.presented(Bool.random(using: &generator) ? .left(child) : .right(child)))
    case 7: return .pane(.dismiss)
    case 8, 9: return .rows(.element(id: rowID(), action: ledger()))
    case 10: return .path(.element(id: stackID(), action: ledger()))
    case 11: return .path(.popFrom(id: stackID()))
    case 12: return .toggleOptional
    case 13: return Bool.random(using: &generator) ? .presentSheet : .push
    case 14: return .showPane(left: Bool.random(using: &generator))
    case 15: return state.rows.count < 6 ? .addRow : .removeRow(id: rowID())
    default: return .removeRow(id: rowID())
    }
  }
}

/// Collects the runtime issues reported while it is installed, instead of failing the test with
/// each: thousands are expected here, and the test checks how many each action raised.
final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    let message = message() ?? ""
    messages.withValue { $0.append(message) }
  }

  /// The messages reported since the last call, which forgets them.
  func take() -> [String] {
    messages.withValue { messages in
      defer { messages = [] }
      return messages
    }
  }
}

@MainActor
struct OperatorModelTests {
  @Test(arguments: [1, 2, 3, 0x5EED])
  func randomActionsMatchTheWrittenOutRules(seed: UInt64) {
    var generator = SeededGenerator(state: seed)
    var model = NestsModel()
    let store = Store(initialState: Nests.State()) {
      Nests()
    } withDependencies: {
      $0.stackElementID = StackElementIDGenerator()
    }
    let collector = IssueCollector()
    var issuesSeen = 0
    for step in 0..<1_500 {
      let action = Nests.Action.random(for: model.state, using: &generator)
      let expectedIssues = model.apply(action)
      withIssueReporters([collector]) { _ = store.send(action) }
      let issues = collector.take()
      issuesSeen += issues.count
      guard issues.count == expectedIssues, store.state == model.state else {
        Issue.record(
          """
          Seed \(seed), step \(step), after \(action):
          issues: \(issues.count), expected \(expectedIssues) \(issues)
          store: \(store.state)
          model: \(model.state)
          """
        )
        return
      }
    }
    // The sequence reached every kind of child and every kind of mistake.
    #expect(issuesSeen > 300)
    #expect(model.state.looks > 500)
    #expect(model.state.computedWrites > 20)
    #expect(model.state.nextID > 50)
  }

  /// The same, with timers in the children and the test clock moving between actions: a child's
  /// timers tick while it is there and stop when it goes (hidden, dismissed, replaced by another
  /// presentation, removed, popped), with no tick ever reaching a child that is gone.
  @Test(arguments: [4, 5, 6] as [UInt64])
  func childEffectsLiveExactlyAsLongAsTheirChild(seed: UInt64) async {
    var generator = SeededGenerator(state: seed)
    var model = NestsModel()
    let clock = TestClock()
    let store = TestStore(initialState: Nests.State()) {
      Nests()
    } withDependencies: {
      $0.continuousClock = clock
      $0.stackElementID = StackElementIDGenerator()
    }
    store.exhaustivity = .off
    let collector = IssueCollector()
    var ticks = 0
    for step in 0..<400 {
      let what: String
      if Int.random(in: 0..<4, using: &generator) == 0 {
        what = "one second"
        ticks += model.advanceOneSecond()
        // A tick for a child that is gone would be a runtime issue, and fail the test here.
        await clock.advance(by: .seconds(1))
      } else {
        let action = Nests.Action.random(for: model.state, timers: true, using: &generator)
        what = "\(action)"
        let expectedIssues = model.apply(action)
        _ = await withIssueReporters([collector]) { await store.send(action) }
        let issues = collector.take()
        guard issues.count == expectedIssues else {
          Issue.record("Seed \(seed), step \(step), \(what): issues \(issues)")
          return
        }
      }
      // The ticks received since the last send are taken into the store's state, which is the
      // state as the test has accounted for it (nothing is reported: the store is not
      // exhaustive).
      await store.skipReceivedActions(strict: false)
      // Which child the parent looked at last depends on the order timers fire in.
      var actual = store.state
      var expected = model.state
      (actual.seen, expected.seen) = ("", "")
      guard actual == expected else {
        Issue.record(
          """
          Seed \(seed), step \(step), after \(what):
          store: \(actual)
          model: \(expected)
          """
        )
        return
      }
    }
    #expect(ticks > 100)
    await store.skipInFlightEffects(strict: false)
  }
}

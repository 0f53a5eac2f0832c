import ComposableCore
import ComposableFixtures
import ComposableTestSupport
import Foundation
import Observation

// Usage: RuntimeProfile <scenario> [sends]. The scenarios:
// - root, scoped1, scoped10: a counter's action, at the root or one or ten scoped stores down;
//   scopeUnderDependency: ten `Scope` levels under `.dependency(\.uuid, .incrementing)`, the
//   counter's action sent at the root; featureUnderIfLet: the same levels in a feature's body,
//   the feature given an optional child with `ifLet` (`SheetHost`);
// - rows, rowsKept, rowsObserved: a row's action among 1,000 rows, with no row store, all 1,000
//   kept, or all kept and 50 of them observed; rowsEcho: a row's `.echo`, with no row store;
// - observedRows, observedRowsBump: 1,000 rows of observable state, a row's action through
//   `forEach`, or the list changing the row itself (`state.rows[id: 500]?.count += 1`);
//   observedRowsDrawn: a row's action with fifty row stores drawn (read while tracked);
// - formTap, formBinding, formViewTap: a form (`BindingReducer` first) sent a button's action
//   or a binding action, and a form whose bindings are in a `View` enum sent its button's action;
//   formCasePathableViewTap: the same with the `View` enum `@CasePathable`;
// - rootCancel, rowCancel: the counter's `.cancelLongLiving`, whose `.cancel(id:)` finds nothing
//   to cancel, at the root or in a row among 1,000;
// - <nesting>, one of ifLet, scope, presentation, genericIfLet, genericScope,
//   genericPresentation, hand, handPresent, plainIfLet, plainGenericIfLet, casePathIfLet (the
//   last three written without macros, `PlainLevels.swift`): ten levels, the counter's action
//   sent from the leaf store;
// - <nesting>AtRoot: the same action embedded ten levels deep and sent to the root store, the
//   levels' reducers without the scoped stores' embedding (the difference from <nesting>);
// - presentationBare: that action sent to a presentation root with no store scoped from it,
//   the presentation reducers alone;
// - handBare: ten levels written by hand (`HandWritten.swift`), the floor, sent to a root
//   store with no store scoped from it; the nestings hand and handPresent are those levels and
//   ten presenting by hand, scoped down as the others are (handAtRoot keeps their stores, as
//   every <nesting>AtRoot does);
// - observedRoot, observedScoped: `ObservedCounter` (`@ObservableState`), its own action at the
//   root, or its child's action sent from the child's store; unobservedRoot: its shape with plain
//   state (`S1`, the first `Scope` level), the root's action; observedRootTracked: the root's,
//   with its store's `count` read once inside `withObservationTracking`, as a screen reads it;
// - <nesting>Observed: the <nesting> scenario with the leaf store's `states` observed, so every
//   store between it and the root watches the one above, as they do for a screen showing it;
// - <nesting>Echo: the <nesting> scenario with the counter's `.echo`, whose `.send` effect comes
//   back up through the ten levels and down again;
// - <nesting>Build: as many new stores of the <nesting> as sends, each sent one action from its
//   leaf: what building a tree of ten levels costs, on a store's first action.
// - ifLetOptional, ifLetOptionalObserved: the ifLet nesting with each level's store scoped as
//   an optional child (`store.scope(state: \.child, action: \.child)`), whose store watches its
//   parent; sent from the leaf, and with the leaf's `states` observed;
// - destination, destinationEffect, stack, stackEffect, ifCaseLet, rootEcho: one level of a
//   destination enum, a stack of a path enum, or an enum state's case (`NavigationScenarios.swift`);
//   ifCaseLetCancelEffect: the enum state's child returning a `.cancel(id:)`; rootEchoTwice: the
//   root returning two `.send` effects merged;
//   panelWorking: a destination enum under a plain optional `ifLet`, its child's work running;
//   sheetWorking: the same, with an `Identifiable` child in the case, whose id is compared too;
//   destinationScoped, destinationScopedAtRoot: the destination's store kept, scoped through its
//   case (`\.destination?.counter`), sent from that store or at the root; destinationPresented:
//   the destination presented, its case's store scoped and sent to once, then dismissed;
// - scopeCached: not a send, an optional child's store asked for again, as a renderer asks;
//   rowsRedrawn: not a send, the stores of 50 of 1,000 rows asked for again, per redraw;
//   rowsRead: not a send, those 50 row stores' `count` read, per redraw; scopeRead: not a
//   send, the state of the counter's store ten `Scope` levels down, read;
// - runs, runsSending, runsWorking: `.run` effects that do nothing, send one action back, or
//   encode a small array as JSON, a thousand to a send, each send awaited (the number given
//   counts effects, not sends); run, runSending: one effect to a send, awaited; runUnawaited:
//   one to a send, as a view sends it, none awaited until the end; cancels: a thousand effects
//   that sleep, started and cancelled by their id; testStore: a `TestStore` sent `.echo` and
//   receiving `.echoed`, from the main actor, as a `@MainActor` test does;
// - sharedWrite, sharedRead: not sends, `$count.withLock { $0 += 1 }` on an in-memory shared
//   value, and a read of it.
// Runs the scenario's sends in a loop and prints the mean time per send; under callgrind, divide
// the instruction count of `Store.send` by the number of sends.

@MainActor
func run(_ arguments: [String]) -> Bool {
  let scenario = arguments.first ?? "scoped10"
  guard let sends = Int(arguments.dropFirst().first ?? "100000"), sends > 0 else { return false }
  let store: StoreOf<Counter>
  var action = Counter.Action.increment
  // The root of a nesting, kept while its leaf is sent to, as an application keeps it.
  var root: AnyObject?
  switch scenario {
  case "root": store = Store(initialState: Counter.State()) { Counter() }
  case "sharedWrite", "sharedRead":
    @Shared(.inMemory("count")) var count = 0
    let start = ContinuousClock.now
    if scenario == "sharedWrite" {
      for _ in 0..<sends { $count.withLock { $0 += 1 } }
    } else {
      for _ in 0..<sends { precondition(count >= 0) }
    }
    report(scenario, sends, ContinuousClock.now - start)
    return true
  case "scopeUnderDependency":
    let root = StoreOf<S10>(initialState: S10.State()) { S10().dependency(\.uuid, .incrementing) }
    timeSends(scenario, sends, root, scope10Increment)
    return true
  case "featureUnderIfLet":
    let root = StoreOf<SheetHost>(initialState: SheetHost.State()) {
      SheetHost().ifLet(\.sheet, action: \.sheet) { Counter() }
    }
    timeSends(scenario, sends, root, .main(scope10Increment))
    return true
  case "scoped1": store = leafStore(levels: 1)
  case "scoped10": store = leafStore(levels: 10)
  case "scopeRead":
    // Not a send: the state of the counter's store ten `Scope` levels down, read as a screen
    // reads it.
    let (root, leaf) = Nesting.scope.stores()
    let start = ContinuousClock.now
    for _ in 0..<sends { precondition(leaf.state.count == 0) }
    report(scenario, sends, ContinuousClock.now - start)
    withExtendedLifetime(root) {}
    return true
  case "scopeCached":
    // Not a send: the optional child's store, already made, as a renderer asks for it.
    let root = StoreOf<L1>(initialState: L1.State()) { L1() }
    let start = ContinuousClock.now
    for _ in 0..<sends { precondition(root.scope(state: \.child, action: \.child) != nil) }
    report(scenario, sends, ContinuousClock.now - start)
    return true
  case "rowsRead":
    // Not a send: the 50 drawn rows' `count` read again, as a redraw reads what it shows; the
    // number given counts redraws.
    let rows = observedRowsStore(count: 1_000)
    let drawn = Array(rows.scope(state: \.rows, action: \.rows)[475..<525])
    var total = 0
    let start = ContinuousClock.now
    for _ in 0..<sends {
      for row in drawn { total &+= row.count }
    }
    report(scenario, sends, ContinuousClock.now - start)
    precondition(total == 0)
    return true
  case "rowsRedrawn":
    // Not a send: a list screen drawn again, its 50 row stores asked for as `ForEach` asks,
    // each already made; the number given counts redraws.
    let rows = observedRowsStore(count: 1_000)
    var drawn = Array(rows.scope(state: \.rows, action: \.rows)[475..<525])
    let start = ContinuousClock.now
    for _ in 0..<sends {
      let collection = rows.scope(state: \.rows, action: \.rows)
      for index in 475..<525 { drawn[index - 475] = collection[index] }
    }
    report(scenario, sends, ContinuousClock.now - start)
    return true
  case "presentationBare":
    let root = StoreOf<P10>(initialState: P10.State()) { P10() }
    timeSends(scenario, sends, root, presented10(.increment))
    precondition(
      root.state.child?.child?.child?.child?.child?.child?.child?.child?.child?.child?.count
        == sends)
    return true
  case "ifLetOptional", "ifLetOptionalObserved":
    let root = StoreOf<L10>(initialState: L10.State()) { L10() }
    let leaf = ifLetOptionalLeaf(root)
    let observed = scenario == "ifLetOptionalObserved" ? [leaf.states] : []
    timeSends(scenario, sends, leaf, .increment)
    withExtendedLifetime((root, observed)) {}
    precondition(leaf.state.count == sends)
    return true
  case "handBare":
    let store = StoreOf<Hand10>(initialState: .fullyNested) { Hand10.nested }
    timeSends(scenario, sends, store, Hand10.embedding(.increment))
    return true
  case "observedRoot", "observedRootTracked":
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    if scenario == "observedRootTracked" {
      // The store keeps watching its core once read while tracked, as for a screen.
      withObservationTracking({ _ = store.count }, onChange: {})
    }
    timeSends(scenario, sends, store, .increment)
    precondition(store.count == sends)
    return true
  case "unobservedRoot":
    let store = Store(initialState: S1.State()) { S1() }
    timeSends(scenario, sends, store, .increment)
    precondition(store.state.count == sends)
    return true
  case "observedScoped":
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    timeSends(scenario, sends, store.scope(state: \.child, action: \.child), .increment)
    precondition(store.child.count == sends)
    return true
  case "rootCancel":
    store = Store(initialState: Counter.State()) { Counter() }
    action = .cancelLongLiving
  case "rowCancel":
    let rows = rowsStore(count: 1_000)
    timeSends(scenario, sends, rows, .rows(.element(id: 500, action: .cancelLongLiving)))
    return true
  case "rowsEcho":
    let rows = rowsStore(count: 1_000)
    timeSends(scenario, sends, rows, .rows(.element(id: 500, action: .echo)))
    precondition(rows.state.rows[id: 500]?.counter.count == sends)
    return true
  case "formTap", "formBinding":
    let form = Store(initialState: Form.State()) { Form() }
    timeSends(scenario, sends, form, scenario == "formTap" ? .tapped : .binding(.set(\.name, "a")))
    return true
  case "formViewTap":
    let form = Store(initialState: ViewForm.State()) { ViewForm() }
    timeSends(scenario, sends, form, .view(.tapped))
    precondition(form.taps == sends)
    return true
  case "formCasePathableViewTap":
    let form = Store(initialState: CasePathableViewForm.State()) { CasePathableViewForm() }
    timeSends(scenario, sends, form, .view(.tapped))
    precondition(form.taps == sends)
    return true
  case "observedRows", "observedRowsBump", "observedRowsDrawn":
    let rows = observedRowsStore(count: 1_000)
    let action: ObservedRows.Action =
      scenario == "observedRowsBump" ? .bump(id: 500) : .rows(.element(id: 500, action: .increment))
    // Fifty row stores drawn, as a list screen draws the rows it shows: each one's `count` read
    // inside `withObservationTracking`, so each row store watches for its row after every action.
    let drawn =
      scenario == "observedRowsDrawn"
      ? Array(rows.scope(state: \.rows, action: \.rows))[475..<525] : []
    for row in drawn { withObservationTracking({ _ = row.count }, onChange: {}) }
    timeSends(scenario, sends, rows, action)
    withExtendedLifetime(drawn) {}
    precondition(rows.state.rows[id: 500]?.count == sends)
    return true
  case "rows", "rowsKept", "rowsObserved":
    let rows = rowsStore(count: 1_000)
    let kept = scenario == "rows" ? [] : Array(rows.scope(state: \.rows, action: \.rows))
    // Fifty rows observed, as a screen showing them observes them: each one's states.
    let observed = scenario == "rowsObserved" ? kept[475..<525].map { $0.states } : []
    timeSends(scenario, sends, rows, .rows(.element(id: 500, action: .increment)))
    withExtendedLifetime((kept, observed)) {}
    precondition(rows.state.rows[id: 500]?.counter.count == sends)
    return true
  default:
    if runNavigation(scenario, sends) { return true }
    guard let (nesting, variant) = nestingScenario(scenario) else { return false }
    switch variant {
    case "Build":
      let start = ContinuousClock.now
      for _ in 0..<sends {
        let (root, leaf) = nesting.stores()
        leaf.send(.increment)
        withExtendedLifetime(root) {}
      }
      report(scenario, sends, ContinuousClock.now - start)
      return true
    case "AtRoot":
      var body = TimeSendsAtRoot(scenario: scenario, sends: sends)
      nesting.withStores(&body)
      return true
    default:
      (root, store) = nesting.stores()
      // Kept, not iterated: its buffer holds the newest state only.
      if variant == "Observed" { root = [root as Any, store.states] as AnyObject }
      if variant == "Echo" { action = .echo }
    }
  }
  timeSends(scenario, sends, store, action)
  withExtendedLifetime(root) {}
  precondition(store.state.count == (action == .cancelLongLiving ? 0 : sends))
  return true
}

/// The nesting a scenario names and what follows its name: "", "Observed", "AtRoot", "Build" or
/// "Echo".
func nestingScenario(_ scenario: String) -> (Nesting, variant: String)? {
  for variant in ["Observed", "AtRoot", "Build", "Echo", ""] where scenario.hasSuffix(variant) {
    if let nesting = Nesting(rawValue: String(scenario.dropLast(variant.count))) {
      return (nesting, variant)
    }
  }
  return nil
}

/// Times sends of the counter's action to a nesting's root store, embedded ten levels deep; the
/// counter's store is scoped down and kept, as in the leaf scenarios, so that the root pays for
/// the same scoped stores after each action, and is where the count is checked.
struct TimeSendsAtRoot: NestingBody {
  let scenario: String
  let sends: Int

  func callAsFunction<State, Action>(
    root: Store<State, Action>, leaf: StoreOf<Counter>, rootAction: Action
  ) {
    timeSends(scenario, sends, root, rootAction)
    precondition(leaf.state.count == sends)
  }
}

/// Sends `action` to `store` `sends` times and prints the mean time per send.
@MainActor
func timeSends<State, Action>(
  _ scenario: String, _ sends: Int, _ store: Store<State, Action>, _ action: Action
) {
  let start = ContinuousClock.now
  for _ in 0..<sends { store.send(action) }
  report(scenario, sends, ContinuousClock.now - start)
}

func report(_ scenario: String, _ sends: Int, _ elapsed: Duration) {
  let nanoseconds =
    Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
  print(scenario, sends, "sends:", String(format: "%.1f ns/send", nanoseconds / Double(sends)))
}

/// Starts `effects` `.run` effects, a thousand or one to a send, and awaits each send's; for
/// `cancels`, cancels each thousand by their id first; for `testStore`, makes that many send +
/// receive pairs on a test store instead.
@MainActor
func timeRuns(_ scenario: String, _ effects: Int) async {
  let store = Store(initialState: Counter.State()) { Counter() }
  let batch = scenario.hasPrefix("runs") || scenario == "cancels" ? 1_000 : 1
  let start = ContinuousClock.now
  switch scenario {
  case "cancels":
    for _ in 0..<(effects / batch) {
      let started = store.send(.startLongLiving(batch))
      store.send(.cancelLongLiving)
      await started.finish()
    }
  case "testStore":
    let testStore = TestStore(initialState: Counter.State()) { Counter() }
    for count in 1...effects {
      await testStore.send(.echo)
      await testStore.receive(\.echoed) { $0.count = count }
    }
  case "runUnawaited":
    let sent = (0..<effects).map { _ in store.send(.startRuns(1)) }
    for task in sent { await task.finish() }
  case _ where scenario.hasSuffix("Sending"):
    for _ in 0..<(effects / batch) { await store.send(.startRunsSending(batch)).finish() }
    precondition(store.state.count == effects / batch * batch)
  case _ where scenario.hasSuffix("Working"):
    for _ in 0..<(effects / batch) { await store.send(.startRunsWorking(batch)).finish() }
  default:
    for _ in 0..<(effects / batch) { await store.send(.startRuns(batch)).finish() }
  }
  report(scenario, effects, ContinuousClock.now - start)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let effectScenarios = [
  "run", "runSending", "runUnawaited", "runs", "runsSending", "runsWorking", "cancels",
  "testStore",
]
if let scenario = arguments.first, effectScenarios.contains(scenario),
  let effects = Int(arguments.dropFirst().first ?? "100000")
{
  await timeRuns(scenario, effects)
} else if !run(arguments) {
  print("usage: RuntimeProfile <scenario> [sends]; the scenarios are listed in main.swift")
  exit(64)
}

import Benchmark
import ComposableCore
import ComposableFixtures
import ComposableTestSupport

/// A benchmark whose body runs on the main actor, where stores live. The runner awaits the body,
/// so handing it the benchmark object is safe.
func mainActorBenchmark(
  _ name: String,
  scalingFactor: BenchmarkScalingFactor = .kilo,
  _ body: @escaping @MainActor (Benchmark) -> Void
) {
  Benchmark(name, configuration: .init(scalingFactor: scalingFactor)) { benchmark in
    nonisolated(unsafe) let benchmark = benchmark
    await MainActor.run { body(benchmark) }
  }
}

/// Sends `action` to `store` for each of the benchmark's iterations, measuring only the sends.
/// One send before the measurement builds the store's reducer tree, which a store does once, on
/// its first action (the "first send" benchmarks measure that): left in, it was spread over the
/// iteration's sends, which made ten generic levels look 60 % slower than concrete ones.
@MainActor
func send<State, Action>(_ action: Action, to store: Store<State, Action>, _ benchmark: Benchmark) {
  store.send(action)
  benchmark.startMeasurement()
  for _ in benchmark.scaledIterations { store.send(action) }
  benchmark.stopMeasurement()
}

/// Measures sends of the counter's action to a nesting's root store, embedded ten levels deep,
/// with the counter's store scoped down and kept as in the leaf benchmarks.
struct SendAtRoot: NestingBody {
  let benchmark: Benchmark

  func callAsFunction<State, Action>(
    root: Store<State, Action>, leaf: StoreOf<Counter>, rootAction: Action
  ) {
    send(rootAction, to: root, benchmark)
    blackHole(leaf.state.count)
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    // No `.memoryLeaked`: the malloc backend package-benchmark uses here (its interposer, not
    // jemalloc) does not produce it, and asking for it only printed a warning per benchmark.
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    maxDuration: .seconds(2),
    maxIterations: 10_000
  )

  Benchmark("Baseline store send", configuration: .init(scalingFactor: .kilo)) { benchmark in
    let store = makeBaselineStore()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.increment)
      blackHole(store)
    }
    benchmark.stopMeasurement()
    blackHole(store.state)
  }

  mainActorBenchmark("Store send, root, .none") { benchmark in
    let store = Store(initialState: Counter.State()) { Counter() }
    send(.increment, to: store, benchmark)
    blackHole(store.state.count)
  }

  mainActorBenchmark("Store send, .merge of 2 .none") { benchmark in
    send(
      .incrementMergingTwoNones, to: Store(initialState: Counter.State()) { Counter() }, benchmark)
  }

  mainActorBenchmark("Store send, .merge of 10 .none") { benchmark in
    send(.incrementMergingNones, to: Store(initialState: Counter.State()) { Counter() }, benchmark)
  }

  for levels in [1, 5, 10] {
    mainActorBenchmark("Store send, scoped \(levels) level\(levels == 1 ? "" : "s")") { benchmark in
      let leaf = leafStore(levels: levels)
      send(.increment, to: leaf, benchmark)
      blackHole(leaf.state.count)
    }
  }

  for nesting in Nesting.allCases {
    mainActorBenchmark("Store send, 10 levels, \(nesting.rawValue)") { benchmark in
      let (root, leaf) = nesting.stores()
      send(.increment, to: leaf, benchmark)
      blackHole(leaf.state.count)
      withExtendedLifetime(root) {}
    }
    // The counter's `.echo` returns `.send`, as a child's delegate action does: the effect is
    // embedded up through the ten levels, and its action comes back down them.
    mainActorBenchmark("Store send, 10 levels, \(nesting.rawValue), child returns .send") {
      benchmark in
      let (root, leaf) = nesting.stores()
      send(.echo, to: leaf, benchmark)
      blackHole(leaf.state.count)
      withExtendedLifetime(root) {}
    }
    // The same action as the root receives it, embedded ten levels deep: the levels' reducers
    // without the scoped stores' embedding on the way up.
    mainActorBenchmark("Store send, 10 levels, \(nesting.rawValue), sent at the root") {
      benchmark in
      var body = SendAtRoot(benchmark: benchmark)
      nesting.withStores(&body)
    }
    // What the sends above leave out: the first, which builds the tree of ten levels.
    mainActorBenchmark(
      "Store first send (builds the reducer tree), 10 levels, \(nesting.rawValue)",
      scalingFactor: .one
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        let (root, leaf) = nesting.stores()
        benchmark.startMeasurement()
        leaf.send(.increment)
        benchmark.stopMeasurement()
        precondition(leaf.state.count == 1)
        withExtendedLifetime(root) {}
      }
    }
  }

  // Ten `Scope` levels in a feature's body, with `ifLet` applied to the feature itself: the
  // operator runs the feature's body, built once, not made again for each action.
  mainActorBenchmark("Store send, 10 scope levels in a feature under ifLet, sent at the root") {
    benchmark in
    let store = StoreOf<SheetHost>(initialState: SheetHost.State()) {
      SheetHost().ifLet(\.sheet, action: \.sheet) { Counter() }
    }
    send(.main(scope10Increment), to: store, benchmark)
    blackHole(store.state.main)
  }

  // The leaf reached as a screen reaches an optional child, `if let child = store.scope(state:
  // \.child, action: \.child)`: each level's store watches its parent for the child going away.
  mainActorBenchmark("Store send, 10 levels, ifLet, each level scoped as an optional child") {
    benchmark in
    let root = StoreOf<L10>(initialState: L10.State()) { L10() }
    let leaf = ifLetOptionalLeaf(root)
    send(.increment, to: leaf, benchmark)
    blackHole(leaf.state.count)
    withExtendedLifetime(root) {}
  }

  for count in [100, 10_000, 100_000] {
    mainActorBenchmark("forEach element action, \(count) rows") { benchmark in
      send(
        .rows(.element(id: count / 2, action: .increment)), to: rowsStore(count: count), benchmark)
    }
    // Every row's store scoped and kept, as a list that has drawn all its rows keeps them.
    mainActorBenchmark("forEach element action, \(count) rows, every row store kept") {
      benchmark in
      let store = rowsStore(count: count)
      let rows = Array(store.scope(state: \.rows, action: \.rows))
      send(.rows(.element(id: count / 2, action: .increment)), to: store, benchmark)
      withExtendedLifetime(rows) {}
    }
  }
  // The same rows with observable state, as modern features write them: a row's action through
  // `forEach`, the list changing a row itself, and the list adding a row and removing it. Each
  // write of `rows` compares its ids before and after, to tell the list's readers only when they
  // changed; holding the ids for that makes an edit of them copy them (O(n)), as TCA's does.
  for count in [100, 10_000, 100_000] {
    mainActorBenchmark("forEach element action, \(count) rows, @ObservableState") { benchmark in
      let store = observedRowsStore(count: count)
      send(.rows(.element(id: count / 2, action: .increment)), to: store, benchmark)
    }
    mainActorBenchmark("a row changed by the list, \(count) rows, @ObservableState") {
      benchmark in
      send(.bump(id: count / 2), to: observedRowsStore(count: count), benchmark)
    }
    mainActorBenchmark("a row added at the end then removed, \(count) rows, @ObservableState") {
      benchmark in
      let store = observedRowsStore(count: count)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(.append(id: -1))
        store.send(.remove(id: -1))
      }
      benchmark.stopMeasurement()
      precondition(store.state.rows.count == count)
    }
  }
  // The list adds a row and then removes it: at the end, as a new item is added and undone, and
  // in the middle. Each pair is two sends, and `forEach` finds which rows went away after each.
  for count in [100, 10_000, 100_000] {
    for (place, offset) in [("at the end", count), ("in the middle", count / 2)] {
      mainActorBenchmark("forEach, a row added \(place) then removed, \(count) rows") { benchmark in
        let store = editedRowsStore(count: count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
          store.send(.insert(id: -1, at: offset))
          store.send(.remove(id: -1))
        }
        benchmark.stopMeasurement()
        precondition(store.state.rows.count == count)
      }
    }
    // As a list screen that has drawn every row keeps their stores.
    mainActorBenchmark(
      "forEach, a row added at the end then removed, \(count) rows, every row store kept"
    ) {
      benchmark in
      let store = editedRowsStore(count: count)
      let rows = Array(store.scope(state: \.rows, action: \.rows))
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(.insert(id: -1, at: count))
        store.send(.remove(id: -1))
      }
      benchmark.stopMeasurement()
      withExtendedLifetime(rows) {}
    }
    // The floor: the same two edits to the identified array, with no `forEach`.
    mainActorBenchmark("a row added in the middle then removed, \(count) rows, no forEach") {
      benchmark in
      let store = Store(
        initialState: EditedRowsAlone.State(
          rows: IdentifiedArray(uniqueElements: (0..<count).map { Rows.Row(id: $0) }))
      ) {
        EditedRowsAlone()
      }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(.insert(id: -1, at: count / 2))
        store.send(.remove(id: -1))
      }
      benchmark.stopMeasurement()
      precondition(store.state.rows.count == count)
    }
  }
  // Every row's store kept and 50 of them observed through `states`, as a screen showing them
  // observes them: each observed row is read and compared after every action.
  mainActorBenchmark("forEach element action, 1000 rows, 50 row stores observed") { benchmark in
    let store = rowsStore(count: 1_000)
    let rows = Array(store.scope(state: \.rows, action: \.rows))
    let observed = rows[475..<525].map(\.states)
    send(.rows(.element(id: 500, action: .increment)), to: store, benchmark)
    withExtendedLifetime((rows, observed)) {}
  }
  // Observable rows, 50 of their stores drawn as a list screen draws them: each one's `count`
  // read inside `withObservationTracking`, so each checks its row after every action.
  mainActorBenchmark("forEach element action, 1000 rows, 50 row stores drawn, @ObservableState") {
    benchmark in
    let store = observedRowsStore(count: 1_000)
    let drawn = Array(store.scope(state: \.rows, action: \.rows))[475..<525]
    for row in drawn { withObservationTracking({ _ = row.count }, onChange: {}) }
    send(.rows(.element(id: 500, action: .increment)), to: store, benchmark)
    withExtendedLifetime(drawn) {}
  }
  // A list screen drawn again: the collection scoped and the stores of the 50 rows it shows
  // asked for, as `ForEach` asks, each already made. Per redraw.
  mainActorBenchmark("Redraw a list: scope 1000 rows, ask for 50 kept row stores") { benchmark in
    let store = observedRowsStore(count: 1_000)
    var drawn = Array(store.scope(state: \.rows, action: \.rows)[475..<525])
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let rows = store.scope(state: \.rows, action: \.rows)
      for index in 475..<525 { drawn[index - 475] = rows[index] }
    }
    benchmark.stopMeasurement()
    blackHole(drawn)
  }
  // What a redraw then reads of each row it shows: a field of its state.
  mainActorBenchmark("Redraw a list: read a field of 50 drawn row stores") { benchmark in
    let store = observedRowsStore(count: 1_000)
    let drawn = Array(store.scope(state: \.rows, action: \.rows)[475..<525])
    var total = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      for row in drawn { total &+= row.count }
    }
    benchmark.stopMeasurement()
    blackHole(total)
  }
  // A screen ten `Scope` levels down reads its store's state.
  mainActorBenchmark("Read the state of a store 10 Scope levels down") { benchmark in
    let (root, leaf) = Nesting.scope.stores()
    var total = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { total &+= leaf.state.count }
    benchmark.stopMeasurement()
    blackHole(total)
    withExtendedLifetime(root) {}
  }
  // A row whose action returns `.send`, as a row's delegate action does.
  mainActorBenchmark("forEach element action, 1000 rows, row returns .send") { benchmark in
    send(.rows(.element(id: 500, action: .echo)), to: rowsStore(count: 1_000), benchmark)
  }
  // A row's action returning `.cancel(id:)` with nothing to cancel, as a row's stop button
  // does: the id, the row's scope and its element id, and the store's lookup, without a task.
  mainActorBenchmark("forEach element action, 1000 rows, row returns a cancellation") {
    benchmark in
    send(
      .rows(.element(id: 500, action: .cancelLongLiving)), to: rowsStore(count: 1_000), benchmark)
  }

  // Each iteration folds the effects and runs them; before the parts of a fold were added to in
  // place, each `merge(with:)` copied all the parts so far.
  for count in [1_000, 10_000] {
    mainActorBenchmark(
      "Fold \(count) .send effects with merge(with:), then run them", scalingFactor: .one
    ) {
      benchmark in
      let store = Store(initialState: Counter.State()) { Counter() }
      send(.foldSends(count), to: store, benchmark)
    }
    mainActorBenchmark(
      "Fold \(count) .send effects with .merge(effect, next), then run them", scalingFactor: .one
    ) {
      benchmark in
      let store = Store(initialState: Counter.State()) { Counter() }
      send(.foldSendsVariadic(count), to: store, benchmark)
    }
  }

  Benchmark("1000 .run effects started and finished") { benchmark in
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let task = await MainActor.run {
        let store = Store(initialState: Counter.State()) { Counter() }
        return store.send(.startRuns(1_000))
      }
      await task.finish()
    }
    benchmark.stopMeasurement()
  }

  // One effect for one action, awaited, as a button that loads something is: the effect's task
  // starting, ending, and the waiting caller resuming, mostly thread switches.
  Benchmark("One .run effect started and finished") { benchmark in
    let store = await MainActor.run { Store(initialState: Counter.State()) { Counter() } }
    for _ in benchmark.scaledIterations {
      await MainActor.run { store.send(.startRuns(1)) }.finish()
    }
  }

  Benchmark("One .run effect that sends an action back, started and finished") { benchmark in
    let store = await MainActor.run { Store(initialState: Counter.State()) { Counter() } }
    for _ in benchmark.scaledIterations {
      await MainActor.run { store.send(.startRunsSending(1)) }.finish()
    }
  }

  Benchmark("Cancel 1000 in-flight cancellable effects") { benchmark in
    for _ in benchmark.scaledIterations {
      let (store, task) = await MainActor.run {
        let store = Store(initialState: Counter.State()) { Counter() }
        return (store, store.send(.startLongLiving(1_000)))
      }
      benchmark.startMeasurement()
      await MainActor.run { _ = store.send(.cancelLongLiving) }
      await task.finish()
      benchmark.stopMeasurement()
    }
  }

  // Only the clearing is timed, and the effects ending; each removed row's effects are cancelled.
  for count in [1_000, 10_000] {
    Benchmark(
      "Clear a list of \(count) rows, each running an effect",
      configuration: .init(scalingFactor: .one, maxIterations: 100)
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        let (store, task) = await MainActor.run {
          let store = Store(
            initialState: ClearableRows.State(
              rows: IdentifiedArray(uniqueElements: (0..<count).map { Rows.Row(id: $0) }))
          ) {
            ClearableRows()
          }
          return (store, store.send(.startAll))
        }
        benchmark.startMeasurement()
        await MainActor.run { _ = store.send(.clear) }
        await task.finish()
        benchmark.stopMeasurement()
      }
    }
  }

  // Measured from after the store is made: each sample is one closure call, so without the
  // explicit start it counted making a test store and the harness's own hop onto a task.
  Benchmark(
    "TestStore send + receive", configuration: .init(scalingFactor: .one, maxIterations: 2_000)
  ) { benchmark in
    let store = await MainActor.run { TestStore(initialState: Counter.State()) { Counter() } }
    var count = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      count += 1
      let expected = count
      await store.send(.echo)
      await store.receive(\.echoed) { $0.count = expected }
    }
    benchmark.stopMeasurement()
  }
  // The same from the main actor, as a `@MainActor` test runs: above, each `send` and `receive`
  // is awaited from off the main actor, two executor hops apiece (see the floor below).
  Benchmark(
    "TestStore send + receive, from a @MainActor test",
    configuration: .init(scalingFactor: .one, maxIterations: 2_000)
  ) { benchmark in
    nonisolated(unsafe) let benchmark = benchmark
    await Task { @MainActor in
      let store = TestStore(initialState: Counter.State()) { Counter() }
      var count = 0
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        count += 1
        let expected = count
        await store.send(.echo)
        await store.receive(\.echoed) { $0.count = expected }
      }
      benchmark.stopMeasurement()
    }.value
  }
  // The floor under "TestStore send + receive": its `send` and `receive` each go to the main
  // actor and back, as any `@MainActor` method awaited from off it does; here they do nothing
  // else. A test store keeps Swift's global executor on the main serial executor while it lives
  // (as TCA's does), so the second row keeps one alive, as that row does: then every hop stays
  // on the main thread.
  for serial in [false, true] {
    Benchmark(
      "Two round trips to the main actor, doing nothing\(serial ? ", a test store alive" : "")",
      configuration: .init(scalingFactor: .one, maxIterations: 2_000)
    ) { benchmark in
      let store = await MainActor.run {
        serial ? TestStore(initialState: Counter.State()) { Counter() } : nil
      }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        await MainActor.run {}
        await MainActor.run {}
      }
      benchmark.stopMeasurement()
      await MainActor.run { withExtendedLifetime(store) {} }
    }
  }

  // A presented child's action sent at the root, the child declared either way.
  mainActorBenchmark("Store send, presented child at the root, @Presents") { benchmark in
    send(
      .child(.presented(.increment)), to: StoreOf<P1>(initialState: P1.State()) { P1() }, benchmark)
  }
  mainActorBenchmark("Store send, presented child at the root, @PresentationState") { benchmark in
    send(
      .child(.presented(.increment)),
      to: StoreOf<WrappedP1>(initialState: WrappedP1.State()) { WrappedP1() }, benchmark)
  }

  // One level of each navigation shape features use (`Navigation.swift`), the child's action
  // sent at the root; "with an effect": the child's action returns `.send`, which comes back
  // through the level as a second action.
  mainActorBenchmark("Store send, destination enum child") { benchmark in
    send(
      .destination(.presented(.counter(.increment))),
      to: Store(initialState: DestParent.State()) { DestParent() }, benchmark)
  }
  // The destination's store kept, as the screen showing it keeps it, scoped the usual way.
  mainActorBenchmark("Store send, destination enum child, its store kept") { benchmark in
    let store = Store(initialState: DestParent.State()) { DestParent() }
    let counter = store.scope(state: \.destination?.counter, action: \.destination.counter)
    send(.destination(.presented(.counter(.increment))), to: store, benchmark)
    withExtendedLifetime(counter) {}
  }
  // Sent from that store, whose actions are embedded through `\.destination.counter`.
  mainActorBenchmark("Store send from a destination case's store") { benchmark in
    let store = Store(initialState: DestParent.State()) { DestParent() }
    let counter = store.scope(state: \.destination?.counter, action: \.destination.counter)!
    send(.increment, to: counter, benchmark)
    withExtendedLifetime(store) {}
  }
  // What a screen pays each time it presents a destination: the presenting action, a new store
  // of the case (made for each presentation, as the child is new), one action from it, the
  // dismissal.
  mainActorBenchmark("Present a destination, scope its case's store, send once, dismiss") {
    benchmark in
    let store = Store(initialState: DestParent.State()) { DestParent() }
    store.send(.destination(.dismiss))
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.present)
      store.scope(state: \.destination?.counter, action: \.destination.counter)!.send(.increment)
      store.send(.destination(.dismiss))
    }
    benchmark.stopMeasurement()
  }
  mainActorBenchmark("Store send, destination enum child, with an effect") { benchmark in
    send(
      .destination(.presented(.counter(.echo))),
      to: Store(initialState: DestParent.State()) { DestParent() }, benchmark)
  }
  // A child's action returning an effect other than `.send`, here a cancellation (it starts no
  // task, so the row measures what the presentation does with it): the effect is scoped to the
  // child, which asks the child who it is.
  mainActorBenchmark("Store send, presented child returns a cancellation") { benchmark in
    send(
      .child(.presented(.cancelLongLiving)), to: StoreOf<P1>(initialState: P1.State()) { P1() },
      benchmark)
  }
  mainActorBenchmark("Store send, destination enum child returns a cancellation") { benchmark in
    send(
      .destination(.presented(.counter(.cancelLongLiving))),
      to: Store(initialState: DestParent.State()) { DestParent() }, benchmark)
  }
  mainActorBenchmark("Store send, stack element") { benchmark in
    let store = Store(initialState: StackParent.State()) { StackParent() }
    send(
      .path(.element(id: store.state.path.ids[0], action: .counter(.increment))), to: store,
      benchmark)
  }
  mainActorBenchmark("Store send, stack element, with an effect") { benchmark in
    let store = Store(initialState: StackParent.State()) { StackParent() }
    send(
      .path(.element(id: store.state.path.ids[0], action: .counter(.echo))), to: store, benchmark)
  }
  // The top screen of a stack is the one a user acts on: its actions, and the actions its
  // effects send back, should not cost more the deeper the stack is.
  for depth in [10, 1_000, 100_000] {
    mainActorBenchmark("Store send, top of a stack \(depth) deep") { benchmark in
      let store = Store(initialState: StackParent.State(depth: depth)) { StackParent() }
      send(
        .path(.element(id: store.state.path.ids[depth - 1], action: .counter(.increment))),
        to: store, benchmark)
    }
    mainActorBenchmark("Store send, top of a stack \(depth) deep, with an effect") { benchmark in
      let store = Store(initialState: StackParent.State(depth: depth)) { StackParent() }
      send(
        .path(.element(id: store.state.path.ids[depth - 1], action: .counter(.echo))),
        to: store, benchmark)
    }
    // A push and a pop of the top, as a drill-down and back does.
    mainActorBenchmark("Push onto a stack \(depth) deep, then pop it") { benchmark in
      let store = Store(initialState: StackParent.State(depth: depth)) { StackParent() }
      let id = StackElementID(rawValue: store.state.path.ids.last!.rawValue + 1)
      let push = StackParent.Action.path(.push(id: id, state: .counter(Counter.State())))
      let pop = StackParent.Action.path(.popFrom(id: id))
      store.send(push)
      store.send(pop)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(push)
        store.send(pop)
      }
      benchmark.stopMeasurement()
    }
  }
  mainActorBenchmark("Store send, ifLet child, Identifiable") { benchmark in
    send(
      .detail(.increment), to: Store(initialState: DetailParent.State()) { DetailParent() },
      benchmark)
  }
  mainActorBenchmark("Store send, ifLet child, Identifiable, with work running") { benchmark in
    let store = Store(initialState: DetailParent.State()) { DetailParent() }
    store.send(.detail(.startWork))
    send(.detail(.increment), to: store, benchmark)
  }
  mainActorBenchmark("Store send, ifCaseLet child") { benchmark in
    send(
      .counter(.increment),
      to: Store(initialState: CaseParent.State.counter(Counter.State())) { CaseParent() }, benchmark
    )
  }
  mainActorBenchmark("Store send, ifCaseLet child returns a cancellation") { benchmark in
    send(
      .counter(.cancelLongLiving),
      to: Store(initialState: CaseParent.State.counter(Counter.State())) { CaseParent() }, benchmark
    )
  }
  mainActorBenchmark("Store send, ifLet destination enum child, with work running") { benchmark in
    let store = Store(initialState: PanelParent.State()) { PanelParent() }
    store.send(.panel(.counter(.startLongLiving(1))))
    send(.panel(.counter(.increment)), to: store, benchmark)
  }
  mainActorBenchmark("Store send, ifLet destination enum child with an id, with work running") {
    benchmark in
    let store = Store(initialState: SheetParent.State()) { SheetParent() }
    store.send(.sheet(.detail(.startWork)))
    send(.sheet(.detail(.increment)), to: store, benchmark)
  }
  mainActorBenchmark("Store send, root, with an effect") { benchmark in
    send(.echo, to: Store(initialState: Counter.State()) { Counter() }, benchmark)
  }
  mainActorBenchmark("Store send, root, two effects merged") { benchmark in
    send(.echoTwice, to: Store(initialState: Counter.State()) { Counter() }, benchmark)
  }
  mainActorBenchmark("Store send, root returns a cancellation") { benchmark in
    send(.cancelLongLiving, to: Store(initialState: Counter.State()) { Counter() }, benchmark)
  }

  mainActorBenchmark("Store.scope creation") { benchmark in
    do {
      let store = StoreOf<L1>(initialState: L1.State()) { L1() }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        blackHole(store.scope(state: \.child!, action: \.child))
      }
      benchmark.stopMeasurement()
    }
  }

  // What a renderer pays each time it draws an optional child: the store is already there.
  mainActorBenchmark("Store.scope, optional child, cached") { benchmark in
    do {
      let store = StoreOf<L1>(initialState: L1.State()) { L1() }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        blackHole(store.scope(state: \.child, action: \.child))
      }
      benchmark.stopMeasurement()
    }
  }

  // A store's whole life: its mallocs are the store's own and its tree's, the same for a million
  // sends as for one, so a send that allocated (and so could leak) shows here a million-fold.
  Benchmark(
    "1,000,000 sends, store made and released",
    configuration: .init(scalingFactor: .one, maxIterations: 3)
  ) { benchmark in
    await MainActor.run {
      let store = Store(initialState: Counter.State()) { Counter() }
      for _ in 0..<1_000_000 { store.send(.increment) }
      blackHole(store.state.count)
    }
  }

  observationBenchmarks()
  sharingBenchmarks()
  recordingBenchmarks()
}

import Benchmark
import ComposableCore
import ComposableFixtures

/// An observable parent whose child holds a long list, of which each action changes one item.
@Reducer
struct ObservedList {
  @ObservableState
  struct State {
    var child = Child.State()
  }

  enum Action {
    case child(Child.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { Child() }
  }

  @Reducer
  struct Child {
    @ObservableState
    struct State {
      var items = Array(repeating: 0, count: 100_000)
    }

    enum Action {
      case bump
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.items[0] += 1
      return .none
    }
  }
}

/// What observation costs: reading state through the store and sending to scoped stores, next
/// to plain `store.state.x` on unobserved state.
func observationBenchmarks() {
  mainActorBenchmark("Read store.state.count, plain state") { benchmark in
    let store = Store(initialState: Counter.State()) { Counter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(store.state.count) }
    benchmark.stopMeasurement()
  }

  mainActorBenchmark("Read store.state.count, @ObservableState") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(store.state.count) }
    benchmark.stopMeasurement()
  }

  mainActorBenchmark("Read store.count, @ObservableState") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(store.count) }
    benchmark.stopMeasurement()
  }

  mainActorBenchmark("Read store.count inside withObservationTracking") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      withObservationTracking {
        blackHole(store.count)
      } onChange: {
      }
    }
    benchmark.stopMeasurement()
  }

  mainActorBenchmark("Store send, root, @ObservableState") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    send(.increment, to: store, benchmark)
    blackHole(store.count)
  }

  // `S1`, the first `Scope` level, is `ObservedCounter`'s shape with plain state.
  mainActorBenchmark("Store send, root, the same with plain state") { benchmark in
    send(.increment, to: StoreOf<S1>(initialState: S1.State()) { S1() }, benchmark)
  }

  mainActorBenchmark("Store send, scoped child, @ObservableState") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    let child = store.scope(state: \.child, action: \.child)
    send(.increment, to: child, benchmark)
    blackHole(child.count)
  }

  mainActorBenchmark("Store send, child changing 1 of 100 000 items, @ObservableState") {
    benchmark in
    let store = Store(initialState: ObservedList.State()) { ObservedList() }
    send(.child(.bump), to: store, benchmark)
    blackHole(store.child.items[0])
  }

  // Every action of a form passes through `BindingReducer`, which looks for a binding in it.
  mainActorBenchmark("Store send, form, a button's action") { benchmark in
    let store = Store(initialState: Form.State()) { Form() }
    send(.tapped, to: store, benchmark)
    blackHole(store.taps)
  }

  mainActorBenchmark("Store send, form, a binding action") { benchmark in
    let store = Store(initialState: Form.State()) { Form() }
    send(.binding(.set(\.name, "Blob")), to: store, benchmark)
    blackHole(store.name)
  }

  mainActorBenchmark("Store send, form with a View enum, a button's action") { benchmark in
    let store = Store(initialState: ViewForm.State()) { ViewForm() }
    send(.view(.tapped), to: store, benchmark)
    blackHole(store.taps)
  }

  mainActorBenchmark("Store send, form with a @CasePathable View enum, a button's action") {
    benchmark in
    let store = Store(initialState: CasePathableViewForm.State()) { CasePathableViewForm() }
    send(.view(.tapped), to: store, benchmark)
    blackHole(store.taps)
  }

  mainActorBenchmark("Store.scope + send, child, @ObservableState") { benchmark in
    let store = Store(initialState: ObservedCounter.State()) { ObservedCounter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.scope(state: \.child, action: \.child).send(.increment)
    }
    benchmark.stopMeasurement()
    blackHole(store.child.count)
  }
}

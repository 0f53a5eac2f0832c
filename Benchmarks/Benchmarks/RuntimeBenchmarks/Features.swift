import ComposableCore
import ComposableTestSupport

/// The floor: a final class holding state and a reducer closure, no effects, no observation.
final class BaselineStore<State, Action> {
  var state: State
  let reducer: (inout State, Action) -> Void

  init(state: State, reducer: @escaping (inout State, Action) -> Void) {
    self.state = state
    self.reducer = reducer
  }

  func send(_ action: Action) {
    reducer(&state, action)
  }
}

/// The baseline, made out of the optimiser's sight so it cannot fold the loop away.
@inline(never)
func makeBaselineStore() -> BaselineStore<Counter.State, Counter.Action> {
  BaselineStore(state: Counter.State()) { state, action in
    if case .increment = action { state.count += 1 }
  }
}

/// A counter whose actions return the effects the benchmarks need.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case incrementMergingNones
    case incrementMergingTwoNones
    case startRuns(Int)
    case startLongLiving(Int)
    case cancelLongLiving
    case echo
    case echoed
  }

  enum CancelID { case longLiving }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementMergingNones:
      state.count += 1
      return .merge(.none, .none, .none, .none, .none, .none, .none, .none, .none, .none)
    case .incrementMergingTwoNones:
      state.count += 1
      return .merge(.none, .none)
    case .startRuns(let count):
      return .merge((0..<count).map { _ in .run { _ in } })
    case .startLongLiving(let count):
      return .merge(
        (0..<count).map { _ in
          .run { _ in try await Task.sleep(for: .seconds(3600)) }.cancellable(
            id: CancelID.longLiving)
        }
      )
    case .cancelLongLiving:
      return .cancel(id: CancelID.longLiving)
    case .echo:
      return .send(.echoed)
    case .echoed:
      state.count += 1
      return .none
    }
  }
}

/// A list of counters, integrated with `forEach`.
struct Rows: Reducer {
  struct Row: Equatable, Identifiable {
    let id: Int
    var counter = Counter.State()
  }

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row>
  }

  @CasePathable
  enum Action: Equatable {
    case rows(IdentifiedAction<Int, Counter.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.rows, action: \.rows) {
        Scope(state: \.counter, action: \.self) { Counter() }
      }
  }
}

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
@Reducer
struct Counter {
  struct State: Equatable {
    var count = 0
  }

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

/// Counter's state as an observable struct, and a parent holding one as a child.
@Reducer
struct ObservedCounter {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var child = Child.State()
  }

  enum Action: Equatable {
    case increment
    case child(Child.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { Child() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }

  @Reducer
  struct Child {
    @ObservableState
    struct State: Equatable {
      var count = 0
    }

    enum Action: Equatable {
      case increment
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }
}

/// A list of counters, integrated with `forEach`.
@Reducer
struct Rows {
  struct Row: Equatable, Identifiable {
    let id: Int
    var counter = Counter.State()
  }

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row>
  }

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

/// The leaf store of a feature nested `levels` deep (1, 5 or 10) through `ifLet`, scoped down
/// level by level as a renderer would.
@MainActor
func leafStore(levels: Int) -> StoreOf<Counter> {
  switch levels {
  case 1:
    return StoreOf<L1>(initialState: L1.State()) { L1() }
      .scope(state: \.child!, action: \.child)
  case 5:
    return StoreOf<L5>(initialState: L5.State()) { L5() }
      .scope(state: \.child!, action: \.child)
      .scope(state: \.child!, action: \.child)
      .scope(state: \.child!, action: \.child)
      .scope(state: \.child!, action: \.child)
      .scope(state: \.child!, action: \.child)
  case 10:
    return ifLetLeaf(StoreOf<L10>(initialState: L10.State()) { L10() })
  default:
    preconditionFailure("no nesting of \(levels) levels; there are 1, 5 and 10")
  }
}

/// The ways ten levels can nest, each concrete (ten level types) and generic (one level type ten
/// times over).
enum Nesting: String, CaseIterable {
  case ifLet, scope, presentation, genericIfLet, genericScope, genericPresentation

  /// The root store and the counter's store at the bottom of ten levels, scoped down level by
  /// level as a renderer would. Whoever sends to the leaf keeps the root too, as an application
  /// does: the root keeps the stores between it and the leaf, whose work after each action (a
  /// presented child's store checks whether its child is still there) is part of the send.
  @MainActor
  func stores() -> (root: AnyObject, leaf: StoreOf<Counter>) {
    switch self {
    case .ifLet:
      let root = StoreOf<L10>(initialState: L10.State()) { L10() }
      return (root, ifLetLeaf(root))
    case .scope:
      let root = StoreOf<S10>(initialState: S10.State()) { S10() }
      return (root, scopeLeaf(root))
    case .presentation:
      let root = StoreOf<P10>(initialState: P10.State()) { P10() }
      return (root, presentedLeaf(root))
    case .genericIfLet:
      let root = StoreOf<GenericIfLet10>(initialState: makeGenericIfLet10State()) {
        makeGenericIfLet10()
      }
      return (root, ifLetLeaf(root))
    case .genericScope:
      let root = StoreOf<GenericScope10>(initialState: makeGenericScope10State()) {
        makeGenericScope10()
      }
      return (root, scopeLeaf(root))
    case .genericPresentation:
      let root = StoreOf<GenericPresent10>(initialState: makeGenericPresent10State()) {
        makeGenericPresent10()
      }
      return (root, presentedLeaf(root))
    }
  }
}

/// A store of `count` counter rows, ids 0 to `count - 1`.
@MainActor
func rowsStore(count: Int) -> StoreOf<Rows> {
  Store(
    initialState: Rows.State(
      rows: IdentifiedArray(uniqueElements: (0..<count).map { Rows.Row(id: $0) }))
  ) {
    Rows()
  }
}

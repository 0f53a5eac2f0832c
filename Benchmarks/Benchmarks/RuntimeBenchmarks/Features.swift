import ComposableCore
import ComposableFixtures
import ComposableTestSupport
import Foundation

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

/// `Rows` written in the modern style: observable state, the list's own edits beside its rows'.
/// Readers of `rows` hear of an edit only when the ids change, so each write of `rows` takes the
/// ids' identity before and after.
@Reducer
struct ObservedRows {
  @ObservableState
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State>
  }

  enum Action: Equatable {
    case rows(IdentifiedActionOf<Row>)
    /// The list changes a row itself: `state.rows[id: id]?.count += 1`.
    case bump(id: Int)
    case append(id: Int)
    case remove(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows: break
      case .bump(let id): state.rows[id: id]?.count += 1
      case .append(let id): state.rows.append(Row.State(id: id))
      case .remove(let id): state.rows.remove(id: id)
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Row() }
  }

  @Reducer
  struct Row {
    @ObservableState
    struct State: Equatable, Identifiable {
      let id: Int
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

/// A form, as TCA's examples write one: `BindingReducer` first, which looks at every action for
/// a binding.
@Reducer
struct Form {
  @ObservableState
  struct State: Equatable {
    var name = ""
    var taps = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case tapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .tapped = action { state.taps += 1 }
      return .none
    }
  }
}

/// The same form with its screen's actions in a `View` enum, sent as `.view(…)`, its bindings
/// among them (`BindingReducer(action: \.view)`). The enum is not `@CasePathable`, as a feature
/// that only scopes to the whole of it writes it.
@Reducer
struct ViewForm {
  typealias State = Form.State

  enum Action: ViewAction, Equatable {
    case view(View)

    enum View: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case tapped
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      if case .view(.tapped) = action { state.taps += 1 }
      return .none
    }
  }
}

/// `ViewForm` with its `View` enum `@CasePathable`, as a feature that sends `\.view.tapped`
/// writes it.
@Reducer
struct CasePathableViewForm {
  typealias State = Form.State

  enum Action: ViewAction, Equatable {
    case view(View)

    @CasePathable
    enum View: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case tapped
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      if case .view(.tapped) = action { state.taps += 1 }
      return .none
    }
  }
}

/// Rows that each start an effect that runs until cancelled, and a list cleared at once, as a
/// "clear completed" does.
@Reducer
struct ClearableRows {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Rows.Row>
  }

  enum Action: Equatable {
    case rows(IdentifiedAction<Int, Counter.Action>)
    case startAll
    case clear
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows: return .none
      case .startAll:
        return .merge(
          state.rows.ids.map { .send(.rows(.element(id: $0, action: .startLongLiving(1)))) })
      case .clear:
        state.rows.removeAll()
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) {
      Scope(state: \.counter, action: \.self) { Counter() }
    }
  }
}

/// Counter rows that the list itself adds and removes, as a list adds an item and deletes one.
@Reducer
struct EditedRows {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Rows.Row>
  }

  enum Action: Equatable {
    case rows(IdentifiedAction<Int, Counter.Action>)
    /// Adds a row with this id at this offset.
    case insert(id: Int, at: Int)
    case remove(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      Self.edit(&state, action)
      return .none
    }
    .forEach(\.rows, action: \.rows) {
      Scope(state: \.counter, action: \.self) { Counter() }
    }
  }

  static func edit(_ state: inout State, _ action: Action) {
    switch action {
    case .rows: break
    case .insert(let id, let offset): state.rows.insert(Rows.Row(id: id), at: offset)
    case .remove(let id): state.rows.remove(id: id)
    }
  }
}

/// The same edits with no `forEach`: what the identified array's own insert and remove cost.
@Reducer
struct EditedRowsAlone {
  typealias State = EditedRows.State
  typealias Action = EditedRows.Action

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    EditedRows.edit(&state, action)
    return .none
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
/// times over); and the floors under them, ten levels written by hand with no operator, their
/// children optional or presented (`HandWritten.swift`).
enum Nesting: String, CaseIterable {
  case ifLet, scope, presentation, genericIfLet, genericScope, genericPresentation
  case hand, handPresent
  case plainIfLet, plainGenericIfLet, casePathIfLet

  /// The root store and the counter's store at the bottom of ten levels, scoped down level by
  /// level as a renderer would. Whoever sends to the leaf keeps the root too, as an application
  /// does: the root keeps the stores between it and the leaf, whose work after each action (a
  /// presented child's store checks whether its child is still there) is part of the send.
  @MainActor
  func stores() -> (root: AnyObject, leaf: StoreOf<Counter>) {
    var kept = KeptStores()
    withStores(&kept)
    return (kept.root!, kept.leaf!)
  }

  /// Makes the root store and scopes the counter's store down from it, as `stores()` does, and
  /// hands both to `body` with the counter's `increment` as the root receives it.
  @MainActor
  func withStores(_ body: inout some NestingBody) {
    switch self {
    case .ifLet:
      let root = StoreOf<L10>(initialState: L10.State()) { L10() }
      body(root: root, leaf: ifLetLeaf(root), rootAction: ifLet10Increment)
    case .scope:
      let root = StoreOf<S10>(initialState: S10.State()) { S10() }
      body(root: root, leaf: scopeLeaf(root), rootAction: scope10Increment)
    case .presentation:
      let root = StoreOf<P10>(initialState: P10.State()) { P10() }
      body(root: root, leaf: presentedLeaf(root), rootAction: presented10(.increment))
    case .genericIfLet:
      let root = StoreOf<GenericIfLet10>(initialState: makeGenericIfLet10State()) {
        makeGenericIfLet10()
      }
      body(root: root, leaf: ifLetLeaf(root), rootAction: GenericIfLet10.embedding(.increment))
    case .genericScope:
      let root = StoreOf<GenericScope10>(initialState: makeGenericScope10State()) {
        makeGenericScope10()
      }
      body(root: root, leaf: scopeLeaf(root), rootAction: GenericScope10.embedding(.increment))
    case .genericPresentation:
      let root = StoreOf<GenericPresent10>(initialState: makeGenericPresent10State()) {
        makeGenericPresent10()
      }
      body(
        root: root, leaf: presentedLeaf(root), rootAction: GenericPresent10.embedding(.increment))
    case .hand:
      let root = StoreOf<Hand10>(initialState: .fullyNested) { Hand10.nested }
      body(root: root, leaf: handLeaf(root), rootAction: Hand10.embedding(.increment))
    case .handPresent:
      let root = StoreOf<HandPresent10>(initialState: .fullyNested) { HandPresent10.nested }
      body(
        root: root, leaf: handPresentedLeaf(root), rootAction: HandPresent10.embedding(.increment))
    case .plainIfLet:
      let root = StoreOf<PlainL10>(initialState: PlainL10.State()) { PlainL10() }
      body(root: root, leaf: ifLetLeaf(root), rootAction: plainIfLet10Increment)
    case .plainGenericIfLet:
      let root = StoreOf<PlainGenericIfLet10>(initialState: .fullyNested) {
        PlainGenericIfLet10.nested
      }
      body(root: root, leaf: ifLetLeaf(root), rootAction: PlainGenericIfLet10.embedding(.increment))
    case .casePathIfLet:
      let root = StoreOf<CasePathIfLet10>(initialState: .fullyNested) { CasePathIfLet10.nested }
      body(root: root, leaf: ifLetLeaf(root), rootAction: CasePathIfLet10.embedding(.increment))
    }
  }

  /// What `stores()` keeps of `withStores`.
  private struct KeptStores: NestingBody {
    var root: AnyObject?
    var leaf: StoreOf<Counter>?

    mutating func callAsFunction<State, Action>(
      root: Store<State, Action>, leaf: StoreOf<Counter>, rootAction: Action
    ) {
      self.root = root
      self.leaf = leaf
    }
  }
}

/// What is done with a nesting's stores, whichever its root's types (`Nesting.withStores`).
protocol NestingBody {
  /// Given the root store, the counter's store ten levels below it, and the counter's
  /// `increment` embedded ten levels deep, as the root receives it.
  @MainActor
  mutating func callAsFunction<State, Action>(
    root: Store<State, Action>, leaf: StoreOf<Counter>, rootAction: Action)
}

/// The counter's `increment` as `L10` receives it.
let ifLet10Increment: L10.Action = .child(
  .child(.child(.child(.child(.child(.child(.child(.child(.child(.increment))))))))))

/// Ten `Scope` levels in a feature's body, to which `ifLet` is applied from outside, as in
/// `SheetHost().ifLet(\.sheet, action: \.sheet) { Counter() }`.
@Reducer
struct SheetHost {
  struct State: Equatable {
    var main = S10.State()
    var sheet: Counter.State?
  }

  enum Action: Equatable {
    case main(S10.Action)
    case sheet(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.main, action: \.main) { S10() }
  }
}

/// The counter's `increment` as `S10` receives it.
let scope10Increment: S10.Action = .child(
  .child(.child(.child(.child(.child(.child(.child(.child(.child(.increment))))))))))

/// The counter's action as `P10` receives it, presented ten levels down.
func presented10(_ action: Counter.Action) -> P10.Action {
  let p1 = P1.Action.child(.presented(action))
  let p2 = P2.Action.child(.presented(p1))
  let p3 = P3.Action.child(.presented(p2))
  let p4 = P4.Action.child(.presented(p3))
  let p5 = P5.Action.child(.presented(p4))
  let p6 = P6.Action.child(.presented(p5))
  let p7 = P7.Action.child(.presented(p6))
  let p8 = P8.Action.child(.presented(p7))
  let p9 = P9.Action.child(.presented(p8))
  return P10.Action.child(.presented(p9))
}

/// A store of `count` counter rows that it adds to and removes from, ids 0 to `count - 1`.
@MainActor
func editedRowsStore(count: Int) -> StoreOf<EditedRows> {
  Store(
    initialState: EditedRows.State(
      rows: IdentifiedArray(uniqueElements: (0..<count).map { Rows.Row(id: $0) }))
  ) {
    EditedRows()
  }
}

/// A store of `count` observable rows, ids 0 to `count - 1`.
@MainActor
func observedRowsStore(count: Int) -> StoreOf<ObservedRows> {
  Store(
    initialState: ObservedRows.State(
      rows: IdentifiedArray(uniqueElements: (0..<count).map { ObservedRows.Row.State(id: $0) }))
  ) {
    ObservedRows()
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

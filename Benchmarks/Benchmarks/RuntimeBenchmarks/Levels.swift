import ComposableCore
import ComposableFixtures

// The nesting benchmarks' levels, written as feature code is (`@Reducer`). Ten concrete levels,
// generated, for each way of nesting a child — `ifLet` (L1–L10), `Scope` (S1–S10) and
// presentation with `@Presents` (P1–P10), level 1 just above the counter — and one generic level
// for each (`IfLetLevel<Child>`, `ScopeLevel<Child>`, `PresentLevel<Child>`), nested ten deep
// and built from their types (`Nested`, `FullyNested` at the end).

/// Level 1 of the nesting through an `ifLet`.
@Reducer
struct L1 {
  struct State: Equatable {
    var count = 0
    var child: Counter.State? = Counter.State()
  }

  enum Action: Equatable {
    case increment
    case child(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}

/// Level 2 of the nesting through an `ifLet`.
@Reducer
struct L2 {
  struct State: Equatable {
    var count = 0
    var child: L1.State? = L1.State()
  }

  enum Action: Equatable {
    case increment
    case child(L1.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L1() }
  }
}

/// Level 3 of the nesting through an `ifLet`.
@Reducer
struct L3 {
  struct State: Equatable {
    var count = 0
    var child: L2.State? = L2.State()
  }

  enum Action: Equatable {
    case increment
    case child(L2.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L2() }
  }
}

/// Level 4 of the nesting through an `ifLet`.
@Reducer
struct L4 {
  struct State: Equatable {
    var count = 0
    var child: L3.State? = L3.State()
  }

  enum Action: Equatable {
    case increment
    case child(L3.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L3() }
  }
}

/// Level 5 of the nesting through an `ifLet`.
@Reducer
struct L5 {
  struct State: Equatable {
    var count = 0
    var child: L4.State? = L4.State()
  }

  enum Action: Equatable {
    case increment
    case child(L4.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L4() }
  }
}

/// Level 6 of the nesting through an `ifLet`.
@Reducer
struct L6 {
  struct State: Equatable {
    var count = 0
    var child: L5.State? = L5.State()
  }

  enum Action: Equatable {
    case increment
    case child(L5.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L5() }
  }
}

/// Level 7 of the nesting through an `ifLet`.
@Reducer
struct L7 {
  struct State: Equatable {
    var count = 0
    var child: L6.State? = L6.State()
  }

  enum Action: Equatable {
    case increment
    case child(L6.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L6() }
  }
}

/// Level 8 of the nesting through an `ifLet`.
@Reducer
struct L8 {
  struct State: Equatable {
    var count = 0
    var child: L7.State? = L7.State()
  }

  enum Action: Equatable {
    case increment
    case child(L7.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L7() }
  }
}

/// Level 9 of the nesting through an `ifLet`.
@Reducer
struct L9 {
  struct State: Equatable {
    var count = 0
    var child: L8.State? = L8.State()
  }

  enum Action: Equatable {
    case increment
    case child(L8.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L8() }
  }
}

/// Level 10 of the nesting through an `ifLet`.
@Reducer
struct L10 {
  struct State: Equatable {
    var count = 0
    var child: L9.State? = L9.State()
  }

  enum Action: Equatable {
    case increment
    case child(L9.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L9() }
  }
}

/// Level 1 of the nesting through a `Scope`.
@Reducer
struct S1 {
  struct State: Equatable {
    var count = 0
    var child = Counter.State()
  }

  enum Action: Equatable {
    case increment
    case child(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { Counter() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 2 of the nesting through a `Scope`.
@Reducer
struct S2 {
  struct State: Equatable {
    var count = 0
    var child = S1.State()
  }

  enum Action: Equatable {
    case increment
    case child(S1.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S1() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 3 of the nesting through a `Scope`.
@Reducer
struct S3 {
  struct State: Equatable {
    var count = 0
    var child = S2.State()
  }

  enum Action: Equatable {
    case increment
    case child(S2.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S2() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 4 of the nesting through a `Scope`.
@Reducer
struct S4 {
  struct State: Equatable {
    var count = 0
    var child = S3.State()
  }

  enum Action: Equatable {
    case increment
    case child(S3.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S3() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 5 of the nesting through a `Scope`.
@Reducer
struct S5 {
  struct State: Equatable {
    var count = 0
    var child = S4.State()
  }

  enum Action: Equatable {
    case increment
    case child(S4.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S4() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 6 of the nesting through a `Scope`.
@Reducer
struct S6 {
  struct State: Equatable {
    var count = 0
    var child = S5.State()
  }

  enum Action: Equatable {
    case increment
    case child(S5.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S5() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 7 of the nesting through a `Scope`.
@Reducer
struct S7 {
  struct State: Equatable {
    var count = 0
    var child = S6.State()
  }

  enum Action: Equatable {
    case increment
    case child(S6.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S6() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 8 of the nesting through a `Scope`.
@Reducer
struct S8 {
  struct State: Equatable {
    var count = 0
    var child = S7.State()
  }

  enum Action: Equatable {
    case increment
    case child(S7.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S7() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 9 of the nesting through a `Scope`.
@Reducer
struct S9 {
  struct State: Equatable {
    var count = 0
    var child = S8.State()
  }

  enum Action: Equatable {
    case increment
    case child(S8.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S8() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 10 of the nesting through a `Scope`.
@Reducer
struct S10 {
  struct State: Equatable {
    var count = 0
    var child = S9.State()
  }

  enum Action: Equatable {
    case increment
    case child(S9.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { S9() }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// Level 1 of the nesting through presentation.
@Reducer
struct P1 {
  struct State: Equatable {
    var count = 0
    @Presents var child: Counter.State? = Counter.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<Counter.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Counter() }
  }
}

/// `P1` with its child behind the `@PresentationState` wrapper, as features written before
/// `@Presents` declare it: `ifLet(\.$child, …)` names the wrapper's computed projection.
@Reducer
struct WrappedP1 {
  struct State: Equatable {
    var count = 0
    @PresentationState var child: Counter.State? = Counter.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<Counter.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Counter() }
  }
}

/// Level 2 of the nesting through presentation.
@Reducer
struct P2 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P1.State? = P1.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P1.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P1() }
  }
}

/// Level 3 of the nesting through presentation.
@Reducer
struct P3 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P2.State? = P2.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P2.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P2() }
  }
}

/// Level 4 of the nesting through presentation.
@Reducer
struct P4 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P3.State? = P3.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P3.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P3() }
  }
}

/// Level 5 of the nesting through presentation.
@Reducer
struct P5 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P4.State? = P4.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P4.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P4() }
  }
}

/// Level 6 of the nesting through presentation.
@Reducer
struct P6 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P5.State? = P5.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P5.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P5() }
  }
}

/// Level 7 of the nesting through presentation.
@Reducer
struct P7 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P6.State? = P6.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P6.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P6() }
  }
}

/// Level 8 of the nesting through presentation.
@Reducer
struct P8 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P7.State? = P7.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P7.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P7() }
  }
}

/// Level 9 of the nesting through presentation.
@Reducer
struct P9 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P8.State? = P8.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P8.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P8() }
  }
}

/// Level 10 of the nesting through presentation.
@Reducer
struct P10 {
  struct State: Equatable {
    var count = 0
    @Presents var child: P9.State? = P9.State()
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<P9.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { P9() }
  }
}

/// A generic level of the nesting through an `ifLet`.
@Reducer
struct IfLetLevel<Child: Reducer> where Child.State: Equatable, Child.Action: Equatable {
  struct State: Equatable {
    var count = 0
    var child: Child.State?
  }

  enum Action: Equatable {
    case increment
    case child(Child.Action)
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { child }
  }
}

/// A generic level of the nesting through a `Scope`.
@Reducer
struct ScopeLevel<Child: Reducer> where Child.State: Equatable, Child.Action: Equatable {
  struct State: Equatable {
    var count = 0
    var child: Child.State
  }

  enum Action: Equatable {
    case increment
    case child(Child.Action)
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { child }
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
  }
}

/// A generic level of the nesting through presentation.
@Reducer
struct PresentLevel<Child: Reducer> where Child.State: Equatable, Child.Action: Equatable {
  struct State: Equatable {
    var count = 0
    @Presents var child: Child.State?
  }

  enum Action: Equatable {
    case increment
    case child(PresentationAction<Child.Action>)
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$child, action: \.child) { child }
  }
}

/// Ten generic `IfLetLevel`s around the counter.
typealias GenericIfLet10 = IfLetLevel<
  IfLetLevel<
    IfLetLevel<
      IfLetLevel<IfLetLevel<IfLetLevel<IfLetLevel<IfLetLevel<IfLetLevel<IfLetLevel<Counter>>>>>>>
    >
  >
>

/// Ten generic levels around the counter.
func makeGenericIfLet10() -> GenericIfLet10 { .nested }

/// The state of `GenericIfLet10`, every level present.
func makeGenericIfLet10State() -> GenericIfLet10.State { .fullyNested }

/// Ten generic `ScopeLevel`s around the counter.
typealias GenericScope10 = ScopeLevel<
  ScopeLevel<
    ScopeLevel<
      ScopeLevel<ScopeLevel<ScopeLevel<ScopeLevel<ScopeLevel<ScopeLevel<ScopeLevel<Counter>>>>>>>
    >
  >
>

/// Ten generic levels around the counter.
func makeGenericScope10() -> GenericScope10 { .nested }

/// The state of `GenericScope10`, every level present.
func makeGenericScope10State() -> GenericScope10.State { .fullyNested }

/// Ten generic `PresentLevel`s around the counter.
typealias GenericPresent10 = PresentLevel<
  PresentLevel<
    PresentLevel<
      PresentLevel<
        PresentLevel<PresentLevel<PresentLevel<PresentLevel<PresentLevel<PresentLevel<Counter>>>>>>
      >
    >
  >
>

/// Ten generic levels around the counter.
func makeGenericPresent10() -> GenericPresent10 { .nested }

/// The state of `GenericPresent10`, every level present.
func makeGenericPresent10State() -> GenericPresent10.State { .fullyNested }

/// The counter's store ten levels below a `L10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func ifLetLeaf(_ store: StoreOf<L10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child!, action: \.child)
  let level8 = level9.scope(state: \.child!, action: \.child)
  let level7 = level8.scope(state: \.child!, action: \.child)
  let level6 = level7.scope(state: \.child!, action: \.child)
  let level5 = level6.scope(state: \.child!, action: \.child)
  let level4 = level5.scope(state: \.child!, action: \.child)
  let level3 = level4.scope(state: \.child!, action: \.child)
  let level2 = level3.scope(state: \.child!, action: \.child)
  let level1 = level2.scope(state: \.child!, action: \.child)
  return level1.scope(state: \.child!, action: \.child)
}

/// The counter's store ten levels below a `L10` store, each step scoped to the optional child as
/// a screen shows it (`if let child = store.scope(state: \.child, action: \.child)`).
@MainActor
func ifLetOptionalLeaf(_ store: StoreOf<L10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child, action: \.child)!
  let level8 = level9.scope(state: \.child, action: \.child)!
  let level7 = level8.scope(state: \.child, action: \.child)!
  let level6 = level7.scope(state: \.child, action: \.child)!
  let level5 = level6.scope(state: \.child, action: \.child)!
  let level4 = level5.scope(state: \.child, action: \.child)!
  let level3 = level4.scope(state: \.child, action: \.child)!
  let level2 = level3.scope(state: \.child, action: \.child)!
  let level1 = level2.scope(state: \.child, action: \.child)!
  return level1.scope(state: \.child, action: \.child)!
}

/// The counter's store ten levels below a `GenericIfLet10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func ifLetLeaf(_ store: StoreOf<GenericIfLet10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child!, action: \.child)
  let level8 = level9.scope(state: \.child!, action: \.child)
  let level7 = level8.scope(state: \.child!, action: \.child)
  let level6 = level7.scope(state: \.child!, action: \.child)
  let level5 = level6.scope(state: \.child!, action: \.child)
  let level4 = level5.scope(state: \.child!, action: \.child)
  let level3 = level4.scope(state: \.child!, action: \.child)
  let level2 = level3.scope(state: \.child!, action: \.child)
  let level1 = level2.scope(state: \.child!, action: \.child)
  return level1.scope(state: \.child!, action: \.child)
}

/// The counter's store ten levels below a `S10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func scopeLeaf(_ store: StoreOf<S10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child, action: \.child)
  let level8 = level9.scope(state: \.child, action: \.child)
  let level7 = level8.scope(state: \.child, action: \.child)
  let level6 = level7.scope(state: \.child, action: \.child)
  let level5 = level6.scope(state: \.child, action: \.child)
  let level4 = level5.scope(state: \.child, action: \.child)
  let level3 = level4.scope(state: \.child, action: \.child)
  let level2 = level3.scope(state: \.child, action: \.child)
  let level1 = level2.scope(state: \.child, action: \.child)
  return level1.scope(state: \.child, action: \.child)
}

/// The counter's store ten levels below a `GenericScope10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func scopeLeaf(_ store: StoreOf<GenericScope10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child, action: \.child)
  let level8 = level9.scope(state: \.child, action: \.child)
  let level7 = level8.scope(state: \.child, action: \.child)
  let level6 = level7.scope(state: \.child, action: \.child)
  let level5 = level6.scope(state: \.child, action: \.child)
  let level4 = level5.scope(state: \.child, action: \.child)
  let level3 = level4.scope(state: \.child, action: \.child)
  let level2 = level3.scope(state: \.child, action: \.child)
  let level1 = level2.scope(state: \.child, action: \.child)
  return level1.scope(state: \.child, action: \.child)
}

/// The counter's store ten levels below a `P10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func presentedLeaf(_ store: StoreOf<P10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child, action: \.child)!
  let level8 = level9.scope(state: \.child, action: \.child)!
  let level7 = level8.scope(state: \.child, action: \.child)!
  let level6 = level7.scope(state: \.child, action: \.child)!
  let level5 = level6.scope(state: \.child, action: \.child)!
  let level4 = level5.scope(state: \.child, action: \.child)!
  let level3 = level4.scope(state: \.child, action: \.child)!
  let level2 = level3.scope(state: \.child, action: \.child)!
  let level1 = level2.scope(state: \.child, action: \.child)!
  return level1.scope(state: \.child, action: \.child)!
}

/// The counter's store ten levels below a `GenericPresent10` store, one scope per step so each step's
/// types are inferred on their own.
@MainActor
func presentedLeaf(_ store: StoreOf<GenericPresent10>) -> StoreOf<Counter> {
  let level9 = store.scope(state: \.child, action: \.child)!
  let level8 = level9.scope(state: \.child, action: \.child)!
  let level7 = level8.scope(state: \.child, action: \.child)!
  let level6 = level7.scope(state: \.child, action: \.child)!
  let level5 = level6.scope(state: \.child, action: \.child)!
  let level4 = level5.scope(state: \.child, action: \.child)!
  let level3 = level4.scope(state: \.child, action: \.child)!
  let level2 = level3.scope(state: \.child, action: \.child)!
  let level1 = level2.scope(state: \.child, action: \.child)!
  return level1.scope(state: \.child, action: \.child)!
}

/// A reducer that can make itself with every child it nests: the generic nesting benchmarks'
/// ten levels, built by their types instead of spelled out.
protocol Nested: Reducer {
  static var nested: Self { get }
  /// The counter's action as this level receives it from its parent.
  static func embedding(_ action: Counter.Action) -> Action
}

/// State with every level present.
protocol FullyNested {
  static var fullyNested: Self { get }
}

extension Counter: Nested {
  static var nested: Self { Counter() }
  static func embedding(_ action: Action) -> Action { action }
}

extension Counter.State: FullyNested {
  static var fullyNested: Self { Self() }
}

extension IfLetLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action { .child(Child.embedding(action)) }
}

extension IfLetLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

extension ScopeLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action { .child(Child.embedding(action)) }
}

extension ScopeLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

extension PresentLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action {
    .child(.presented(Child.embedding(action)))
  }
}

extension PresentLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

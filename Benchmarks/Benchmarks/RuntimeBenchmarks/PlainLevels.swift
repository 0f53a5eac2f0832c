import ComposableCore
import ComposableFixtures

// The nesting benchmarks' `ifLet` levels written as TCA 1.4–1.6 code wrote them, before
// `@Reducer`: a struct conforming to `Reducer` with a `body`, its action `@CasePathable`. Ten
// concrete levels (PlainL1–PlainL10), one generic level nested ten deep
// (`PlainIfLetLevel<Child>`), and one generic level reaching its child's actions through an
// `AnyCasePath` as TCA 1.0–1.3 code did (`CasePathIfLetLevel<Child>`).

/// Level 1 of the plain-conformance nesting through an `ifLet`.
struct PlainL1: Reducer {
  struct State: Equatable {
    var count = 0
    var child: Counter.State? = Counter.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(Counter.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}

/// Level 2 of the plain-conformance nesting through an `ifLet`.
struct PlainL2: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL1.State? = PlainL1.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL1.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL1() }
  }
}

/// Level 3 of the plain-conformance nesting through an `ifLet`.
struct PlainL3: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL2.State? = PlainL2.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL2.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL2() }
  }
}

/// Level 4 of the plain-conformance nesting through an `ifLet`.
struct PlainL4: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL3.State? = PlainL3.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL3.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL3() }
  }
}

/// Level 5 of the plain-conformance nesting through an `ifLet`.
struct PlainL5: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL4.State? = PlainL4.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL4.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL4() }
  }
}

/// Level 6 of the plain-conformance nesting through an `ifLet`.
struct PlainL6: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL5.State? = PlainL5.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL5.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL5() }
  }
}

/// Level 7 of the plain-conformance nesting through an `ifLet`.
struct PlainL7: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL6.State? = PlainL6.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL6.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL6() }
  }
}

/// Level 8 of the plain-conformance nesting through an `ifLet`.
struct PlainL8: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL7.State? = PlainL7.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL7.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL7() }
  }
}

/// Level 9 of the plain-conformance nesting through an `ifLet`.
struct PlainL9: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL8.State? = PlainL8.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL8.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL8() }
  }
}

/// Level 10 of the plain-conformance nesting through an `ifLet`.
struct PlainL10: Reducer {
  struct State: Equatable {
    var count = 0
    var child: PlainL9.State? = PlainL9.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(PlainL9.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { PlainL9() }
  }
}

/// A generic level of the plain-conformance nesting through an `ifLet`.
struct PlainIfLetLevel<Child: Reducer>: Reducer
where Child.State: Equatable, Child.Action: Equatable {
  struct State: Equatable {
    var count = 0
    var child: Child.State?
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(Child.Action)
  }

  let child: Child

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { child }
  }
}

/// A generic level reaching its child's actions through an `AnyCasePath`, as TCA 1.0–1.3 code
/// wrote `action: /Action.child`; the case path is spelled out, as `/` reads the enum's layout.
struct CasePathIfLetLevel<Child: Reducer>: Reducer
where Child.State: Equatable, Child.Action: Equatable {
  struct State: Equatable {
    var count = 0
    var child: Child.State?
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(Child.Action)
  }

  let child: Child

  static var childAction: AnyCasePath<Action, Child.Action> {
    AnyCasePath(
      embed: Action.child,
      extract: { if case .child(let action) = $0 { action } else { nil } }
    )
  }

  @available(*, deprecated, message: "The AnyCasePath form of ifLet, measured on purpose")
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: Self.childAction) { child }
  }
}

/// Ten generic `PlainIfLetLevel`s around the counter.
typealias PlainGenericIfLet10 = PlainIfLetLevel<
  PlainIfLetLevel<
    PlainIfLetLevel<
      PlainIfLetLevel<
        PlainIfLetLevel<
          PlainIfLetLevel<
            PlainIfLetLevel<PlainIfLetLevel<PlainIfLetLevel<PlainIfLetLevel<Counter>>>>
          >
        >
      >
    >
  >
>

/// Ten generic `CasePathIfLetLevel`s around the counter.
typealias CasePathIfLet10 = CasePathIfLetLevel<
  CasePathIfLetLevel<
    CasePathIfLetLevel<
      CasePathIfLetLevel<
        CasePathIfLetLevel<
          CasePathIfLetLevel<
            CasePathIfLetLevel<
              CasePathIfLetLevel<CasePathIfLetLevel<CasePathIfLetLevel<Counter>>>
            >
          >
        >
      >
    >
  >
>

extension PlainIfLetLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action { .child(Child.embedding(action)) }
}

extension PlainIfLetLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

extension CasePathIfLetLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action { .child(Child.embedding(action)) }
}

extension CasePathIfLetLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

/// The counter's `increment` as `PlainL10` receives it.
let plainIfLet10Increment: PlainL10.Action = .child(
  .child(.child(.child(.child(.child(.child(.child(.child(.child(.increment))))))))))

/// The counter's store ten levels below a `PlainL10` store, scoped as `ifLetLeaf` scopes.
@MainActor
func ifLetLeaf(_ store: StoreOf<PlainL10>) -> StoreOf<Counter> {
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

/// The counter's store ten levels below a `PlainGenericIfLet10` store.
@MainActor
func ifLetLeaf(_ store: StoreOf<PlainGenericIfLet10>) -> StoreOf<Counter> {
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

/// The counter's store ten levels below a `CasePathIfLet10` store.
@MainActor
func ifLetLeaf(_ store: StoreOf<CasePathIfLet10>) -> StoreOf<Counter> {
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

import ComposableCore
import ComposableFixtures

// The floor under the nesting targets: a level written by hand, with no operator. Its reducer
// switches on its own action and changes its child's state in place, so the optimiser sees
// every step: no case key path resolved to functions, no key path to the child, no operator
// between the levels. What a level of `ifLet` costs above this is what reaching the child
// through a case key path and a key path, as TCA's API has a feature write them, costs.

/// A level that runs its optional child by hand.
struct HandLevel<Child: Reducer>: Reducer {
  struct State {
    var count = 0
    var child: Child.State?
  }

  // Case paths only for the stores scoped down to the counter (`hand`), with the accessors
  // `@Reducer` would add; the reducer itself switches.
  @CasePathable @_CaseAccessors
  enum Action {
    case increment
    case child(Child.Action)
  }

  let child: Child

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .child(let childAction):
      guard state.child != nil else { return .none }
      return child.reduce(into: &state.child!, action: childAction).map(Action.child)
    }
  }
}

typealias Hand10 = HandLevel<
  HandLevel<
    HandLevel<HandLevel<HandLevel<HandLevel<HandLevel<HandLevel<HandLevel<HandLevel<Counter>>>>>>>>
  >
>

/// The counter's store ten levels below a `Hand10` store, scoped as `ifLetLeaf` scopes: what
/// the scoped stores add to hand-written levels, sent from the leaf.
@MainActor
func handLeaf(_ store: StoreOf<Hand10>) -> StoreOf<Counter> {
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

/// A level that presents its optional child by hand: its action wraps the child's in
/// `PresentationAction`, whose `.presented` case is `indirect`, as TCA's is, so that a feature can
/// present itself. The floor under the presentation target: the boxes, without the operator.
struct HandPresentLevel<Child: Reducer>: Reducer {
  struct State {
    var count = 0
    var child: Child.State?
  }

  @CasePathable @_CaseAccessors
  enum Action {
    case increment
    case child(PresentationAction<Child.Action>)
  }

  let child: Child

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .child(.presented(let childAction)):
      guard state.child != nil else { return .none }
      return child.reduce(into: &state.child!, action: childAction).map {
        .child(.presented($0))
      }
    case .child(.dismiss):
      state.child = nil
      return .none
    }
  }
}

typealias HandPresent10 = HandPresentLevel<
  HandPresentLevel<
    HandPresentLevel<
      HandPresentLevel<
        HandPresentLevel<
          HandPresentLevel<
            HandPresentLevel<HandPresentLevel<HandPresentLevel<HandPresentLevel<Counter>>>>
          >
        >
      >
    >
  >
>

/// The counter's store ten levels below a `HandPresent10` store, each step scoped to the
/// presented child as `presentedLeaf` scopes.
@MainActor
func handPresentedLeaf(_ store: StoreOf<HandPresent10>) -> StoreOf<Counter> {
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

// Built by their types, as the generic nestings are (`Nested`, `FullyNested` in `Levels.swift`).

extension HandLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action { .child(Child.embedding(action)) }
}

extension HandLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

extension HandPresentLevel: Nested where Child: Nested {
  static var nested: Self { Self(child: .nested) }
  static func embedding(_ action: Counter.Action) -> Action {
    .child(.presented(Child.embedding(action)))
  }
}

extension HandPresentLevel.State: FullyNested where Child.State: FullyNested {
  static var fullyNested: Self { Self(child: .fullyNested) }
}

import ComposableCore
import ComposableTestSupport
import Testing

/// `BindingReducer` finds the binding case once, through the case accessors `@Reducer`
/// generates, by checking which case `binding(_:)` embeds into; an enum without them is read
/// through a case path made by reflection, once.
@MainActor
struct BindingReducerTests {
  @Test func onlyTheCaseThatBindingEmbedsIntoIsApplied() async {
    let store = TestStore(initialState: TwoBindings.State()) { TwoBindings() }
    // `.draft` holds a binding action too, and comes first; the reducer does not apply it.
    await store.send(.draft(.set(\.name, "draft")))
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.name = "Blob"
    }
    await store.send(.rename) {
      $0.renames = 1
    }
  }

  @Test func aCaseNamedOtherwiseIsFoundThroughItsEmbedding() async {
    let store = TestStore(initialState: TwoBindings.State()) { RenamedBinding() }
    await store.send(.edit(.set(\.name, "Blob"))) {
      $0.name = "Blob"
    }
    await store.send(.tapped)
  }

  @Test func aViewEnumInsideTheActionHasItsOwnAccessors() async {
    let view: Any.Type = ViewBindings.Action.View.self
    let plain: Any.Type = ViewBindings.Action.Plain.self
    #expect(view is any _CaseAccessible.Type)
    #expect(!(plain is any _CaseAccessible.Type))
    let store = TestStore(initialState: TwoBindings.State()) { ViewBindings() }
    await store.send(.view(.binding(.set(\.name, "Blob")))) {
      $0.name = "Blob"
    }
    await store.send(.view(.tapped))
  }

  @Test func bindingsApplyToAnEnumWithoutAccessors() async {
    let store = TestStore(initialState: TwoBindings.State()) {
      BindingReducer<TwoBindings.State, PlainBindable, PlainBindable>()
    }
    await store.send(.binding(.set(\.name, "Blob"))) {
      $0.name = "Blob"
    }
    await store.send(.tapped)
  }

  // A binding a store sends that no reducer applies is a feature missing its `BindingReducer`.
  @Test func anUnappliedStoreBindingIsReported() {
    let store = Store(initialState: TwoBindings.State()) {
      Reduce<TwoBindings.State, TwoBindings.Action> { _, _ in .none }
    }
    withKnownIssue {
      store.name = "Blob"
    } matching: { issue in
      issue.description.contains("no reducer applied it")
        && issue.description.contains(#""Blob""#)
    }
    #expect(store.name == "")
  }

  @Test func anAppliedStoreBindingIsNotReported() {
    let store = Store(initialState: TwoBindings.State()) { TwoBindings() }
    store.name = "Blob"
    store.binding(\.name).wrappedValue = "Blob!"
    #expect(store.name == "Blob!")
    let viewStore = Store(initialState: TwoBindings.State()) { ViewBindings() }
    viewStore.name = "Blob"
    #expect(viewStore.name == "Blob")
  }

  // Sent from an observer while the store is busy, the action waits in the queue; it is judged
  // once let go of, after the reducer that applies it has run.
  @Test func aQueuedStoreBindingIsJudgedWhenApplied() {
    let store = Store(initialState: TwoBindings.State()) { TwoBindings() }
    withObservationTracking {
      _ = store.renames
    } onChange: {
      MainActor.assumeIsolated { store.name = "queued" }
    }
    withKnownIssue {
      store.send(.rename)
    } matching: { issue in
      // Only the reentrancy, which TCA reports too; the binding is applied.
      issue.description.contains("Reentrant")
    }
    #expect(store.name == "queued")
    #expect(store.renames == 1)
  }
}

@Reducer
struct TwoBindings {
  @ObservableState
  struct State: Equatable {
    var name = ""
    var renames = 0
  }

  enum Action: BindableAction, Equatable {
    case draft(BindingAction<State>)
    case binding(BindingAction<State>)
    case rename
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .rename = action { state.renames += 1 }
      return .none
    }
  }
}

/// A bindable action whose binding case has another name, as `binding(_:)` says.
@Reducer
struct RenamedBinding {
  typealias State = TwoBindings.State

  enum Action: BindableAction, Equatable {
    case tapped
    case edit(BindingAction<State>)

    static func binding(_ action: BindingAction<State>) -> Self { .edit(action) }

    var binding: BindingAction<State>? {
      if case .edit(let action) = self { action } else { nil }
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

/// Bindings in a `@CasePathable` `View` enum declared in the action, which `@Reducer`'s case
/// accessors reach too; an enum without the attribute is left alone.
@Reducer
struct ViewBindings {
  typealias State = TwoBindings.State

  enum Action: ViewAction, Equatable {
    case view(View)

    @CasePathable
    enum View: BindableAction, Equatable {
      case binding(BindingAction<State>)
      case tapped
    }

    enum Plain: Equatable {
      case a
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
  }
}

/// A bindable action written by hand, without `@Reducer`'s case accessors.
enum PlainBindable: BindableAction, Equatable {
  case binding(BindingAction<TwoBindings.State>)
  case tapped
}

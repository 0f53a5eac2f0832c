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

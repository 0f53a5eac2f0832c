// The binding and view store API of TCA 1.0–1.6, which most TCA apps still contain and TCA
// deprecates: `@BindingState` fields set by `.set(\.$field, …)`, and a `ViewStore` observing
// part of the state, with `@BindingViewState` bindings and a publisher. Each scenario is a
// deprecated witness of `LegacyStep.run` (see LegacyFormsTests.swift), so the tests build
// without deprecation warnings.
import ComposableTestSupport
import Foundation
import OpenCombineShim
import Testing

@available(*, deprecated, message: "Uses @BindingState")
@Reducer
struct Profile1_6 {
  struct State: Equatable {
    @BindingState var name = ""
    @BindingState var details = Details()
    var edits = 0

    struct Details: Equatable {
      var bio = ""
      var isPublic = false
    }
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case resetTapped
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.$name):
        state.name = state.name.trimmingCharacters(in: .whitespaces)
        state.edits += 1
        return .none
      case .binding:
        state.edits += 1
        return .none
      case .resetTapped:
        state = State()
        return .none
      }
    }
  }
}

/// The binding actions of `@BindingState` fields, as a test store asserts them.
struct BindingStateActions: LegacyStep {}

@available(*, deprecated, message: "Uses @BindingState")
extension BindingStateActions {
  @MainActor
  func run() async {
    let store = TestStore(initialState: Profile1_6.State()) { Profile1_6() }
    await store.send(.binding(.set(\.$name, "  Ada "))) {
      $0.name = "Ada"
      $0.edits = 1
    }
    await store.send(.set(\.$details, .init(bio: "Engines", isPublic: true))) {
      $0.details = .init(bio: "Engines", isPublic: true)
      $0.edits = 2
    }
    await store.send(\.binding.$name, "Grace") {
      $0.name = "Grace"
      $0.edits = 3
    }
    #expect(
      Profile1_6.Action.binding(.set(\.$name, "x")) == .binding(.set(\.$name, "x"))
    )
    #expect(
      Profile1_6.Action.binding(.set(\.$name, "x")) != .binding(.set(\.$name, "y"))
    )
    let name: String? = Profile1_6.Action.binding(.set(\.$name, "x"))[case: \.binding.$name]
    #expect(name == "x")
  }
}

/// A view store observing the whole state, writing fields through its bindings.
struct WholeStateViewStore: LegacyStep {}

@available(*, deprecated, message: "Uses ViewStore")
extension WholeStateViewStore {
  @MainActor
  func run() async {
    let store = Store(initialState: Profile1_6.State()) { Profile1_6() }
    let viewStore = ViewStore(store, observe: { $0 })
    viewStore.$name.wrappedValue = " Ada "
    viewStore.$details.bio.wrappedValue = "Engines"
    #expect(viewStore.name == "Ada")
    #expect(viewStore.details.bio == "Engines")
    #expect(viewStore.edits == 2)
    viewStore.send(.resetTapped)
    #expect(viewStore.state == Profile1_6.State())
  }
}

/// A view store of a view state with `@BindingViewState` fields, its publisher, and its
/// `objectWillChange`, which fire only when the observed view state changes.
struct BindingViewStateViewStore: LegacyStep {}

@available(*, deprecated, message: "Uses ViewStore")
extension BindingViewStateViewStore {
  struct ViewState: Equatable {
    @BindingViewState var name: String
    @BindingViewState var bio: String
  }

  @MainActor
  func run() async {
    let store = Store(initialState: Profile1_6.State()) { Profile1_6() }
    let viewStore = ViewStore(
      store, observe: { ViewState(name: $0.$name, bio: $0.$details.bio) }
    )
    var published: [String] = []
    var willChange = 0
    let cancellables = [
      viewStore.publisher.name.sink { published.append($0) },
      viewStore.objectWillChange.sink { willChange += 1 },
    ]
    viewStore.$name.wrappedValue = "Ada"
    viewStore.$bio.wrappedValue = "Engines"
    // Toggling a field the view state leaves out is no change to it.
    store.send(.binding(.set(\.$details.isPublic, true)))
    #expect(viewStore.name == "Ada")
    #expect(store.withState(\.details) == .init(bio: "Engines", isPublic: true))
    #expect(published == ["", "Ada"])
    #expect(willChange == 2)
    _ = cancellables
  }
}

/// A view store a screen waits on, as a pull to refresh does: `send(_:while:)` returns once
/// the state says the work is done.
struct WaitingViewStore: LegacyStep {}

@available(*, deprecated, message: "Uses ViewStore")
extension WaitingViewStore {
  enum Action { case refresh, loaded }

  /// Holds a view store for a task on another thread to let go of.
  final class Holder: @unchecked Sendable {
    var viewStore: ViewStore<Bool, Action>?
  }

  @MainActor
  func run() async {
    let store = Store(initialState: false) {
      Reduce<Bool, Action> { isLoading, action in
        switch action {
        case .refresh:
          isLoading = true
          return .run { send in await send(.loaded) }
        case .loaded:
          isLoading = false
          return .none
        }
      }
    }
    let viewStore = ViewStore(store, observe: { $0 })
    await viewStore.send(.refresh, while: { $0 })
    #expect(viewStore.state == false)
    // Nothing to wait for: it returns at once.
    await viewStore.yield(while: { $0 })

    // Let go of on another thread, a view store cancels its subscription to the store there.
    // That cancellation was the main actor's, and crashed anywhere else.
    let holder = Holder()
    holder.viewStore = ViewStore(store, observe: { $0 })
    await Task.detached { holder.viewStore = nil }.value
    store.send(.refresh)
    #expect(store.state == true)
  }
}

@MainActor
struct ViewStoreTests {
  @Test
  func bindingStateFieldsAreSetByTheirProjection() async {
    await run(BindingStateActions())
  }

  @Test
  func aViewStoreOfTheWholeStateWritesThroughItsBindings() async {
    await run(WholeStateViewStore())
  }

  @Test
  func aBindingViewStorePublishesOnlyWhatItObserves() async {
    await run(BindingViewStateViewStore())
  }

  @Test
  func aViewStoreWaitsWhileTheStateHolds() async {
    await run(WaitingViewStore())
  }
}

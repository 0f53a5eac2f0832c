#if canImport(OpenCombineShim)
  @preconcurrency import OpenCombineShim
#endif

/// TCA 1.0–1.6's view of a store, which most TCA apps still contain: the part of the state a view
/// observes (`observe:`), the actions it sends (`send:`), bindings, and a publisher of its
/// states. New code reads an `@ObservableState` store directly.
///
/// `state` is read from the store each time, so it is never stale; `removeDuplicates` decides
/// when ``publisher`` publishes and, with Combine, when `objectWillChange` fires.
@available(*, deprecated, message: "Use an '@ObservableState' store instead.")
@MainActor
@dynamicMemberLookup
public final class ViewStore<ViewState, ViewAction> {
  private let readState: @MainActor () -> ViewState
  private let sendAction: @MainActor (ViewAction) -> StoreTask
  /// The store observed, kept alive with the view store, type-erased.
  private let store: AnyObject
  #if canImport(OpenCombineShim)
    private let states: AnyPublisher<ViewState, Never>
    private var willChange: AnyCancellable?
    /// Fires before each state that is not a duplicate of the last, as SwiftUI's observable
    /// objects do.
    public let objectWillChange = ObservableObjectPublisher()
  #endif

  /// A view store of `store` that sees `observe`'s view of the state, sends `send`'s translation
  /// of its actions, and counts two states as one when `removeDuplicates` says so.
  public init<State, Action>(
    _ store: Store<State, Action>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    send fromViewAction: @escaping (_ viewAction: ViewAction) -> Action,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) {
    self.readState = { toViewState(store.state) }
    self.sendAction = { store.send(fromViewAction($0)) }
    self.store = store
    #if canImport(OpenCombineShim)
      self.states = store.publisher.map(toViewState).removeDuplicates(by: isDuplicate)
        .eraseToAnyPublisher()
      // The first state is the one the view store starts with; later ones will change it.
      self.willChange = states.dropFirst().sink { [objectWillChange] _ in
        objectWillChange.send()
      }
    #endif
  }

  /// A view store whose view actions are the store's actions.
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) {
    self.init(store, observe: toViewState, send: { $0 }, removeDuplicates: isDuplicate)
  }

  /// A view store of equatable view state, whose view actions are the store's actions.
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: State) -> ViewState
  ) where ViewState: Equatable {
    self.init(store, observe: toViewState, send: { $0 }, removeDuplicates: { $0 == $1 })
  }

  /// A view store of equatable view state that sends `send`'s translation of its actions.
  public convenience init<State, Action>(
    _ store: Store<State, Action>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    send fromViewAction: @escaping (_ viewAction: ViewAction) -> Action
  ) where ViewState: Equatable {
    self.init(store, observe: toViewState, send: fromViewAction, removeDuplicates: { $0 == $1 })
  }

  /// A view store whose `observe:` reads `@BindingState` fields as bindings (`$0.$email`).
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: BindingViewStore<State>) -> ViewState,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) where ViewAction: BindableAction, ViewAction.State == State {
    self.init(
      store,
      observe: { [unowned store] state in
        toViewState(
          BindingViewStore(
            readState: { store.state },
            sendBinding: { store.send(.binding($0.checkedForHandling(sentAs: ViewAction.self))) }))
      },
      send: { $0 },
      removeDuplicates: isDuplicate
    )
  }

  /// A view store of equatable view state whose `observe:` reads `@BindingState` fields as
  /// bindings (`$0.$email`).
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: BindingViewStore<State>) -> ViewState
  ) where ViewAction: BindableAction, ViewAction.State == State, ViewState: Equatable {
    self.init(store, observe: toViewState, removeDuplicates: { $0 == $1 })
  }

  /// The view state, read from the store now.
  public var state: ViewState { readState() }

  /// A field of the view state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<ViewState, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends an action to the store.
  @discardableResult
  public func send(_ action: ViewAction) -> StoreTask {
    sendAction(action)
  }

  /// A binding that reads the view state with `get` and sends `valueToAction`'s action on writes.
  public func binding<Value>(
    get: @escaping (_ state: ViewState) -> Value,
    send valueToAction: @escaping (_ value: Value) -> ViewAction
  ) -> Binding<Value> {
    Binding(get: { get(self.state) }, set: { self.send(valueToAction($0)) })
  }

  /// A binding that reads the view state with `get` and sends `action` on every write.
  public func binding<Value>(
    get: @escaping (_ state: ViewState) -> Value,
    send action: ViewAction
  ) -> Binding<Value> {
    binding(get: get, send: { _ in action })
  }

  /// The binding a `@BindingViewState` field projects: `viewStore.$email`.
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<ViewState, BindingViewState<Value>>
  ) -> Binding<Value> {
    state[keyPath: keyPath].projectedValue
  }

  #if canImport(OpenCombineShim)
    /// The view states, the current one first, skipping those `removeDuplicates` counts as
    /// the one before. Keeps the view store alive while subscribed.
    public var publisher: StorePublisher<ViewState> {
      StorePublisher(upstream: states, store: self)
    }
  #endif
}

@available(*, deprecated, message: "Use an '@ObservableState' store instead.")
extension ViewStore where ViewAction: BindableAction, ViewAction.State == ViewState {
  /// A binding to a `@BindingState` field of the view state, whose writes send its binding
  /// action: `viewStore.$email`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<ViewState, BindingState<Value>>
  ) -> Binding<Value> {
    Binding(
      get: { self.state[keyPath: keyPath].wrappedValue },
      set: { self.send(.binding(.set(keyPath, $0).checkedForHandling(sentAs: ViewAction.self))) }
    )
  }
}

#if canImport(OpenCombineShim)
  @available(*, deprecated, message: "Use an '@ObservableState' store instead.")
  extension ViewStore: @MainActor ObservableObject {}
#endif

/// A view store of a feature's whole state and actions: `ViewStoreOf<Feature>`.
@available(*, deprecated, message: "Use an '@ObservableState' store instead.")
public typealias ViewStoreOf<R: Reducer> = ViewStore<R.State, R.Action>

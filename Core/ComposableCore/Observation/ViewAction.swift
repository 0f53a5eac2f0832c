/// An action enum with a `view` case for everything a screen sends:
/// `enum Action: ViewAction { case view(View) … }`.
public protocol ViewAction<ViewAction> {
  /// The actions of the screen.
  associatedtype ViewAction
  /// Embeds a screen's action: the enum's `view` case.
  static func view(_ action: ViewAction) -> Self
}

/// A screen holding a store whose actions have a `view` case: gives it `send(_:)` for its view
/// actions. `@ViewAction(for: Feature.self)` adds the conformance.
@MainActor
public protocol ViewActionSending<StoreState, StoreAction> {
  /// The state of the screen's feature.
  associatedtype StoreState
  /// The action of the screen's feature.
  associatedtype StoreAction: ViewAction
  /// The store the screen reads and sends to.
  var store: Store<StoreState, StoreAction> { get }
}

extension ViewActionSending {
  /// Sends a view action: `send(.saveButtonTapped)` sends `.view(.saveButtonTapped)`.
  @discardableResult
  public func send(_ action: StoreAction.ViewAction) -> StoreTask {
    store.send(.view(action))
  }
}

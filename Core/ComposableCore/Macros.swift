/// Makes a struct a reducer: adds the `Reducer` conformance, makes `State` and `Action` enums
/// case-pathable with dynamic member lookup, puts `@ReducerBuilder` on `body`, and fills in an
/// empty `State`, `Action` and `body` when the reducer writes none.
///
/// On an enum whose cases hold reducers (`case detail(Detail)`, `case alert(AlertState<Alert>)`)
/// it writes the whole reducer: `State` and `Action` enums, a `body` scoping each case to its
/// reducer, and `CaseScope` for `store.case`.
@attached(
  member,
  names: named(State), named(Action), named(Body), named(body), named(CaseScope), named(scope)
)
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer() = #externalMacro(module: "ComposableMacros", type: "ReducerMacro")

/// An enum reducer whose generated `State` and `Action` have the given conformances:
/// `@Reducer(state: .equatable, .sendable, action: .equatable)`.
@attached(
  member,
  names: named(State), named(Action), named(Body), named(body), named(CaseScope), named(scope)
)
@attached(memberAttribute)
@attached(extension, conformances: Reducer, CaseReducer)
public macro Reducer(
  state: _SynthesizedConformance...,
  action: _SynthesizedConformance...
) = #externalMacro(module: "ComposableMacros", type: "ReducerMacro")

/// A conformance `@Reducer(state:action:)` adds to an enum reducer's generated types.
public struct _SynthesizedConformance: Sendable {
  /// `Codable`.
  public static let codable = Self()
  /// `Decodable`.
  public static let decodable = Self()
  /// `Encodable`.
  public static let encodable = Self()
  /// `Equatable`.
  public static let equatable = Self()
  /// `Hashable`.
  public static let hashable = Self()
  /// `Sendable`.
  public static let sendable = Self()
}

/// Marks a case of a `@Reducer` enum as state without a reducer that goes away when acted on,
/// like an alert (alert and confirmation-dialog cases are marked without it).
@attached(peer)
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "ComposableMacros", type: "ReducerCaseMarkerMacro")

/// Marks a case of a `@Reducer` enum as plain state: no reducer, no actions.
@attached(peer)
public macro ReducerCaseIgnored() =
  #externalMacro(module: "ComposableMacros", type: "ReducerCaseMarkerMacro")

/// Presentation state as a macro: `@Presents var destination: Destination.State?`, with
/// `$destination` for `ifLet(\.$destination, action: \.destination)`. Use it where
/// `@PresentationState` cannot go, such as inside `@ObservableState` types.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(`$`), prefixed(_))
public macro Presents() = #externalMacro(module: "ComposableMacros", type: "PresentsMacro")

/// Names the stored property behind each presented property of a `State` struct that is not
/// `@ObservableState`, so that a presented child's store reads it directly. `@Reducer` attaches
/// it; it is not needed anywhere else.
@attached(
  extension, conformances: _PresentationStorage,
  names: named(_$presentationStorage), named(_$presentedCase)
)
public macro _PresentsStorage() =
  #externalMacro(module: "ComposableMacros", type: "PresentsStorageMacro")

/// Lets reducer operators reach the enum's cases through the case paths `@CasePathable`
/// generated, looked up once from the case key path a feature wrote. `@Reducer` attaches it to
/// the `State` and `Action` enums it sees, and it attaches `@_NestedCaseAccessors` to the
/// `@CasePathable` enums declared in them; it is not needed anywhere else.
@attached(
  extension, conformances: _CaseAccessible, names: named(_$caseAccess))
@attached(memberAttribute)
public macro _CaseAccessors() =
  #externalMacro(module: "ComposableMacros", type: "CaseAccessorsMacro")

/// The accessors of `@_CaseAccessors`, for a `@CasePathable` enum declared inside an enum that
/// has them (an action's `View`): the same implementation under another name, as a macro cannot
/// attach itself, and without the role that would go deeper.
@attached(
  extension, conformances: _CaseAccessible, names: named(_$caseAccess))
public macro _NestedCaseAccessors() =
  #externalMacro(module: "ComposableMacros", type: "CaseAccessorsMacro")

/// Makes state observable property by property, as TCA's: a struct's stored properties report
/// reads and changes, and the value gets an identity, so replacing a child state notifies its
/// readers while mutating it in place notifies only readers of what changed.
@attached(member, names: named(_$observationRegistrar), named(_$id), named(_$willModify))
@attached(memberAttribute)
@attached(
  extension,
  conformances: ObservableState, Observable, CustomReflectable, _PresentationStorage,
  _TrackedStorage,
  names: named(customMirror), named(_$presentationStorage), named(_$presentedCase),
  named(_$trackedProperty)
)
public macro ObservableState() =
  #externalMacro(module: "ComposableMacros", type: "ObservableStateMacro")

/// A property of `@ObservableState` state that reports its reads and changes; the macro puts it
/// on every stored property.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ObservationStateTracked() =
  #externalMacro(module: "ComposableMacros", type: "ObservationStateTrackedMacro")

/// Leaves a property of `@ObservableState` state unobserved: changing it notifies no one.
@attached(peer)
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableMacros", type: "ObservationStateIgnoredMacro")

/// Gives a screen holding a `store` of `Feature` a `send(_:)` for the feature's view actions:
/// `send(.saveButtonTapped)` sends `.view(.saveButtonTapped)`.
@attached(extension, conformances: ViewActionSending, names: named(StoreState), named(StoreAction))
public macro ViewAction<R: Reducer>(for: R.Type) =
  #externalMacro(module: "ComposableMacros", type: "ViewActionMacro")

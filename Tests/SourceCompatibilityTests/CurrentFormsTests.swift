// Forms of TCA 1.7–1.25 that its users and its own tests write: unlabelled scopes, the effect
// form of `onChange`, existential reducers, fused dependency overrides, test stores whose state
// is inferred, and enum reducers that declare part of themselves.
@_spi(Canary) @_spi(Internals) import ComposableTestSupport
import Foundation
import Testing

@Reducer
struct Stepper {
  @ObservableState
  struct State: Equatable {
    var value = 0
    var step = 1
    var history: [Int] = []
  }
  enum Action: Equatable {
    case incrementTapped
    case stepChanged(Int)
  }
  @Dependency(\.stepLimit) var stepLimit
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementTapped:
        state.value += state.step
        return .none
      case .stepChanged(let step):
        state.step = min(step, stepLimit)
        return .none
      }
    }
    // The effect form of TCA 1.25: the old value and the state, returning an effect.
    .onChange(of: \.value) { oldValue, state in
      state.history.append(oldValue)
      return .none
    }
  }
}

private enum StepLimitKey: DependencyKey {
  static let liveValue = 10
  static let testValue = 10
}

extension DependencyValues {
  var stepLimit: Int {
    get { self[StepLimitKey.self] }
    set { self[StepLimitKey.self] = newValue }
  }
}

@Reducer
struct Steppers {
  @ObservableState
  struct State: Equatable {
    var first = Stepper.State()
    var second = Stepper.State()
  }
  enum Action: Equatable {
    case first(Stepper.Action)
    case second(Stepper.Action)
  }
  var body: some ReducerOf<Self> {
    // Unlabelled, as TCA 1.25 writes it.
    Scope(\.first, action: \.first) {
      Stepper()
    }
    // An existential reducer in a builder, run as it is.
    Scope(\.second, action: \.second) {
      Stepper() as any ReducerOf<Stepper>
    }
  }
}

/// A root enum reducer as a modular app writes it: its own `static var body` around the cases'
/// scopes, and its own `Action`, with a case that is no reducer.
@Reducer
enum Root {
  case steppers(Steppers)
  case stepper(Stepper)
  @ReducerCaseIgnored
  case loading(progress: Double)

  @CasePathable
  enum Action: Equatable {
    case steppers(Steppers.Action)
    case stepper(Stepper.Action)
    case finishedLoading
  }

  static var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard case .finishedLoading = action else { return .none }
      state = .steppers(Steppers.State())
      return .none
    }
    Scope(state: \.steppers, action: \.steppers) { Steppers() }
    Scope(state: \.stepper, action: \.stepper) { Stepper() }
  }
}

extension Root.State: Equatable {}

/// A session that ticks, and can renew itself as another session (a new id).
@Reducer
struct Session {
  @ObservableState
  struct State: Equatable, Identifiable {
    var id: Int
    var ticks = 0
  }
  enum Action: Equatable {
    case renew
    case start
    case tick
  }
  @Dependency(\.continuousClock) var clock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .renew:
        state = State(id: state.id + 1)
        return .none
      case .start:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

/// Presents a session or an alert in one destination.
@Reducer
struct SessionHost {
  @Reducer(state: .equatable, action: .equatable)
  enum Destination {
    case session(Session)
    case alert(AlertState<Alert>)
    @CasePathable
    enum Alert: Equatable { case ok }
  }
  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
  }
  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case showAlert
    case showSession
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination:
        return .none
      case .showAlert:
        state.destination = .alert(AlertState { TextState("Expired") })
        return .none
      case .showSession:
        state.destination = .session(Session.State(id: 1))
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

/// A stack of steppers, pushed by the feature itself.
@Reducer
struct StepperStack {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Stepper.State>()
  }
  enum Action: Equatable {
    case path(StackActionOf<Stepper>)
    case pushTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .pushTapped = action { state.path.append(Stepper.State()) }
      return .none
    }
    .forEach(\.path, action: \.path) { Stepper() }
  }
}

/// An alert in plain optional state: a button dismisses it after the feature has handled its
/// action, unless the feature showed another.
@Reducer
struct Confirm {
  @ObservableState
  struct State: Equatable {
    var alert: AlertState<Alert>?
    var confirmed = 0
  }
  enum Action: Equatable {
    case alert(Alert)
    case deleteTapped
  }
  enum Alert: Equatable {
    case confirm
    case askAgain
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.confirm):
        state.confirmed += 1
        return .none
      case .alert(.askAgain), .deleteTapped:
        state.alert = AlertState { TextState("Delete?") }
        return .none
      }
    }
    .ifLet(\.alert, action: \.alert)
  }
}

/// A screen that closes itself when it is done, through `dismiss`, and ticks until then.
@Reducer
struct Closing {
  @ObservableState
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable {
    case onAppear
    case doneTapped
    case tick
  }
  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .doneTapped:
        return .run { _ in await dismiss() }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

@MainActor
struct CurrentFormsTests {
  @Test
  func aPresentedChildThatBecomesAnotherEndsItsOldWork() async {
    let clock = TestClock()
    let store = TestStore(initialState: SessionHost.State()) {
      SessionHost()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showSession) { $0.destination = .session(Session.State(id: 1)) }
    await store.send(\.destination.session.start)
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.session.tick) {
      $0.destination = .session(Session.State(id: 1, ticks: 1))
    }
    await store.send(\.destination.session.renew) {
      $0.destination = .session(Session.State(id: 2))
    }
    // The first session's timer went with it: nothing more arrives.
    await clock.advance(by: .seconds(3))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test
  func anAlertStaysWhenAnActionOfAnotherCaseArrives() async {
    let store = TestStore(initialState: SessionHost.State()) { SessionHost() }
    await store.send(.showAlert) { $0.destination = .alert(AlertState { TextState("Expired") }) }
    await withKnownIssue {
      await store.send(\.destination.session.tick)
    } matching: {
      $0.description.contains(
        "received a child action when child state was set to a different case")
    }
    await store.send(\.destination.alert.ok) { $0.destination = nil }
  }

  /// TCA 1.25 reports a store sending an action while its reducer runs; the action is still
  /// processed, after the current one.
  @Test
  func anActionSentWhileAnotherIsProcessedIsReported() {
    final class Holder: @unchecked Sendable { var store: Store<Int, Bool>? }
    let holder = Holder()
    let store = Store(initialState: 0) {
      Reduce<Int, Bool> { state, isFirst in
        if isFirst { holder.store?.send(false) }
        state = state * 10 + (isFirst ? 1 : 2)
        return .none
      }
    }
    holder.store = store
    withKnownIssue {
      store.send(true)
    } matching: {
      $0.description.contains("Sent 'Bool' while an action was being processed.")
    }
    #expect(store.state == 12)
    holder.store = nil
  }

  @Test
  func anAssertionsAppendedElementGetsTheReducersID() async {
    let store = TestStore(initialState: StepperStack.State()) { StepperStack() }
    await store.send(.pushTapped) { $0.path.append(Stepper.State()) }
    await store.send(.pushTapped) { $0.path.append(Stepper.State()) }
    #expect(store.state.path.ids == [0, 1])
    await store.send(.path(.element(id: 1, action: .incrementTapped))) {
      $0.path[id: 1]?.value = 1
      $0.path[id: 1]?.history = [0]
    }
  }

  @Test
  func anOptionalAlertGoesOnceItsActionIsHandled() async {
    let store = TestStore(initialState: Confirm.State()) { Confirm() }
    await store.send(.deleteTapped) { $0.alert = AlertState { TextState("Delete?") } }
    // Another alert took its place: it stays.
    await store.send(.alert(.askAgain))
    await store.send(.alert(.confirm)) {
      $0.alert = nil
      $0.confirmed = 1
    }
  }

  @Test
  func aFeatureAloneDismissesItselfAndEndsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Closing.State()) {
      Closing()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.onAppear)
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.ticks = 1 }
    #expect(!store.isDismissed)
    await store.send(.doneTapped)
    #expect(store.isDismissed)
    // The timer went with the feature: nothing is left running for the store to report.
    await clock.advance(by: .seconds(5))
    await withKnownIssue {
      await store.send(.tick)
    } matching: {
      $0.description.contains("Can't send action to dismissed test store.")
    }
  }

  @Test
  func aTestStoreInfersItsStateFromTheReducer() async {
    let store = TestStore(initialState: .init()) { Steppers() }
    await store.send(.first(.incrementTapped)) {
      $0.first.value = 1
      $0.first.history = [0]
    }
    await store.send(.second(.stepChanged(3))) { $0.second.step = 3 }
    await store.send(.second(.incrementTapped)) {
      $0.second.value = 3
      $0.second.history = [0]
    }
  }

  @Test
  func unlabelledStoreScopesAreTheLabelledOnes() {
    let store = Store(initialState: Steppers.State()) { Steppers() }
    #expect(store.scope(\.first, action: \.first) === store.scope(state: \.first, action: \.first))
    store.scope(\.first, action: \.first).send(.incrementTapped)
    #expect(store.first.value == 1)
  }

  @Test
  func overridesFuseWithTheInnermostWinning() async {
    let fused: _DependencyKeyWritingReducer<Stepper> = Stepper()
      .dependency(\.stepLimit, 2)
      .dependency(\.stepLimit, 5)
      .transformDependency(\.stepLimit) { $0 += 100 }
    let store = TestStore(initialState: Stepper.State()) { fused }
    await store.send(.stepChanged(9)) { $0.step = 2 }
  }

  @Test
  func anEnumReducerKeepsTheBodyAndActionItDeclares() async {
    let store = TestStore(initialState: Root.State.loading(progress: 0.5)) { Root.body }
    await store.send(.finishedLoading) { $0 = .steppers(Steppers.State()) }
    await store.send(.steppers(.first(.incrementTapped))) {
      $0 = .steppers(Steppers.State(first: Stepper.State(value: 1, history: [0])))
    }
  }

  @Test
  func anEffectsActionsCanBeReadApartFromAStore() async {
    let effect = Effect<Int>.merge(
      .send(1),
      .run { send in await send(2) }.concatenate(with: .send(3))
    )
    var received: [Int] = []
    for await action in effect.actions { received.append(action) }
    #expect(received == [1, 2, 3])
  }

  @Test
  func enumScopesChainFromTheDestinationIntoItsCase() {
    let store = Store(initialState: SessionHost.State()) { SessionHost() }
    @Bindable var host = store
    let destination = $host.scope(state: \.$destination, action: \.destination)
    #expect(destination.wrappedValue == nil)
    #expect(destination.session.wrappedValue == nil)

    store.send(.showSession)
    // A reducer case gives the child's store; another case gives nothing.
    let session = destination.session.wrappedValue
    #expect(session?.id == 1)
    #expect(destination.alert.wrappedValue == nil)
    session?.send(.tick)
    #expect(store.destination?.session?.ticks == 1)
    #expect(store.scope(state: \.$destination, action: \.destination) != nil)

    // A case that is not a reducer gives its data, not a store.
    store.send(.showAlert)
    #expect(destination.alert.wrappedValue == AlertState { TextState("Expired") })
    #expect(destination.session.wrappedValue == nil)

    // Closing it, as a dismissed sheet does, dismisses the destination through the parent.
    destination.alert.wrappedValue = nil
    #expect(store.destination == nil)
    #expect(store.scope(\.$destination, action: \.destination) == nil)
  }

  @Test
  func effectsRunOnTheirOwnAreCancelledByIDFromTestCode() async {
    let id = UUID()
    let (started, didStart) = AsyncStream.makeStream(of: Void.self)
    let longLiving = Effect<Int>.run { send in
      await send(1)
      didStart.yield()
      try await Task.never()
    }
    .cancellable(id: id)
    let received = Task {
      var received: [Int] = []
      for await action in longLiving.actions { received.append(action) }
      return received
    }
    for await _ in started { break }
    #expect(_cancellationCancellables.withValue { $0.exists(at: id, path: NavigationIDPath()) })
    // As in TCA's effect tests: the test itself cancels the effect by its id.
    Task.cancel(id: id)
    #expect(await received.value == [1])
    #expect(!_cancellationCancellables.withValue { $0.exists(at: id, path: NavigationIDPath()) })
  }

  /// The store's SPI TCA's own tests use: the running effects, the state unobserved, and `send`
  /// returning a plain task.
  @Test
  func aStoresInternalsListItsRunningEffects() async {
    let (numbers, next) = AsyncStream.makeStream(of: Int.self)
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state += action
        return action == 0 ? .run { send in for await n in numbers { await send(n) } } : .none
      }
    }
    #expect(store.effectCancellables.isEmpty)
    let none: Task<Void, Never>? = store.send(1)
    #expect(none == nil)
    let listening: Task<Void, Never>? = store.send(0)
    #expect(store.effectCancellables.count == 1)
    #expect(store.currentState == 1)
    // Its keys stay the same while it runs; cancelling through one ends it.
    #expect(store.effectCancellables.keys == store.effectCancellables.keys)
    store.effectCancellables.values.first?.cancel()
    await listening?.value
    #expect(store.effectCancellables.isEmpty)
    next.finish()
  }

  @Test
  func aTestStoreTaskOverAPlainTaskFinishesWithIt() async {
    let finished = LockIsolated(false)
    let task = TestStoreTask(
      rawValue: Task { finished.setValue(true) }, timeout: .seconds(1))
    await task.finish()
    #expect(finished.value)
    await TestStoreTask(rawValue: nil, timeout: .seconds(1)).finish()
  }

  @Test
  func aStackDumpsAsADictionaryFromIDToElement() {
    let path = StackState(["Home", "Detail"])
    #expect(String(customDumping: path) == "[\n  #0: \"Home\",\n  #1: \"Detail\"\n]")
  }

  @Test
  func stackElementIDsDumpAndCountAsTCAs() {
    @Dependency(\.stackElementID) var stackElementID
    #expect(stackElementID.peek().generation == 0)
    #expect(stackElementID.next().customDumpDescription == "#0")
    #expect(stackElementID.peek().generation == 1)
  }
}

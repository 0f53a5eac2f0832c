import ComposableCore
import ComposableFixtures

/// Runs one of the navigation scenarios (`Navigation.swift`), returning whether `scenario` is one:
/// destination, destinationEffect (the child's action returns an effect, `.send`), stack,
/// stackEffect, ifCaseLet, rootEcho (the counter's `.send` effect at the root, for comparison
/// with the two effect scenarios), and destinationScoped / destinationScopedAtRoot (the
/// destination's store kept, sent to, or the root sent to), destinationPresented (presented,
/// its case's store scoped and sent to once, dismissed), stackPushPop (a push onto a stack
/// 1,000 deep and a pop of it), and detail / detailWorking (a plain `ifLet` of an `Identifiable`
/// child, before and after it started work), and presentedEffect / destinationCancelEffect (a
/// presented child's action returning a cancellation, the child a plain struct or an enum's case),
/// ifCaseLetCancelEffect (an enum state's child returning one), and panelWorking (an optional
/// destination enum under a plain `ifLet`, after its child started work), and sheetWorking (the
/// same with an `Identifiable` child in the case, whose id is compared too).
@MainActor
func runNavigation(_ scenario: String, _ sends: Int) -> Bool {
  switch scenario {
  case "destination":
    let store = Store(initialState: DestParent.State()) { DestParent() }
    timeSends(scenario, sends, store, .destination(.presented(.counter(.increment))))
    return true
  case "presentedEffect", "destinationCancelEffect":
    // A presented child's action returning an effect other than `.send` (a cancellation, which
    // starts no task): the effect is scoped to the child, which asks the child who it is. A plain
    // struct (`P1`'s counter), or a case of a destination enum.
    if scenario == "presentedEffect" {
      let store = StoreOf<P1>(initialState: P1.State()) { P1() }
      timeSends(scenario, sends, store, .child(.presented(.cancelLongLiving)))
    } else {
      let store = Store(initialState: DestParent.State()) { DestParent() }
      timeSends(scenario, sends, store, .destination(.presented(.counter(.cancelLongLiving))))
    }
    return true
  case "destinationScoped", "destinationScopedAtRoot":
    let store = Store(initialState: DestParent.State()) { DestParent() }
    let leaf = store.scope(state: \.destination?.counter, action: \.destination.counter)!
    if scenario == "destinationScoped" {
      timeSends(scenario, sends, leaf, .increment)
    } else {
      timeSends(scenario, sends, store, .destination(.presented(.counter(.increment))))
    }
    precondition(leaf.state.count == sends)
    return true
  case "destinationPresented":
    // Each round presents the destination, scopes a store of its case (the store is new, as the
    // child is) and sends from it once, then dismisses it.
    let store = Store(initialState: DestParent.State()) { DestParent() }
    let start = ContinuousClock.now
    for _ in 0..<sends {
      store.send(.present)
      store.scope(state: \.destination?.counter, action: \.destination.counter)!.send(.increment)
      store.send(.destination(.dismiss))
    }
    report(scenario, sends, ContinuousClock.now - start)
    return true
  case "destinationEffect":
    let store = Store(initialState: DestParent.State()) { DestParent() }
    timeSends(scenario, sends, store, .destination(.presented(.counter(.echo))))
    return true
  case "stackEffect":
    let store = Store(initialState: StackParent.State()) { StackParent() }
    let id = store.state.path.ids.first!
    timeSends(scenario, sends, store, .path(.element(id: id, action: .counter(.echo))))
    return true
  case "stack":
    let store = Store(initialState: StackParent.State()) { StackParent() }
    let id = store.state.path.ids.first!
    timeSends(scenario, sends, store, .path(.element(id: id, action: .counter(.increment))))
    return true
  case "stackPushPop":
    // Each round pushes onto a stack 1,000 deep and pops what it pushed, as a drill-down and
    // back does.
    let store = Store(initialState: StackParent.State(depth: 1_000)) { StackParent() }
    let id = StackElementID(rawValue: store.state.path.ids.last!.rawValue + 1)
    let start = ContinuousClock.now
    for _ in 0..<sends {
      store.send(.path(.push(id: id, state: .counter(Counter.State()))))
      store.send(.path(.popFrom(id: id)))
    }
    report(scenario, sends, ContinuousClock.now - start)
    precondition(store.state.path.count == 1_000)
    return true
  case "detail", "detailWorking":
    // A plain `ifLet` of an `Identifiable` child; with its work running, each action checks that
    // the parent kept the same child.
    let store = Store(initialState: DetailParent.State()) { DetailParent() }
    if scenario == "detailWorking" { store.send(.detail(.startWork)) }
    timeSends(scenario, sends, store, .detail(.increment))
    return true
  case "panelWorking":
    // An optional destination enum under a plain `ifLet`, its child's work running.
    let store = Store(initialState: PanelParent.State()) { PanelParent() }
    store.send(.panel(.counter(.startLongLiving(1))))
    timeSends(scenario, sends, store, .panel(.counter(.increment)))
    return true
  case "sheetWorking":
    // A destination enum under a plain `ifLet`, its `Identifiable` child's work running.
    let store = Store(initialState: SheetParent.State()) { SheetParent() }
    store.send(.sheet(.detail(.startWork)))
    timeSends(scenario, sends, store, .sheet(.detail(.increment)))
    return true
  case "rootEcho":
    let store = Store(initialState: Counter.State()) { Counter() }
    timeSends(scenario, sends, store, .echo)
    return true
  case "rootEchoTwice":
    let store = Store(initialState: Counter.State()) { Counter() }
    timeSends(scenario, sends, store, .echoTwice)
    return true
  case "ifCaseLet", "ifCaseLetCancelEffect":
    let store = Store(initialState: CaseParent.State.counter(Counter.State())) { CaseParent() }
    let effect = scenario == "ifCaseLetCancelEffect"
    timeSends(scenario, sends, store, .counter(effect ? .cancelLongLiving : .increment))
    return true
  default: return false
  }
}

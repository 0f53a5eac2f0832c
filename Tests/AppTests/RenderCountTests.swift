import AppFeature
import ComposableCore
import CounterFeature
import Foundation
import Testing

@testable import composable

/// The interactive app draws inside observation tracking: it redraws for what is on screen and
/// for nothing else.
@MainActor
struct RenderCountTests {
  let clock = TestClock()

  func makeStore(tab: AppReducer.Tab) -> StoreOf<AppReducer> {
    Store(initialState: AppReducer.State(selectedTab: tab)) {
      AppReducer()
    } withDependencies: {
      $0.continuousClock = clock
      $0.analyticsClient.track = { _ in }
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    }
  }

  func makeRenderer(_ store: StoreOf<AppReducer>) -> (ObservedRenderer, () -> String) {
    var lastScreen = ""
    let renderer = ObservedRenderer {
      lastScreen = Renderer.render(store, view: AppViewState(), width: 80, height: 24).text
    }
    renderer.render()
    return (renderer, { lastScreen })
  }

  /// Waits until the drawings the renderer was asked for have been made: a change schedules
  /// its drawing on the main actor.
  func drawn(_ renderer: ObservedRenderer, count: Int) async {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while renderer.renderCount < count, ContinuousClock.now < deadline { await Task.yield() }
  }

  /// Advances the clock a second at a time until the counter has ticked to `count`: the timer's
  /// effect starts on another executor, so a busy machine may reach its first sleep late.
  func tick(_ store: StoreOf<AppReducer>, to count: Int) async {
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while store.counter.count < count, ContinuousClock.now < deadline {
      await clock.advance(by: .seconds(1))
      await Task.yield()
    }
  }

  @Test func aBackgroundTickDoesNotRedrawTheTodoList() async {
    let store = makeStore(tab: .counter)
    store.send(.counter(.toggleTimerButtonTapped))
    store.send(.tabSelected(.todos))
    let (renderer, screen) = makeRenderer(store)
    #expect(renderer.renderCount == 1)

    await tick(store, to: 3)
    #expect(store.counter.count == 3)
    // Observation tells of a change as it happens: none reached the renderer.
    #expect(renderer.changesSeen == 0)
    #expect(renderer.renderCount == 1)
    #expect(screen().contains("[2 Todos]"))

    // Stopping the timer cancels its effect; the store goes away with the test.
    store.send(.counter(.toggleTimerButtonTapped))
  }

  @Test func theVisibleCounterRedrawsOncePerTick() async {
    let store = makeStore(tab: .counter)
    let (renderer, screen) = makeRenderer(store)
    store.send(.counter(.toggleTimerButtonTapped))
    #expect(renderer.changesSeen == 1)
    await drawn(renderer, count: 2)
    #expect(renderer.renderCount == 2)

    await tick(store, to: 1)
    // The tick was seen, and each change seen is drawn once. (A busy machine may let the clock
    // tick twice before the first drawing; the screen then shows the later count.)
    #expect(renderer.changesSeen >= 2)
    await drawn(renderer, count: renderer.changesSeen + 1)
    #expect(renderer.renderCount == renderer.changesSeen + 1)
    let ticks = store.counter.count
    #expect(screen().contains("Count: \(ticks)"))

    // Stopping the timer cancels its effect; the store goes away with the test.
    store.send(.counter(.toggleTimerButtonTapped))
  }

  @Test func typingInTheFormRedrawsTheForm() async {
    let store = makeStore(tab: .signUp)
    let (renderer, screen) = makeRenderer(store)
    let form = store.scope(state: \.signUp, action: \.signUp)
    form.email = "ada@"
    #expect(renderer.changesSeen == 1)
    await drawn(renderer, count: 2)
    #expect(screen().contains("Email: ada@"))

    // A change the form does not show (the counter, on another tab) draws nothing.
    store.send(.counter(.incrementButtonTapped))
    #expect(renderer.changesSeen == 1)
    #expect(renderer.renderCount == 2)
  }

  @Test func aSharedValueChangedInTheBackgroundRedraws() async {
    let store = makeStore(tab: .counter)
    let (renderer, screen) = makeRenderer(store)
    // What another process's write does once it is picked up: a change off the main actor.
    let account = store.state.signUp.$accountEmail
    await Task.detached { account.withLock { $0 = "ada@example.com" } }.value
    #expect(renderer.changesSeen == 1)
    await drawn(renderer, count: 2)
    #expect(screen().contains("✉ ada@example.com"))
  }

  @Test func switchingTabsRedraws() async {
    let store = makeStore(tab: .counter)
    let (renderer, screen) = makeRenderer(store)
    store.send(.tabSelected(.signUp))
    #expect(renderer.changesSeen == 1)
    await drawn(renderer, count: 2)
    #expect(renderer.renderCount == 2)
    #expect(screen().contains("Create an account"))
  }
}

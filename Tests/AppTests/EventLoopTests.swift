import AppFeature
import ComposableCore
import CounterFeature
import Foundation
import TerminalUI
import Testing
import TodosClient

@testable import composable

/// The app in its event loop, drawn at 80×24: one drawing per event, and a redraw for what is
/// on screen and for nothing else.
@MainActor
struct EventLoopTests {
  let clock = TestClock()

  func makeStore(tab: AppReducer.Tab) -> StoreOf<AppReducer> {
    Store(initialState: AppReducer.State(selectedTab: tab)) {
      AppReducer()
    } withDependencies: {
      $0.continuousClock = clock
      $0.analyticsClient.track = { _ in }
      $0.date = .constant(Date(timeIntervalSince1970: 0))
      $0.todosClient = .inMemory(LockIsolated([]))
    }
  }

  /// The app's screen in a loop whose ticks come from a clock nobody advances, running until
  /// the test ends it.
  @MainActor final class Running {
    let loop: TerminalLoop<AppScreen>
    let task: Task<Void, Never>

    init(_ store: StoreOf<AppReducer>) {
      let loop = TerminalLoop(AppScreen(store: store), clock: TestClock())
      self.loop = loop
      task = Task { @MainActor in
        await loop.run(size: { (80, 24) }, write: { _ in })
      }
    }

    var text: String { loop.lastScreen?.text ?? "" }

    /// Waits, a bounded while, until the loop has drawn `count` times.
    func drawn(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
      let deadline = ContinuousClock.now + .seconds(30)
      while loop.drawCount < count, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
      }
      #expect(loop.drawCount >= count, sourceLocation: sourceLocation)
    }

    /// Lets the loop handle everything queued so far: an event sent now comes after them.
    func settle() async {
      let before = loop.drawCount
      loop.send(.resized)
      await drawn(before + 1)
    }

    func stop() async {
      loop.finish()
      await task.value
    }
  }

  /// Advances the clock a second at a time until the counter has ticked to `count`.
  func tick(_ store: StoreOf<AppReducer>, to count: Int) async {
    let deadline = ContinuousClock.now + .seconds(30)
    while store.counter.count < count, ContinuousClock.now < deadline {
      await clock.advance(by: .seconds(1))
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  @Test func aKeyIsDrawnOnceEvenThoughItChangesTheStore() async {
    let store = makeStore(tab: .counter)
    let running = Running(store)
    await running.drawn(1)
    running.loop.send(.key(.character("+")))
    await running.drawn(2)
    await running.settle()
    // The key's drawing, then the settling resize: the change the key made was not drawn twice.
    #expect(running.loop.drawCount == 3)
    #expect(running.text.contains("Count: 1"))
    await running.stop()
  }

  @Test func aBackgroundTickDoesNotRedrawTheTodoList() async {
    let store = makeStore(tab: .counter)
    // Loaded already: its appearing loads nothing, which would redraw.
    store.send(.todos(.loadResponse(.success([]))))
    store.send(.counter(.toggleTimerButtonTapped))
    store.send(.tabSelected(.todos))
    let running = Running(store)
    await running.drawn(1)
    await tick(store, to: 3)
    #expect(store.counter.count == 3)
    await running.settle()
    #expect(running.loop.drawCount == 2)
    #expect(running.text.contains("[2 Todos]"))
    store.send(.counter(.toggleTimerButtonTapped))
    await running.stop()
  }

  @Test func theVisibleCounterRedrawsWhenItTicks() async {
    let store = makeStore(tab: .counter)
    let running = Running(store)
    await running.drawn(1)
    store.send(.counter(.toggleTimerButtonTapped))
    await running.drawn(2)
    await tick(store, to: 1)
    await running.drawn(3)
    await running.settle()
    #expect(running.text.contains("Count: \(store.counter.count)"))
    store.send(.counter(.toggleTimerButtonTapped))
    await running.stop()
  }

  @Test func aChangeTheScreenDoesNotShowDrawsNothing() async {
    let store = makeStore(tab: .signUp)
    let running = Running(store)
    await running.drawn(1)
    store.scope(state: \.signUp, action: \.signUp).email = "ada@"
    await running.drawn(2)
    #expect(running.text.contains("Email: ada@"))
    store.send(.counter(.incrementButtonTapped))
    await running.settle()
    #expect(running.loop.drawCount == 3)
    await running.stop()
  }

  @Test func aSharedValueChangedInTheBackgroundRedraws() async {
    let store = makeStore(tab: .counter)
    let running = Running(store)
    await running.drawn(1)
    // What another process's write does once it is picked up: a change off the main actor.
    let account = store.state.signUp.$accountEmail
    await Task.detached { account.withLock { $0 = "ada@example.com" } }.value
    await running.drawn(2)
    #expect(running.text.contains("✉ ada@example.com"))
    await running.stop()
  }

  @Test func quittingEndsTheLoopOnceNothingIsLeftToSave() async {
    let store = makeStore(tab: .counter)
    let running = Running(store)
    await running.drawn(1)
    running.loop.send(.terminated)
    await running.task.value
    #expect(running.loop.program.exitStatus == 143)
    #expect(running.loop.program.problemsWhileQuitting.isEmpty)
  }
}

import AnalyticsClient
import AppFeature
import ComposableCore
import ComposableTestSupport
import CounterFeature
import FormFeature
import Foundation
import SignUpClient
import Testing

@MainActor
struct AppReducerTests {
  func makeStore(
    _ state: AppReducer.State = AppReducer.State(),
    events: LockIsolated<[String]> = LockIsolated([]),
    clock: TestClock<Duration> = TestClock()
  ) -> TestStoreOf<AppReducer> {
    TestStore(initialState: state) {
      AppReducer()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(Date(timeIntervalSince1970: 0))
      $0.analyticsClient.track = { event in events.withValue { $0.append(event.name) } }
      $0.signUpClient.submit = { request in SignUpResponse(userID: "u1", email: request.email) }
    }
  }

  @Test func switchingTabs() async {
    let store = makeStore()
    for tab in AppReducer.Tab.allCases.reversed() {
      await store.send(.tabSelected(tab)) { $0.selectedTab = tab }
    }
  }

  @Test func anActionOnOneTabDoesNotDisturbAnother() async {
    let store = makeStore(AppReducer.State(selectedTab: .counter))
    // Exhaustive: only the counter changes.
    await store.send(\.counter.incrementButtonTapped) { $0.counter.count = 1 }
    await store.send(.todos(.set(\.newTitle, "milk"))) { $0.todos.newTitle = "milk" }
    #expect(store.state.counter.count == 1)
    #expect(store.state.selectedTab == .counter)
  }

  @Test func theAnalyticsReducerSeesEveryActionInOrder() async {
    let events = LockIsolated<[String]>([])
    let store = makeStore(events: events)
    await store.send(.tabSelected(.todos)) { $0.selectedTab = .todos }
    await store.send(\.counter.incrementButtonTapped) { $0.counter.count = 1 }
    await store.send(\.counter.decrementButtonTapped) { $0.counter.count = 0 }
    await withKnownIssue {
      // Nothing presented or pushed: runtime issues, but analytics still saw the actions first.
      await store.send(.counter(.alert(.dismiss)))
      await store.send(.contacts(.path(.popFrom(id: 3))))
    }
    #expect(
      events.value == [
        "tabSelected.todos", "counter.incrementButtonTapped", "counter.decrementButtonTapped",
        "counter.alert.dismiss", "contacts.path.popFrom",
      ]
    )
  }

  @Test func aSignUpShowsAToastOverEveryTabThatGoesAway() async {
    let clock = TestClock()
    let events = LockIsolated<[String]>([])
    let filled = SignUpForm.State(
      email: "ada@example.com",
      password: "engine42",
      confirmPassword: "engine42",
      acceptTerms: true,
      touched: Set(SignUpField.allCases)
    )
    let store = makeStore(
      AppReducer.State(selectedTab: .signUp, signUp: filled), events: events, clock: clock)
    await store.send(\.signUp.view.submitButtonTapped) { $0.signUp.isSubmitting = true }
    await store.receive(\.signUp.submitResponse.success) {
      $0.signUp = SignUpForm.State(
        alert: AlertState {
          TextState("Welcome!")
        } message: {
          TextState("Your account for ada@example.com is ready.")
        }
      )
      $0.signUp.$accountEmail.withLock { $0 = "ada@example.com" }
    }
    // The app's header reads the same shared value.
    #expect(store.state.accountEmail == "ada@example.com")
    await store.receive(\.signUp.delegate.accountCreated) {
      $0.toast = "Signed up as ada@example.com"
    }
    await store.send(.tabSelected(.counter)) { $0.selectedTab = .counter }
    await clock.advance(by: AppReducer.toastDuration)
    await store.receive(\.toastDismissed) { $0.toast = nil }
    #expect(events.value.contains("signUp.delegate.accountCreated"))
    #expect(
      events.value.firstIndex(of: "signUp.view.submitButtonTapped")! < events.value.firstIndex(
        of: "toastDismissed")!)
  }

  @Test func dismissingTheToastEarlyCancelsItsTimer() async {
    let clock = TestClock()
    let store = makeStore(AppReducer.State(toast: "hello"), clock: clock)
    await store.send(.toastDismissed) { $0.toast = nil }
    await clock.advance(by: .seconds(10))
  }
}

struct ActionLabelTests {
  @Test func labelsJoinCasesAndSkipPayloads() {
    #expect(
      ActionLabel.of(AppReducer.Action.counter(.factResponse(.success("x"))))
        == "counter.factResponse.success")
    #expect(
      ActionLabel.of(
        AppReducer.Action.todos(
          .todos(.element(id: UUID(0), action: .toggleCompletionButtonTapped))))
        == "todos.todos.element.toggleCompletionButtonTapped"
    )
    #expect(ActionLabel.of(AppReducer.Action.toastDismissed) == "toastDismissed")
    #expect(
      ActionLabel.of(AppReducer.Action.signUp(.view(.set(\.email, "a")))) == "signUp.view.binding")
  }
}

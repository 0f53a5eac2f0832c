import AnalyticsClient
import AppFeature
import Benchmark
import ComposableCore
import Foundation
import TodoListFeature
import TodosClient

/// A store of `count` todos whose client accepts every save without doing I/O, and whose clock
/// never advances, so the debounced sort stays pending and each toggle measures the toggle.
@MainActor
func makeStore(count: Int) -> StoreOf<TodoList> {
  Store(initialState: makeList(count: count)) {
    TodoList()
  } withDependencies: {
    $0.todosClient = TodosClient(load: { [] }, apply: { _ in }, changes: { .finished })
    $0.continuousClock = TestClock()
  }
}

/// A loaded list of `count` todos.
func makeList(count: Int) -> TodoList.State {
  let todos = IdentifiedArray(
    uniqueElements: (0..<count).map {
      TodoItem(id: UUID($0), title: "Todo \($0)", createdAt: Date(timeIntervalSince1970: 0))
    }
  )
  return TodoList.State(todos: todos, hasLoaded: true)
}

/// The app's root store holding `count` todos, as the terminal app runs it: the todo list is one
/// tab, reached through the app's `Scope`, with analytics recording nothing.
@MainActor
func makeAppStore(count: Int) -> StoreOf<AppReducer> {
  Store(initialState: AppReducer.State(selectedTab: .todos, todos: makeList(count: count))) {
    AppReducer()
  } withDependencies: {
    $0.todosClient = TodosClient(load: { [] }, apply: { _ in }, changes: { .finished })
    $0.analyticsClient = AnalyticsClient(track: { _ in })
    $0.continuousClock = TestClock()
  }
}

/// A benchmark that sends the action `make` gives to the store it makes, measuring only the
/// sends. (Actions are not `Sendable`: both are made on the main actor, where they are used.)
func sendBenchmark<State, Action>(
  _ name: String,
  _ make: @escaping @Sendable @MainActor () -> (Store<State, Action>, Action)
) {
  Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
    // The runner awaits this call, so the benchmark object is only used on the main actor
    // while it waits.
    nonisolated(unsafe) let benchmark = benchmark
    await MainActor.run {
      let (store, action) = make()
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { store.send(action) }
      benchmark.stopMeasurement()
    }
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    maxDuration: .seconds(3),
    maxIterations: 20_000
  )

  for count in [100, 10_000, 100_000] {
    let id = UUID(count / 2)
    sendBenchmark("TodoList toggle one todo in \(count)") {
      (makeStore(count: count), .todos(.element(id: id, action: .toggleCompletionButtonTapped)))
    }
    sendBenchmark("App root store: toggle one todo in \(count)") {
      (
        makeAppStore(count: count),
        .todos(.todos(.element(id: id, action: .toggleCompletionButtonTapped)))
      )
    }
  }
}

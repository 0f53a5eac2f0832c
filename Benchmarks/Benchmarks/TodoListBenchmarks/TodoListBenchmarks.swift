import Benchmark
import ComposableCore
import Foundation
import TodoListFeature
import TodosClient

/// A store of `count` todos whose client accepts every save without doing I/O, and whose clock
/// never advances, so the debounced sort stays pending and each toggle measures the toggle.
@MainActor
func makeStore(count: Int) -> StoreOf<TodoList> {
  let todos = IdentifiedArray(
    uniqueElements: (0..<count).map {
      TodoItem(id: UUID($0), title: "Todo \($0)", createdAt: Date(timeIntervalSince1970: 0))
    }
  )
  return Store(initialState: TodoList.State(todos: todos, hasLoaded: true)) {
    TodoList()
  } withDependencies: {
    $0.todosClient = TodosClient(load: { [] }, apply: { _ in })
    $0.continuousClock = TestClock()
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.throughput, .wallClock, .mallocCountTotal],
    maxDuration: .seconds(3),
    maxIterations: 20_000
  )

  for count in [100, 10_000, 100_000] {
    Benchmark(
      "TodoList toggle one todo in \(count)",
      configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
      // The runner awaits this call, so the benchmark object is only used on the main actor
      // while it waits.
      nonisolated(unsafe) let benchmark = benchmark
      await MainActor.run {
        let store = makeStore(count: count)
        let id = UUID(count / 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
          store.send(.todos(.element(id: id, action: .toggleCompletionButtonTapped)))
        }
        benchmark.stopMeasurement()
      }
    }
  }
}

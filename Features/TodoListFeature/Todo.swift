import ComposableCore
import TodosClient

/// One row of the todo list: completion, title and priority. Saving is the list's job, so a row
/// can be tested and reused on its own.
@Reducer
public struct Todo: Sendable {
  /// A row is the stored todo itself.
  public typealias State = TodoItem

  /// What happens on a row.
  public enum Action: Equatable, Codable, Sendable {
    /// Checks or unchecks the todo.
    case toggleCompletionButtonTapped
    /// Renames the todo.
    case titleChanged(String)
    /// Changes the todo's priority.
    case priorityChanged(TodoItem.Priority)
  }

  /// A row reducer.
  public init() {}

  /// The row's logic.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggleCompletionButtonTapped:
      state.isCompleted.toggle()
    case .titleChanged(let title):
      state.title = title
    case .priorityChanged(let priority):
      state.priority = priority
    }
    return .none
  }
}

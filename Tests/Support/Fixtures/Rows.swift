import ComposableCore

/// A list of counters integrated with `forEach`, each row's counter scoped out of the row.
@Reducer
public struct Rows {
  /// One row: its id and its counter.
  public struct Row: Equatable, Identifiable, Sendable {
    /// The row's id in the list and in its actions.
    public let id: Int
    /// The row's counter, which the row's actions go to.
    public var counter: Counter.State

    /// A row with this id, its counter at zero unless given.
    public init(id: Int, counter: Counter.State = Counter.State()) {
      self.id = id
      self.counter = counter
    }
  }

  /// The rows, in order.
  public struct State: Equatable, Sendable {
    /// The rows, by id.
    public var rows: IdentifiedArrayOf<Row>

    /// A list of these rows, empty unless given.
    public init(rows: IdentifiedArrayOf<Row> = []) {
      self.rows = rows
    }
  }

  /// A row's counter action, by the row's id.
  public enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Counter.Action>)
  }

  /// The list.
  public init() {}

  /// Each row's actions run its counter.
  public var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.rows, action: \.rows) {
        Scope(state: \.counter, action: \.self) { Counter() }
      }
  }
}

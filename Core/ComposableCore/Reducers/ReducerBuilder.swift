/// Builds a reducer from a list of reducers run in order, with `if`, `if let`, `switch` and
/// `for` support, as TCA's `@ReducerBuilder`.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// An empty body does nothing.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  /// A single reducer.
  @inlinable
  public static func buildBlock<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  /// Each reducer statement with a `body`, held so that its body is built once for the store
  /// it runs in (see `_BuiltReducer`).
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(
    _ expression: R
  ) -> _BuiltReducer<R> {
    _BuiltReducer(expression)
  }

  /// Each reducer statement without a `body` (operators, `Reduce`, reducers that implement
  /// `reduce(into:action:)`): used as it is.
  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R
  where R.Body == Never {
    expression
  }

  /// A reducer held as an existential (`any ReducerOf<Feature>`), run through `Reduce`: an
  /// existential cannot itself conform to `Reducer`.
  @inlinable
  @_disfavoredOverload
  public static func buildExpression(
    _ expression: any Reducer<State, Action>
  ) -> Reduce<State, Action> {
    Reduce(expression)
  }

  /// The first reducer of a sequence.
  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  /// Each further reducer of a sequence runs after the ones before it.
  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0,
    next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(accumulated, next)
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _Conditional<R0, R1> {
    .first(reducer)
  }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _Conditional<R0, R1> {
    .second(reducer)
  }

  /// An `if` without `else`, or an `if let`.
  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ reducer: R?) -> R? {
    reducer
  }

  /// A `for` loop of reducers.
  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _SequenceMany<R> {
    _SequenceMany(reducers: reducers)
  }

  /// An `if #available` branch.
  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ reducer: R
  ) -> Reduce<State, Action> {
    Reduce(reducer)
  }

  /// Two reducers run one after the other, their effects merged.
  public struct _Sequence<R0: Reducer, R1: Reducer>: Reducer
  where R0.State == R1.State, R0.Action == R1.Action {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
      self.r0 = r0
      self.r1 = r1
    }

    /// Runs the first reducer, then the second.
    @inlinable
    public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
      let first = r0.reduce(into: &state, action: action)
      let second = r1.reduce(into: &state, action: action)
      return first.merge(with: second)
    }
  }

  /// One of two reducers, as chosen by an `if`/`else` or `switch`.
  public enum _Conditional<First: Reducer, Second: Reducer>: Reducer
  where First.State == Second.State, First.Action == Second.Action {
    /// The `if` branch, or the first case of a `switch`.
    case first(First)
    /// The `else` branch, or a later case of a `switch`.
    case second(Second)

    /// Runs the chosen branch.
    @inlinable
    public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action>
    {
      switch self {
      case .first(let first): return first.reduce(into: &state, action: action)
      case .second(let second): return second.reduce(into: &state, action: action)
      }
    }
  }

  /// Any number of reducers of the same type, run in order.
  public struct _SequenceMany<Element: Reducer>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(reducers: [Element]) {
      self.reducers = reducers
    }

    /// Runs each reducer in order.
    @inlinable
    public func reduce(into state: inout Element.State, action: Element.Action)
      -> Effect<Element.Action>
    {
      .merge(reducers.map { $0.reduce(into: &state, action: action) })
    }
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// Runs the wrapped reducer when there is one; `if` without `else` in a body.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action)
    -> Effect<Wrapped.Action>
  {
    switch self {
    case .some(let wrapped): return wrapped.reduce(into: &state, action: action)
    case .none: return .none
    }
  }
}

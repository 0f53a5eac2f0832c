import ComposableCore
import ComposableFixtures

// The navigation shapes modern features use, one level each: a destination enum presented with
// `ifLet(\.$destination, action: \.destination)`, a stack of a path enum run by
// `forEach(\.path, action: \.path)`, and an enum state with one case run by `ifCaseLet`.

/// A parent presenting a destination enum, as modern TCA features do.
@Reducer
struct DestParent {
  @Reducer
  enum Destination {
    case counter(Counter)
    case other(Counter)
  }

  struct State {
    var count = 0
    @Presents var destination: Destination.State? = .counter(Counter.State())
  }

  enum Action {
    case increment
    case present
    case destination(PresentationAction<Destination.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment: state.count += 1
      case .present: state.destination = .counter(Counter.State())
      case .destination: break
      }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

/// A parent with a navigation stack of a path enum.
@Reducer
struct StackParent {
  @Reducer
  enum Path {
    case counter(Counter)
    case other(Counter)
  }

  struct State {
    var count = 0
    var path = StackState<Path.State>([.counter(Counter.State())])
  }

  enum Action {
    case increment
    case path(StackActionOf<Path>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .forEach(\.path, action: \.path)
  }
}

extension StackParent.State {
  /// A stack `depth` counters deep, as a drill-down that keeps pushing leaves it.
  init(depth: Int) {
    self.init(path: StackState((0..<depth).map { _ in .counter(Counter.State()) }))
  }
}

/// A parent whose state is an enum, one case run by `ifCaseLet`.
@Reducer
struct CaseParent {
  enum State {
    case counter(Counter.State)
    case idle
  }

  enum Action {
    case start
    case counter(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .start = action { state = .counter(Counter.State()) }
      return .none
    }
    .ifCaseLet(\.counter, action: \.counter) { Counter() }
  }
}

/// A list-detail screen's parent: one item's detail, which is `Identifiable`, shown through a plain
/// `ifLet`. Once the detail has started work, each action passing the `ifLet` checks that the
/// parent left the same detail in place, since another id would end the first one's work.
@Reducer
struct DetailParent {
  @Reducer
  struct Detail {
    struct State: Identifiable {
      let id: Int
      var count = 0
    }

    enum Action {
      case increment
      case startWork
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .startWork:
          return .run { _ in try? await Task.sleep(for: .seconds(1_000_000)) }
        }
      }
    }
  }

  struct State {
    var detail: Detail.State? = Detail.State(id: 1)
  }

  enum Action {
    case detail(Detail.Action)
    case show(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .show(let id) = action { state.detail = Detail.State(id: id) }
      return .none
    }
    .ifLet(\.detail, action: \.detail) { Detail() }
  }
}

/// A parent showing a destination enum through a plain optional `ifLet`, as features did before
/// `@Presents`. Once the child has started work, each action passing the `ifLet` checks that the
/// parent left the same child in place, which for an enum is the same case.
@Reducer
struct PanelParent {
  struct State {
    var panel: DestParent.Destination.State? = .counter(Counter.State())
  }

  enum Action {
    case panel(DestParent.Destination.Action)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(\.panel, action: \.panel) { DestParent.Destination.body }
  }
}

/// A destination enum with an `Identifiable` child in one case: which detail it shows is part
/// of the child's identity, beside the case.
@Reducer
enum Sheet {
  case detail(DetailParent.Detail)
  case counter(Counter)
}

/// A parent showing ``Sheet`` through a plain optional `ifLet`. Once the detail has started
/// work, each action passing the `ifLet` checks that the parent left the same case and the same
/// detail in place.
@Reducer
struct SheetParent {
  struct State {
    var sheet: Sheet.State? = .detail(DetailParent.Detail.State(id: 1))
  }

  enum Action {
    case sheet(Sheet.Action)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifLet(\.sheet, action: \.sheet) { Sheet.body }
  }
}

import ComposableCore

// Features more than one test file of this target uses.

/// A row with a timer, used to show that cancellation ids are per instance.
struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var ticks = 0
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case stop
    case tick
    case restart
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start, .restart:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: action == .restart)
    case .stop:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

struct TickerList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
    var detail: Ticker.State?
  }

  @CasePathable
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Ticker>)
    case detail(Ticker.Action)
    case remove(id: Int)
    /// Shows the detail of a row, in place of the one shown.
    case showDetail(id: Int)
    case closeDetail
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .remove(let id):
        state.rows.remove(id: id)
        return .none
      case .showDetail(let id):
        state.detail = Ticker.State(id: id)
        return .none
      case .closeDetail:
        state.detail = nil
        return .none
      case .rows, .detail:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) { Ticker() }
    .ifLet(\.detail, action: \.detail) { Ticker() }
  }
}

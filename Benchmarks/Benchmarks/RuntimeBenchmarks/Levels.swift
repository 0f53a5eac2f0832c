import ComposableCore

// Generated: ten concrete levels of `ifLet` nesting, L1 (just above the counter) to L10.

/// Level 1 of the nesting benchmark.
struct L1: Reducer {
  struct State: Equatable {
    var count = 0
    var child: Counter.State? = Counter.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(Counter.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}

/// Level 2 of the nesting benchmark.
struct L2: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L1.State? = L1.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L1.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L1() }
  }
}

/// Level 3 of the nesting benchmark.
struct L3: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L2.State? = L2.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L2.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L2() }
  }
}

/// Level 4 of the nesting benchmark.
struct L4: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L3.State? = L3.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L3.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L3() }
  }
}

/// Level 5 of the nesting benchmark.
struct L5: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L4.State? = L4.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L4.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L4() }
  }
}

/// Level 6 of the nesting benchmark.
struct L6: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L5.State? = L5.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L5.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L5() }
  }
}

/// Level 7 of the nesting benchmark.
struct L7: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L6.State? = L6.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L6.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L6() }
  }
}

/// Level 8 of the nesting benchmark.
struct L8: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L7.State? = L7.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L7.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L7() }
  }
}

/// Level 9 of the nesting benchmark.
struct L9: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L8.State? = L8.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L8.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L8() }
  }
}

/// Level 10 of the nesting benchmark.
struct L10: Reducer {
  struct State: Equatable {
    var count = 0
    var child: L9.State? = L9.State()
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case child(L9.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.child, action: \.child) { L9() }
  }
}

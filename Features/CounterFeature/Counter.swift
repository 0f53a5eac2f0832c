import ComposableCore
import NumberFactClient

/// A counter with a timer that counts up every 1, 2 or 3 seconds, and a number fact about the
/// current count shown in an alert.
@Reducer
public struct Counter: Sendable {
  /// The counter screen.
  @ObservableState
  public struct State: Equatable {
    /// The count.
    public var count: Int
    /// Whether the timer is counting up.
    public var isTimerRunning: Bool
    // Set by the initialiser only: a default here would create the shared value first, with
    // the default, and the initialiser's value would then find it already there.
    /// How often the timer counts up: a preference, kept across launches.
    @Shared public var timerInterval: TimerInterval
    /// The number a fact is being fetched about, which the answer's alert names: the count may
    /// have moved on by the time it arrives.
    public var factNumber: Int?
    /// The fact, or the reason there is none.
    @Presents public var alert: AlertState<Action.Alert>?

    /// A counter, stopped, at `count`.
    public init(
      count: Int = 0,
      isTimerRunning: Bool = false,
      timerInterval: TimerInterval = .oneSecond,
      factNumber: Int? = nil,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.count = count
      self.isTimerRunning = isTimerRunning
      self._timerInterval = Shared(
        wrappedValue: timerInterval, .appStorage("counter.timerInterval"))
      self.factNumber = factNumber
      self.alert = alert
    }

    /// Whether a fact is being fetched; drives a spinner.
    public var isLoadingFact: Bool { factNumber != nil }
  }

  /// How often the timer counts up.
  public enum TimerInterval: Int, CaseIterable, Codable, Equatable, Sendable {
    /// Every second.
    case oneSecond = 1
    /// Every two seconds.
    case twoSeconds = 2
    /// Every three seconds.
    case threeSeconds = 3

    /// The interval as a duration.
    public var duration: Duration { .seconds(rawValue) }
  }

  /// What happens on the counter screen.
  public enum Action: Equatable, Codable {
    /// Adds one.
    case incrementButtonTapped
    /// Subtracts one.
    case decrementButtonTapped
    /// Sets the count back to zero.
    case resetButtonTapped
    /// Starts or stops the timer.
    case toggleTimerButtonTapped
    /// Chooses how often the timer counts up; a running timer restarts at the new interval.
    case timerIntervalSelected(TimerInterval)
    /// The timer fired.
    case timerTicked
    /// Asks for a fact about the current count.
    case factButtonTapped
    /// The fact, or why it could not be fetched.
    case factResponse(Result<String, NumberFactError>)
    /// The alert's buttons.
    case alert(PresentationAction<Alert>)

    /// The buttons of the fact alerts.
    @CasePathable
    public enum Alert: Equatable, Codable, Sendable {
      /// Fetches the fact again after a failure.
      case retryButtonTapped
    }
  }

  enum CancelID {
    case timer
    case fact
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.numberFact) var numberFact

  /// A counter reducer.
  public init() {}

  /// The counter's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none

      case .decrementButtonTapped:
        state.count -= 1
        return .none

      case .resetButtonTapped:
        state.count = 0
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        return state.isTimerRunning
          ? startTimer(every: state.timerInterval) : .cancel(id: CancelID.timer)

      case .timerIntervalSelected(let interval):
        state.$timerInterval.withLock { $0 = interval }
        return state.isTimerRunning ? startTimer(every: interval) : .none

      case .timerTicked:
        state.count += 1
        return .none

      case .factButtonTapped:
        state.factNumber = state.count
        return .run { [count = state.count] send in
          await send(.factResponse(.success(try await numberFact.fetch(count))))
        } catch: { error, send in
          await send(.factResponse(.failure(error as? NumberFactError ?? .offline)))
        }
        .cancellable(id: CancelID.fact, cancelInFlight: true)

      case .factResponse(.success(let fact)):
        let number = state.factNumber ?? state.count
        state.factNumber = nil
        state.alert = AlertState {
          TextState("Fact about \(number)")
        } message: {
          TextState(fact)
        }
        return .none

      case .factResponse(.failure(let error)):
        state.factNumber = nil
        state.alert = .failure(
          title: "Could not get a fact",
          message: TextState(error.errorDescription ?? "Something went wrong."),
          retry: .retryButtonTapped
        )
        return .none

      case .alert(.presented(.retryButtonTapped)):
        return .send(.factButtonTapped)

      case .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  /// Counts up every `interval`; a timer already running is replaced, so there is never more
  /// than one.
  private func startTimer(every interval: TimerInterval) -> Effect<Action> {
    .run { send in
      for await _ in clock.timer(interval: interval.duration) {
        await send(.timerTicked)
      }
    }
    .cancellable(id: CancelID.timer, cancelInFlight: true)
  }
}

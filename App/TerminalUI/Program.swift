import Observation
import Synchronization

/// Something that happened, in the order the loop handles it.
public enum TerminalEvent: Equatable, Sendable {
  /// A key was pressed.
  case key(KeyEvent)
  /// The terminal has a new size; the next drawing is at that size.
  case resized
  /// The program's tick interval passed (see ``TerminalProgram/tickInterval``).
  case tick
  /// Something the last drawing read has changed, such as a store's state.
  case changed
  /// SIGINT: asked to stop, as Ctrl-C does outside raw mode.
  case interrupted
  /// SIGTERM: asked to stop, by another process.
  case terminated
  /// SIGHUP: the terminal went away; nothing drawn is seen any more.
  case hungUp
  /// Standard input ended.
  case inputEnded
}

/// What the loop does after an event.
public enum TerminalStep: Equatable, Sendable {
  /// Draws, and waits for the next event.
  case `continue`
  /// Ends the loop without drawing again.
  case exit
}

/// A full-screen program: it handles one event at a time, then is drawn once. Its drawing runs
/// inside observation tracking, so a change to anything it read (a store's state) comes back as
/// ``TerminalEvent/changed``.
@MainActor
public protocol TerminalProgram: AnyObject {
  /// Handles one event; `.exit` ends the loop.
  func update(_ event: TerminalEvent) -> TerminalStep
  /// Draws the whole screen from the program's state.
  func draw(into screen: inout Screen)
  /// How often the program wants ``TerminalEvent/tick`` (a spinner, a countdown); `nil` for
  /// never. Read after every event.
  var tickInterval: Duration? { get }
}

extension TerminalProgram {
  /// No ticks.
  public var tickInterval: Duration? { nil }
}

/// One event loop: events in, one at a time, each handled by the program and followed by one
/// drawing. Keys, resizes, ticks, store changes and signals all arrive through ``send(_:)``, so
/// nothing draws outside the loop and every way of quitting ends it the same way.
@MainActor
public final class TerminalLoop<Program: TerminalProgram> {
  /// The program the loop runs.
  public let program: Program
  /// How many times the program has been drawn.
  public private(set) var drawCount = 0
  /// The last screen drawn.
  public private(set) var lastScreen: Screen?

  /// Where events are put in: keys, signals, and anything else from any thread.
  public nonisolated let inbox: TerminalInbox
  private let events: AsyncStream<TerminalEvent>
  private let clock: any Clock<Duration>

  /// A loop for `program`, whose ticks come from `clock`.
  public init(_ program: Program, clock: any Clock<Duration> = ContinuousClock()) {
    self.program = program
    self.clock = clock
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    self.events = events
    inbox = TerminalInbox(continuation)
  }

  /// Puts an event in the loop's queue; safe from any thread.
  public nonisolated func send(_ event: TerminalEvent) {
    inbox.send(event)
  }

  /// Draws, then handles events until the program exits or ``finish()`` is called.
  public func run(size: () -> (width: Int, height: Int), write: (Screen) -> Void) async {
    var ticker: (interval: Duration, task: Task<Void, Never>)?
    defer { ticker?.task.cancel() }
    func retick() {
      let wanted = program.tickInterval
      guard wanted != ticker?.interval else { return }
      ticker?.task.cancel()
      ticker = wanted.map { interval in
        (
          interval,
          Task { [inbox, clock] in
            while (try? await clock.sleep(for: interval)) != nil { inbox.send(.tick) }
          }
        )
      }
    }
    draw(size: size(), write: write)
    retick()
    for await event in events {
      // A change the last drawing already showed (it was made by the event before) is not
      // drawn again.
      if event == .changed, !inbox.isChangePending { continue }
      guard program.update(event) == .continue else { return }
      draw(size: size(), write: write)
      retick()
    }
  }

  /// Ends the loop after the events already queued.
  public nonisolated func finish() {
    inbox.finish()
  }

  private func draw(size: (width: Int, height: Int), write: (Screen) -> Void) {
    var screen = Screen(width: size.width, height: size.height)
    let inbox = inbox
    // Cleared before drawing: a change after this point is not on this screen, and queues
    // another drawing.
    inbox.changeDrawn()
    withObservationTracking {
      program.draw(into: &screen)
    } onChange: {
      // Told as the change begins, on whatever thread makes it: queue one redraw.
      inbox.changed()
    }
    drawCount += 1
    lastScreen = screen
    write(screen)
  }
}

/// The way into a loop's queue of events, from any thread.
public final class TerminalInbox: Sendable {
  private let continuation: AsyncStream<TerminalEvent>.Continuation
  // Set by a change, cleared as a drawing begins. While set, a `.changed` is in the queue: a
  // burst of changes is drawn once, and a `.changed` that finds it clear was already drawn.
  private let changeQueued = Atomic(false)

  init(_ continuation: AsyncStream<TerminalEvent>.Continuation) {
    self.continuation = continuation
  }

  /// Queues an event.
  public func send(_ event: TerminalEvent) {
    continuation.yield(event)
  }

  /// Ends the queue after the events already in it.
  public func finish() {
    continuation.finish()
  }

  /// Queues `.changed` unless one is already waiting.
  func changed() {
    if !changeQueued.exchange(true, ordering: .acquiringAndReleasing) { send(.changed) }
  }

  /// Whether a change has been made since the last drawing began.
  var isChangePending: Bool {
    changeQueued.load(ordering: .acquiring)
  }

  /// A drawing begins: it shows every change made so far.
  func changeDrawn() {
    changeQueued.store(false, ordering: .releasing)
  }
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pipe through which signals reach the main queue: the handler writes the signal's number,
/// about all a signal handler may safely do, and a read source on the main queue acts on it.
/// libdispatch's signal sources lost signals here, under load: one that came while a source was
/// being registered was ignored, and some that came later never reached the handler (Linux gives
/// a process-wide signal to any thread not blocking it; libdispatch forwards it to the thread that
/// registered the source, which need not be the one reading its signalfd). `start` creates the
/// pipe before installing the handler, which then only reads it.
private let signalPipe: (read: Int32, write: Int32) = {
  var ends: [Int32] = [-1, -1]
  guard pipe(&ends) == 0 else { return (-1, -1) }
  for end in ends {
    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
  }
  return (ends[0], ends[1])
}()

/// Runs on whatever thread the kernel picks, interrupting it.
private func forwardSignal(_ number: Int32) {
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(signalPipe.write, &byte, 1)
  errno = saved
}

/// The controlling terminal: raw mode, the alternate screen, its size, and always putting it
/// back as it was — on a normal exit, an error, SIGINT or SIGTERM (which reach the program as
/// events, so that it can finish its work first).
public final class Terminal: @unchecked Sendable {
  // Mutable state is touched only from the main queue, where the app runs and where the signals
  // are acted on.
  private let input: Int32
  private let output: Int32
  private var original = termios()
  private var isRaw = false
  private var signalSource: (any DispatchSourceRead)?
  private var originalActions: [Int32: sigaction] = [:]

  private static let handledSignals = [SIGWINCH, SIGINT, SIGTERM, SIGHUP]

  /// The sequences written when leaving: show the cursor, leave the alternate screen.
  public static let restoreSequence = "\u{1B}[?25h\u{1B}[?1049l"
  /// The sequences written when entering: alternate screen, hide the cursor, clear.
  public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J"

  /// The terminal on standard input and output.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// Whether standard input and output are a terminal.
  public var isInteractive: Bool {
    isatty(input) == 1 && isatty(output) == 1
  }

  /// The size in columns and rows, or 80×24 when the terminal does not say.
  public var size: (width: Int, height: Int) {
    var window = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
      return (80, 24)
    }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// Why this terminal cannot be drawn on full-screen, or `nil` when it can: both ends must be
  /// a terminal, and `TERM` must name one with cursor addressing (not unset, not `dumb`).
  public func fullScreenProblem(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TerminalError? {
    guard isInteractive else { return .notATerminal }
    let term = environment["TERM"] ?? ""
    guard !term.isEmpty, term != "dumb" else { return .noCursorAddressing(term: term) }
    return nil
  }

  /// Runs `program` full-screen until it exits: raw mode and the alternate screen while it runs,
  /// keys, resizes, SIGINT and SIGTERM as events of one ``TerminalLoop``, and the terminal given
  /// back however the loop ends. Returns the loop, to read what the program last drew.
  @MainActor
  @discardableResult
  public func run<Program: TerminalProgram>(_ program: Program, color: Bool)
    async throws(TerminalError) -> TerminalLoop<Program>
  {
    if let problem = fullScreenProblem() { throw problem }
    let loop = TerminalLoop(program)
    let inbox = loop.inbox
    try start { signal in
      switch signal {
      case SIGWINCH: inbox.send(.resized)
      case SIGINT: inbox.send(.interrupted)
      case SIGTERM: inbox.send(.terminated)
      case SIGHUP: inbox.send(.hungUp)
      default: break
      }
    }
    defer { stop() }
    let bytes = inputBytes()
    let input = Task {
      var decoder = KeyDecoder()
      for await chunk in bytes {
        for key in decoder.keys(in: chunk) { inbox.send(.key(key)) }
      }
      inbox.send(.inputEnded)
    }
    defer { input.cancel() }
    await loop.run(size: { size }, write: { write($0.ansi(color: color)) })
    return loop
  }

  /// Enters raw mode and the alternate screen; `onSignal` runs on the main queue for SIGWINCH,
  /// SIGINT, SIGTERM and SIGHUP, which no longer end the process: the loop decides.
  private func start(onSignal: @escaping @Sendable (Int32) -> Void) throws(TerminalError) {
    guard tcgetattr(input, &original) == 0 else { throw .notATerminal }
    guard signalPipe.read >= 0 else { throw .signalsUnavailable }
    // The handlers are in place before the terminal changes, so that no signal finds it changed
    // and unhandled; one that comes before the read source is registered waits in the pipe.
    let source = DispatchSource.makeReadSource(fileDescriptor: signalPipe.read, queue: .main)
    source.setEventHandler {
      var byte: UInt8 = 0
      while Glibc.read(signalPipe.read, &byte, 1) == 1 {
        onSignal(Int32(byte))
      }
    }
    source.resume()
    signalSource = source
    for number in Self.handledSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { forwardSignal($0) }
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      var previous = sigaction()
      sigaction(number, &action, &previous)
      originalActions[number] = previous
    }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      releaseSignals()
      throw .notATerminal
    }
    isRaw = true
    write(Self.enterSequence)
  }

  /// Leaves the alternate screen, restores the terminal's settings, and gives the signals back
  /// the handling they had. Safe to call twice.
  public func stop() {
    guard isRaw else { return }
    isRaw = false
    write(Self.restoreSequence)
    tcsetattr(input, TCSAFLUSH, &original)
    releaseSignals()
  }

  private func releaseSignals() {
    for (number, var action) in originalActions { sigaction(number, &action, nil) }
    originalActions.removeAll()
    signalSource?.cancel()
    signalSource = nil
  }

  deinit { stop() }

  /// Writes text as it is.
  public func write(_ text: String) {
    var data = Array(text.utf8)
    var offset = 0
    while offset < data.count {
      let written = data.withUnsafeMutableBytes {
        Glibc.write(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }

  /// The bytes typed, as they arrive; the sequence ends at end of input. A dispatch read source
  /// wakes only when input is ready, so no thread sits blocked in `read`.
  public func inputBytes() -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
      // A queue of its own, not a global one: on Linux the global queues are the threads Swift's
      // concurrency runs on, one per core, and effects that wait (a save waiting for another
      // process's file lock) held them all, so keys went unread until they ended.
      let queue = DispatchQueue(label: "composable.terminal-input")
      let source = DispatchSource.makeReadSource(fileDescriptor: input, queue: queue)
      source.setEventHandler { [weak self] in
        guard let self else { return continuation.finish() }
        let bytes = self.read()
        if bytes.isEmpty {
          continuation.finish()
        } else {
          continuation.yield(bytes)
        }
      }
      let reader = UncheckedSource(source: source)
      continuation.onTermination = { _ in reader.source.cancel() }
      source.resume()
    }
  }

  private struct UncheckedSource: @unchecked Sendable {
    // Unchecked: a dispatch source is thread-safe to cancel.
    let source: any DispatchSourceRead
  }

  /// Blocks until input arrives and returns the bytes; empty at end of input.
  public func read() -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = Glibc.read(input, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      return count > 0 ? Array(buffer.prefix(count)) : []
    }
  }
}

/// Why the interactive mode cannot start.
public enum TerminalError: Error, Equatable, Sendable {
  /// Standard input or output is not a terminal.
  case notATerminal
  /// The process could not open the pipe its signal handlers write to (out of descriptors).
  case signalsUnavailable
  /// `TERM` names no terminal that can move its cursor (unset, or `dumb`).
  case noCursorAddressing(term: String)
}

extension TerminalError: CustomStringConvertible {
  /// A sentence for the person at the terminal.
  public var description: String {
    switch self {
    case .notATerminal: "standard input and output must be a terminal"
    case .signalsUnavailable: "no file descriptor was left for signal handling"
    case .noCursorAddressing(let term):
      "this terminal (TERM=\(term.isEmpty ? "unset" : term)) cannot draw a full screen"
    }
  }
}

import Foundation
import Testing

@testable import TerminalUI

struct KeyDecoderTests {
  @Test func decodesKeysArrowsAndControls() {
    var decoder = KeyDecoder()
    let bytes: [UInt8] = [
      0x61, 0x0D, 0x09, 0x7F, 0x03, 0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x5B, 0x43, 0x1B,
      0x5B, 0x44, 0x1B, 0x5B, 0x5A,
    ]
    #expect(
      decoder.decode(bytes) == [
        .character("a"), .enter, .tab, .backspace, .control("c"), .up, .down, .right, .left,
        .backTab,
      ]
    )
  }

  @Test func decodesUTF8EvenWhenSplitAcrossReads() {
    var decoder = KeyDecoder()
    let bytes = Array("é€😀".utf8)
    var events: [KeyEvent] = []
    for byte in bytes { events += decoder.decode([byte]) }
    #expect(events == [.character("é"), .character("€"), .character("😀")])
  }

  @Test func aLoneEscapeIsEscapeOnceInputPauses() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.flush() == [.escape])
    #expect(decoder.decode([0x1B, 0x71]) == [.escape, .character("q")])
  }

  @Test func otherSequencesAreSkippedAndDeleteIsBackspace() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[3~\u{1B}[15~x".utf8)) == [.backspace, .character("x")])
  }
}

struct ScreenTests {
  @Test func linesAreClippedToTheWidthByColumns() {
    var screen = Screen(width: 10, height: 3)
    screen.put("héllo wörld, long line", row: 0)
    screen.put("short", row: 2)
    screen.put("ignored", row: 5)
    #expect(screen.text == "héllo wör…\n\nshort")
  }

  @Test func colourIsOnlyEmittedWhenAskedFor() {
    var screen = Screen(width: 8, height: 2)
    screen.put("title", row: 0, style: .inverse)
    #expect(!screen.ansi(color: false).contains("\u{1B}[7m"))
    #expect(screen.ansi(color: true).contains("\u{1B}[7mtitle   \u{1B}[0m"))
    #expect(screen.ansi(color: false).hasPrefix("\u{1B}[H\u{1B}[2Ktitle"))
  }

  @Test func aBoxIsCentredWithATitle() {
    var screen = Screen(width: 30, height: 7)
    screen.box(["Are you sure?", "[Yes] No"], title: "Delete")
    // The box is 24 wide (20 inside, the minimum) and sits at (30 - 24) / 2 = 3 columns in.
    #expect(
      screen.lines == [
        "",
        "   ┌─Delete───────────────┐",
        "   │ Are you sure?        │",
        "   │ [Yes] No             │",
        "   └──────────────────────┘",
        "",
        "",
      ]
    )
  }
}

struct TerminalInputTests {
  /// Keys are read at once while every thread Swift's concurrency runs on is taken by a task
  /// that waits (as effects waiting for another process's file lock do). On Linux those are the
  /// global dispatch queues' threads, which the reader shared: a key then waited about a second
  /// for dispatch to add a thread, long enough for the app to show an alert that took the key.
  @Test func keysAreReadWhileEveryConcurrencyThreadWaits() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (input, output) = (ends[0], ends[1])
    defer {
      close(input)
      close(output)
    }
    let terminal = Terminal(input: input, output: output)
    let keys = terminal.inputBytes()
    let threads = ProcessInfo.processInfo.activeProcessorCount
    let waiting = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
      Task.detached {
        waiting.signal()
        release.wait()
      }
    }
    // From a thread of its own, which lets the tasks go within seconds whatever happens, so that
    // a reader left waiting fails this test rather than hangs it.
    let readWhileWaiting = await withCheckedContinuation { continuation in
      Thread {
        // Tests running beside this one may hold threads of their own for a while: whether all
        // of these tasks got one or not, the threads are busy.
        let started = DispatchTime.now() + 3
        for _ in 0..<threads where waiting.wait(timeout: started) == .timedOut { break }
        _ = write(output, "q", 1)
        let deadline = DispatchTime.now() + .milliseconds(500)
        var unread: Int32 = 1
        while DispatchTime.now() < deadline {
          guard ioctl(input, UInt(FIONREAD), &unread) == 0, unread > 0 else { break }
          usleep(1_000)
        }
        for _ in 0..<threads { release.signal() }
        continuation.resume(returning: unread == 0)
      }.start()
    }
    #expect(readWhileWaiting)
    var iterator = keys.makeAsyncIterator()
    #expect(await iterator.next() == Array("q".utf8))
    withExtendedLifetime(terminal) {}
  }
}
